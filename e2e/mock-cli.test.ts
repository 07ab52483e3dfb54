// `npm run mock` as a user meets it, where only a real process shows it: the banner's
// curl lines run exactly as printed, the request log, Ctrl-C and SIGTERM, exit codes.
// What the same code does in process (same seed, same bytes; --data; snapshots;
// --host 0.0.0.0; --watch; every flag's parsing) is tested beside it in mocks/node/.
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { generateServers } from '../mocks/dataset/generator.ts';
import { fixtures } from '../mocks/testing/test-app.ts';
import { createMock } from '../mocks/node/in-process.ts';
import { SERVING_V8_FLAGS } from '../mocks/node/serving-heap.ts';

const run = promisify(execFile);
const CLI = new URL('../mocks/node/cli.ts', import.meta.url).pathname;
/** The package's bin, as `npm pack` ships it: it runs dist/mock.mjs (`npm run build`). */
const BIN = new URL('../bin/server-listing-mock.mjs', import.meta.url).pathname;
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
function startCli(args: string[], env: Record<string, string> = {}, viaNpm: boolean | 'bin' = false): Promise<Started> {
  const child =
    viaNpm === 'bin'
      ? spawn(process.execPath, [BIN, '--port', '0', ...args], { env: { ...process.env, ...env }, detached: true })
      : viaNpm
        ? spawn('npm', ['run', 'mock', '--silent', '--', '--port', '0', ...args], {
            env: { ...process.env, ...env },
            detached: true,
          })
        : spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0', ...args], {
            env: { ...process.env, ...env },
          });
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
  return new Promise((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.on('exit', (code) => resolve(code)),
  );
}

async function runCli(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', CLI, ...args], {
      env: { ...process.env, ...env },
    });
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
    const login = banner
      .split('\n')
      .find((l) => l.includes('/__mock/login'))!
      .trim();
    const { stdout: loginOut } = await run('bash', ['-c', login]);
    expect(loginOut).toMatch(/Set-Cookie: sls_session=sess_test_/i);
    for (const route of ['logout', 'reset']) {
      const line = commands.find((l) => l.includes(`/__mock/${route}`))!;
      const { stdout } = await run('bash', ['-c', `${line} -s`]);
      expect(JSON.parse(stdout).success, line).toBe(true);
    }

    expect(output()).toMatch(/GET \/api\/v0\.1\/user\/apikeys 200 \d+\.\dms/);
    expect(output()).toMatch(/GET \/api\/v0\.1\/servers\/find\?limit=2 200 \d+\.\dms/);
    expect(output()).not.toContain(`${fixtures.credentials[0]!.value}\nGET`); // keys are never in the request log
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

  it('a bad --data file stops the start with exit 2, like every misuse, naming the record', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'slm-data-')), 'db.json');
    const servers = generateServers({ seed: 7, count: 5, now: new Date() });
    writeFileSync(file, JSON.stringify({ servers: servers.map((row, i) => (i === 3 ? { ...row, port: 'x' } : row)) }));
    const bad = await runCli(['--port', '0', '--data', file]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/servers\[3\].*port/);
  });

  it('a --data, --fixtures or --spec file that is not there exits 2, naming it', async () => {
    for (const flag of ['--data', '--fixtures', '--spec']) {
      const missing = await runCli(['--port', '0', '--servers', '10', flag, '/nonexistent/file.json']);
      expect(missing.code, flag).toBe(2);
      expect(missing.stderr, flag).toMatch(/^mock: cannot start: .*\/nonexistent\/file\.json/);
    }
  });

  it('--watch watches the inputs it was given once it listens', async () => {
    const { output } = await startCli(['--quiet', '--watch', '--servers', '10']);
    await expect
      .poll(output)
      .toMatch(/mock: watching .*openapi\.yaml, .*auth\.json; an edit reloads them on this port/);
  });

  it(
    '--data rows that the default maxAge hides are said at start, and in the journal of each search they are ' +
      'left out of',
    async () => {
      const db = join(mkdtempSync(join(tmpdir(), 'slm-old-')), 'db.json');
      const rows = generateServers({ seed: 3, count: 3, now: new Date() });
      rows[0]!.last_ping = new Date(Date.now() - 40 * 86_400_000).toISOString();
      writeFileSync(db, JSON.stringify({ servers: rows }));
      const { baseUrl, errors } = await startCli(['--quiet', '--data', db]);
      await expect
        .poll(errors)
        .toContain(
          `mock: ${db}: 1 of 3 servers were last seen more than 30 days before the mock's clock: findServers ` +
            `leaves them out unless the request gives maxAge (its default is 30)`,
        );
      await fetch(`${baseUrl}/servers/find?noFilter=true`);
      const journal = await (await fetch(`${new URL(baseUrl).origin}/__mock/requests`)).json();
      expect(journal.requests[0].hidden).toMatchObject({ parameter: 'maxAge', rows: 1 });
    },
  );

  it('--watch: an edit the moment the mock listens, before it says it watches, is not missed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slm-watch-'));
    const db = join(dir, 'db.json');
    const rows = generateServers({ seed: 3, count: 5, now: new Date() });
    writeFileSync(db, JSON.stringify({ servers: rows }));
    const { baseUrl, output } = await startCli(['--quiet', '--watch', '--data', db]);
    writeFileSync(db, JSON.stringify({ servers: rows.slice(0, 2) }));
    await expect.poll(output, { timeout: 15_000 }).toMatch(/mock: reloaded after a change to .*db\.json: 2 servers/);
    const found = await (await fetch(`${baseUrl}/servers/find?noFilter=true&maxAge=3650`)).json();
    expect(found.total).toBe(2);
  });

  it('--help prints the usage and every flag, and exits 0', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: npm run mock -- \[options\]/);
    expect(stdout).toMatch(/--port N\b.*\[MOCK_PORT\]/);
    expect(stdout).toMatch(/--version\b.*print the version/);
  });

  it('--version prints the package version and exits 0; the banner says it too', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(await runCli(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    const { output } = await startCli(['--servers', '10']);
    expect(output()).toContain(`  version:     server-listing-mock ${version}\n`);
  });

  it('serves with allocation-site pretenuring off, said at /__mock/info (a mock in process leaves it on)', async () => {
    const { baseUrl } = await startCli(['--quiet', '--servers', '10']);
    const info = (await (await fetch(`${new URL(baseUrl).origin}/__mock/info`)).json()) as { v8Flags: string[] };
    expect(info.v8Flags).toEqual([...SERVING_V8_FLAGS]);
    expect(info.v8Flags).toContain('--no-allocation-site-pretenuring');
    const mock = createMock({ servers: 1 });
    expect(
      ((await (await mock.fetch('http://mock.test/__mock/info')).json()) as { v8Flags: string[] }).v8Flags,
    ).toEqual([]);
    await mock.close();
  });

  it('refuses a bad flag with a clear message and exit 2', async () => {
    const { code, stderr } = await runCli(['--port', 'abc']);
    expect(code).toBe(2);
    expect(stderr.trim()).toBe("mock: --port must be an integer from 0 to 65535, got 'abc'");
    // A bad variable is named as the variable.
    const fromEnv = await runCli([], { MOCK_PORT: 'abc' });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr.trim()).toBe("mock: MOCK_PORT must be an integer from 0 to 65535, got 'abc'");
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

// Ctrl-C as a terminal sends it: SIGINT to the whole foreground process group. Through
// npm the mock gets it twice (the terminal's copy and npm's), within milliseconds.
describe('Ctrl-C with a slow answer in flight', () => {
  const SLOW = ['--quiet', '--servers', '20', '--latency', '1500'];
  const ctrlC = (child: ChildProcessWithoutNullStreams) => process.kill(-child.pid!, 'SIGINT');
  const inFlight = (baseUrl: string) =>
    fetch(`${baseUrl}/servers/find?limit=1`).then(async (res) => ({ status: res.status, body: await res.json() }));

  it.each([
    ['npm run mock', true],
    ['the bin (node bin/server-listing-mock.mjs, after npm run build)', 'bin'],
  ] as const)('%s: the request is answered, then the process exits and frees the port', async (_name, how) => {
    if (how === 'bin') await run('npm', ['run', 'build', '--silent']);
    const { child, baseUrl } = await startCli(SLOW, {}, how);
    const answer = inFlight(baseUrl);
    await new Promise((r) => setTimeout(r, 300)); // the request is inside the mock, waiting out its latency
    ctrlC(child);
    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(1);
    expect(await exitOf(child)).toBe(0);
    await expect(fetch(`${baseUrl}/servers/find?limit=1`)).rejects.toThrow();
  });

  it('npm run mock: a second Ctrl-C, pressed by a person, exits at once without waiting for the answer', async () => {
    const { child, baseUrl } = await startCli(SLOW, {}, true);
    const answer = inFlight(baseUrl);
    await new Promise((r) => setTimeout(r, 300));
    ctrlC(child);
    await new Promise((r) => setTimeout(r, 600)); // a person's second press, well after the first
    ctrlC(child);
    await expect(answer).rejects.toThrow();
    expect(await exitOf(child)).not.toBe(0);
  });
});
