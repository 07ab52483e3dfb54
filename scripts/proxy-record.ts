// `tsx scripts/proxy-record.ts [--servers N] [--favicon-bytes B]`: the validation proxy
// (as `npm run proxy` runs it: node with tsx, contract-tests/proxy/cli.ts) with
// `--record` in front of a big listing, paged through with favicons, then stopped with
// SIGTERM as a CI job stops it. Does it exit 0 with every report and the recording, and
// how much memory did it take? The upstream is the mock with a generated listing of N
// servers; with --favicon-bytes, a relay in front of it gives every row a favicon of
// that size (a valid PNG data URI, as real servers' icons are a few KiB), so the
// recording can be made bigger than any one string may be. The proxy's peak RSS is
// /usr/bin/time's "Maximum resident set size" (else its VmHWM, sampled). Prints one
// JSON line with the figures; exit 0 when the proxy exited 0 with every file.
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { programFlags, type FlagTable } from '../cli/flags.ts';
import { loadFixtures } from '../fixtures/load.ts';
import { FAVICONS } from '../mocks/dataset/favicons.ts';
import { startMock } from '../mocks/node/server.ts';
import { printed, watch } from '../testing/programs.ts';

const FLAGS = {
  servers: { type: 'integer', value: 'N', default: 100_000, min: 1, max: 5_000_000, help: 'servers in the listing' },
  limit: { type: 'integer', value: 'N', default: 500, min: 1, max: 500, help: 'rows per page' },
  'favicon-bytes': {
    type: 'integer',
    value: 'B',
    default: 0,
    min: 0,
    max: 1_000_000,
    help: "each row's favicon this many bytes (0: the mock's own, a few hundred)",
  },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
} as const satisfies FlagTable;

const opts = programFlags('proxy-record', 'tsx scripts/proxy-record.ts [options]', FLAGS);
const REPO = new URL('../', import.meta.url).pathname;
const KEY = loadFixtures().credentials.find((c) => c.name === 'valid-key')!.value;

/** A valid PNG (the mock's first icon) with `bytes` of padding after its end: decoders ignore them. */
function bigFavicon(bytes: number): string {
  const png = Buffer.from(FAVICONS[0]!.split(',')[1]!, 'base64');
  return (
    `data:image/png;base64,` +
    `${Buffer.concat([png, Buffer.alloc(Math.max(0, bytes - png.length), 7)]).toString('base64')}`
  );
}

/** The peak RSS of a process, sampled from /proc until it ends (when /usr/bin/time is not there). */
function sampleHwm(pid: number, into: { kib: number }): NodeJS.Timeout {
  return setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) into.kib = Math.max(into.kib, Number(m[1]));
    } catch {
      // gone
    }
  }, 100);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'proxy-record-'));
  const started = performance.now();
  // On a free port of loopback: a fixed one is taken whenever another mock runs beside it (CI, a developer's own).
  const mock = await startMock({
    port: 0,
    host: '127.0.0.1',
    servers: opts.servers,
    seed: 7,
    cacheDir: null,
    quiet: true,
  });
  let upstream = mock.baseUrl;
  let relay: ReturnType<typeof createServer> | undefined;
  if (opts.faviconBytes > 0) {
    const icon = bigFavicon(opts.faviconBytes);
    relay = createServer(async (req, res) => {
      const got = await fetch(`${mock.origin}${req.url}`, { headers: req.headers as Record<string, string> });
      const headers: Record<string, string> = {};
      got.headers.forEach((v, k) => {
        if (!/^(content-length|content-encoding|transfer-encoding|connection|keep-alive)$/.test(k)) headers[k] = v;
      });
      const body = (await got.json()) as { results?: { favicon?: unknown }[] };
      for (const r of body.results ?? []) r.favicon = icon;
      res.writeHead(got.status, headers).end(JSON.stringify(body));
    });
    await new Promise<void>((r) => relay!.listen(0, '127.0.0.1', r));
    upstream = `http://127.0.0.1:${(relay.address() as { port: number }).port}/api/v0.1`;
  }
  const generatedMs = performance.now() - started;

  const record = join(dir, 'recorded.json');
  const proxyArgs = [
    '--import',
    'tsx',
    join(REPO, 'contract-tests/proxy/cli.ts'),
    '--upstream',
    upstream,
    '--port',
    '0',
    '--record',
    record,
    '--reports',
    dir,
  ];
  const timed = existsSync('/usr/bin/time');
  const child = timed
    ? spawn('/usr/bin/time', ['-v', process.execPath, ...proxyArgs], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, proxyArgs, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  const proxy = watch(child);
  const base = await printed(proxy, /Validation proxy on (\S+)/);
  // The proxy itself: time's child, or the child.
  const proxyPid = timed
    ? Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/)[0])
    : child.pid!;
  const hwm = { kib: 0 };
  const sampler = sampleHwm(proxyPid, hwm);

  // Paged through, two pages at a time, with favicons and the key a paying caller has (500 rows a page).
  const pageMs = performance.now();
  let rows = 0;
  let bytes = 0;
  let pages = 0;
  const statuses = new Map<number, number>();
  const pageCount = Math.ceil(opts.servers / opts.limit);
  const fetchPage = async (page: number) => {
    const res = await fetch(
      `${base}/servers/find?limit=${opts.limit}&favicon=true&noFilter=true&maxAge=3650&sort=address&page=${page}`,
      { headers: { authorization: `Bearer ${KEY}` } },
    );
    const text = await res.text();
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    bytes += text.length;
    rows += (JSON.parse(text) as { results?: unknown[] }).results?.length ?? 0;
    pages++;
  };
  for (let page = 1; page <= pageCount; page += 2)
    await Promise.all([fetchPage(page), ...(page + 1 <= pageCount ? [fetchPage(page + 1)] : [])]);
  const pagedMs = performance.now() - pageMs;

  const stopAt = performance.now();
  process.kill(proxyPid, 'SIGTERM');
  const code = await proxy.exit;
  clearInterval(sampler);
  const stoppedMs = performance.now() - stopAt;
  const maxRss = /Maximum resident set size \(kbytes\): (\d+)/.exec(proxy.out())?.[1];
  const peakMiB = (maxRss ? Number(maxRss) : hwm.kib) / 1024;

  // The recording, counted a line at a time (it may be bigger than any one string).
  let recorded = 0;
  if (existsSync(record)) {
    for await (const line of createInterface({ input: createReadStream(record) }))
      if (line.startsWith('    {"address"')) recorded++;
  }
  const reports = ['proxy-report.json', 'proxy-junit.xml', 'proxy-summary.md', 'proxy-report.html'].filter((f) =>
    existsSync(join(dir, f)),
  );
  const verdict = existsSync(join(dir, 'proxy-report.json'))
    ? (JSON.parse(readFileSync(join(dir, 'proxy-report.json'), 'utf8')) as { verdict: string; summary: string }).summary
    : '-';
  const figures = {
    servers: opts.servers,
    faviconBytes: opts.faviconBytes,
    pages,
    rows,
    answeredMiB: +(bytes / 2 ** 20).toFixed(1),
    statuses: Object.fromEntries(statuses),
    exitCode: code,
    reports: reports.length,
    recordedServers: recorded,
    recordingMiB: existsSync(record) ? +(statSync(record).size / 2 ** 20).toFixed(1) : 0,
    proxyPeakRssMiB: +peakMiB.toFixed(0),
    peakFrom: maxRss ? '/usr/bin/time -v' : '/proc VmHWM sampled',
    generatedMs: Math.round(generatedMs),
    pagedMs: Math.round(pagedMs),
    stopMs: Math.round(stoppedMs),
    verdict,
  };
  console.log(JSON.stringify(figures));
  relay?.closeAllConnections();
  relay?.close();
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
  const ok = code === 0 && reports.length === 4 && recorded === rows && rows === opts.servers;
  if (!ok) console.error(`proxy-record: not as expected:\n${proxy.out().slice(-6000)}`);
  process.exit(ok ? 0 : 1);
}

void main();
