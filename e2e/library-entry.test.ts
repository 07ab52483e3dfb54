// The package's library entry as the build makes it (scripts/build-library.ts; decision
// 0046): the mock as one script that dist/index.mjs runs with V8's code cache of it. A mock
// made from it answers the first request to every operation, and those after, byte for byte
// as createMock from the sources does; this Node takes the cache the build made; and a cache
// that is not the script's (another build's, or one V8 refuses) changes no answer.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialHeaders, loadModel } from '../spec/model.ts';
import { createMock } from '../mocks/node/in-process.ts';
import { buildMock } from '../scripts/build-mock.ts';
import { assertAscii, buildLibrary, LIBRARY_CODE_CACHE, LIBRARY_SCRIPT } from '../scripts/build-library.ts';
import { FIXTURE_CREDENTIALS } from '../fixtures/auth.gen.ts';
import { REPO } from './helpers.ts';
import { NOW_ISO } from '../testing/instants.ts';

const run = promisify(execFile);
const root = mkdtempSync(join(tmpdir(), 'slm-library-'));
const dist = join(root, 'dist');

const model = loadModel();
const headersOf = (name: keyof typeof FIXTURE_CREDENTIALS) =>
  credentialHeaders(model.schemes.get(FIXTURE_CREDENTIALS[name].type)!, FIXTURE_CREDENTIALS[name].value);
const key = headersOf('valid-key');
const session = headersOf('valid-session');
/** A first request to each operation (and a refusal or two), in this order, on one mock. */
const REQUESTS: [string, RequestInit?][] = [
  ['/api/v0.1/servers/find?limit=5'],
  ['/api/v0.1/servers/find?version=1.20*&sort=users&favicon=true&limit=3'],
  ['/api/v0.1/status/ping/play.example.com'],
  ['/api/v0.1/status/ping/play.example.com/25565'],
  ['/api/v0.1/metadata/versions'],
  ['/api/v0.1/metadata/countries'],
  ['/api/v0.1/metadata/regions'],
  ['/api/v0.1/user/apikeys', { headers: key }],
  [
    '/api/v0.1/user/apikeys',
    // A session creates keys; an empty name is refused by the body's schema (a created key's secret is random).
    { method: 'POST', headers: { ...session, 'Content-Type': 'application/json' }, body: '{"name":""}' },
  ],
  ['/api/v0.1/user/apikeys/1', { method: 'DELETE', headers: key }],
  ['/api/v0.1/user/apikeys'],
  ['/api/v0.1/servers/find?limit=abc&sortBy=users'],
  ['/api/v0.1/nowhere'],
];
const SETTINGS = { now: NOW_ISO, seed: 1337 };

/** The answers of a mock made by `createMock` to REQUESTS: status, headers and body of each. */
const ANSWERS = `
import { createRequire } from 'node:module';
const [entry, settings, requests] = process.argv.slice(1);
const { createMock } = await import(entry);
const mock = createMock(JSON.parse(settings));
const out = [];
for (const [path, init] of JSON.parse(requests)) {
  const res = await mock.fetch('http://api.test' + path, init);
  const body = Buffer.from(await res.arrayBuffer()).toString('latin1');
  out.push({ status: res.status, headers: [...res.headers], body });
}
await mock.close();
// ajv itself (not the small runtime helpers the built validators require), if anything loaded it.
const ajv = Object.keys(createRequire(entry).cache).some((m) => /[\\\\/]ajv[\\\\/]dist[\\\\/]ajv\\.js$/.test(m));
console.log(JSON.stringify({ answers: out, ajv }));
`;

/**
 * What the library entry in `dir` answers, from a plain node (not under vitest, so the mock's self-check off, unless
 * `env` says), and whether anything loaded ajv.
 */
async function entryRun(dir: string, env: Record<string, string> = {}): Promise<{ answers: unknown; ajv: boolean }> {
  const { stdout } = await run(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      ANSWERS,
      pathToFileURL(join(dir, 'index.mjs')).href,
      JSON.stringify(SETTINGS),
      JSON.stringify(REQUESTS),
    ],
    { env: { PATH: process.env.PATH ?? '', ...env } },
  );
  return JSON.parse(stdout);
}
const entryAnswers = async (dir: string) => (await entryRun(dir)).answers;

/** Whether V8 takes `dir`'s code cache for its script (in a plain node, as the entry runs it). */
async function cacheTaken(dir: string): Promise<boolean> {
  const { stdout } = await run(
    process.execPath,
    [
      '-e',
      `const { Script } = require('node:vm'); const { readFileSync } = require('node:fs');
       const cache = readFileSync(process.argv[2]).subarray(4);
       const script = new Script(readFileSync(process.argv[1], 'utf8'), { cachedData: cache });
       console.log(!script.cachedDataRejected);`,
      join(dir, LIBRARY_SCRIPT),
      join(dir, LIBRARY_CODE_CACHE),
    ],
    { env: { PATH: process.env.PATH ?? '' } },
  );
  return stdout.trim() === 'true';
}

/** A copy of the built entry beside the same spec and fixtures, with its script or its code cache replaced. */
function copyOf(name: string, replace: { script?: string; cache?: Buffer }): string {
  const copy = join(root, name);
  cpSync(dist, copy, { recursive: true });
  if (replace.script !== undefined) writeFileSync(join(copy, LIBRARY_SCRIPT), replace.script);
  if (replace.cache) writeFileSync(join(copy, LIBRARY_CODE_CACHE), replace.cache);
  return copy;
}

beforeAll(async () => {
  // What the library reads beside dist/ (the spec, the fixtures, its dependencies), as in the package.
  for (const name of ['spec', 'fixtures', 'node_modules', 'package.json'])
    symlinkSync(join(REPO, name), join(root, name));
  await buildMock(dist);
  await buildLibrary(dist);
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the library entry (dist/index.mjs)', () => {
  it('answers the first request to each operation, and the requests after, as the sources do', async () => {
    const mock = createMock(SETTINGS);
    const expected = [];
    for (const [path, init] of REQUESTS) {
      const res = await mock.fetch(`http://api.test${path}`, init);
      const body = Buffer.from(await res.arrayBuffer()).toString('latin1');
      const headers: [string, string][] = [];
      res.headers.forEach((value, name) => void headers.push([name, value]));
      expected.push({ status: res.status, headers, body });
    }
    // Every operation of the spec was asked.
    const asked = new Set(mock.requests().map((r) => r.operationId));
    expect([...model.byId.keys()].filter((id) => !asked.has(id))).toEqual([]);
    await mock.close();
    expect(await entryAnswers(dist)).toEqual(expected);
  }, 60_000);

  it('under vitest, checking its answers against the spec, answers the same without loading ajv', async () => {
    const plain = await entryRun(dist);
    const checked = await entryRun(dist, { VITEST: 'true' });
    expect(checked.answers).toEqual(plain.answers);
    expect([plain.ajv, checked.ajv]).toEqual([false, false]);
  }, 60_000);

  it('this Node takes the code cache the build made for the script', async () => {
    expect(await cacheTaken(dist)).toBe(true);
  });

  it('answers the same with a cache V8 refuses: it compiles the script as it runs', async () => {
    const cache = readFileSync(join(dist, LIBRARY_CODE_CACHE));
    // The script's CRC-32 ahead of bytes V8 did not write.
    const refused = copyOf('refused', { cache: Buffer.concat([cache.subarray(0, 4), Buffer.alloc(4096, 7)]) });
    expect(await cacheTaken(refused)).toBe(false);
    expect(await entryAnswers(refused)).toEqual(await entryAnswers(dist));
  }, 60_000);

  it('is ASCII, as the entry reads it (Latin-1); a character past ASCII fails the build, naming its line', () => {
    expect(readFileSync(join(dist, LIBRARY_SCRIPT)).every((b) => b < 0x80)).toBe(true);
    const file = join(mkdtempSync(join(tmpdir(), 'slm-ascii-')), LIBRARY_SCRIPT);
    writeFileSync(file, 'const a = 1;\nconst strip = (m) => m.replace(/\\u00a7./g, "");\nconst b = /§/;\n');
    expect(() => assertAscii(file)).toThrow(`${file}:3: a character past ASCII`);
  });

  it('runs an edited script as edited, although V8 would take the cache of the one before', async () => {
    // V8 checks a cache against the source's length only: an edit of the same length passes its check.
    const script = readFileSync(join(dist, LIBRARY_SCRIPT), 'utf8');
    // The search answer's head, as the bundle writes it (a template literal).
    const head = '`{"displayed":${';
    expect(script).toContain(head);
    const edited = copyOf('edited', { script: script.replace(head, '`{"DISPLAYED":${') });
    expect(await cacheTaken(edited)).toBe(true);
    const [first] = (await entryAnswers(edited)) as { body: string }[];
    expect(first?.body).toMatch(/^\{"DISPLAYED":5,/);
  }, 60_000);
});
