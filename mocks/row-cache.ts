// Search rows as ready-to-send JSON bytes, bounded in memory. Serialising a row costs
// far more than sending it, so the search answers from cached bytes; but a client
// paging through a large listing touches every row, and an unbounded cache grew to
// ~2.5 KB per row and variant and never gave it back. This one holds at most
// `maxBytes` and evicts by CLOCK (second chance): a hit only sets a flag, so the hot
// path pays one Map lookup per row, and eviction skips rows used since the last pass.

export interface RowCacheStats {
  hits: number;
  misses: number;
  evictions: number;
  /** Bytes held: the rows' JSON plus a fixed bookkeeping cost per row. */
  bytes: number;
  entries: number;
  maxBytes: number;
}

interface Entry {
  value: Buffer;
  /** Used since the clock hand last passed it. */
  used: boolean;
}

/** What holding one row costs besides its bytes: the Buffer and its backing store, the entry, the Map slot. */
export const ENTRY_OVERHEAD_BYTES = 160;

export class RowCache {
  // Map order is the clock: the hand is the front, a second chance moves an entry to the back.
  private readonly entries = new Map<number, Entry>();
  private bytes = 0;
  private hits = 0;
  private misses = 0;
  private evictions = 0;

  /** `maxBytes` 0 keeps nothing: every row is serialised on each use. */
  constructor(readonly maxBytes: number) {}

  get(key: number): Buffer | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    entry.used = true;
    return entry.value;
  }

  /** Keeps `value` under `key`, evicting until it fits; a value bigger than the whole cache is not kept. */
  set(key: number, value: Buffer): void {
    const cost = value.byteLength + ENTRY_OVERHEAD_BYTES;
    if (cost > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.value.byteLength + ENTRY_OVERHEAD_BYTES;
    }
    while (this.bytes + cost > this.maxBytes) this.evictOne();
    this.entries.set(key, { value, used: false });
    this.bytes += cost;
  }

  private evictOne(): void {
    for (const [key, entry] of this.entries) {
      this.entries.delete(key);
      if (entry.used) {
        entry.used = false;
        this.entries.set(key, entry);
        continue;
      }
      this.bytes -= entry.value.byteLength + ENTRY_OVERHEAD_BYTES;
      this.evictions++;
      return;
    }
  }

  stats(): RowCacheStats {
    return { hits: this.hits, misses: this.misses, evictions: this.evictions, bytes: this.bytes, entries: this.entries.size, maxBytes: this.maxBytes };
  }
}

/**
 * `text` as UTF-8 in a Buffer of its own. Buffer.from() packs small strings into shared
 * 8 KB slabs, and one cached row would then keep a whole slab alive after its
 * neighbours were evicted: the cache's byte count would no longer be the memory it holds.
 */
export function ownBytes(text: string): Buffer {
  const out = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  out.write(text);
  return out;
}
