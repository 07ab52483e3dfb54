// The dataset snapshot: a cached start must serve exactly what a fresh generation
// serves, at any clock, and anything wrong with the file is a miss, never an error.
import { mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { rowsOf, serverAt } from './columns.ts';
import { generateDataset, generateServers, generatorFingerprint } from './generator.ts';
import { buildIndex } from '../search/search-index.ts';
import { loadModel } from '../../spec/model.ts';
import { orderKey, sortOrder, sortOrders, sortRuleOf, type SortRule } from './sort-orders.ts';
import { findQuery, searchJson } from '../search/search.ts';
import { KEEP_SNAPSHOTS, readSnapshot, snapshotFile, writeSnapshot, type SnapshotKey } from './snapshot.ts';
import { NOW } from '../../testing/instants.ts';

const key = (over: Partial<SnapshotKey> = {}): SnapshotKey => ({
  generator: generatorFingerprint(),
  seed: 5,
  count: 2500,
  clean: false,
  ...over,
});
const fresh = () => mkdtempSync(join(tmpdir(), 'slm-snap-'));
const RULE = sortRuleOf(loadModel().byId.get('findServers'));

function written(dir = fresh(), k = key()) {
  const ds = generateDataset({ seed: k.seed, count: k.count, now: new Date(NOW), clean: k.clean });
  const orders = sortOrders(ds, RULE);
  const file = writeSnapshot(dir, k, ds, orders, NOW);
  return { dir, k, ds, orders, file };
}

describe('dataset snapshots', () => {
  it('read back, rows, orders and answers are exactly those of a fresh generation', () => {
    const { dir, k, ds, orders } = written();
    const snap = readSnapshot(dir, k, NOW);
    if (!('dataset' in snap)) throw new Error(snap.miss);
    expect(rowsOf(snap.dataset)).toEqual(generateServers({ seed: 5, count: 2500, now: new Date(NOW) }));
    expect(rowsOf(snap.dataset)).toEqual(rowsOf(ds));
    expect([...snap.orders.keys()].sort()).toEqual([...orders.keys()].sort());
    for (const [k, o] of orders) expect(Array.from(snap.orders.get(k)!), k).toEqual(Array.from(o));
    const a = buildIndex(ds, { orders });
    const b = buildIndex(snap.dataset, { orders: snap.orders });
    for (const q of [
      {},
      { version: '1.20*', minUsers: 2, sort: 'users' as const },
      { region: 'EU' as const, sort: 'address' as const, page: 3 },
      { motd: 'survival', noFilter: true },
    ]) {
      expect(searchJson(b, findQuery(q), NOW)).toBe(searchJson(a, findQuery(q), NOW));
    }
  });

  it('writes its header and texts as ASCII (texts past it escaped), and reads the texts back as they were', () => {
    const { dir, k, ds, file } = written();
    const bytes = readFileSync(file);
    const headerLength = bytes.readUInt32LE(8);
    const header = bytes.subarray(12, 12 + headerLength);
    expect(header.every((b) => b < 0x80)).toBe(true);
    const body = bytes.subarray((12 + headerLength + 7) & ~7);
    const tables = JSON.parse(header.toString()).sections.filter((s: { name: string }) => s.name.endsWith('.json'));
    expect(tables.length).toBe(16);
    for (const s of tables as { name: string; offset: number; length: number }[])
      expect(
        body.subarray(s.offset, s.offset + s.length).every((b) => b < 0x80),
        s.name,
      ).toBe(true);
    const motds = ds.dict.motd.values as string[];
    // The generator's motds hold colour codes (§) and other characters past ASCII.
    expect(motds.some((m) => /[^ -~\n]/.test(m))).toBe(true);
    const snap = readSnapshot(dir, k, NOW);
    if (!('dataset' in snap)) throw new Error(snap.miss);
    expect(snap.dataset.dict.motd.values).toEqual(motds);
    expect(snap.dataset.dict.city.values).toEqual(ds.dict.city.values);
  });

  it('decodes a value when a row first asks for it, and gives the same object ever after (and in `values`)', () => {
    const { dir, k, ds, file } = written();
    const parse = vi.spyOn(JSON, 'parse');
    const snap = readSnapshot(dir, k, NOW);
    if (!('dataset' in snap)) throw new Error(snap.miss);
    const row = serverAt(snap.dataset, 7);
    // The header and row 7's sixteen values (its players' list one element at a time): not the tables.
    const parsed = parse.mock.calls.reduce((sum, [text]) => sum + String(text).length, 0);
    parse.mockRestore();
    expect(parsed).toBeLessThan(readFileSync(file).length / 20);
    expect(row).toEqual(rowsOf(ds)[7]);
    for (const field of ['motd', 'players'] as const) {
      const col = snap.dataset.dict[field];
      const id = col.ids[7] as number;
      const first = col.value(id);
      expect(col.value(id)).toBe(first);
      expect(col.values[id]).toBe(first);
      expect(col.values).toEqual(ds.dict[field].values);
    }
    expect(snap.dataset.dict.players.value(snap.dataset.dict.players.ids[7] as number)).toBe(row.players);
  });

  it('serves any clock: timestamps are stored as ages, so a later start gets the rows generated at that time', () => {
    const { dir, k } = written();
    const later = NOW + 37 * 86_400_000 + 5_000;
    const snap = readSnapshot(dir, k, later);
    if (!('dataset' in snap)) throw new Error(snap.miss);
    expect(rowsOf(snap.dataset)).toEqual(generateServers({ seed: 5, count: 2500, now: new Date(later) }));
  });

  it('holds its orders by what they are: a spec with other orders takes the ones it shares and sorts the rest', () => {
    const { dir, k, ds } = written();
    const snap = readSnapshot(dir, k, NOW);
    if (!('dataset' in snap)) throw new Error(snap.miss);
    // The spec's orders with `users` turned ascending (another order under the same name) and one added.
    const other: SortRule = {
      ...RULE,
      orders: {
        ...RULE.orders,
        users: { field: 'players_online', direction: 'asc', compare: 'natural' },
        slots: { field: 'players_limit', direction: 'desc', compare: 'natural' },
      },
    };
    const orders = sortOrders(snap.dataset, other, snap.orders);
    const keyOf = (name: string) => orderKey({ ...other.orders[name]!, tieBreak: other.tieBreak });
    // Shared: the snapshot's own arrays, not sorted again.
    expect(orders.get(keyOf('version'))).toBe(snap.orders.get(keyOf('version')));
    expect(snap.orders.has(keyOf('users'))).toBe(false);
    for (const name of ['users', 'slots']) {
      const fromScratch = sortOrder(ds, { ...other.orders[name]!, tieBreak: other.tieBreak });
      expect(Array.from(orders.get(keyOf(name))!), name).toEqual(Array.from(fromScratch));
    }
  });

  it('other flags or another generator are another snapshot: a miss, not a wrong dataset', () => {
    const { dir, k } = written();
    for (const other of [{ seed: 6 }, { count: 2501 }, { clean: true }, { generator: 'changed' }]) {
      expect(readSnapshot(dir, { ...k, ...other }, NOW)).toEqual({ miss: 'no snapshot yet' });
    }
  });

  it('a truncated, altered or foreign file is a miss that says why', () => {
    const { dir, k, file } = written();
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, bytes.length - 100));
    expect(readSnapshot(dir, k, NOW)).toMatchObject({ miss: expect.stringMatching(/checksum|past the end/) });
    const altered = Buffer.from(bytes);
    altered[altered.length - 1] = (altered[altered.length - 1] as number) ^ 0xff;
    writeFileSync(file, altered);
    expect(readSnapshot(dir, k, NOW)).toMatchObject({ miss: expect.stringMatching(/checksum mismatch/) });
    writeFileSync(file, '{"servers": []}');
    expect(readSnapshot(dir, k, NOW)).toMatchObject({ miss: expect.stringMatching(/not a snapshot/) });
  });

  it('keeps the newest few per directory, and writes atomically (no temporary file left)', () => {
    const dir = fresh();
    for (let seed = 1; seed <= KEEP_SNAPSHOTS + 2; seed++) {
      const w = written(dir, key({ seed, count: 300 }));
      // mtime order is what pruning goes by: make it unambiguous.
      utimesSync(w.file, new Date(2026, 0, seed), new Date(2026, 0, seed));
    }
    const left = readdirSync(dir);
    expect(left).toHaveLength(KEEP_SNAPSHOTS);
    expect(left.every((f) => f.endsWith('.snap'))).toBe(true);
    expect(left).toContain(
      snapshotFile(dir, key({ seed: KEEP_SNAPSHOTS + 2, count: 300 }))
        .split('/')
        .pop(),
    );
    expect(left).not.toContain(
      snapshotFile(dir, key({ seed: 1, count: 300 }))
        .split('/')
        .pop(),
    );
  });
});
