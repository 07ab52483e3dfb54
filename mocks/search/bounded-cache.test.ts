import { describe, expect, it } from 'vitest';
import { BoundedCache, Doorkeeper, ENTRY_BYTES } from './bounded-cache.ts';

/** Offered twice: the second request of a key is the one that keeps it. */
function keep<V extends {}>(cache: BoundedCache<V>, key: string, value: V): void {
  cache.offer(key, value);
  cache.offer(key, value);
}

describe('BoundedCache: bounded by what it holds, keys included', () => {
  it(
    'charges each entry its key, its value and the overhead, and stays within the budget whatever keys clients ' +
      'send',
    () => {
      const cache = new BoundedCache<Uint32Array>(64 * 1024, (v) => v.byteLength);
      for (let k = 0; k < 1000; k++) keep(cache, `motd\u0000s*flood${k}*`, new Uint32Array(32));
      const { entries, bytes, maxBytes } = cache.stats();
      // 128 bytes of bits, about 40 of key and ENTRY_BYTES of overhead: far fewer than 64 KiB / 128.
      expect(entries).toBe(Math.floor(maxBytes / (128 + ENTRY_BYTES + 2 * 'motd\u0000s*flood999*'.length)));
      expect(bytes).toBeLessThanOrEqual(maxBytes);
    },
  );

  it('a long key costs its length: a few 16 KiB keys fill what many short ones would', () => {
    const cache = new BoundedCache<Uint32Array>(256 * 1024, (v) => v.byteLength);
    for (let k = 0; k < 100; k++) keep(cache, `${k}`.padEnd(16 * 1024, '*'), new Uint32Array(1));
    expect(cache.size).toBeLessThan(8);
    expect(cache.stats().bytes).toBeLessThanOrEqual(256 * 1024);
  });

  it('evicts the least recently used; a value over the whole budget is not kept', () => {
    const cache = new BoundedCache<Uint32Array>(3 * (ENTRY_BYTES + 2 + 400), (v) => v.byteLength);
    const v = () => new Uint32Array(100);
    keep(cache, 'a', v());
    keep(cache, 'b', v());
    keep(cache, 'c', v());
    expect(cache.get('a')).toBeDefined(); // a is now the most recent
    keep(cache, 'd', v());
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].every((k) => cache.get(k) !== undefined)).toBe(true);
    keep(cache, 'huge', new Uint32Array(10_000));
    expect(cache.get('huge')).toBeUndefined();
  });

  it(
    'keeps a value on its second request only: a flood of keys asked once keeps few, and what others reuse ' + 'stays',
    () => {
      const cache = new BoundedCache<Uint32Array>(64 * 1024, (v) => v.byteLength);
      let built = 0;
      const build = () => {
        built++;
        return new Uint32Array(8);
      };
      cache.getOrBuild('region=EU', build);
      expect(cache.get('region=EU')).toBeUndefined();
      cache.getOrBuild('region=EU', build);
      expect(cache.get('region=EU')).toBeDefined();
      expect(built).toBe(2);
      for (let k = 0; k < 20_000; k++) {
        cache.getOrBuild(`motd=*flood${k}*`, build);
        // Another client asks for its filter now and then.
        if (k % 100 === 0) cache.getOrBuild('region=EU', build);
      }
      expect(built).toBe(2 + 20_000);
      // Only the keys the doorkeeper mistook for seen (both their bits set by others) were kept.
      expect(cache.size).toBeLessThan(20_000 / 64);
    },
  );
});

describe('Doorkeeper', () => {
  it('says whether a key was offered before, in constant memory, cleared after so many new keys', () => {
    const door = new Doorkeeper();
    expect(door.seenBefore('a')).toBe(false);
    expect(door.seenBefore('a')).toBe(true);
    let falseHits = 0;
    for (let k = 0; k < 16_000; k++) if (door.seenBefore(`new${k}`)) falseHits++;
    expect(falseHits).toBeLessThan(16_000 / 64);
    // Past 2^18 / 16 new keys it starts afresh: 'a' is new again.
    for (let k = 16_000; k < 17_000; k++) door.seenBefore(`new${k}`);
    expect(door.seenBefore('a')).toBe(false);
  });
});
