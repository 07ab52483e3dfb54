// The sort orders the spec declares (`x-meaning` rule `sort` on findServers' `sort`:
// each value an order by a field, a direction and a `compare` kind, ties broken by the
// `tieBreak` fields), worked out for the dataset when it is loaded (a snapshot stores
// them, so a cached start does not sort): each order is every row, in that order. An
// order the spec adds is sorted here with no code: its field's distinct values ranked
// by the spec's comparator (spec/sort-compare.ts), the rows regrouped by rank in
// linear time. Faster routes give the same orders: the address order is a radix sort
// of its bytes, the numeric fields (ports, players, ping times) counting sorts.
import type { SortOrder } from '../../spec/meaning.ts';
import type { Operation } from '../../spec/model.ts';
import { parameterWith, type MeaningOf } from '../../spec/rules.ts';
import { COMPARATORS } from '../../spec/sort-compare.ts';
import {
  addressAt,
  internColumn,
  isDictField,
  numbersOf,
  type DictColumn,
  type Dataset,
  type Numbers,
} from './columns.ts';

/** What the spec says of a search's order: the rule of its `sort` parameter. */
export type SortRule = MeaningOf<'sort'>;

/** The sort rule of a search operation; none (no order declared) when it has no `sort` parameter. */
export function sortRuleOf(op: Operation | undefined): SortRule {
  return (op && parameterWith(op, 'sort')?.meaning) ?? { rule: 'sort', orders: {}, tieBreak: [] };
}

/** One order as the spec defines it: its field, direction and comparison, and the fields that break ties. */
export interface OrderDefinition extends SortOrder {
  tieBreak: readonly string[];
}

/** An order's definition as a key: the orders a snapshot or an index holds are named by what they are. */
export const orderKey = (d: OrderDefinition): string =>
  `${d.field} ${d.direction} ${d.compare}; ties ${d.tieBreak.join(', ')}`;

/** Each order of a sort rule, by its value in the spec (`users`), with its definition and key. */
export function ordersOf(rule: SortRule): Map<string, { definition: OrderDefinition; key: string }> {
  return new Map(
    Object.entries(rule.orders).map(([name, o]) => {
      const definition = { ...o, tieBreak: rule.tieBreak };
      return [name, { definition, key: orderKey(definition) }];
    }),
  );
}

/** The order of a search whose spec declares none: the rows as stored. */
export const STORED_ORDER: OrderDefinition = { field: '', direction: 'asc', compare: 'natural', tieBreak: [] };

/** Orders by their keys (orderKey). */
export type SortOrders = ReadonlyMap<string, Uint32Array>;

// ---------------------------------------------------------------------------
// Sort orders

/** The distinct values, ascending, and each value's rank among them. */
function rankOf(values: Float64Array): { distinct: Float64Array; rank: (v: number) => number } {
  const sorted = values.slice().sort();
  let d = 0;
  for (let k = 0; k < sorted.length; k++) if (k === 0 || sorted[k] !== sorted[d - 1]) sorted[d++] = sorted[k] as number;
  const distinct = sorted.subarray(0, d);
  return {
    distinct,
    rank: (v) => {
      let lo = 0;
      let hi = d - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((distinct[mid] as number) < v) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    },
  };
}

/**
 * Rows ordered by `primary` (ascending or descending), ties in `tie` order. Packs
 * (rank of primary value, tie rank) into one exact float per row and uses the
 * native comparator-free typed-array sort. NaN sorts last.
 */
function orderBy(primary: Numbers, descending: boolean, tie: Uint32Array, tieRank: Uint32Array): Uint32Array {
  const n = primary.length;
  const nan = descending ? -Infinity : Infinity;
  const clean = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = primary[i] as number;
    clean[i] = Number.isNaN(v) ? nan : v;
  }
  const { distinct, rank } = rankOf(clean);
  const d = distinct.length;
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const r = rank(clean[i] as number);
    keys[i] = (descending ? d - 1 - r : r) * n + (tieRank[i] as number);
  }
  keys.sort();
  const out = new Uint32Array(n);
  for (let k = 0; k < n; k++) {
    const key = keys[k] as number;
    out[k] = tie[key - Math.floor(key / n) * n] as number;
  }
  return out;
}

/** Rows per range below which comparing is cheaper than sorting by packed keys. */
const SMALL = 16;
/** Rows per range from which a counting sort beats sorting packed keys natively. */
const LARGE = 4096;
/** Row numbers take the low 23 bits of a packed key (up to 8M rows; the mock allows 5M). */
const ROW_BITS = 2 ** 23;
/** The counting sort's digits: 14 bits, two passes over a 28-bit chunk. */
const DIGIT = 1 << 14;

/**
 * Rows by address (code-unit order), then port, then row, without comparing strings:
 * 4 bytes of each address at a time (7 bits each, a 28-bit "chunk"), the rows sorted by
 * their chunk (a counting sort for big ranges; the chunk and row packed into one exact
 * float and sorted natively for middling ones), rows whose chunks tie sorted again on the
 * next 4 bytes, and small ties by comparing their remaining bytes. The first three chunks
 * of every row are read in row order up front (reading them in sorted order would miss the
 * cache at every row). Addresses with a NUL, DEL or non-ASCII byte, which only a
 * hand-written data file has, are compared as strings instead.
 */
function orderByAddress(ds: Dataset): Uint32Array {
  const n = ds.size;
  const bytes = ds.addressBytes;
  const start = ds.addressStart;
  const port = ds.port;
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = i;
  const byPortThenRow = (a: number, b: number): number => (port[a] as number) - (port[b] as number) || a - b;
  if (!plainAscii(bytes)) {
    return out.sort((a, b) => {
      const s = addressAt(ds, a);
      const t = addressAt(ds, b);
      return s < t ? -1 : s > t ? 1 : byPortThenRow(a, b);
    });
  }
  // The 4 bytes of row i from byte d (0 past its end, so a prefix sorts first).
  const chunkOf = (i: number, d: number): number => {
    const from = (start[i] as number) + d;
    const end = start[i + 1] as number;
    let chunk = 0;
    for (let j = from; j < from + 4; j++) chunk = chunk * 128 + (j < end ? (bytes[j] as number) : 0);
    return chunk;
  };
  const rowChunks = [0, 4, 8].map((d) => {
    const c = new Uint32Array(n);
    for (let i = 0; i < n; i++) c[i] = chunkOf(i, d);
    return c;
  });
  // Rows a and b, equal before byte d (a multiple of 4): their remaining bytes, then port and row.
  const compareFrom = (a: number, b: number, d: number): number => {
    for (; d < 4 * rowChunks.length; d += 4) {
      const chunks = rowChunks[d / 4] as Uint32Array;
      const x = chunks[a] as number;
      const y = chunks[b] as number;
      if (x !== y) return x - y;
      if (x % 128 === 0) return byPortThenRow(a, b);
    }
    let x = (start[a] as number) + d;
    let y = (start[b] as number) + d;
    const xEnd = start[a + 1] as number;
    const yEnd = start[b + 1] as number;
    for (; x < xEnd && y < yEnd; x++, y++)
      if (bytes[x] !== bytes[y]) return (bytes[x] as number) - (bytes[y] as number);
    return xEnd - x - (yEnd - y) || byPortThenRow(a, b);
  };
  // chunks[p]: the chunk of the row at position p, at the depth being sorted.
  const chunks = new Uint32Array(n);
  const spareOut = new Uint32Array(n);
  const spareChunks = new Uint32Array(n);
  const packed = new Float64Array(Math.min(n, LARGE));
  const count = new Uint32Array(DIGIT + 1);
  // One stable counting pass of positions [lo, hi) by a 14-bit digit of their chunk, from (o, c) into (o2, c2).
  const pass = (
    lo: number,
    hi: number,
    shift: number,
    o: Uint32Array,
    c: Uint32Array,
    o2: Uint32Array,
    c2: Uint32Array,
  ): void => {
    count.fill(0);
    for (let p = lo; p < hi; p++) {
      const digit = ((c[p] as number) >>> shift) & (DIGIT - 1);
      count[digit + 1] = (count[digit + 1] as number) + 1;
    }
    count[0] = lo;
    for (let k = 0; k < DIGIT; k++) count[k + 1] = (count[k + 1] as number) + (count[k] as number);
    for (let p = lo; p < hi; p++) {
      const chunk = c[p] as number;
      const digit = (chunk >>> shift) & (DIGIT - 1);
      const to = count[digit] as number;
      count[digit] = to + 1;
      o2[to] = o[p] as number;
      c2[to] = chunk;
    }
  };
  const sortRange = (lo: number, hi: number, d: number): void => {
    if (hi - lo <= SMALL) {
      // Insertion sort: a handful of rows.
      for (let p = lo + 1; p < hi; p++) {
        const row = out[p] as number;
        let q = p - 1;
        for (; q >= lo && compareFrom(out[q] as number, row, d) > 0; q--) out[q + 1] = out[q] as number;
        out[q + 1] = row;
      }
      return;
    }
    const known = rowChunks[d / 4];
    for (let p = lo; p < hi; p++)
      chunks[p] = known ? (known[out[p] as number] as number) : chunkOf(out[p] as number, d);
    if (hi - lo >= LARGE) {
      pass(lo, hi, 0, out, chunks, spareOut, spareChunks);
      pass(lo, hi, 14, spareOut, spareChunks, out, chunks);
    } else {
      const keys = packed.subarray(0, hi - lo);
      for (let p = lo; p < hi; p++) keys[p - lo] = (chunks[p] as number) * ROW_BITS + (out[p] as number);
      keys.sort();
      for (let p = lo; p < hi; p++) {
        const key = keys[p - lo] as number;
        const chunk = Math.floor(key / ROW_BITS);
        chunks[p] = chunk;
        out[p] = key - chunk * ROW_BITS;
      }
    }
    // Each run of one chunk: ended inside it (equal addresses: by port), or on to the next 4 bytes.
    for (let a = lo; a < hi; ) {
      const chunk = chunks[a] as number;
      let b = a + 1;
      while (b < hi && chunks[b] === chunk) b++;
      if (b - a > 1) {
        if (chunk % 128 === 0) out.subarray(a, b).sort(byPortThenRow);
        else sortRange(a, b, d + 4);
      }
      a = b;
    }
  };
  sortRange(0, n, 0);
  return out;
}

/** Every byte is ASCII and none is NUL or DEL: 7 bits each, ordered as the text's code units. */
function plainAscii(bytes: Uint8Array): boolean {
  for (let k = 0; k < bytes.length; k++) {
    const c = bytes[k] as number;
    if (c === 0 || c >= 0x7f) return false;
  }
  return true;
}

/** Keys for a counting sort: an integer in [0, 2^32) per row, and the largest. */
interface IntegerKeys {
  keys: Uint32Array;
  max: number;
}

/** `key(i)` for every row, when each is an integer in [0, 2^32); undefined otherwise (a comparison sort does it). */
function integerKeys(n: number, key: (i: number) => number): IntegerKeys | undefined {
  const keys = new Uint32Array(n);
  let max = 0;
  for (let i = 0; i < n; i++) {
    const k = key(i);
    if (!(k >= 0 && k < 2 ** 32 && k === Math.floor(k))) return undefined;
    keys[i] = k;
    if (k > max) max = k;
  }
  return { keys, max };
}

/**
 * `base` re-ordered by its rows' keys (ascending), ties kept in `base` order: a counting
 * sort on 16-bit digits, one pass (or two for keys past 65535, such as 60 days of seconds).
 */
function bucketOrder(base: Uint32Array, { keys, max }: IntegerKeys): Uint32Array {
  const low = countingPass(base, keys, false);
  return max < 65536 ? low : countingPass(low, keys, true);
}

/** One stable counting pass over `order` by the low (or high) 16 bits of each row's key. */
function countingPass(order: Uint32Array, keys: Uint32Array, high: boolean): Uint32Array {
  const n = order.length;
  const start = new Uint32Array(65537);
  for (let i = 0; i < n; i++) {
    const k = keys[i] as number;
    const digit = high ? k >>> 16 : k & 0xffff;
    start[digit + 1] = (start[digit + 1] as number) + 1;
  }
  for (let d = 0; d < 65536; d++) start[d + 1] = (start[d + 1] as number) + (start[d] as number);
  const out = new Uint32Array(n);
  for (let p = 0; p < n; p++) {
    const i = order[p] as number;
    const k = keys[i] as number;
    const digit = high ? k >>> 16 : k & 0xffff;
    out[start[digit] as number] = i;
    start[digit] = (start[digit] as number) + 1;
  }
  return out;
}

function extent(a: Numbers): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < a.length; i++) {
    const v = a[i] as number;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { min, max };
}

/** A field as the sorts read it: its numbers per row (ms for times), or its distinct values. */
type SortColumn = { numbers: Numbers; time: boolean } | { dict: DictColumn };

function sortColumn(ds: Dataset, field: string): SortColumn {
  const numbers = numbersOf(ds, field);
  if (numbers) return numbers;
  return { dict: isDictField(field) ? ds.dict[field] : internColumn(ds, field) };
}

/**
 * Each row's rank among the field's distinct values (ascending by the comparator, or
 * descending), a value no comparison reads (a null, a missing field) last either way:
 * keys for a counting sort.
 */
function rankKeys(col: DictColumn, compare: SortOrder['compare'], descending: boolean): IntegerKeys {
  const cmp = COMPARATORS[compare];
  // Numbers before text (a hand-written data file may mix them), everything else after.
  const classOf = (v: unknown) => (typeof v === 'number' ? 0 : typeof v === 'string' ? 1 : 2);
  const ranked = col.values
    .map((v, id) => ({ v, id }))
    .filter(({ v }) => classOf(v) < 2)
    .sort((a, b) => classOf(a.v) - classOf(b.v) || (cmp(a.v, b.v) ?? 0));
  const d = ranked.length;
  const rankOfId = new Uint32Array(col.values.length).fill(d);
  ranked.forEach((x, r) => {
    rankOfId[x.id] = descending ? d - 1 - r : r;
  });
  const ids = col.ids;
  const keys = new Uint32Array(ids.length);
  for (let i = 0; i < ids.length; i++) keys[i] = rankOfId[ids[i] as number] as number;
  return { keys, max: d };
}

/**
 * The order that breaks ties: rows by each tieBreak field ascending (the spec's natural
 * comparison), then by row. By address (and port), the radix sort of the address
 * bytes; otherwise a counting sort per field, the last field first.
 */
export function tieOrder(ds: Dataset, tieBreak: readonly string[]): Uint32Array {
  if (tieBreak[0] === 'address' && (tieBreak.length === 1 || (tieBreak.length === 2 && tieBreak[1] === 'port')))
    return orderByAddress(ds);
  let order: Uint32Array = new Uint32Array(ds.size);
  for (let i = 0; i < ds.size; i++) order[i] = i;
  for (const field of [...tieBreak].reverse())
    order = byField(ds, { field, direction: 'asc', compare: 'natural' }, order);
  return order;
}

/** `tie` regrouped by one field (stable: tied rows keep their order in `tie`). */
function byField(ds: Dataset, o: SortOrder, tie: Uint32Array): Uint32Array {
  const col = sortColumn(ds, o.field);
  const descending = o.direction === 'desc';
  if ('dict' in col) return bucketOrder(tie, rankKeys(col.dict, o.compare, descending));
  // Numbers and times, whatever the comparison (a time's text sorts as its instant):
  // integers per row for a counting sort (generated pings are whole seconds: a few
  // million keys, two passes), else a packed-key sort.
  const v = col.numbers;
  const { min, max } = extent(v);
  const unit = col.time ? 1000 : 1;
  const keys = integerKeys(ds.size, (i) =>
    descending ? (max - (v[i] as number)) / unit : ((v[i] as number) - min) / unit,
  );
  if (keys) return bucketOrder(tie, keys);
  const tieRank = new Uint32Array(ds.size);
  for (let r = 0; r < tie.length; r++) tieRank[tie[r] as number] = r;
  return orderBy(v, descending, tie, tieRank);
}

/** One order of the dataset; `tie`: its tieBreak order, when the caller has it. */
export function sortOrder(
  ds: Dataset,
  d: OrderDefinition,
  tie: () => Uint32Array = () => tieOrder(ds, d.tieBreak),
): Uint32Array {
  // The tie order is already by its first field, ascending and natural.
  if (d.tieBreak[0] === d.field && d.direction === 'asc' && d.compare === 'natural') return tie();
  return byField(ds, d, tie());
}

/**
 * Every order of a sort rule, by key (orderKey): those in `known` (a snapshot's) as they
 * are, the others sorted, sharing one tie order.
 */
export function sortOrders(ds: Dataset, rule: SortRule, known: SortOrders = new Map()): Map<string, Uint32Array> {
  const out = new Map<string, Uint32Array>();
  const ties = new Map<string, Uint32Array>();
  for (const { definition, key } of ordersOf(rule).values()) {
    if (out.has(key)) continue;
    const held = known.get(key);
    if (held?.length === ds.size) {
      out.set(key, held);
      continue;
    }
    const tieKey = definition.tieBreak.join('\u0000');
    const tie = () => {
      let t = ties.get(tieKey);
      if (!t) ties.set(tieKey, (t = tieOrder(ds, definition.tieBreak)));
      return t;
    };
    out.set(key, sortOrder(ds, definition, tie));
  }
  return out;
}
