// What `npm run mock` prints at start: where the mock is (every usable URL), its docs,
// what it serves, and commands to paste. Every command is alone on its line, so a
// triple-click and paste runs exactly one (a trailing `# ...` says what it is).
import { relative } from 'node:path';
import { credentialHeaders } from '../spec/model.ts';
import type { Progress } from './build.ts';
import { DOCS_PATH } from './docs.ts';
import type { MockOptions } from './options.ts';
import type { RunningMock } from './server.ts';

const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export function banner(running: RunningMock, options: MockOptions, ms: number): string {
  const { origin, origins, baseUrl, mock } = running;
  const { fixtures, servers, model } = mock.state;
  const base = mock.basePath;
  const clock = options.now !== undefined ? `pinned at ${new Date(options.now).toISOString()}` : 'real time';
  const source = options.data
    ? `loaded from ${options.data}`
    : `generated, seed ${options.seed}, ${options.cleanData ? 'complete rows (--clean-data)' : 'with real-world nulls (--clean-data for complete rows)'}`;
  const lines = [`Mock listening on ${baseUrl}`];
  for (const other of origins.slice(1)) lines.push(`  also on:     ${other}${base}`);
  lines.push(
    `  docs:        ${origin}${DOCS_PATH}  (the spec: ${origin}/__mock/openapi.yaml)`,
    `  servers:     ${servers.length} (${source}), clock ${clock}, ready in ${ms} ms`,
    `  rate limits: ${options.rateLimit ? 'enforced (429 with Retry-After)' : 'reported in headers, not enforced (--rate-limit)'}`,
    `  CORS:        ${options.corsOrigins.join(', ')} (with credentials); add a page's origin with --cors-origin +http://host:port`,
  );
  const first = servers[0];
  lines.push(
    '',
    'Try it:',
    `  curl ${q(`${baseUrl}/servers/find?limit=2`)}`,
    `  curl ${q(`${baseUrl}/status/ping/${first ? `${first.address}:${first.port}` : 'example.org'}`)}`,
    '',
    `Fixture credentials (${relative(process.cwd(), options.fixtures)}; fake, for this mock only), with what GET /user/apikeys answers:`,
  );
  const width = Math.max(...fixtures.credentials.map((c) => c.name.length));
  for (const cred of fixtures.credentials) {
    const auth = Object.entries(credentialHeaders(model.schemes.get(cred.type)!, cred.value)).map(([k, v]) => `-H ${q(`${k}: ${v}`)}`).join(' ');
    lines.push(`  curl ${auth} ${baseUrl}/user/apikeys   # ${cred.name.padEnd(width)} ${cred.expect}`);
  }
  lines.push(
    '',
    'Browser login (sets the session cookie), logout, reset to the seeded state:',
    `  curl -i -X POST ${origin}/__mock/login -H 'Content-Type: application/json' -d ${q(JSON.stringify({ user: fixtures.users[0]?.email ?? '' }))}`,
    `  curl -X POST ${origin}/__mock/logout`,
    `  curl -X POST ${origin}/__mock/reset`,
    '',
    'Requests (method path status time) follow; Ctrl-C stops.',
  );
  return lines.join('\n');
}

/**
 * Prints loading progress of a big dataset on `out` (stderr): one line rewritten in
 * place on a terminal, a line per tenth otherwise (a CI log).
 */
export function progressPrinter(out: NodeJS.WriteStream): (p: Progress) => void {
  let lastTenth = -1;
  return (p) => {
    if (p.phase === 'index') {
      out.write(`${out.isTTY ? '\r' : ''}generating ${p.total} servers: done; indexing them (sorting for every sort key)...\n`);
      return;
    }
    const pct = Math.floor((p.done / p.total) * 100);
    if (out.isTTY) out.write(`\rgenerating ${p.total} servers: ${pct}%`);
    else if (Math.floor(pct / 10) > lastTenth) {
      lastTenth = Math.floor(pct / 10);
      out.write(`generating ${p.total} servers: ${pct}%\n`);
    }
  };
}
