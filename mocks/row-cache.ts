// Search rows as ready-to-send JSON bytes, bounded in memory. Serialising a row costs
// far more than sending it, so the search answers from cached bytes; but a client
// paging through a large listing touches every row. A cache of one Buffer per row
// was bounded in bytes counted and not in memory used: a million small allocations
// freed and made again fragment the allocator, and paging 100k rows through a 64 MiB
// cache grew the process by 160 MiB. So the rows live in one slab of `maxBytes`,
// written as a ring: the memory is the slab, whatever the churn.
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

/** Where each row lives, as typed arrays: no object per row for the garbage collector to keep or move. */
class RingIndex {
  /** Queue slots in write order, from `tail` (oldest) to `head`: the row's key (-1: replaced since), where it starts, its length, the answer that last read it. */
  key = new Int32Array(1024);
  at = new Float64Array(1024);
  length = new Int32Array(1024);
  answer = new Int32Array(1024);
  tail = 0;
  count = 0;
  /** key -> queue slot + 1, 0 when absent (keys are small integers: 2 * row + favicon; zero-filled memory is free). */
  slotOf = new Int32Array(0);
  live = 0;

  slot(key: number): number {
    return key < this.slotOf.length ? (this.slotOf[key] as number) - 1 : -1;
  }

  push(key: number, at: number, length: number): void {
    if (this.count === this.key.length) this.grow();
    if (key >= this.slotOf.length) {
      const bigger = new Int32Array(Math.max(key + 1, 2 * this.slotOf.length));
      bigger.set(this.slotOf);
      this.slotOf = bigger;
    }
    const q = (this.tail + this.count) % this.key.length;
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
    this.tail = (this.tail + 1) % this.key.length;
    this.count--;
  }

  private grow(): void {
    const n = this.key.length;
    const order = Array.from({ length: this.count }, (_, k) => (this.tail + k) % n);
    const move = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(2 * n);
      order.forEach((q, k) => (b[k] = a[q] as number));
      return b;
    };
    this.key = move(this.key, (m) => new Int32Array(m));
    this.at = move(this.at, (m) => new Float64Array(m));
    this.length = move(this.length, (m) => new Int32Array(m));
    this.answer = move(this.answer, (m) => new Int32Array(m));
    for (let k = 0; k < this.count; k++) if ((this.key[k] as number) >= 0) this.slotOf[this.key[k] as number] = k + 1;
    this.tail = 0;
  }
}

export class RowCache {
  private readonly ring = new RingIndex();
  private slab: Buffer | undefined;
  /** Bytes ever written to the ring, gaps at its end included (a row's slab offset is its start modulo the size). */
  private written = 0;
  private answer = 0;
  private hits = 0;
  private misses = 0;
  private evictions = 0;

  /** `maxBytes` 0 keeps nothing: every row is serialised on each use. */
  constructor(readonly maxBytes: number) {}

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
    const from = (this.ring.at[q] as number) % this.maxBytes;
    return (this.slab as Buffer).subarray(from, from + (this.ring.length[q] as number));
  }

  /** Copies `value` into the ring under `key` (unless it is bigger than the slab or would overwrite a pinned row). */
  set(key: number, value: Uint8Array): void {
    const size = this.maxBytes;
    const length = value.byteLength;
    if (length === 0 || length > size) return;
    const ring = this.ring;
    const old = ring.slot(key);
    if (old >= 0) ring.forget(old);
    // A row does not wrap: if it would cross the end of the slab, it starts at its beginning.
    let at = this.written;
    if ((at % size) + length > size) at += size - (at % size);
    // Everything that started less than a slab before this row's end is overwritten by it.
    while (ring.count > 0) {
      const q = ring.tail;
      if ((ring.key[q] as number) >= 0) {
        if ((ring.at[q] as number) + size >= at + length) break;
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
      const q = (ring.tail + k) % ring.key.length;
      if ((ring.key[q] as number) >= 0) bytes += ring.length[q] as number;
    }
    return { hits: this.hits, misses: this.misses, evictions: this.evictions, bytes, entries: ring.live, maxBytes: this.maxBytes };
  }
}
