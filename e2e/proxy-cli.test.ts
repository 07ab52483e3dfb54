// `npm run proxy` as a process, stopped the ways a person and a CI job stop it: Ctrl-C
// to its process group in front of a reference server with defects (exit 1, the
// violations logged once each, the reports written), SIGTERM in front of the mock (exit
// 0) with --record: the dataset it writes, served by another mock with another seed,
// gives the recorded requests the same rows, and holds no fixture credential.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadFixtures } from '../fixtures/load.ts';
import { caseHeaders, SHOWN, type TrafficCase } from '../contract-tests/testing/traffic-cases.ts';
import { startReferenceServer } from '../contract-tests/reference-server/socket.ts';
import { loadSpec } from '../spec/load.ts';
import { mockOnSocket, REPO, stop } from './helpers.ts';
import { printed, watch } from '../testing/programs.ts';

const example = loadSpec().paths['/servers/find']!.get.responses['200'].content['application/json'].examples;
const ROW = Object.values<any>(example)[0].value.results[0] as Record<string, unknown>;

const CLI = join(REPO, 'contract-tests/proxy/cli.ts');
const children: ChildProcess[] = [];
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(children.map(stop));
  for (const c of closers) await c();
});

interface Proxy {
  child: ChildProcess;
  baseUrl: string;
  out: () => string;
  exit: Promise<number | null>;
}

/** The proxy in a process group of its own, as a terminal starts it; resolves once it listens. */
async function startCli(args: string[]): Promise<Proxy> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0', ...args], {
    cwd: REPO,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const program = watch(child);
  return { ...program, child, baseUrl: await printed(program, /Validation proxy on (\S+)/) };
}

async function send(baseUrl: string, c: TrafficCase): Promise<{ status: number; json: any }> {
  const res = await fetch(`${baseUrl}${c.path}`, {
    method: c.method,
    headers: caseHeaders(c),
    ...(c.body ? { body: JSON.stringify(c.body) } : {}),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json };
}

describe('the proxy as a process', () => {
  it('in front of a reference server with defects: each logged once with its repro; Ctrl-C writes the reports ' +
    'and exits 1', async () => {
    const defects = ['wrong-type', 'sql-500', 'auth-not-enforced'] as const;
    const server = await startReferenceServer([...defects]);
    closers.push(() => server.close());
    const reports = mkdtempSync(join(tmpdir(), 'proxy-reports-'));
    const proxy = await startCli(['--upstream', server.baseUrl, '--reports', reports]);
    for (const d of defects) for (let i = 0; i < 3; i++) await send(proxy.baseUrl, SHOWN[d]!.request);
    const report = (await (await fetch(`${new URL(proxy.baseUrl).origin}/__proxy/report`)).json()) as {
      verdict: string;
      causes: unknown[];
    };
    expect(report.verdict).toBe('failed');
    process.kill(-proxy.child.pid!, 'SIGINT');
    expect(await proxy.exit).toBe(1);
    for (const d of defects) {
      const { operation, judge } = SHOWN[d]!.seen;
      expect(
        proxy
          .out()
          .split('\n')
          .filter((l) => l.startsWith(`VIOLATION [${SHOWN[d]!.seen.level}] ${operation}  ${judge}: `)),
        d,
      ).toHaveLength(1);
    }
    expect(proxy.out()).toMatch(/repro: curl -i 'http:\/\/127\.0\.0\.1:\d+\/api\/v0\.1\/servers\/find\?limit=abc'/);
    expect(proxy.out()).toMatch(/^FAILED: \d+ checks run, \d+ failed \(\d+ causes?\)/m);
    const json = JSON.parse(readFileSync(join(reports, 'proxy-report.json'), 'utf8')) as {
      verdict: string;
      exitCode: number;
      checks: { result: string; why?: string }[];
    };
    expect(json).toMatchObject({ verdict: 'failed', exitCode: 1 });
    expect(
      json.checks.find((c) => c.result === 'fail' && /\(3 of 3 answers judged break it/.test(c.why ?? '')),
    ).toBeDefined();
    expect(readFileSync(join(reports, 'proxy-junit.xml'), 'utf8')).toMatch(
      /<testsuites name="proxy" tests="\d+" failures="[1-9]/,
    );
    expect(existsSync(join(reports, 'proxy-summary.md'))).toBe(true);
  }, 60_000);

  it('in front of the mock with --record: no violation, SIGTERM exits 0; another mock serving the file gives the ' +
    'recorded requests the same rows', async () => {
    const mock = await mockOnSocket({ seed: 11, servers: 600 });
    closers.push(() => mock.close());
    const dir = mkdtempSync(join(tmpdir(), 'proxy-record-'));
    const file = join(dir, 'recorded.json');
    const proxy = await startCli(['--upstream', mock.baseUrl, '--record', file, '--reports', dir]);
    const searches: TrafficCase[] = [
      { method: 'GET', path: '/servers/find' },
      { method: 'GET', path: '/servers/find?limit=15&sort=users' },
      { method: 'GET', path: '/servers/find?limit=10&sort=version&region=EU', credential: 'valid-key' },
      { method: 'GET', path: '/servers/find?limit=10&favicon=true&minUsers=3' },
      { method: 'GET', path: '/servers/find?limit=10&noFilter=true&maxAge=3650&sort=address' },
      ...[1, 2, 3].map((page) => ({ method: 'GET', path: `/servers/find?limit=8&sort=port&page=${page}` })),
    ];
    const answered = new Map<string, unknown>();
    for (const c of searches) answered.set(c.path, (await send(proxy.baseUrl, c)).json.results);
    const [a, b] = answered.get('/servers/find?limit=15&sort=users') as { address: string; port: number }[];
    const pings: TrafficCase[] = [
      { method: 'GET', path: `/status/ping/${a!.address}:${a!.port}` },
      { method: 'GET', path: `/status/ping/${b!.address}/${b!.port}` },
    ];
    for (const c of pings) answered.set(c.path, (await send(proxy.baseUrl, c)).json.server);
    // Credentials and private answers go through too, and must not reach the file.
    for (const c of [
      { method: 'GET', path: '/user/apikeys', credential: 'valid-session' },
      { method: 'GET', path: '/user/apikeys', credential: 'valid-key' },
      { method: 'GET', path: '/metadata/versions?limit=5' },
    ] as TrafficCase[]) {
      expect((await send(proxy.baseUrl, c)).status).toBe(200);
    }
    proxy.child.kill('SIGTERM');
    expect(await proxy.exit, proxy.out()).toBe(0);
    expect(proxy.out()).not.toMatch(/VIOLATION/);
    expect(proxy.out()).toMatch(/^PASSED: \d+ checks run, 0 failed/m);

    const text = readFileSync(file, 'utf8');
    for (const c of loadFixtures().credentials) expect(text).not.toContain(c.value);
    expect(text).not.toMatch(/sls_session|Authorization|Bearer|apikeys/i);
    const recorded = JSON.parse(text) as {
      recordedAt: string;
      servers: { address: string; last_ping: string }[];
      requests: { path: string }[];
    };
    expect(recorded.requests.map((r) => r.path)).toEqual(
      [...searches, ...pings].map((c) => `/api/v0.1${c.path}`).concat('/api/v0.1/metadata/versions?limit=5'),
    );

    // Another mock, another seed, its clock at the moment recorded: the same rows, byte for byte.
    const replay = await mockOnSocket({ data: file, seed: 4242, now: Date.parse(recorded.recordedAt) });
    closers.push(() => replay.close());
    for (const c of [...searches, ...pings]) {
      const got = await send(replay.baseUrl, c);
      expect(got.status, c.path).toBe(200);
      expect(c.path.startsWith('/status/') ? got.json.server : got.json.results, c.path).toEqual(answered.get(c.path));
    }
    // A year later by its clock: the same rows in the same order, every time a year later (ages kept).
    const year = 365 * 86_400_000;
    const later = await mockOnSocket({ data: file, now: Date.parse(recorded.recordedAt) + year });
    closers.push(() => later.close());
    const before = answered.get('/servers/find?limit=15&sort=users') as { address: string; last_ping: string }[];
    const after = (await send(later.baseUrl, { method: 'GET', path: '/servers/find?limit=15&sort=users' })).json
      .results as typeof before;
    expect(after.map((r) => r.address)).toEqual(before.map((r) => r.address));
    expect(
      after.map((r) => Date.parse(r.last_ping) - Date.parse(before.find((x) => x.address === r.address)!.last_ping)),
    ).toEqual(after.map(() => year));
  }, 90_000);
});

describe('the proxy as a process, whatever happens at exit', () => {
  it('a row with an age no date can hold, the last reports kept until new ones exist, rows spooled as they come: ' +
    'every report and the recording at exit (1: a violation); a forged line from the upstream stays inside its ' +
    'own', async () => {
    const detail = 'Internal Server Error\n::warning::forged\nPASSED: 1 checks run, 0 failed';
    const upstream = createServer((req, res) => {
      const limits = { 'X-RateLimit-Limit': '20', 'X-RateLimit-Remaining': '19', 'X-RateLimit-Reset': '1795456260' };
      if (req.url!.includes('/user/')) {
        res.writeHead(500, { 'Content-Type': 'text/plain', ...limits }).end(detail);
        return;
      }
      const results = [
        { ...ROW, address: 'old.example', port: 1, last_ping: '99999999999999999999 years ago' },
        { ...ROW, address: 'new.example', port: 2, last_ping: '2 hours ago' },
      ];
      res
        .writeHead(200, { 'Content-Type': 'application/json', ...limits })
        .end(JSON.stringify({ displayed: 2, total: 2, results }));
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => upstream.close(() => r())));
    const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/api/v0.1`;
    const dir = mkdtempSync(join(tmpdir(), 'proxy-exit-'));
    const old = join(dir, 'proxy-report.json');
    writeFileSync(old, '{"verdict":"the last run"}');
    const file = join(dir, 'recorded.json');
    const proxy = await startCli(['--upstream', base, '--record', file, '--reports', dir]);
    expect((await fetch(`${proxy.baseUrl}/servers/find?relativeTime=true&limit=2`)).status).toBe(200);
    expect((await fetch(`${proxy.baseUrl}/user/apikeys`, { headers: { authorization: 'Bearer null' } })).status).toBe(
      500,
    );
    // While it runs: the last run's report is still there, and the rows are on disk already.
    await fetch(`${new URL(proxy.baseUrl).origin}/__proxy/report`);
    expect(readFileSync(old, 'utf8')).toContain('the last run');
    const spool = readdirSync(dir).find((f) => f.endsWith('.spool'));
    expect(spool && statSync(join(dir, spool)).size).toBeGreaterThan(0);
    proxy.child.kill('SIGTERM');
    const code = await proxy.exit;
    const out = proxy.out();
    expect(out).toMatch(/Recorded 2 servers from 1 answers/);
    for (const f of ['proxy-report.json', 'proxy-junit.xml', 'proxy-summary.md', 'proxy-report.html'])
      expect(statSync(join(dir, f)).size, f).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(old, 'utf8')).verdict).toBe('failed');
    expect(code).toBe(1);
    const recorded = JSON.parse(readFileSync(file, 'utf8')) as { servers: Record<string, unknown>[] };
    const marked = recorded.servers.find((s) => s.address === 'old.example')!;
    expect(marked.last_ping).toBe('99999999999999999999 years ago');
    expect(marked['x-breaks-spec']).toBeDefined();
    expect(readdirSync(dir).filter((f) => f.endsWith('.spool') || f.endsWith('.tmp'))).toEqual([]);
    // The upstream's newlines never start a line of the proxy's own.
    expect(out.split('\n').filter((l) => /^(::warning::|PASSED)/.test(l))).toEqual([]);
  }, 60_000);
});
