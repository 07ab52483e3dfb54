// Caches whose keys come from clients (filter values, their combinations): bounded by
// the memory they hold, not by a count, and evicting in constant time.
//
// Two things went wrong before this. A cache that counted only its values' bytes (the
// 128 bytes of a bitset at 1k servers) held 6 times its budget in keys, objects and
// bookkeeping. And a cache evicting its oldest entry with `map.keys().next()` walks,
// in V8, every entry deleted since the Map was last rehashed: at 100k entries that was
// 39 µs per eviction, against 0.4 µs for a queue (measured on Node 20). So each entry is
// charged an estimate of everything it keeps alive (its key, its value, the objects
// around both, the cache's own bookkeeping), and lru-cache evicts the least recently
// used entry from a linked list, never by iterating the Map.
import { LRUCache } from 'lru-cache';

/**
 * What an entry costs besides its key's characters and its value's own bytes: the
 * cache's slots (its key Map and index arrays), and the objects a value is made of
 * (a typed array is a JSTypedArray, a JSArrayBuffer and a backing-store record).
 * Measured on Node 20 with --expose-gc: 100k entries of a 128-byte Uint32Array under
 * 19-character keys took 484 bytes each (heap and external); this charges 128 + 38 + 400.
 */
export const ENTRY_BYTES = 400;

/** A key's characters, as V8 may store them (two bytes each when any is not Latin-1). */
export const stringBytes = (s: string): number => 2 * s.length;

export interface CacheStats {
  entries: number;
  /** What the entries are charged (keys, values, overhead). */
  bytes: number;
  maxBytes: number;
}

export class BoundedCache<V extends {}> {
  private readonly lru: LRUCache<string, V>;

  /** `sizeOf`: a value's own bytes (a typed array's `byteLength`, a list's pointers ...). */
  constructor(
    readonly maxBytes: number,
    sizeOf: (value: V) => number,
  ) {
    this.lru = new LRUCache<string, V>({
      maxSize: Math.max(1, maxBytes),
      sizeCalculation: (value, key) => Math.max(1, Math.ceil(ENTRY_BYTES + stringBytes(key) + sizeOf(value))),
    });
  }

  get(key: string): V | undefined {
    return this.lru.get(key);
  }

  /** Keeps `value` under `key` (unless it alone is over the budget), evicting the least recently used. */
  set(key: string, value: V): V {
    this.lru.set(key, value);
    return value;
  }

  /** The value under `key`, built and kept on a miss. */
  getOrBuild(key: string, build: () => V): V {
    return this.lru.get(key) ?? this.set(key, build());
  }

  get size(): number {
    return this.lru.size;
  }

  stats(): CacheStats {
    return { entries: this.lru.size, bytes: this.lru.calculatedSize, maxBytes: this.maxBytes };
  }
}
