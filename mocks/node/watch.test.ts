// --watch, in process over a real socket: the spec, the --data file and the fixtures
// reload on the same port; a broken edit keeps the last good version answering.
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, it } from 'vitest';
import { generateServers } from '../dataset/generator.ts';
import { fixtures, testOptions } from '../testing/test-app.ts';
import { startMock } from './server.ts';
import { watchInputs } from './watch.ts';

it('reloads the spec, --data and the fixtures on the ' +
  'same port; a broken edit keeps the last good version', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'slm-watch-'));
  const spec = join(dir, 'openapi.yaml');
  const auth = join(dir, 'auth.json');
  const db = join(dir, 'db.json');
  copyFileSync(new URL('../../spec/openapi.yaml', import.meta.url), spec);
  copyFileSync(new URL('../../fixtures/auth.json', import.meta.url), auth);
  const rows = generateServers({ seed: 3, count: 5, now: new Date() });
  writeFileSync(db, JSON.stringify({ servers: rows }));
  const options = testOptions({ watch: true, spec, fixtures: auth, data: db });
  const running = await startMock(options);
  const info: string[] = [];
  const errors: string[] = [];
  const stop = await watchInputs(running, options, { info: (l) => info.push(l), error: (l) => errors.push(l) });
  try {
    const baseUrl = running.baseUrl;
    const reloads = () => info.filter((l) => l.includes('mock: reloaded')).length;
    const failures = () => errors.filter((l) => l.includes('still serving the last good version')).length;
    const total = async () => (await (await fetch(`${baseUrl}/servers/find?noFilter=true&maxAge=3650`)).json()).total;
    expect(await total()).toBe(5);
    const login = await fetch(`${running.origin}/__mock/login`, { method: 'POST' });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;

    // The data: one more server. Same URL, and a data-only reload keeps the browser logged in.
    writeFileSync(db, JSON.stringify({ servers: [...rows, { ...rows[0], address: 'added.example.test' }] }));
    await expect.poll(reloads, { timeout: 15_000 }).toBe(1);
    expect(await total()).toBe(6);
    expect((await fetch(`${baseUrl}/user/apikeys`, { headers: { Cookie: cookie } })).status).toBe(200);

    // A broken data file: the error is printed, the last good data still answers.
    writeFileSync(db, '{"servers": [');
    await expect.poll(failures, { timeout: 15_000 }).toBe(1);
    expect(errors.join('\n')).toMatch(/db\.json: not valid JSON/);
    expect(await total()).toBe(6);

    // The spec: an edited summary shows in the index; a broken spec keeps the last good one.
    const yaml = readFileSync(spec, 'utf8');
    writeFileSync(spec, yaml.replace('summary: Search the server listing', 'summary: Search the listing (edited)'));
    writeFileSync(db, JSON.stringify({ servers: rows }));
    await expect.poll(reloads, { timeout: 15_000 }).toBe(2);
    const index = await (await fetch(baseUrl)).json();
    expect(index.operations.find((o: { operationId: string }) => o.operationId === 'findServers').summary).toBe(
      'Search the listing (edited)',
    );
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
    expect((await fetch(`${baseUrl}/user/apikeys`, { headers: { Authorization: `Bearer ${renewed}` } })).status).toBe(
      200,
    );
    expect((await fetch(`${baseUrl}/user/apikeys`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(401);
  } finally {
    await stop();
    await running.close();
  }
}, 60_000);

/** A mock watching a spec, fixtures and a --data file in three folders, as a clone's spec/, fixtures/ and data are. */
async function watching(data: (dir: string) => string) {
  const dir = mkdtempSync(join(tmpdir(), 'slm-watch-'));
  for (const sub of ['spec', 'fixtures', 'data']) mkdirSync(join(dir, sub));
  const spec = join(dir, 'spec/openapi.yaml');
  const auth = join(dir, 'fixtures/auth.json');
  copyFileSync(new URL('../../spec/openapi.yaml', import.meta.url), spec);
  copyFileSync(new URL('../../fixtures/auth.json', import.meta.url), auth);
  const db = data(join(dir, 'data'));
  const options = testOptions({ watch: true, spec, fixtures: auth, data: db });
  const running = await startMock(options);
  const info: string[] = [];
  const errors: string[] = [];
  const stop = await watchInputs(running, options, { info: (l) => info.push(l), error: (l) => errors.push(l) });
  const total = async () =>
    (await (await fetch(`${running.baseUrl}/servers/find?noFilter=true&maxAge=3650`)).json()).total;
  return {
    dir,
    db,
    total,
    errors: () => errors.join('\n'),
    close: async () => {
      await stop();
      await running.close();
    },
  };
}

const rows = generateServers({ seed: 3, count: 9, now: new Date() });
const servers = (n: number) => JSON.stringify({ servers: rows.slice(0, n) });

it('the --data file gone and back (removed, a mv over it, its folder removed): said, reloaded, watched', async () => {
  const m = await watching((dir) => {
    writeFileSync(join(dir, 'db.json'), servers(5));
    return join(dir, 'db.json');
  });
  try {
    expect(await m.total()).toBe(5);
    // Removed: said on stderr; the last data keeps answering.
    rmSync(m.db);
    await expect.poll(m.errors, { timeout: 15_000 }).toMatch(/mock: .*db\.json is gone; still serving/);
    expect(await m.total()).toBe(5);
    // Back: said, and reloaded.
    writeFileSync(m.db, servers(6));
    await expect.poll(m.errors, { timeout: 15_000 }).toMatch(/mock: .*db\.json is back/);
    await expect.poll(m.total, { timeout: 15_000 }).toBe(6);
    // A mv over it (an editor's atomic save), then gone for a moment and back: each reloads.
    writeFileSync(`${m.db}.tmp`, servers(7));
    renameSync(`${m.db}.tmp`, m.db);
    await expect.poll(m.total, { timeout: 15_000 }).toBe(7);
    rmSync(m.db);
    writeFileSync(m.db, servers(8));
    await expect.poll(m.total, { timeout: 15_000 }).toBe(8);
    // And an edit in place still reloads: the file is still watched.
    writeFileSync(m.db, servers(3));
    await expect.poll(m.total, { timeout: 15_000 }).toBe(3);
    // Its whole directory removed, then made again with the file: gone, back, reloaded.
    const gone = () => m.errors().split('db.json is gone').length - 1;
    rmSync(dirname(m.db), { recursive: true });
    await expect.poll(gone, { timeout: 15_000 }).toBe(2);
    mkdirSync(dirname(m.db));
    writeFileSync(m.db, servers(4));
    await expect.poll(m.total, { timeout: 15_000 }).toBe(4);
  } finally {
    await m.close();
  }
}, 90_000);

it('a --data symlink pointed elsewhere reloads from its new target, and so does an edit of that target', async () => {
  const m = await watching((dir) => {
    writeFileSync(join(dir, 'a.json'), servers(4));
    writeFileSync(join(dir, 'b.json'), servers(6));
    symlinkSync(join(dir, 'a.json'), join(dir, 'db.json'));
    return join(dir, 'db.json');
  });
  try {
    expect(await m.total()).toBe(4);
    // Repointed as `ln -sfn` does it: a new link renamed over the old one.
    symlinkSync(join(m.dir, 'data/b.json'), `${m.db}.new`);
    renameSync(`${m.db}.new`, m.db);
    await expect.poll(m.total, { timeout: 15_000 }).toBe(6);
    writeFileSync(join(m.dir, 'data/b.json'), servers(2));
    await expect.poll(m.total, { timeout: 15_000 }).toBe(2);
    // The old target is no longer what is served: its edits change nothing.
    writeFileSync(join(m.dir, 'data/a.json'), servers(9));
    writeFileSync(join(m.dir, 'data/b.json'), servers(5));
    await expect.poll(m.total, { timeout: 15_000 }).toBe(5);
  } finally {
    await m.close();
  }
}, 60_000);
