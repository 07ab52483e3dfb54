// Search rows as ready-to-send JSON bytes, bounded in memory. Serialising a row costs
// far more than sending it, so the search answers from cached bytes; but a client
// paging through a large listing touches every row. A cache of one Buffer per row
// was bounded in bytes counted and not in memory used: a million small allocations
// freed and made again fragment the allocator, and paging 100k rows through a 64 MiB
// cache grew the process by 160 MiB. So the rows live in one slab, written as a ring,
// and their index in typed arrays: the memory is the slab and the index, both within
// `maxBytes`, whatever the churn.
//
// A row written at the head overwrites the oldest rows (first in, first out). A row
// read during the current answer is pinned until the next one begins (`nextAnswer`):
// the answer holds views into the slab until it copies them, so a row it has read is
// never overwritten under it (the new row is then simply not cached).

export interface RowCacheStats {
  hits: number;
  misses: number;
  evictions: number;
  /** Bytes of the slab holding rows. */
  bytes: number;
  entries: number;
  maxBytes: number;
}

/** Slab bytes planned per entry of the index: rows are rarely smaller (a generated row is about 1.4 KB). */
const BYTES_PER_ENTRY = 512;
/** What one entry of the queue costs: key, start, length, answer. */
export const QUEUE_ENTRY_BYTES = 4 + 8 + 4 + 4;

/** Where each row lives, as typed arrays: no object per row for the garbage collector to keep or move. */
class RingIndex {
  /**
   * Queue slots in write order, from `tail` (oldest): the row's key (-1: replaced
   * since), where it starts, its length, the answer that last read it.
   */
  readonly key: Int32Array;
  readonly at: Float64Array;
  readonly length: Int32Array;
  readonly answer: Int32Array;
  tail = 0;
  count = 0;
  /**
   * key -> queue slot + 1, 0 when absent (keys are small integers: 2 * row +
   * favicon; zero-filled memory costs nothing until used).
   */
  slotOf: Int32Array;
  live = 0;

  constructor(
    readonly capacity: number,
    keys: number,
  ) {
    this.key = new Int32Array(capacity);
    this.at = new Float64Array(capacity);
    this.length = new Int32Array(capacity);
    this.answer = new Int32Array(capacity);
    this.slotOf = new Int32Array(keys);
  }

  slot(key: number): number {
    return key < this.slotOf.length ? (this.slotOf[key] as number) - 1 : -1;
  }

  get full(): boolean {
    return this.count === this.capacity;
  }

  push(key: number, at: number, length: number): void {
    if (key >= this.slotOf.length) {
      // Keys past the announced count (a cache made without one, in tests): grow.
      const bigger = new Int32Array(Math.max(key + 1, 2 * this.slotOf.length));
      bigger.set(this.slotOf);
      this.slotOf = bigger;
    }
    const q = (this.tail + this.count) % this.capacity;
    this.key[q] = key;
    this.at[q] = at;
    this.length[q] = length;
    this.answer[q] = -1;
    this.slotOf[key] = q + 1;
    this.count++;
    this.live++;
  }

  /** Forgets the row in this slot (it stays in the queue as a gap until it reaches the tail). */
  forget(q: number): void {
    this.slotOf[this.key[q] as number] = 0;
    this.key[q] = -1;
    this.live--;
  }

  popTail(): void {
    this.tail = (this.tail + 1) % this.capacity;
    this.count--;
  }
}

export class RowCache {
  private readonly ring: RingIndex;
  /** The slab's size: what the budget leaves after the index. */
  private readonly size: number;
  private slab: Buffer | undefined;
  /** Bytes ever written to the ring, gaps at its end included (a row's slab offset is its start modulo the size). */
  private written = 0;
  private answer = 0;
  private hits = 0;
  private misses = 0;
  private evictions = 0;

  /**
   * `maxBytes` is the whole cache: its slab and its index (4 bytes per key, for `keys`
   * keys, and a queue entry per BYTES_PER_ENTRY of slab). 0, or a budget the index
   * alone would exceed, keeps nothing: every row is serialised on each use.
   */
  constructor(
    readonly maxBytes: number,
    keys = 0,
    bytesPerEntry = BYTES_PER_ENTRY,
  ) {
    const left = Math.max(0, maxBytes - 4 * keys);
    // The queue needs no more entries than rows can be in it: each key once, and as many again for the gaps
    // replaced rows leave. A small listing's index stays small under the default budget (64 MiB would
    // otherwise make four typed arrays of 126,000 entries each, zeroed at every start).
    const byBudget = Math.floor(left / (bytesPerEntry + QUEUE_ENTRY_BYTES));
    const capacity = keys > 0 ? Math.min(byBudget, 2 * keys) : byBudget;
    this.size = left - capacity * QUEUE_ENTRY_BYTES;
    this.ring = new RingIndex(capacity, capacity > 0 ? keys : 0);
  }

  /** A new answer begins: rows read by the last one may be overwritten again. */
  nextAnswer(): void {
    this.answer++;
  }

  /** The row's bytes: a view into the slab, valid until the next answer has written past it. */
  get(key: number): Buffer | undefined {
    const q = this.ring.slot(key);
    if (q < 0) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.ring.answer[q] = this.answer;
    const from = (this.ring.at[q] as number) % this.size;
    return (this.slab as Buffer).subarray(from, from + (this.ring.length[q] as number));
  }

  /** Copies `value` into the ring under `key` (unless it is bigger than the slab or would overwrite a pinned row). */
  set(key: number, value: Uint8Array): void {
    const size = this.size;
    const length = value.byteLength;
    const ring = this.ring;
    if (length === 0 || length > size || ring.capacity === 0) return;
    const old = ring.slot(key);
    if (old >= 0) ring.forget(old);
    // A row does not wrap: if it would cross the end of the slab, it starts at its beginning.
    let at = this.written;
    if ((at % size) + length > size) at += size - (at % size);
    // Everything that started less than a slab before this row's end is overwritten by it;
    // a full queue gives up its oldest entry too.
    while (ring.count > 0) {
      const q = ring.tail;
      if ((ring.key[q] as number) >= 0) {
        if ((ring.at[q] as number) + size >= at + length && !ring.full) break;
        if (ring.answer[q] === this.answer) return;
        ring.forget(q);
        this.evictions++;
      }
      ring.popTail();
    }
    this.slab ??= Buffer.allocUnsafeSlow(size);
    this.slab.set(value, at % size);
    this.written = at + length;
    ring.push(key, at, length);
  }

  stats(): RowCacheStats {
    const ring = this.ring;
    let bytes = 0;
    for (let k = 0; k < ring.count; k++) {
      const q = (ring.tail + k) % ring.capacity;
      if ((ring.key[q] as number) >= 0) bytes += ring.length[q] as number;
    }
    return {
      hits: this.hits,
      misses: this.misses,
      evictions: this.evictions,
      bytes,
      entries: ring.live,
      maxBytes: this.maxBytes,
    };
  }
}
