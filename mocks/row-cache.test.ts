// The bounded row cache on its own (budget, second chance, counters), then over HTTP:
// paging through a whole listing keeps it within --row-cache and answers stay exact.
import { describe, expect, it } from 'vitest';
import { ENTRY_OVERHEAD_BYTES, ownBytes, RowCache } from './row-cache.ts';
import { search, findQuery } from './search.ts';
import { authHeaders, credential, json, PINNED_NOW, useApp } from './test-helpers.ts';

const row = (n: number) => ownBytes('x'.repeat(n));
/** A cache that fits exactly `rows` rows of 100 bytes. */
const sized = (rows: number) => new RowCache(rows * (100 + ENTRY_OVERHEAD_BYTES));

describe('RowCache', () => {
  it('never holds more than its budget, evicting as rows come in', () => {
    const cache = sized(10);
    for (let i = 0; i < 1000; i++) cache.set(i, row(100));
    const stats = cache.stats();
    expect(stats.entries).toBe(10);
    expect(stats.bytes).toBeLessThanOrEqual(stats.maxBytes);
    expect(stats.evictions).toBe(990);
    expect(cache.get(999)?.byteLength).toBe(100);
    expect(cache.get(0)).toBeUndefined();
  });

  it('gives a row used since the last pass a second chance', () => {
    const cache = sized(3);
    for (const k of [1, 2, 3]) cache.set(k, row(100));
    cache.get(1);
    cache.set(4, row(100)); // 1 was used: 2 goes
    expect([1, 2, 3, 4].map((k) => cache.get(k) !== undefined)).toEqual([true, false, true, true]);
  });

  it('counts hits and misses, replaces a row in place, and keeps nothing bigger than itself', () => {
    const cache = sized(2);
    expect(cache.get(7)).toBeUndefined();
    cache.set(7, row(100));
    cache.set(7, row(50));
    expect(cache.get(7)?.byteLength).toBe(50);
    cache.set(8, row(10_000));
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1, entries: 1, bytes: 50 + ENTRY_OVERHEAD_BYTES });
    const off = new RowCache(0);
    off.set(1, row(1));
    expect(off.stats().entries).toBe(0);
  });

  it('keeps each row in memory of its own, not in a shared slab another row could pin', () => {
    const bytes = ownBytes('{"address":"a"}');
    expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
    expect(bytes.toString()).toBe('{"address":"a"}');
  });
});

describe('the search answers within --row-cache', () => {
  const budgetMiB = 1;
  const m = useApp({ servers: 2000, rowCacheMiB: budgetMiB });
  const paid = authHeaders(credential('valid-key'));

  it('paging through every row, with and without favicons, stays within the budget and answers exactly', async () => {
    const now = Date.parse(PINNED_NOW);
    for (const favicon of [false, true]) {
      for (let page = 1; page <= 4; page++) {
        const query = `noFilter=true&maxAge=3650&limit=500&page=${page}&favicon=${favicon}`;
        const res = await m.fetch(m.url(`/servers/find?${query}`), { headers: paid });
        expect(res.status).toBe(200);
        const body = await json(res);
        expect(body).toEqual(JSON.parse(JSON.stringify(search(m.mock.state.index, findQuery({ noFilter: true, maxAge: 3650, limit: 500, page, favicon }), now))));
      }
    }
    const stats = m.mock.state.index.rowCache.stats();
    expect(stats.maxBytes).toBe(budgetMiB * 2 ** 20);
    expect(stats.bytes).toBeLessThanOrEqual(stats.maxBytes);
    expect(stats.evictions).toBeGreaterThan(0);
  });

  it('serves repeated pages from the cache', async () => {
    const before = m.mock.state.index.rowCache.stats().hits;
    await m.fetch(m.url('/servers/find?limit=20'));
    await m.fetch(m.url('/servers/find?limit=20'));
    expect(m.mock.state.index.rowCache.stats().hits - before).toBeGreaterThanOrEqual(20);
  });
});
