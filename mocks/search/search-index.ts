// What `/servers/find` searches: the dataset's columns, its sort orders (the spec's,
// by key: computed at load, or read from a snapshot, or sorted on first use for an
// order the index was not given: mocks/dataset/sort-orders.ts), and the row sets
// filters intersect (row-sets.ts), built on first use and kept within a byte budget.
// Everything derived lazily here is a function of the immutable dataset.
import {
  datasetFromRows,
  internColumn,
  isDataset,
  isDictField,
  type Dataset,
  type DictColumn,
  type Numbers,
} from '../dataset/columns.ts';
import { sortOrder, tieOrder, type OrderDefinition, type SortOrders } from '../dataset/sort-orders.ts';
import { BoundedCache, ENTRY_BYTES, type CacheStats } from './bounded-cache.ts';
import { RowCache } from './row-cache.ts';
import { bitsOfValues, OrderRanges, postings, wordsFor, type Bits, type Postings } from './row-sets.ts';
import { isTcpShield, type StoredServer } from '../dataset/server-row.ts';

/**
 * The row cache's size when nobody says otherwise (`--row-cache`): every
 * row of the default dataset fits many times over.
 */
export const DEFAULT_ROW_CACHE_BYTES = 64 * 2 ** 20;

/**
 * The budgets of the caches an index keeps of what clients ask (bounded-cache.ts: each
 * entry charged its key, value and overhead). Built row sets: a set is n/8 bytes (122
 * KiB at a million servers, 128 bytes at a thousand, where its key and objects cost
 * more than its bits); room for about ROW_SETS_KEPT of them, between 4 and 64 MiB (a set
 * of a small dataset is rebuilt in microseconds: keeping 100,000 of them buys nothing).
 * Counts per filter combination: a count and at most FEW_ROWS matching rows each. What
 * each filter value asks: a few objects and the value's text.
 */
export function searchCacheBytes(servers: number): { rowSets: number; counts: number; filterValues: number } {
  const rowSets = Math.min(
    64 * 2 ** 20,
    Math.max(4 * 2 ** 20, ROW_SETS_KEPT * (wordsFor(servers) * 4 + ENTRY_BYTES + 128)),
  );
  return { rowSets, counts: 8 * 2 ** 20, filterValues: 4 * 2 ** 20 };
}

/** How many built row sets the budget is sized for (the mixed workload of 1000 queries uses a few hundred). */
const ROW_SETS_KEPT = 4096;

export interface ServerIndex {
  readonly dataset: Dataset;
  readonly size: number;
  readonly lastPing: Float64Array;
  /** Its sort orders by key (orderKey): those it was given, and those sorted since (see orderOf). */
  readonly orders: Map<string, Uint32Array>;
  /** TCPShield rows (hidden unless noFilter), one bit each. */
  readonly tcp: Bits;
  /** Each row's JSON bytes, with and without its favicon (key `2 * i + favicon`), bounded in size. */
  readonly rowCache: RowCache;
  /** Lazily derived structures (see the functions below). */
  readonly lazy: Lazy;
}

interface Lazy {
  rank: Map<string, Uint32Array>;
  visible: Map<string, Uint32Array>;
  hidden: Map<string, Uint32Array>;
  /** Tie orders by their fields (orders the index sorts itself share them). */
  ties: Map<string, Uint32Array>;
  /** Columns of the fields the dataset does not keep as dictionaries (see column). */
  columns: Map<string, DictColumn>;
  postings: Map<string, Postings>;
  lowered: Map<string, (string | null)[]>;
  ranges: Map<string, OrderRanges>;
  /** Built row sets, by column and filter (valueSet, unionSet). */
  sets: BoundedCache<Bits>;
  /** Counts per filter combination (see rememberedCount). */
  counts: BoundedCache<RememberedCount>;
  /** What each filter value asks of the rows, made once per value (filters.ts). */
  filterValues: BoundedCache<object>;
  scratch?: { runs: Bits[]; spare: Bits; work: Bits };
}

// ---------------------------------------------------------------------------
// The index

export function buildIndex(
  data: Dataset | readonly StoredServer[],
  options: { rowCacheBytes?: number; orders?: SortOrders } = {},
): ServerIndex {
  const dataset = isDataset(data) ? data : datasetFromRows(data);
  const n = dataset.size;
  const org = dataset.dict.asn_name;
  const tcpValue = org.values.map((v) => isTcpShield({ asn_name: v }));
  const tcp = new Uint32Array(wordsFor(n));
  for (let i = 0; i < n; i++)
    if (tcpValue[org.ids[i] as number]) tcp[i >>> 5] = (tcp[i >>> 5] as number) | (1 << (i & 31));
  const budget = searchCacheBytes(n);
  return {
    dataset,
    size: n,
    lastPing: dataset.lastPing,
    orders: new Map(options.orders),
    tcp,
    // Keys are 2 * row + favicon.
    rowCache: new RowCache(options.rowCacheBytes ?? DEFAULT_ROW_CACHE_BYTES, 2 * n),
    lazy: {
      rank: new Map(),
      visible: new Map(),
      hidden: new Map(),
      ties: new Map(),
      columns: new Map(),
      postings: new Map(),
      lowered: new Map(),
      ranges: new Map(),
      sets: new BoundedCache<Bits>(budget.rowSets, (bits) => bits.byteLength),
      counts: new BoundedCache<RememberedCount>(budget.counts, (c) => 32 + (c.rows?.byteLength ?? 0)),
      // A value's plan holds its text a few times over (the key, the lower-cased pattern, its pieces between stars).
      filterValues: new BoundedCache<object>(
        budget.filterValues,
        (plan) => 600 + 32 * ((plan as { key?: string }).key?.length ?? 0),
      ),
    },
  };
}

/** An order of the spec, by its key (orderKey) and definition. */
export interface IndexOrder {
  key: string;
  definition: OrderDefinition;
}

/** Every row in this order: one the index was given, or sorted now and kept (an order the spec added). */
export function orderOf(ix: ServerIndex, o: IndexOrder): Uint32Array {
  let order = ix.orders.get(o.key);
  if (!order) {
    const fields = o.definition.tieBreak.join('\u0000');
    const tie = () => {
      let t = ix.lazy.ties.get(fields);
      if (!t) ix.lazy.ties.set(fields, (t = tieOrder(ix.dataset, o.definition.tieBreak)));
      return t;
    };
    ix.orders.set(o.key, (order = sortOrder(ix.dataset, o.definition, tie)));
  }
  return order;
}

/** Position of each row in this order. */
export function ranks(ix: ServerIndex, o: IndexOrder): Uint32Array {
  let r = ix.lazy.rank.get(o.key);
  if (!r) {
    const all = orderOf(ix, o);
    r = new Uint32Array(ix.size);
    for (let k = 0; k < all.length; k++) r[all[k] as number] = k;
    ix.lazy.rank.set(o.key, r);
  }
  return r;
}

/** This order without the TCPShield rows (what a search without noFilter walks). */
export function visibleOrder(ix: ServerIndex, o: IndexOrder): Uint32Array {
  let v = ix.lazy.visible.get(o.key);
  if (!v) ix.lazy.visible.set(o.key, (v = without(orderOf(ix, o), ix.tcp, false)));
  return v;
}

/** Only the TCPShield rows, in this order (to count `filtered`). */
export function hiddenOrder(ix: ServerIndex, o: IndexOrder): Uint32Array {
  let h = ix.lazy.hidden.get(o.key);
  if (!h) ix.lazy.hidden.set(o.key, (h = without(orderOf(ix, o), ix.tcp, true)));
  return h;
}

/**
 * `order` keeping the rows whose bit in `bits` is `keep` (a plain loop: several
 * times faster than a filter callback at a million rows).
 */
function without(order: Uint32Array, bits: Bits, keep: boolean): Uint32Array {
  const out = new Uint32Array(order.length);
  let k = 0;
  for (let p = 0; p < order.length; p++) {
    const i = order[p] as number;
    if ((((bits[i >>> 5] as number) >>> (i & 31)) & 1) === (keep ? 1 : 0)) out[k++] = i;
  }
  return out.slice(0, k);
}

/**
 * Any field of a row as a dictionary column (row -> id -> distinct value): the dataset's
 * own for the dictionary fields; for the others (`address`, `port`, `players_online`,
 * `last_ping`, or a field the dataset does not store: all undefined) built on first use,
 * so a filter the spec adds on such a field needs no code.
 */
export function column(ix: ServerIndex, field: string): DictColumn {
  if (isDictField(field)) return ix.dataset.dict[field];
  let col = ix.lazy.columns.get(field);
  if (!col) ix.lazy.columns.set(field, (col = internColumn(ix.dataset, field)));
  return col;
}

/** A column's distinct values, lower-cased; null for a value that is no text. */
export function lowered(ix: ServerIndex, field: string): (string | null)[] {
  let l = ix.lazy.lowered.get(field);
  if (!l)
    ix.lazy.lowered.set(
      field,
      (l = column(ix, field).values.map((v) => (typeof v === 'string' ? v.toLowerCase() : null))),
    );
  return l;
}

/** What the index's caches of client-chosen filters hold now (for /__mock/info). */
export function searchCacheStats(ix: ServerIndex): {
  rowSets: CacheStats;
  counts: CacheStats;
  filterValues: CacheStats;
} {
  return { rowSets: ix.lazy.sets.stats(), counts: ix.lazy.counts.stats(), filterValues: ix.lazy.filterValues.stats() };
}

/** The rows whose `field` value passes `test` (given each distinct value once), cached under `key`. */
export function valueSet(
  ix: ServerIndex,
  field: string,
  key: string,
  test: (value: unknown, id: number) => boolean,
): Bits {
  return ix.lazy.sets.getOrBuild(`${field}\u0000${key}`, () => {
    const col = column(ix, field);
    let p = ix.lazy.postings.get(field);
    if (!p) ix.lazy.postings.set(field, (p = postings(col.ids, col.values.length)));
    const ids: number[] = [];
    col.values.forEach((v, id) => {
      if (test(v, id)) ids.push(id);
    });
    return bitsOfValues(p, ids, ix.size);
  });
}

/** A cached union of sets. */
export function unionSet(ix: ServerIndex, key: string, parts: readonly (() => Bits)[]): Bits {
  return ix.lazy.sets.getOrBuild(`\u0001${key}`, () => {
    const out = new Uint32Array(wordsFor(ix.size));
    for (const part of parts) {
      const x = part();
      for (let w = 0; w < out.length; w++) out[w] = (out[w] as number) | (x[w] as number);
    }
    return out;
  });
}

/** A remembered count: how many rows matched and, when they are few, which (search.ts). */
export interface RememberedCount {
  rows?: Uint32Array | undefined;
}

/** Below this many rows counting afresh costs less than remembering. */
const REMEMBER_ABOVE = 65_536;

/**
 * `compute()`, remembered under `key` (the filter combination; clients pick it, so within searchCacheBytes' counts).
 */
export function rememberedCount<T extends RememberedCount>(ix: ServerIndex, key: string, compute: () => T): T {
  if (ix.size < REMEMBER_ABOVE) return compute();
  return ix.lazy.counts.getOrBuild(key, compute) as T;
}

/** Prefix checkpoints of a sort order (the sets of its runs). */
export function orderRanges(ix: ServerIndex, o: IndexOrder): OrderRanges {
  let r = ix.lazy.ranges.get(o.key);
  if (!r) ix.lazy.ranges.set(o.key, (r = new OrderRanges(orderOf(ix, o))));
  return r;
}

/** Scratch sets (queries run synchronously, one at a time): one per range, their spare, the intersection. */
export function scratchSets(ix: ServerIndex, ranges: number): { runs: Bits[]; spare: Bits; work: Bits } {
  const w = wordsFor(ix.size);
  const s = (ix.lazy.scratch ??= { runs: [], spare: new Uint32Array(w), work: new Uint32Array(w) });
  while (s.runs.length < ranges) s.runs.push(new Uint32Array(w));
  return s;
}

/**
 * In `order`, sorted by `values` (descending or ascending): the [start, end) positions whose value is within [lo, hi].
 */
export function runOf(
  values: Numbers,
  order: Uint32Array,
  lo: number,
  hi: number,
  descending: boolean,
): [number, number] {
  // Past the run's first end: above hi when descending, below lo when ascending.
  const before = descending ? (v: number) => v > hi : (v: number) => v < lo;
  const within = descending ? (v: number) => v >= lo : (v: number) => v <= hi;
  let a = 0;
  let b = order.length;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if (before(values[order[mid] as number] as number)) a = mid + 1;
    else b = mid;
  }
  const start = a;
  b = order.length;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if (within(values[order[mid] as number] as number)) a = mid + 1;
    else b = mid;
  }
  return [start, a];
}
