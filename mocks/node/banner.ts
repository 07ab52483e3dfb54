// What `npm run mock` prints at start: where the mock is (every usable URL), its docs,
// what it serves, and commands to paste. Every command is alone on its line, so a
// triple-click and paste runs exactly one (a trailing `# ...` says what it is).
import { relative } from 'node:path';
import { ownPackage } from '../../cli/own-package.ts';
import { credentialHeaders } from '../../spec/model.ts';
import type { Progress } from './load.ts';
import { serverAt } from '../dataset/columns.ts';
import { DOCS_PATH } from '../docs-page/docs-page.ts';
import type { MockOptions } from './options.ts';
import type { RunningMock } from './server.ts';

const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export function banner(running: RunningMock, options: MockOptions, ms: number): string {
  const { origin, origins, baseUrl, mock } = running;
  const { fixtures, index, model, source: from } = mock.state;
  const base = mock.basePath;
  const clock = options.now !== undefined ? `pinned at ${new Date(options.now).toISOString()}` : 'real time';
  const source = options.data
    ? `loaded from ${options.data}`
    : `generated, seed ${options.seed}, ` +
      (options.cleanData ? 'complete rows (--clean-data)' : 'with real-world nulls (--clean-data for complete rows)');
  const snap = from?.kind === 'generated' ? from.snapshot : undefined;
  const lines = [`Mock listening on ${baseUrl}`];
  for (const other of origins.slice(1)) lines.push(`  also on:     ${other}${base}`);
  lines.push(
    `  docs:        ${origin}${DOCS_PATH}  (the spec: ${origin}/__mock/openapi.yaml)`,
    `  servers:     ${index.size} (${source}), clock ${clock}, ready in ${ms} ms`,
    `  version:     ${ownPackage().name} ${ownPackage().version}`,
    ...(snap
      ? [`  snapshot:    ${snap.hit ? 'loaded from' : 'written to'} ${snap.file} (--cache-dir off to skip)`]
      : []),
    `  rate limits: ${
      options.rateLimit ? 'enforced (429 with Retry-After)' : 'reported in headers, not enforced (--rate-limit)'
    }`,
    `  CORS:        ${options.corsOrigins.join(', ')} (with credentials); ` +
      "add a page's origin with --cors-origin +http://host:port",
    ...(options.consumer !== undefined
      ? [
          `  usage:       what ${options.consumer} sends is counted: ${origin}/__mock/usage` +
            (options.usageOut !== undefined ? `, written to ${options.usageOut} on exit` : ''),
        ]
      : []),
  );
  const first = index.size > 0 ? serverAt(index.dataset, 0) : undefined;
  lines.push(
    '',
    'Try it:',
    `  curl ${q(`${baseUrl}/servers/find?limit=2`)}`,
    `  curl ${q(`${baseUrl}/status/ping/${first ? `${first.address}:${first.port}` : 'example.org'}`)}`,
    '',
    `Fixture credentials (${relative(process.cwd(), options.fixtures)}; fake, for this mock only), ` +
      'with what GET /user/apikeys answers:',
  );
  const width = Math.max(...fixtures.credentials.map((c) => c.name.length));
  for (const cred of fixtures.credentials) {
    const auth = Object.entries(credentialHeaders(model.schemes.get(cred.type)!, cred.value))
      .map(([k, v]) => `-H ${q(`${k}: ${v}`)}`)
      .join(' ');
    lines.push(`  curl ${auth} ${baseUrl}/user/apikeys   # ${cred.name.padEnd(width)} ${cred.expect}`);
  }
  lines.push(
    '',
    'Browser login (sets the session cookie), logout, reset to the seeded state:',
    `  curl -i -X POST ${origin}/__mock/login -H 'Content-Type: application/json' ` +
      `-d ${q(JSON.stringify({ user: fixtures.users[0]?.email ?? '' }))}`,
    `  curl -X POST ${origin}/__mock/logout`,
    `  curl -X POST ${origin}/__mock/reset`,
    '',
    'Requests (method path status time) follow; Ctrl-C stops.',
  );
  return lines.join('\n');
}

/**
 * Prints loading progress of a big dataset on `out` (stderr): the generation's percent
 * (one line rewritten in place on a terminal, a line per tenth otherwise, for CI logs)
 * and each step. Loading that is over within a second prints nothing, except where a
 * snapshot was written (where the disk space went) or why it could not be.
 */
export function progressPrinter(out: NodeJS.WriteStream): (p: Progress) => void {
  let lastTenth = -1;
  let percentShown = false;
  const held: string[] = [];
  const say = (text: string, ms: number): void => {
    if (ms < 1000) {
      held.push(text);
      return;
    }
    if (percentShown && out.isTTY) out.write('\n');
    percentShown = false;
    for (const line of held.splice(0)) out.write(`${line}\n`);
    out.write(`${text}\n`);
  };
  // Said however fast the load was, after what a slow load has to say first.
  const always = (text: string, ms: number): void => {
    if (ms >= 1000) say(text, ms);
    else out.write(`${text}\n`);
  };
  return (p) => {
    switch (p.phase) {
      case 'snapshot-read':
        return say(`loaded the servers from the snapshot ${p.file} in ${Math.round(p.ms)} ms`, p.ms);
      case 'snapshot-miss':
        return say(`snapshot: ${p.why}; generating`, p.ms);
      case 'index':
        return say(`generated ${p.total} servers; sorting them for every sort key`, p.ms);
      case 'ready':
        return say(`${p.total} servers ready in ${Math.round(p.ms)} ms`, p.ms);
      case 'snapshot-write':
        return always(`snapshot of the servers written to ${p.file}: the next start with these flags loads it`, p.ms);
      case 'snapshot-failed':
        return always(`snapshot not written (${p.why}): the next start generates again`, p.ms);
      case 'generate': {
        if (p.ms < 1000) return;
        const pct = Math.floor((p.done / p.total) * 100);
        if (out.isTTY) {
          if (!percentShown) for (const line of held.splice(0)) out.write(`${line}\n`);
          out.write(`\rgenerating ${p.total} servers: ${pct}%`);
          percentShown = true;
        } else if (Math.floor(pct / 10) > lastTenth) {
          lastTenth = Math.floor(pct / 10);
          say(`generating ${p.total} servers: ${pct}%`, p.ms);
        }
      }
    }
  };
}
