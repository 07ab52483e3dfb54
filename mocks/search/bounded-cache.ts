// Caches whose keys come from clients (filter values, their combinations): bounded by
// the memory they hold, not by a count, evicting in constant time, and keeping only
// what is asked for twice.
//
// Two things went wrong before this. A cache that counted only its values' bytes (the
// 128 bytes of a bitset at 1k servers) held 6 times its budget in keys, objects and
// bookkeeping. And a cache evicting its oldest entry with `map.keys().next()` walks,
// in V8, every entry deleted since the Map was last rehashed: at 100k entries that was
// 39 µs per eviction, against 0.4 µs for a queue (measured on Node 20). So each entry is
// charged an estimate of everything it keeps alive (its key, its value, the objects
// around both, the cache's own bookkeeping), and lru-cache evicts the least recently
// used entry from a linked list, never by iterating the Map.
//
// And a flood of filter values nobody asks for again (a fuzzer, a typing user, an
// attack) should not push out what other clients reuse, nor churn the heap with entries
// made only to be evicted: the garbage collector lags behind such churn, and the process
// grew past its budgets by that lag. So an entry is kept only on its second request
// within a while (TinyLFU's "doorkeeper": a fixed bitset of hashed keys, cleared after
// so many first requests); the first request builds it and uses it once.
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

/**
 * The doorkeeper's bits (32 KiB per cache), two per key: cleared after DOOR_BITS / 16 first
 * requests (two bits each), so at most an eighth of the bits are set and a new key passes as seen (both
 * of its bits set by others) less than once in 64.
 */
const DOOR_BITS = 2 ** 18;

/** Has a key been offered since the last clearing? Constant time and memory, whatever the keys. */
export class Doorkeeper {
  private readonly bits = new Uint32Array(DOOR_BITS >>> 5);
  private marked = 0;

  /**
   * True when `key` was offered before; marks it offered. A false true is
   * possible (a hash collision): the key is then kept at once.
   */
  seenBefore(key: string): boolean {
    // FNV-1a over the UTF-16 code units.
    let h = 0x811c9dc5;
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
    const a = h & (DOOR_BITS - 1);
    const b = Math.imul(h, 0x9e3779b1) >>> (32 - Math.log2(DOOR_BITS));
    if (this.has(a) && this.has(b)) return true;
    this.mark(a);
    this.mark(b);
    if (++this.marked >= DOOR_BITS / 16) {
      this.bits.fill(0);
      this.marked = 0;
    }
    return false;
  }

  private has(bit: number): boolean {
    return ((this.bits[bit >>> 5] as number) & (1 << (bit & 31))) !== 0;
  }

  private mark(bit: number): void {
    this.bits[bit >>> 5] = (this.bits[bit >>> 5] as number) | (1 << (bit & 31));
  }
}

export interface CacheStats {
  entries: number;
  /** What the entries are charged (keys, values, overhead). */
  bytes: number;
  maxBytes: number;
}

export class BoundedCache<V extends {}> {
  /** Made on the first value kept: an index has several caches, and a mock made per test may keep nothing. */
  private lru: LRUCache<string, V> | undefined;
  private readonly door = new Doorkeeper();

  /** `sizeOf`: a value's own bytes (a typed array's `byteLength`, a list's pointers ...). */
  constructor(
    readonly maxBytes: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  get(key: string): V | undefined {
    return this.lru?.get(key);
  }

  /**
   * Offers `value` for `key`, a miss just built: kept when `key` was offered before (its
   * second request), evicting the least recently used; never when it alone is over the budget.
   */
  offer(key: string, value: V): V {
    if (this.door.seenBefore(key)) {
      const { sizeOf } = this;
      this.lru ??= new LRUCache<string, V>({
        maxSize: Math.max(1, this.maxBytes),
        sizeCalculation: (v, k) => Math.max(1, Math.ceil(ENTRY_BYTES + stringBytes(k) + sizeOf(v))),
      });
      this.lru.set(key, value);
    }
    return value;
  }

  /** The value under `key`; on a miss, built and offered. */
  getOrBuild(key: string, build: () => V): V {
    return this.lru?.get(key) ?? this.offer(key, build());
  }

  get size(): number {
    return this.lru?.size ?? 0;
  }

  stats(): CacheStats {
    return { entries: this.size, bytes: this.lru?.calculatedSize ?? 0, maxBytes: this.maxBytes };
  }
}
