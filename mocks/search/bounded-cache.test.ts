import { describe, expect, it } from 'vitest';
import { BoundedCache, ENTRY_BYTES } from './bounded-cache.ts';

describe('BoundedCache: bounded by what it holds, keys included', () => {
  it('charges each entry its key, its value and the overhead, and stays within the budget whatever keys clients send', () => {
    const cache = new BoundedCache<Uint32Array>(64 * 1024, (v) => v.byteLength);
    for (let k = 0; k < 1000; k++) cache.set(`motd\u0000s*flood${k}*`, new Uint32Array(32));
    const { entries, bytes, maxBytes } = cache.stats();
    // 128 bytes of bits, about 40 of key and ENTRY_BYTES of overhead: far fewer than 64 KiB / 128.
    expect(entries).toBe(Math.floor(maxBytes / (128 + ENTRY_BYTES + 2 * 'motd\u0000s*flood999*'.length)));
    expect(bytes).toBeLessThanOrEqual(maxBytes);
  });

  it('a long key costs its length: a few 16 KiB keys fill what many short ones would', () => {
    const cache = new BoundedCache<Uint32Array>(256 * 1024, (v) => v.byteLength);
    for (let k = 0; k < 100; k++) cache.set(`${k}`.padEnd(16 * 1024, '*'), new Uint32Array(1));
    expect(cache.size).toBeLessThan(8);
    expect(cache.stats().bytes).toBeLessThanOrEqual(256 * 1024);
  });

  it('evicts the least recently used; a value over the whole budget is not kept', () => {
    const cache = new BoundedCache<Uint32Array>(3 * (ENTRY_BYTES + 2 + 400), (v) => v.byteLength);
    const v = () => new Uint32Array(100);
    cache.set('a', v());
    cache.set('b', v());
    cache.set('c', v());
    expect(cache.get('a')).toBeDefined(); // a is now the most recent
    cache.set('d', v());
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].every((k) => cache.get(k) !== undefined)).toBe(true);
    cache.set('huge', new Uint32Array(10_000));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.getOrBuild('e', v).length).toBe(100);
    expect(cache.getOrBuild('e', () => new Uint32Array(1)).length).toBe(100);
  });
});
