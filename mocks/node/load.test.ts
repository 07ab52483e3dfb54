// A mock built from its options, in process: the same seed and clock give the same bytes,
// a --data file is served, and big generated datasets go through the snapshot cache.
// (The program itself, its exit codes and signals, is tested in e2e/mock-cli.test.ts.)
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateServers } from '../dataset/generator.ts';
import { SNAPSHOT_ABOVE } from '../dataset/snapshot.ts';
import { testOptions } from '../testing/test-app.ts';
import { buildMock, loadInputs } from './load.ts';
import type { MockOptions } from './options.ts';
import { NOW } from '../../testing/instants.ts';

const ORIGIN = 'http://127.0.0.1:4010';

/** The bodies of `paths` from a mock of these options, as bytes. */
async function bodies(options: MockOptions, paths: string[]): Promise<Buffer[]> {
  const mock = buildMock(options);
  return Promise.all(
    paths.map(async (p) => Buffer.from(await (await mock.app.request(`${ORIGIN}${mock.basePath}${p}`)).arrayBuffer())),
  );
}

describe('a mock built from its options', () => {
  it('gives byte-identical answers for the same seed and --now, and different ones for another seed', async () => {
    const options = testOptions({ seed: 42, servers: 200, now: NOW });
    const paths = [
      '/servers/find?limit=20',
      '/servers/find?sort=users&favicon=true&relativeTime=true&limit=50',
      '/metadata/versions',
      '/metadata/countries',
      '/metadata/regions',
    ];
    const [a, b, c] = await Promise.all([
      bodies(options, paths),
      bodies(options, paths),
      bodies({ ...options, seed: 43 }, paths),
    ]);
    expect(a).toEqual(b);
    expect(a[0]).not.toEqual(c[0]);
    const ping = JSON.parse(a[0]!.toString()).results[0];
    const [pa, pb] = await Promise.all([
      bodies(options, [`/status/ping/${ping.address}:${ping.port}`]),
      bodies(options, [`/status/ping/${ping.address}/${ping.port}`]),
    ]);
    expect(pa).toEqual(pb);
  });

  it('serves a hand-edited --data file, and names the bad record in one', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'slm-data-')), 'db.json');
    const servers = generateServers({ seed: 7, count: 5, now: new Date() });
    writeFileSync(file, JSON.stringify({ servers }));
    const [found] = await bodies(testOptions({ data: file }), ['/servers/find?noFilter=true&maxAge=3650']);
    expect(JSON.parse(found!.toString()).total).toBe(5);
    writeFileSync(file, JSON.stringify({ servers: servers.map((s, i) => (i === 3 ? { ...s, port: 'x' } : s)) }));
    expect(() => loadInputs(testOptions({ data: file }))).toThrow(/servers\[3\].*port/);
  });
});

describe('the snapshot cache of big generated datasets', () => {
  const servers = SNAPSHOT_ABOVE + 1000;
  const snaps = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.snap'));

  it('writes one on the first start, loads it on the next with the same flags, and serves the same bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slm-cache-'));
    const options = testOptions({ servers, seed: 9, now: NOW, cacheDir: dir });
    const page = ['/servers/find?version=1.20*&sort=address&minUsers=3&page=4'];
    const first = loadInputs(options);
    expect(first.source).toMatchObject({
      kind: 'generated',
      snapshot: { hit: false, file: expect.stringMatching(/servers-[0-9a-f]+\.snap$/) },
    });
    expect(snaps(dir)).toHaveLength(1);
    const fresh = buildMock(options, first);
    const cold = Buffer.from(await (await fresh.app.request(`${ORIGIN}${fresh.basePath}${page[0]}`)).arrayBuffer());

    const second = loadInputs(options);
    expect(second.source).toMatchObject({ snapshot: { hit: true } });
    const mock = buildMock(options, second);
    expect(Buffer.from(await (await mock.app.request(`${ORIGIN}${mock.basePath}${page[0]}`)).arrayBuffer())).toEqual(
      cold,
    );

    // Another clock is the same snapshot (ages are stored, not times); another seed is another one.
    expect(loadInputs({ ...options, now: NOW + 30 * 86_400_000 }).source).toMatchObject({
      snapshot: { hit: true },
    });
    expect(loadInputs({ ...options, seed: 10 }).source).toMatchObject({ snapshot: { hit: false } });
    expect(snaps(dir)).toHaveLength(2);

    // --cache-dir off: nothing read or written; a small dataset: no snapshot.
    expect(loadInputs({ ...options, cacheDir: null }).source).toEqual({ kind: 'generated' });
    expect(loadInputs({ ...options, servers: 1000 }).source).toEqual({ kind: 'generated' });
    expect(snaps(dir)).toHaveLength(2);
  }, 60_000);
});
