// The bounded row cache on its own (one slab, first in first out, rows pinned while an answer is
// assembled, counters), then over HTTP:
// paging through a whole listing keeps it within --row-cache and answers stay exact.
import { describe, expect, it } from 'vitest';
import { QUEUE_ENTRY_BYTES, RowCache } from './row-cache.ts';
import { search, findQuery } from './search.ts';
import { authHeaders, credential, json, useApp } from '../testing/test-app.ts';
import { NOW } from '../../testing/instants.ts';

const row = (n: number, fill = 'x') => Buffer.from(fill.repeat(n));
/** A cache whose slab is exactly `slab` bytes and whose queue holds `entries` rows. */
const sized = (slab: number, entries: number) => new RowCache(slab + entries * QUEUE_ENTRY_BYTES, 0, slab / entries);

describe('RowCache', () => {
  it('never holds more than its slab, overwriting the oldest rows as new ones come in', () => {
    const cache = sized(1000, 10);
    for (let i = 0; i < 1000; i++) {
      cache.nextAnswer();
      cache.set(i, row(100, String(i % 10)));
    }
    const stats = cache.stats();
    expect(stats.entries).toBe(10);
    expect(stats.bytes).toBeLessThanOrEqual(stats.maxBytes);
    expect(stats.evictions).toBe(990);
    expect(cache.get(999)?.toString()).toBe('9'.repeat(100));
    expect(cache.get(990)?.toString()).toBe('0'.repeat(100));
    expect(cache.get(989)).toBeUndefined();
  });

  it('a row never wraps around the end of the slab: the gap is skipped, every row reads back whole', () => {
    const cache = sized(250, 10);
    const sizes = [90, 70, 120, 30, 200, 10, 249, 1, 60];
    sizes.forEach((n, k) => {
      cache.nextAnswer();
      cache.set(k, row(n, String.fromCharCode(97 + k)));
      expect(cache.get(k)?.toString()).toBe(String.fromCharCode(97 + k).repeat(n));
    });
    // Whatever survived reads back exactly as written.
    sizes.forEach((n, k) => {
      const got = cache.get(k);
      if (got) expect(got.toString()).toBe(String.fromCharCode(97 + k).repeat(n));
    });
  });

  it('a row read for the answer being assembled is not overwritten under it: the newcomer is not cached', () => {
    const cache = sized(300, 3);
    for (const k of [1, 2, 3]) cache.set(k, row(100, String(k)));
    cache.nextAnswer();
    const view = cache.get(1)!;
    cache.set(4, row(100, '4')); // would overwrite row 1, which this answer holds
    expect(view.toString()).toBe('1'.repeat(100));
    expect(cache.get(4)).toBeUndefined();
    cache.nextAnswer();
    cache.set(4, row(100, '4')); // the next answer may
    expect(cache.get(4)?.toString()).toBe('4'.repeat(100));
    expect(cache.get(1)).toBeUndefined();
  });

  it('counts hits and misses, replaces a row, and keeps nothing bigger than itself', () => {
    const cache = sized(300, 3);
    expect(cache.get(7)).toBeUndefined();
    cache.set(7, row(100));
    cache.set(7, row(50, 'y'));
    expect(cache.get(7)?.toString()).toBe('y'.repeat(50));
    cache.set(8, row(10_000));
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1, entries: 1, bytes: 50 });
    const off = new RowCache(0);
    off.set(1, row(1));
    expect(off.stats().entries).toBe(0);
  });

  it(
    'the budget covers the index too: a full queue gives up its oldest row, and an index over budget keeps ' +
      'nothing',
    () => {
      const cache = sized(10_000, 4);
      for (let k = 0; k < 10; k++) cache.set(k, row(10));
      expect(cache.stats()).toMatchObject({ entries: 4, evictions: 6, bytes: 40 });
      expect([6, 7, 8, 9].every((k) => cache.get(k)?.toString() === 'x'.repeat(10))).toBe(true);
      // A million rows' keys alone take 8 MB: a 1 MB budget leaves no room for rows.
      const tiny = new RowCache(2 ** 20, 2_000_000);
      tiny.set(5, row(100));
      expect(tiny.get(5)).toBeUndefined();
    },
  );

  it("sizes its index by the listing's rows, not by the budget: a small listing's cache stays small", () => {
    // 2,000 keys (1,000 rows, with and without favicons) under the default 64 MiB: an index by the budget
    // alone would be four typed arrays of 126,000 entries, 2.5 MB, for each mock.
    const before = process.memoryUsage().arrayBuffers;
    const caches = Array.from({ length: 20 }, () => new RowCache(64 * 2 ** 20, 2000));
    const grown = process.memoryUsage().arrayBuffers - before;
    expect(grown).toBeLessThan(20 * 200_000);
    // And it still holds every row of the listing.
    for (let k = 0; k < 2000; k++) caches[0]!.set(k, row(600));
    expect(caches[0]!.stats()).toMatchObject({ entries: 2000, evictions: 0 });
  });
});

describe('the search answers within --row-cache', () => {
  const budgetMiB = 1;
  const m = useApp({ servers: 2000, rowCacheMiB: budgetMiB });
  const paid = authHeaders(credential('valid-key'));

  it('paging through every row, with and without favicons, stays within the budget and answers exactly', async () => {
    for (const favicon of [false, true]) {
      for (let page = 1; page <= 4; page++) {
        const query = `noFilter=true&maxAge=3650&limit=500&page=${page}&favicon=${favicon}`;
        const res = await m.fetch(m.url(`/servers/find?${query}`), { headers: paid });
        expect(res.status).toBe(200);
        const body = await json(res);
        expect(body).toEqual(
          JSON.parse(
            JSON.stringify(
              search(m.mock.state.index, findQuery({ noFilter: true, maxAge: 3650, limit: 500, page, favicon }), NOW),
            ),
          ),
        );
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
