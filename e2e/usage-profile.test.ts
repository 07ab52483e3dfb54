// Usage profiles written by the programs that see a consumer's traffic (issue 32 item 2):
// the mock (`--consumer web --usage-out web.json`) and the validation proxy (the same
// flags), each stopped as a terminal or a CI job stops it, the file written whole on exit,
// merged with the one of the same consumer already there, another's refused at start.
// And the gate it is for: a frontend test run against the mock (the fixture app's own
// API client) writes the profile; `contract diff --fail-on breaking` weighed by it fails
// on a breaking change the run used, naming the recorded requests, and leaves one it never
// used a warning saying no recorded consumer uses it.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { jsYaml, loadSpec, SPEC_PATH } from '../spec/load.ts';
import { loadFixtures } from '../fixtures/load.ts';
import { readUsageProfile } from '../spec/usage-profile.ts';
import { mockOnSocket, REPO, stop } from './helpers.ts';
// @ts-expect-error: the fixture app is plain JavaScript, without declarations
import { createApi } from './fixture-app/api.js';
import { printed, watch, type Program } from '../testing/programs.ts';

const TSX = pathToFileURL(join(REPO, 'node_modules/tsx/dist/loader.mjs')).href;
const MOCK = join(REPO, 'mocks/node/cli.ts');
const PROXY = join(REPO, 'contract-tests/proxy/cli.ts');
const CONTRACT = join(REPO, 'contract-tests/cli.ts');
const children: ChildProcess[] = [];
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(children.map(stop));
  for (const c of closers) await c();
});

/** A program in a process group of its own (as a terminal starts it); resolves once `ready` shows a URL. */
async function start(cli: string, args: string[], ready: RegExp): Promise<Program & { url: string }> {
  const child = spawn(process.execPath, ['--import', TSX, cli, ...args], {
    cwd: REPO,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const program = watch(child);
  return { ...program, child, url: await printed(program, ready) };
}

const MOCK_FLAGS = ['--port', '0', '--quiet', '--servers', '50', '--cache-dir', 'off'];

/** The mock as a program, its API's base URL once it listens. */
const startMock = (args: string[]) => start(MOCK, [...MOCK_FLAGS, ...args], /Mock listening on (\S+)/);

/** The proxy as a program, its API's base URL once it listens. */
const startProxy = (args: string[]) => start(PROXY, ['--port', '0', ...args], /Validation proxy on (\S+)/);

/** A program run to its end. */
function run(cli: string, args: string[], cwd = REPO) {
  return spawnSync(process.execPath, ['--import', TSX, cli, ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
}

const secretsOf = () => loadFixtures().credentials.map((c) => c.value);

describe("the mock's --usage-out", () => {
  it('Ctrl-C writes the profile; a second run merges into it; no temporary file is left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'usage-mock-'));
    const file = join(dir, 'web.json');
    const [key, session] = ['valid-key', 'valid-session'].map(
      (n) => loadFixtures().credentials.find((c) => c.name === n)!,
    );
    for (const [round, signal] of [
      [1, 'SIGINT'],
      [2, 'SIGTERM'],
    ] as const) {
      const mock = await startMock(['--consumer', 'web', '--usage-out', file]);
      await fetch(`${mock.url}/servers/find?country=Germany&limit=5`);
      await fetch(`${mock.url}/user/apikeys`, { headers: { Authorization: `Bearer ${key!.value}` } });
      await fetch(`${mock.url}/user/apikeys`, { headers: { Cookie: `sls_session=${session!.value}` } });
      // To its process group, as a terminal's Ctrl-C (and npm's copy of it) arrives.
      process.kill(-mock.child.pid!, signal);
      expect(await mock.exit).toBe(0);
      const merged = round === 2 ? ', with the 3 already there' : '';
      expect(mock.out()).toContain(`mock: usage of web: 3 requests${merged} written to ${file}\n`);
      const profile = readUsageProfile(readFileSync(file, 'utf8'), file);
      expect(profile).toMatchObject({ consumer: 'web', recordedBy: 'mock', requests: 3 * round });
      expect(profile.operations.listApiKeys?.credentials).toEqual({ bearer: round, cookie: round });
      expect(profile.operations.findServers?.parameters.country?.requests).toBe(round);
      for (const secret of secretsOf()) expect(readFileSync(file, 'utf8')).not.toContain(secret);
    }
    expect(readdirSync(dir)).toEqual(['web.json']);
  });

  it("refuses at start a file that is another consumer's profile or none, and --usage-out without --consumer", () => {
    const dir = mkdtempSync(join(tmpdir(), 'usage-mock-'));
    const notes = join(dir, 'notes.json');
    writeFileSync(notes, '{"todo": 1}\n');
    const other = run(MOCK, [...MOCK_FLAGS, '--consumer', 'web', '--usage-out', notes]);
    expect(other.status).toBe(2);
    expect(other.stderr).toMatch(/^mock: --usage-out: .*notes\.json: not a usage profile .*never overwritten\)\n$/);
    expect(readFileSync(notes, 'utf8')).toBe('{"todo": 1}\n');
    const alone = run(MOCK, [...MOCK_FLAGS, '--usage-out', join(dir, 'web.json')]);
    expect(alone.status).toBe(2);
    expect(alone.stderr).toBe(
      'mock: --usage-out needs --consumer NAME: who the usage profile is of (e.g. --consumer web)\n',
    );
    const bad = run(MOCK, [...MOCK_FLAGS, '--consumer', 'web app']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^mock: --consumer must be who the usage profile is of, .*got 'web app'\n$/);
    expect(existsSync(join(dir, 'web.json'))).toBe(false);
  });
});

describe("the proxy's --usage-out", () => {
  it('live traffic becomes the profile, written on SIGTERM; GET /__proxy/usage is it so far', async () => {
    const upstream = await mockOnSocket({ servers: 30 });
    closers.push(() => upstream.close());
    const dir = mkdtempSync(join(tmpdir(), 'usage-proxy-'));
    const file = join(dir, 'app.json');
    const args = ['--upstream', upstream.baseUrl, '--reports', dir, '--consumer', 'app', '--usage-out', file];
    const proxy = await startProxy(args);
    const key = secretsOf()[0]!;
    await (await fetch(`${proxy.url}/servers/find?region=EU&limit=3&sort=users`)).text();
    await (await fetch(`${proxy.url}/user/apikeys`, { headers: { Authorization: `Bearer ${key}` } })).text();
    await (await fetch(`${proxy.url}/metadata/versions`)).text();
    const origin = new URL(proxy.url).origin;
    const sofar = await fetch(`${origin}/__proxy/usage`);
    expect(sofar.status).toBe(200);
    expect(readUsageProfile(await sofar.text(), '/__proxy/usage')).toMatchObject({ consumer: 'app', requests: 3 });
    process.kill(-proxy.child.pid!, 'SIGTERM');
    expect(await proxy.exit).toBe(0);
    expect(proxy.out()).toContain(`Usage of app: 3 requests written to ${file}\n`);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(key);
    const profile = readUsageProfile(text, file);
    expect(profile).toMatchObject({ consumer: 'app', recordedBy: 'proxy', requests: 3 });
    expect(profile.operations.findServers).toMatchObject({
      parameters: { sort: { values: { users: 1 } }, limit: { numbers: { min: 3, max: 3 } } },
      statuses: { 200: 1 },
    });
    expect(profile.operations.listApiKeys).toMatchObject({ credentials: { bearer: 1 }, statuses: { 200: 1 } });
  });

  it('--usage-out needs --consumer; without --consumer /__proxy/usage is not there', async () => {
    const alone = run(PROXY, ['--upstream', 'http://127.0.0.1:9/api/v0.1', '--usage-out', 'x.json']);
    expect(alone.status).toBe(2);
    expect(alone.stderr).toMatch(/^proxy: --usage-out needs --consumer <name>: who the usage profile is of/);
    const upstream = await mockOnSocket({ servers: 5 });
    closers.push(() => upstream.close());
    const dir = mkdtempSync(join(tmpdir(), 'usage-proxy-'));
    const proxy = await startProxy(['--upstream', upstream.baseUrl, '--reports', dir]);
    const res = await fetch(`${new URL(proxy.url).origin}/__proxy/usage`);
    expect(res.status).toBe(404);
    expect((await res.json()).message).toMatch(/with --consumer, GET \/__proxy\/usage$/);
    await stop(proxy.child);
  });
});

describe('the gate: a profile the mock wrote from a frontend test run weighs a spec change', () => {
  /** The spec with `edit` made, as a file. */
  function specCopy(dir: string, name: string, edit: (doc: any) => void): string {
    const doc = loadSpec();
    edit(doc);
    const file = join(dir, name);
    writeFileSync(file, jsYaml().dump(doc));
    return file;
  }
  const withoutParameter = (ref: string) => (d: any) => {
    const find = d.paths['/servers/find'].get;
    find.parameters = find.parameters.filter((p: any) => p.$ref !== ref);
  };

  it('a breaking change the run used fails it, naming the requests; one it never used is a warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'usage-gate-'));
    const profileFile = join(dir, 'web.json');
    // The frontend's test run: its own API client (plain fetch) against the mock's process.
    const mock = await startMock(['--consumer', 'web', '--usage-out', profileFile]);
    const api = createApi(new URL(mock.url).origin);
    await api.findServers({ country: 'Germany' });
    await api.findServers({ country: 'Austria', page: '2' });
    await api.findServers({ region: 'eu' });
    await expect(api.listKeys()).rejects.toMatchObject({ status: 401 });
    process.kill(-mock.child.pid!, 'SIGTERM');
    expect(await mock.exit).toBe(0);
    // What the mock's manual shows it saying.
    const manual = readFileSync(join(REPO, 'mocks/README.md'), 'utf8');
    const said = /^# (mock: usage of web: \d+ requests written to )\S+$/m.exec(manual)?.[1];
    expect(mock.out()).toContain(`${said}${profileFile}\n`);

    const base = join(dir, 'base.yaml');
    writeFileSync(base, readFileSync(SPEC_PATH, 'utf8'));
    const used = specCopy(dir, 'no-country.yaml', withoutParameter('#/components/parameters/countryFilter'));
    const unused = specCopy(dir, 'no-org.yaml', withoutParameter('#/components/parameters/org'));
    const gate = (head: string) =>
      run(CONTRACT, ['diff', '--base', base, '--head', head, '--usage', profileFile, '--fail-on', 'breaking'], dir);

    const broken = gate(used);
    expect(broken.stderr).toBe('');
    expect(broken.status).toBe(1);
    expect(broken.stdout).toContain('Weighed by usage: web 4 requests (recorded by mock)');
    expect(broken.stdout).toMatch(/^BREAKING request-parameter-removed .*query parameter country$/m);
    expect(broken.stdout).toContain('breaks clients; breaks 2 recorded requests of `web` (findServers with `country`)');

    const warned = gate(unused);
    expect(warned.stderr).toBe('');
    expect(warned.status).toBe(0);
    expect(warned.stdout).toMatch(/^WARNING {2}request-parameter-removed .*query parameter org$/m);
    expect(warned.stdout).toContain(
      'breaks clients; no recorded consumer uses it (4 recorded requests of `web`); so a warning, not breaking',
    );
  });
});
