// Sets of rows as bitsets, so a filtered search intersects precomputed sets instead of
// testing every row: one bit per server, 32 to a word, so at a million servers a set is
// 122 KiB and intersecting or counting two is a pass over 31,250 words.
//
// Where the sets come from:
//  - a value filter (region=EU, version=1.20*, motd=*survival*): the column's distinct
//    values are tested (a few hundred at most), and the rows of the matching ones are
//    set from the column's postings (rows grouped by value), so building a set costs
//    what it holds; built sets are kept, bounded in bytes, keyed by column and filter;
//  - a range on a sorted column (minUsers, maxAge...): a contiguous run of positions in
//    that sort order. Every `step` positions a checkpoint holds the set of the positions
//    before it, so a prefix is a copy of the nearest checkpoint plus at most `step` bits.
import type { Ids } from '../dataset/columns.ts';

export type Bits = Uint32Array;

export const wordsFor = (n: number): number => (n + 31) >>> 5;

/** Bits set in each 16-bit value: two lookups count a word (faster here than bit tricks). */
const BITS16 = new Uint8Array(65536);
for (let i = 1; i < 65536; i++) BITS16[i] = (i & 1) + (BITS16[i >>> 1] as number);

export function popcount32(x: number): number {
  return (BITS16[x & 0xffff] as number) + (BITS16[x >>> 16] as number);
}

/**
 * `out` = the intersection of `sets` (at least one), in one pass over the words, counting
 * its members and those of them also in `marked` (the TCPShield rows). More than three
 * sets are first folded into `out` pairwise.
 */
export function intersectAndCount(sets: readonly Bits[], marked: Bits, out: Bits): { members: number; marked: number } {
  const words = out.length;
  let rest = sets;
  if (sets.length > 3) {
    out.set(sets[0] as Bits);
    for (const s of sets.slice(1, sets.length - 2))
      for (let w = 0; w < words; w++) out[w] = (out[w] as number) & (s[w] as number);
    rest = [out, ...sets.slice(sets.length - 2)];
  }
  const a = rest[0] as Bits;
  const b = (rest[1] ?? a) as Bits;
  const c = (rest[2] ?? b) as Bits;
  let members = 0;
  let inMarked = 0;
  for (let w = 0; w < words; w++) {
    const x = (a[w] as number) & (b[w] as number) & (c[w] as number);
    out[w] = x;
    if (x === 0) continue;
    members += popcount32(x);
    const y = x & (marked[w] as number);
    if (y !== 0) inMarked += popcount32(y);
  }
  return { members, marked: inMarked };
}

export const hasBit = (bits: Bits, i: number): boolean => ((bits[i >>> 5] as number) & (1 << (i & 31))) !== 0;

/** Rows grouped by their value id: the rows with id v are `rows[start[v] .. start[v + 1]]`, ascending. */
export interface Postings {
  rows: Uint32Array;
  start: Uint32Array;
}

/** Counting sort of the rows by id: one pass to count, one to place. */
export function postings(ids: Ids, distinct: number): Postings {
  const n = ids.length;
  const start = new Uint32Array(distinct + 1);
  for (let i = 0; i < n; i++) {
    const v = (ids[i] as number) + 1;
    start[v] = (start[v] as number) + 1;
  }
  for (let v = 0; v < distinct; v++) start[v + 1] = (start[v + 1] as number) + (start[v] as number);
  const next = start.slice(0, distinct);
  const rows = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const v = ids[i] as number;
    rows[next[v] as number] = i;
    next[v] = (next[v] as number) + 1;
  }
  return { rows, start };
}

/** The set of rows whose id is in `values`. */
export function bitsOfValues(p: Postings, values: readonly number[], n: number): Bits {
  const out = new Uint32Array(wordsFor(n));
  const rows = p.rows;
  for (const v of values) {
    const end = p.start[v + 1] as number;
    for (let k = p.start[v] as number; k < end; k++) {
      const i = rows[k] as number;
      out[i >>> 5] = (out[i >>> 5] as number) | (1 << (i & 31));
    }
  }
  return out;
}

/** The fewest positions between two checkpoints (a checkpoint costs a set: n bits). */
const MIN_STEP = 64;

/** Prefix sets of one sort order, every `step` positions. */
export class OrderRanges {
  private readonly step: number;
  private readonly checkpoints: Bits[] = [];
  private readonly words: number;

  constructor(
    private readonly order: Uint32Array,
    /** How many checkpoints at most (memory: that many sets). */
    maxCheckpoints = 128,
  ) {
    const n = order.length;
    this.words = wordsFor(n);
    // A prefix walks at most `step` positions past its checkpoint. At least 64 (a run's set
    // of a 1,000-row dataset walked up to 1,000 positions a query, most of a filtered
    // search's time, when the step was at least 1,024); at most maxCheckpoints sets of n bits.
    this.step = Math.max(MIN_STEP, Math.ceil(n / maxCheckpoints));
    const running = new Uint32Array(this.words);
    for (let pos = 0; pos <= n; pos++) {
      if (pos % this.step === 0) this.checkpoints.push(running.slice());
      if (pos < n) {
        const i = order[pos] as number;
        running[i >>> 5] = (running[i >>> 5] as number) | (1 << (i & 31));
      }
    }
  }

  /** Into `out`: the rows at positions [0, end) of the order. */
  prefix(end: number, out: Bits): Bits {
    const j = Math.floor(end / this.step);
    out.set(this.checkpoints[j] as Bits);
    const order = this.order;
    for (let pos = j * this.step; pos < end; pos++) {
      const i = order[pos] as number;
      out[i >>> 5] = (out[i >>> 5] as number) | (1 << (i & 31));
    }
    return out;
  }

  /** Into `out`: the rows at positions [start, end) (`scratch` is a second set of the same size). */
  range(start: number, end: number, out: Bits, scratch: Bits): Bits {
    const n = this.order.length;
    if (start <= 0) return this.prefix(end, out);
    this.prefix(start, scratch);
    if (end >= n) {
      for (let w = 0; w < this.words; w++) out[w] = ~(scratch[w] as number);
      clearTail(out, n);
      return out;
    }
    this.prefix(end, out);
    for (let w = 0; w < this.words; w++) out[w] = (out[w] as number) & ~(scratch[w] as number);
    return out;
  }
}

/** Zeroes the bits past row n-1 in the last word (after a complement). */
export function clearTail(bits: Bits, n: number): void {
  const r = n & 31;
  if (r !== 0) bits[bits.length - 1] = (bits[bits.length - 1] as number) & ((1 << r) - 1);
}
