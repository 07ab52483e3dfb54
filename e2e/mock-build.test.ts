// `npm run mock` from a fresh clone, and what its build does ahead of a start (issue 24):
// the first run builds dist/ (the bundle, the spec parsed and its validators compiled,
// the default dataset generated), later runs start from it without building, and a
// changed source or spec builds again. A start from the build loads neither js-yaml, nor
// ajv, nor faker, and answers byte for byte what the sources answer; a start that needs
// them (another seed, another copy of the spec) loads them and answers by them.
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock } from '../mocks/node/in-process.ts';
import { REPO } from './helpers.ts';
import { NOW_ISO } from '../testing/instants.ts';

const clone = mkdtempSync(join(tmpdir(), 'slm-clone-'));
const running = new Set<number>();

// As a developer's shell runs it: not under vitest (whose variable turns
// the mock's self-check on, which compiles with ajv).
const SHELL_ENV = Object.fromEntries(
  Object.entries(process.env).filter(
    ([k]) => k !== 'VITEST' && k !== 'NODE_ENV' && !k.startsWith('MOCK_') && !k.startsWith('VITEST_'),
  ),
);

/** A program started in its own process group (as a terminal starts it), until it says where it listens. */
function start(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = SHELL_ENV,
): Promise<{ baseUrl: string; stderr: () => string; stop: () => Promise<void> }> {
  const child = spawn(command, args, { cwd: clone, detached: true, env });
  running.add(child.pid!);
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    // The whole group: npm, and the mock it runs.
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
    running.delete(child.pid!);
  };
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /Mock listening on (\S+)/.exec(out)?.[1];
      if (url) resolve({ baseUrl: url, stderr: () => err, stop });
    });
    child.once('exit', (code) => reject(new Error(`exited (${code}) before listening:\n${out}\n${err}`)));
  });
}

const npmRunMock = (...flags: string[]) =>
  start('npm', ['run', '--silent', 'mock', '--', '--port', '0', '--quiet', '--cache-dir', 'off', ...flags]);

// Records every module the process requires (the mock loads js-yaml, ajv and
// faker through require, only when it needs them).
const HOOK = join(clone, 'require-hook.cjs');
/** The built mock of the clone under the hook; resolves once it listens, `loaded()` after it stopped. */
async function builtMock(...flags: string[]) {
  const log = join(clone, `loaded-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  const mock = await start(
    process.execPath,
    ['--require', HOOK, join(clone, 'dist/mock.mjs'), '--port', '0', '--quiet', '--cache-dir', 'off', ...flags],
    { ...SHELL_ENV, LOADED_LOG: log },
  );
  return { ...mock, loaded: () => JSON.parse(readFileSync(log, 'utf8')) as string[] };
}
const packages = (loaded: string[]) =>
  new Set(loaded.filter((m) => !m.startsWith('.') && !m.startsWith('/') && !m.startsWith('node:')));

beforeAll(() => {
  // The clone: what git has (and what is new and not ignored), without dist/; its dependencies are the repository's.
  const files = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: REPO,
    encoding: 'utf8',
  })
    .stdout.split('\0')
    .filter(Boolean);
  for (const f of files) {
    try {
      mkdirSync(dirname(join(clone, f)), { recursive: true });
      cpSync(join(REPO, f), join(clone, f));
    } catch {
      // listed but deleted in the working tree
    }
  }
  symlinkSync(join(REPO, 'node_modules'), join(clone, 'node_modules'));
  writeFileSync(
    HOOK,
    `
const Module = require('node:module');
const load = Module._load;
const seen = new Set();
Module._load = function (request, ...rest) { seen.add(request); return load.call(this, request, ...rest); };
process.on('exit', () => require('node:fs').writeFileSync(process.env.LOADED_LOG, JSON.stringify([...seen])));
`,
  );
});

afterAll(() => {
  for (const pid of running) process.kill(-pid, 'SIGKILL');
  rmSync(clone, { recursive: true, force: true });
});

describe('npm run mock', () => {
  it('builds dist/ from a fresh clone, not on the next run, and again when an input changed, by content', async () => {
    const first = await npmRunMock();
    expect((await fetch(`${first.baseUrl}/servers/find?limit=1`)).status).toBe(200);
    await first.stop();
    expect(first.stderr()).toContain('mock: building dist/mock.mjs (it is not built yet)');
    const built = statSync(join(clone, 'dist/mock.mjs')).mtimeMs;

    const second = await npmRunMock();
    expect((await fetch(`${second.baseUrl}/servers/find?limit=1`)).status).toBe(200);
    await second.stop();
    expect(second.stderr()).not.toContain('building');
    expect(statSync(join(clone, 'dist/mock.mjs')).mtimeMs).toBe(built);

    // A file's time alone (a touch, a checkout that rewrote it the same): the same build.
    const now = new Date();
    utimesSync(join(clone, 'mocks/search/filters.ts'), now, now);
    const touched = await npmRunMock();
    await touched.stop();
    expect(touched.stderr()).not.toContain('building');

    // New content with an old time, as `cp -p`, `rsync -a` or `tar x` leave it, or a clock behind: rebuilt.
    const dayBefore = new Date(built - 86_400_000);
    for (const [file, edit] of [
      ['mocks/search/filters.ts', '\n// edited, its time kept\n'],
      ['spec/openapi.yaml', '\n# edited, its time kept\n'],
    ] as const) {
      writeFileSync(join(clone, file), readFileSync(join(clone, file), 'utf8') + edit);
      utimesSync(join(clone, file), dayBefore, dayBefore);
      const run = await npmRunMock();
      await run.stop();
      expect(run.stderr()).toContain(`mock: building dist/mock.mjs (${file} changed)`);
    }

    // A bundle other than the one the build recorded (an older one copied back): rebuilt.
    const bundle = join(clone, 'dist/mock.mjs');
    writeFileSync(bundle, `${readFileSync(bundle, 'utf8')}\n// another bundle\n`);
    utimesSync(bundle, new Date(built), new Date(built));
    const other = await npmRunMock();
    await other.stop();
    expect(other.stderr()).toContain('mock: building dist/mock.mjs (dist/mock.mjs is not the bundle that was built)');
  }, 180_000);
});

describe('a start from the build', () => {
  beforeAll(() => {
    // Built by the test above; alone, built here.
    if (statSync(join(clone, 'dist/mock.mjs'), { throwIfNoEntry: false })) return;
    const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-mock.ts'], {
      cwd: clone,
      encoding: 'utf8',
    });
    if (build.status !== 0) throw new Error(build.stderr);
  }, 120_000);
  const requests = [
    '/api/v0.1/servers/find?limit=20',
    '/api/v0.1/servers/find?version=1.20*&minUsers=5&sort=users&favicon=true',
    '/api/v0.1/servers/find?sort=address&page=7&limit=20&noFilter=true',
    '/api/v0.1/servers/find?limit=0',
    '/api/v0.1/metadata/versions',
    '/api/v0.1/metadata/countries',
    '/api/v0.1/status/ping/example.org',
  ];
  const answers = async (fetcher: (url: string) => Promise<Response>) => {
    const out = [];
    for (const path of requests) {
      const res = await fetcher(path);
      out.push({ path, status: res.status, body: await res.text() });
    }
    return out;
  };

  it('the defaults load neither js-yaml, nor ajv, nor faker, ' +
    'and answer what the sources generate, byte for byte', async () => {
    const mock = await builtMock('--now', NOW_ISO);
    const origin = new URL(mock.baseUrl).origin;
    const fromBuild = await answers((path) => fetch(origin + path));
    await mock.stop();
    const sources = createMock({ now: NOW_ISO, cacheDir: null, selfCheck: false });
    const fromSources = await answers((path) => sources.fetch(`http://localhost${path}`));
    await sources.close();
    expect(fromBuild).toEqual(fromSources);
    expect(fromBuild.map((a) => a.status)).toEqual([200, 200, 200, 400, 200, 200, 404]);
    const loaded = packages(mock.loaded());
    for (const name of ['js-yaml', 'ajv', 'ajv-formats', '@faker-js/faker/locale/en'])
      expect(loaded, name).not.toContain(name);
  }, 60_000);

  it('another seed generates its servers (faker) with the validators of the build', async () => {
    const mock = await builtMock('--seed', '42', '--servers', '300');
    expect((await fetch(`${mock.baseUrl}/servers/find?limit=abc`)).status).toBe(400);
    await mock.stop();
    const loaded = packages(mock.loaded());
    expect(loaded).toContain('@faker-js/faker/locale/en');
    for (const name of ['js-yaml', 'ajv']) expect(loaded, name).not.toContain(name);
  }, 60_000);

  it('another copy of the spec, changed, is parsed and compiled afresh: its rules apply', async () => {
    const copy = join(clone, 'openapi-copy.yaml');
    const spec = readFileSync(join(clone, 'spec/openapi.yaml'), 'utf8');
    const rule =
      '      schema:\n        type: integer\n        minimum: 1\n        maximum: 500\n        default: 50\n';
    expect(spec).toContain(rule);
    writeFileSync(copy, spec.replace(rule, rule.replace('minimum: 1', 'minimum: 3')));
    const mock = await builtMock('--spec', copy);
    const res = await fetch(`${mock.baseUrl}/servers/find?limit=2`);
    await mock.stop();
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/limit/);
    const loaded = packages(mock.loaded());
    for (const name of ['js-yaml', 'ajv']) expect(loaded, name).toContain(name);

    // An unchanged copy is the same document: the build's validators serve it (limit=2 is fine there).
    writeFileSync(copy, spec);
    const same = await builtMock('--spec', copy);
    expect((await fetch(`${same.baseUrl}/servers/find?limit=2`)).status).toBe(200);
    await same.stop();
    expect(packages(same.loaded())).not.toContain('ajv');
  }, 60_000);
});
