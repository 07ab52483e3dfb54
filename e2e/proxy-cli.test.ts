// `npm run proxy` as a process, stopped the ways a person and a CI job stop it: Ctrl-C
// to its process group in front of a reference server with defects (exit 1, the
// violations logged once each, the reports written), SIGTERM in front of the mock (exit
// 0) with --record: the dataset it writes, served by another mock with another seed,
// gives the recorded requests the same rows, and holds no fixture credential.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadFixtures } from '../fixtures/load.ts';
import { caseHeaders, SHOWN, type TrafficCase } from '../contract-tests/testing/traffic-cases.ts';
import { startReferenceServer } from '../contract-tests/reference-server/socket.ts';
import { mockOnSocket, REPO, stop } from './helpers.ts';

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
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const look = setInterval(() => {
      const url = /Validation proxy on (\S+)/.exec(out)?.[1];
      if (url) {
        clearInterval(look);
        resolve(url);
      }
    }, 50);
    void exit.then(() => {
      clearInterval(look);
      reject(new Error(`the proxy exited: ${out}`));
    });
  });
  return { child, baseUrl, out: () => out, exit };
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
  it('in front of a reference server with defects: each logged once with its repro; Ctrl-C writes the reports and exits 1', async () => {
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

  it('in front of the mock with --record: no violation, SIGTERM exits 0; another mock serving the file gives the recorded requests the same rows', async () => {
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
