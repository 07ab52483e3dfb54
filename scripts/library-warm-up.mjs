// Writes V8's code cache of the library's script (scripts/build-library.ts; decision 0046):
// loads DIR/library.js as DIR/index.mjs does, lets a mock answer each operation of the API
// once (what a test's first requests run), then asks V8 for the cache, which holds every
// function compiled by then, and writes it to DIR/library.code-cache after the script's CRC-32.
// Plain JavaScript, run by a plain node: V8 takes a cache only under the flags it was made with.
//   node scripts/library-warm-up.mjs DIR
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';

const dir = resolve(process.argv[2] ?? 'dist');
const file = join(dir, 'library.js');
const source = readFileSync(file);
// As index.mjs runs it: the same source, filename, require and URL.
const script = new Script(source.toString('utf8'), { filename: file });
const { createMock } = script.runInThisContext()(createRequire(file), pathToFileURL(join(dir, 'index.mjs')).href);

const api = 'http://api.test/api/v0.1';
// Its answers checked, as under vitest: the self-check's code is in the cache too.
const mock = createMock({ now: '2026-06-01T12:00:00Z', selfCheck: true });
const key = mock.credentialHeaders('valid-key');
const session = mock.credentialHeaders('valid-session');
/** @type {[string, RequestInit?][]} */
const requests = [
  ['/servers/find?limit=5'],
  ['/status/ping/play.example.com'],
  ['/status/ping/play.example.com/25565'],
  ['/metadata/versions'],
  ['/metadata/countries'],
  ['/metadata/regions'],
  ['/user/apikeys', { headers: key }],
  [
    '/user/apikeys',
    { method: 'POST', headers: { ...session, 'Content-Type': 'application/json' }, body: '{"name":"a"}' },
  ],
  ['/user/apikeys/1', { method: 'DELETE', headers: key }],
];
for (const [path, init] of requests) await (await mock.fetch(`${api}${path}`, init)).arrayBuffer();
await mock.close();

const cache = script.createCachedData();
const crc = Buffer.alloc(4);
crc.writeUInt32LE(crc32(source));
writeFileSync(join(dir, 'library.code-cache'), Buffer.concat([crc, cache]));
