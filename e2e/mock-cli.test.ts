// `npm run mock` as a user meets it: a real process, its banner, its flags, its log,
// its curl lines run exactly as printed, and Ctrl-C.
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { generateServers } from '../mocks/dataset/generator.ts';
import { fixtures } from '../mocks/testing/test-app.ts';

const run = promisify(execFile);
const CLI = new URL('../mocks/node/cli.ts', import.meta.url).pathname;
const children: ChildProcessWithoutNullStreams[] = [];

afterEach(() => {
  for (const child of children.splice(0)) {
    try {
      // A detached npm group: whatever is left of it, even once npm itself is gone.
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }
});

interface Started {
  child: ChildProcessWithoutNullStreams;
  baseUrl: string;
  output: () => string;
  errors: () => string;
}

/**
 * Starts the CLI and resolves once it printed its URL (and, unless quiet, the whole banner).
 * `viaNpm` runs it exactly as a user does, `npm run mock` (build, then the bundle), in its
 * own process group so a test can Ctrl-C the group like a terminal does.
 */
function startCli(args: string[], env: Record<string, string> = {}, viaNpm = false): Promise<Started> {
  const child = viaNpm
    ? spawn('npm', ['run', 'mock', '--silent', '--', '--port', '0', ...args], { env: { ...process.env, ...env }, detached: true })
    : spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0', ...args], { env: { ...process.env, ...env } });
  children.push(child);
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const done = () => {
      const url = /Mock listening on (\S+)/.exec(out)?.[1];
      const complete = args.includes('--quiet') || out.includes('Ctrl-C stops');
      if (url && complete) resolve({ child, baseUrl: url, output: () => out, errors: () => err });
    };
    child.stdout.on('data', (d) => {
      out += d;
      done();
    });
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => reject(new Error(`mock exited ${code}: ${err}${out}`)));
  });
}

function exitOf(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.on('exit', (code) => resolve(code))));
}

async function runCli(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', CLI, ...args], { env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('npm run mock', () => {
  it('prints a banner whose curl lines work exactly as printed, logs each request and stops on Ctrl-C', async () => {
    const { child, baseUrl, output } = await startCli(['--servers', '50'], {}, true);
    const banner = output();
    expect(banner).toContain(`Mock listening on ${baseUrl}`);
    expect(banner).toMatch(/servers: +50 \(generated, seed 1337, with real-world nulls/);
    // One paste-ready command per line: a line that holds a command starts with it and holds only it.
    const commands = banner.split('\n').filter((l) => l.includes('curl '));
    for (const l of commands) {
      expect(l, l).toMatch(/^ {2}curl /);
      expect(l.split('curl ').length, l).toBe(2);
    }
    expect(banner).toContain(`docs:        ${new URL(baseUrl).origin}/__mock/docs`);
    expect((await fetch(`${new URL(baseUrl).origin}/__mock/docs`)).status).toBe(200);
    for (const cred of fixtures.credentials) {
      const line = commands.find((l) => new RegExp(`# ${cred.name} +${cred.expect}$`).test(l));
      expect(line, cred.name).toBeDefined();
      // Exactly as pasted (the trailing comment included), plus curl's own output options.
      const { stdout } = await run('bash', ['-c', line!.replace(/ {3}#/, ` -s -o /dev/null -w '%{http_code}'   #`)]);
      expect(Number(stdout), `${cred.name}: ${line}`).toBe(cred.expect);
    }
    const tryIt = banner.split('\n').filter((l) => l.trim().startsWith("curl '"));
    expect(tryIt.length).toBe(2);
    for (const l of tryIt) {
      const { stdout } = await run('bash', ['-c', `${l.trim()} -s -o /dev/null -w '%{http_code}'`]);
      expect(stdout, l).toBe('200');
    }
    const login = banner.split('\n').find((l) => l.includes('/__mock/login'))!.trim();
    const { stdout: loginOut } = await run('bash', ['-c', login]);
    expect(loginOut).toMatch(/Set-Cookie: sls_session=sess_test_/i);
    for (const route of ['logout', 'reset']) {
      const line = commands.find((l) => l.includes(`/__mock/${route}`))!;
      const { stdout } = await run('bash', ['-c', `${line} -s`]);
      expect(JSON.parse(stdout).success, line).toBe(true);
    }

    expect(output()).toMatch(/GET \/api\/v0\.1\/user\/apikeys 200 \d+\.\dms/);
    expect(output()).toMatch(/GET \/api\/v0\.1\/servers\/find\?limit=2 200 \d+\.\dms/);
    expect(output()).not.toContain(fixtures.credentials[0]!.value + '\nGET'); // keys are never in the request log
    process.kill(-child.pid!, 'SIGINT'); // Ctrl-C: the whole foreground group gets it
    await exitOf(child);
    expect(output()).toContain('SIGINT, stopping');
    await expect(fetch(`${baseUrl}/servers/find?limit=1`)).rejects.toThrow();
  });

  it('stops on SIGTERM to the npm process alone: requests in flight finish, then the port is free', async () => {
    const { child, baseUrl } = await startCli(['--quiet', '--servers', '20', '--latency', '800'], {}, true);
    const inFlight = fetch(`${baseUrl}/servers/find?limit=1`);
    await new Promise((r) => setTimeout(r, 200)); // the request is inside the mock, waiting out its latency
    process.kill(child.pid!, 'SIGTERM'); // npm's PID only, not its process group
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(res.headers.get('connection')).toBe('close');
    expect(await exitOf(child)).toBe(0);
    await expect(fetch(`${baseUrl}/servers/find?limit=1`)).rejects.toThrow();
  });

  it('gives byte-identical answers for the same seed and --now, and different ones for another seed', async () => {
    const args = ['--quiet', '--seed', '42', '--servers', '200', '--now', '2026-03-01T00:00:00Z'];
    const paths = ['/servers/find?limit=20', '/servers/find?sort=users&favicon=true&relativeTime=true&limit=50', '/metadata/versions', '/metadata/countries', '/metadata/regions'];
    const bodies = async (baseUrl: string) => Promise.all(paths.map(async (p) => (await fetch(baseUrl + p)).text()));
    const a = await startCli(args);
    const b = await startCli(args);
    const c = await startCli(['--quiet', '--servers', '200', '--now', '2026-03-01T00:00:00Z'], { MOCK_SEED: '43' });
    const [ba, bb, bc] = await Promise.all([bodies(a.baseUrl), bodies(b.baseUrl), bodies(c.baseUrl)]);
    expect(ba).toEqual(bb);
    expect(ba[0]).not.toEqual(bc[0]);
    const ping = JSON.parse(ba[0]!).results[0];
    const pa = await (await fetch(`${a.baseUrl}/status/ping/${ping.address}:${ping.port}`)).text();
    const pb = await (await fetch(`${b.baseUrl}/status/ping/${ping.address}/${ping.port}`)).text();
    expect(pa).toBe(pb);
  });

  it('serves a hand-edited --data file and names the bad record in one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slm-data-'));
    const file = join(dir, 'db.json');
    writeFileSync(file, JSON.stringify({ servers: generateServers({ seed: 7, count: 5, now: new Date() }) }));
    const { baseUrl, child } = await startCli(['--quiet', '--data', file]);
    const found = await (await fetch(`${baseUrl}/servers/find?noFilter=true&maxAge=3650`)).json();
    expect(found.total).toBe(5);
    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);

    const data = JSON.parse((await import('node:fs')).readFileSync(file, 'utf8'));
    data.servers[3].port = 'x';
    writeFileSync(file, JSON.stringify(data));
    const bad = await runCli(['--port', '0', '--data', file]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/servers\[3\].*port/);
  });

  it('--host 0.0.0.0 prints URLs a browser can open: the machine\'s addresses, loopback first, each answering', async () => {
    const { baseUrl, output } = await startCli(['--host', '0.0.0.0', '--servers', '20']);
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v0\.1$/);
    expect(output()).not.toContain('0.0.0.0');
    const also = [...output().matchAll(/^ {2}also on: +(\S+)$/gm)].map((m) => m[1]!);
    for (const url of [baseUrl, ...also]) expect((await fetch(`${url}/servers/find?limit=1`)).status, url).toBe(200);
  });

  it('a big dataset is generated once: the next start with the same flags loads its snapshot and serves the same bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slm-cache-'));
    const flags = ['--servers', '150000', '--seed', '9', '--now', '2026-03-01T00:00:00Z', '--cache-dir', dir];
    const page = async (baseUrl: string) => Buffer.from(await (await fetch(`${baseUrl}/servers/find?version=1.20*&sort=address&minUsers=3&page=4`)).arrayBuffer());
    const first = await startCli(flags);
    expect(first.errors()).toMatch(/^snapshot of the servers written to .*servers-[0-9a-f]+\.snap: the next start with these flags loads it$/m);
    expect(first.output()).toMatch(/snapshot: +written to /);
    const cold = await page(first.baseUrl);
    first.child.kill('SIGKILL');
    expect(readdirSync(dir).filter((f) => f.endsWith('.snap'))).toHaveLength(1);

    const second = await startCli(flags);
    expect(second.output()).toMatch(/snapshot: +loaded from .*servers-[0-9a-f]+\.snap/);
    expect(await page(second.baseUrl)).toEqual(cold);
    second.child.kill('SIGKILL');

    // Another clock is the same snapshot (ages are stored, not times); another seed is another one.
    const later = await startCli([...flags.slice(0, 4), '--now', '2026-04-01T00:00:00Z', '--cache-dir', dir]);
    expect(later.output()).toMatch(/snapshot: +loaded from/);
    later.child.kill('SIGKILL');
    const other = await startCli(['--servers', '150000', '--seed', '10', '--cache-dir', dir]);
    expect(other.output()).toMatch(/snapshot: +written to/);
    other.child.kill('SIGKILL');
    expect(readdirSync(dir).filter((f) => f.endsWith('.snap'))).toHaveLength(2);

    // --cache-dir off: nothing read or written; a small dataset: nothing on stderr.
    const off = await startCli(['--servers', '150000', '--seed', '9', '--cache-dir', 'off']);
    expect(off.output()).not.toMatch(/snapshot:/);
    const small = await startCli(['--servers', '1000', '--cache-dir', dir]);
    expect(small.errors()).toBe('');
  }, 120_000);

  it('--watch reloads the spec, --data and the fixtures on the same port; a broken edit keeps the last good version', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slm-watch-'));
    const spec = join(dir, 'openapi.yaml');
    const auth = join(dir, 'auth.json');
    const db = join(dir, 'db.json');
    copyFileSync(new URL('../spec/openapi.yaml', import.meta.url), spec);
    copyFileSync(new URL('../fixtures/auth.json', import.meta.url), auth);
    const rows = generateServers({ seed: 3, count: 5, now: new Date() });
    writeFileSync(db, JSON.stringify({ servers: rows }));
    const { baseUrl, output, errors } = await startCli(['--quiet', '--watch', '--spec', spec, '--fixtures', auth, '--data', db]);
    await expect.poll(output).toContain('mock: watching');
    const reloads = () => output().split('mock: reloaded').length - 1;
    const failures = () => errors().split('still serving the last good version').length - 1;
    const total = async () => (await (await fetch(`${baseUrl}/servers/find?noFilter=true&maxAge=3650`)).json()).total;
    expect(await total()).toBe(5);
    const login = await fetch(`${new URL(baseUrl).origin}/__mock/login`, { method: 'POST' });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;

    // The data: one more server. Same URL, and a data-only reload keeps the browser logged in.
    writeFileSync(db, JSON.stringify({ servers: [...rows, { ...rows[0], address: 'added.example.test' }] }));
    await expect.poll(reloads, { timeout: 15_000 }).toBe(1);
    expect(await total()).toBe(6);
    expect((await fetch(`${baseUrl}/user/apikeys`, { headers: { Cookie: cookie } })).status).toBe(200);

    // A broken data file: the error is printed, the last good data still answers.
    writeFileSync(db, '{"servers": [');
    await expect.poll(failures, { timeout: 15_000 }).toBe(1);
    expect(errors()).toMatch(/db\.json: not valid JSON/);
    expect(await total()).toBe(6);

    // The spec: an edited summary shows in the index; a broken spec keeps the last good one.
    const yaml = readFileSync(spec, 'utf8');
    writeFileSync(spec, yaml.replace('summary: Search the server listing', 'summary: Search the listing (edited)'));
    writeFileSync(db, JSON.stringify({ servers: rows }));
    await expect.poll(reloads, { timeout: 15_000 }).toBe(2);
    const index = await (await fetch(baseUrl)).json();
    expect(index.operations.find((o: any) => o.operationId === 'findServers').summary).toBe('Search the listing (edited)');
    expect(await total()).toBe(5);
    writeFileSync(spec, 'openapi: [');
    await expect.poll(failures, { timeout: 15_000 }).toBe(2);
    expect((await fetch(`${baseUrl}/servers/find?limit=1`)).status).toBe(200);
    writeFileSync(spec, yaml);
    await expect.poll(reloads, { timeout: 15_000 }).toBe(3);

    // The fixtures: a new key value works at once, the old one no longer does.
    const key = fixtures.credentials.find((c) => c.name === 'valid-key')!.value;
    const renewed = key.replace('a11ce', 'b22df');
    writeFileSync(auth, readFileSync(auth, 'utf8').replace(key, renewed));
    await expect.poll(reloads, { timeout: 15_000 }).toBe(4);
    expect((await fetch(`${baseUrl}/user/apikeys`, { headers: { Authorization: `Bearer ${renewed}` } })).status).toBe(200);
    expect((await fetch(`${baseUrl}/user/apikeys`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(401);
  }, 90_000);

  it('--help lists every flag with its environment variable', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    for (const flag of ['port', 'host', 'seed', 'now', 'servers', 'data', 'latency', 'rate-limit', 'cors-origin', 'quiet']) {
      expect(stdout).toMatch(new RegExp(`--${flag}\\b.*\\[MOCK_${flag.toUpperCase().replace('-', '_')}\\]`));
    }
  });

  it('refuses bad flags with a clear message and exit 2', async () => {
    for (const [args, message] of [
      [['--port', 'abc'], /--port must be an integer from 0 to 65535, got 'abc'/],
      [['--latency', '50-10'], /--latency must be MS or MIN-MAX/],
      [['--now', 'yesterday'], /--now must be an ISO 8601 time/],
      [['--bogus'], /unknown flag '--bogus'/],
    ] as const) {
      const { code, stderr } = await runCli([...args]);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toMatch(message);
    }
  });

  it('says which port is taken instead of crashing', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const { code, stderr } = await runCli(['--port', String(port)]);
      expect(code).toBe(1);
      expect(stderr).toContain(`port ${port} on 127.0.0.1 is in use`);
    } finally {
      blocker.close();
    }
  });
});
