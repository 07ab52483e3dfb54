// Every sort order of the dataset, worked out once when it is loaded (a snapshot stores
// them, so a cached start does not sort): each order is every row, in that order. The
// orders are the values of `findServers`' `sort` parameter (the generated types).
import type { operations } from '../../spec/openapi.gen.ts';
import { addressAt, type Dataset, type Numbers } from './columns.ts';

type FindParams = NonNullable<operations['findServers']['parameters']['query']>;
export type SortKey = NonNullable<FindParams['sort']>;
export const SORT_KEYS: readonly SortKey[] = ['users', 'version', 'address', 'port', 'updated'];

/** Each sort order: every row, in that order. */
export type SortOrders = Readonly<Record<SortKey, Uint32Array>>;

// ---------------------------------------------------------------------------
// Version ordering

type Token = number | string;
function tokens(v: string): Token[] {
  const out: Token[] = [];
  const re = /(\d+)|(\D+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(v))) out.push(m[1] !== undefined ? Number(m[1]) : (m[2] as string).toLowerCase());
  return out;
}

/**
 * Natural, numeric-aware comparison: digit runs compare as numbers (1.20.4 > 1.9),
 * other runs case-insensitively; a number sorts before text; a prefix before a
 * longer value; exact code-unit order breaks what is left.
 */
export function compareVersions(a: string, b: string): number {
  const ta = tokens(a);
  const tb = tokens(b);
  const n = Math.min(ta.length, tb.length);
  for (let i = 0; i < n; i++) {
    const x = ta[i] as Token;
    const y = tb[i] as Token;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    if (typeof x === 'number') return -1;
    if (typeof y === 'number') return 1;
    return x < y ? -1 : 1;
  }
  if (ta.length !== tb.length) return ta.length - tb.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

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
 * Rows ordered by `primary` (ascending or descending), ties by address order. Packs
 * (rank of primary value, address rank) into one exact float per row and uses the
 * native comparator-free typed-array sort. NaN sorts last.
 */
function orderBy(primary: Numbers, descending: boolean, byAddress: Uint32Array, addrRank: Uint32Array): Uint32Array {
  const n = primary.length;
  const nan = descending ? -Infinity : Infinity;
  const clean = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = primary[i] as number;
    clean[i] = v === v ? v : nan;
  }
  const { distinct, rank } = rankOf(clean);
  const d = distinct.length;
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const r = rank(clean[i] as number);
    keys[i] = (descending ? d - 1 - r : r) * n + (addrRank[i] as number);
  }
  keys.sort();
  const out = new Uint32Array(n);
  for (let k = 0; k < n; k++) {
    const key = keys[k] as number;
    out[k] = byAddress[key - Math.floor(key / n) * n] as number;
  }
  return out;
}

/**
 * The first 7 bytes of the address packed into a number (7 bits each; from the first
 * non-ASCII byte on, every position is 127): ordered like the strings themselves
 * (code-unit order), except that distinct strings may tie.
 */
function prefixKey(bytes: Buffer, from: number, to: number): number {
  let k = 0;
  let saturated = false;
  for (let j = 0; j < 7; j++) {
    const at = from + j;
    let c: number;
    if (saturated) c = 127;
    else if (at >= to) c = 0;
    else {
      c = bytes[at] as number;
      if (c >= 0x80) {
        saturated = true;
        c = 127;
      }
    }
    k = k * 128 + c;
  }
  return k;
}

/** Rows by address (code-unit order), then port, then row. */
function orderByAddress(ds: Dataset): Uint32Array {
  const n = ds.size;
  const prefix = new Float64Array(n);
  for (let i = 0; i < n; i++) prefix[i] = prefixKey(ds.addressBytes, ds.addressStart[i] as number, ds.addressStart[i + 1] as number);
  const { rank } = rankOf(prefix);
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = rank(prefix[i] as number) * n + i;
  keys.sort();
  const out = new Uint32Array(n);
  for (let k = 0; k < n; k++) {
    const key = keys[k] as number;
    out[k] = key - Math.floor(key / n) * n;
  }
  // Rows with equal prefixes are neighbours: order each run by the whole address.
  const port = ds.port;
  for (let a = 0; a < n; ) {
    let b = a + 1;
    const p = prefix[out[a] as number] as number;
    while (b < n && prefix[out[b] as number] === p) b++;
    if (b - a > 1) {
      const run = Array.from(out.subarray(a, b), (i) => ({ i, s: addressAt(ds, i) }));
      run.sort((x, y) => (x.s !== y.s ? (x.s < y.s ? -1 : 1) : (port[x.i] as number) - (port[y.i] as number) || x.i - y.i));
      run.forEach((r, k) => (out[a + k] = r.i));
    }
    a = b;
  }
  return out;
}

/**
 * `base` re-ordered by a small integer key per row (ascending), ties kept in `base`
 * order: a counting sort, two passes over the rows. Undefined when a key is not an
 * integer in [0, buckets) or there are too many buckets (then a comparison sort does it).
 */
const MAX_BUCKETS = 1 << 23;
function bucketOrder(base: Uint32Array, keys: Numbers, buckets: number): Uint32Array | undefined {
  // Far more buckets than rows (60 days of seconds for a thousand servers) cost more than comparing.
  if (!(buckets >= 1 && buckets <= MAX_BUCKETS && buckets <= 8 * base.length + 65536)) return undefined;
  const n = base.length;
  const start = new Uint32Array(buckets + 1);
  for (let i = 0; i < n; i++) {
    const k = keys[i] as number;
    if (!(k >= 0 && k < buckets && k === Math.floor(k))) return undefined;
    start[k + 1] = (start[k + 1] as number) + 1;
  }
  for (let k = 0; k < buckets; k++) start[k + 1] = (start[k + 1] as number) + (start[k] as number);
  const out = new Uint32Array(n);
  for (let p = 0; p < n; p++) {
    const i = base[p] as number;
    const k = keys[i] as number;
    out[start[k] as number] = i;
    start[k] = (start[k] as number) + 1;
  }
  return out;
}

/** `offset - a[i]` (descending as ascending keys) divided by `unit`, for every row. */
function flipped(a: ArrayLike<number>, offset: number, unit = 1): Float64Array {
  const out = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = (offset - (a[i] as number)) / unit;
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

/**
 * Every sort order of the dataset. Only the address order needs comparing strings; the
 * others are the address order regrouped by a small integer (players, version rank,
 * port, ping second) in linear time, falling back to a packed-key sort for values that
 * are not small integers (a hand-written data file). `byAddress` skips the one real sort
 * (a snapshot stores it).
 */
export function sortOrders(ds: Dataset, byAddress: Uint32Array = orderByAddress(ds)): SortOrders {
  const n = ds.size;
  let addrRank: Uint32Array | undefined;
  const fallback = (primary: Numbers, descending: boolean): Uint32Array => {
    if (!addrRank) {
      addrRank = new Uint32Array(n);
      for (let r = 0; r < n; r++) addrRank[byAddress[r] as number] = r;
    }
    return orderBy(primary, descending, byAddress, addrRank);
  };
  const versions = ds.dict.version;
  const ranked = versions.values.map((v, id) => ({ v, id })).sort((a, b) => compareVersions(a.v, b.v));
  const d = ranked.length;
  const rankOfId = new Uint32Array(d);
  ranked.forEach((x, r) => (rankOfId[x.id] = r));
  const vIds = versions.ids;
  const versionKey = new Float64Array(n);
  for (let i = 0; i < n; i++) versionKey[i] = d - 1 - (rankOfId[vIds[i] as number] as number);
  const pl = ds.playersOnline;
  const users = extent(pl);
  const lp = ds.lastPing;
  const ping = extent(lp);
  const newest = ping.max;
  return {
    address: byAddress,
    users: bucketOrder(byAddress, flipped(pl, users.max), users.max - users.min + 1) ?? fallback(pl, true),
    version: bucketOrder(byAddress, versionKey, d) as Uint32Array,
    port: bucketOrder(byAddress, ds.port, 65536) ?? fallback(ds.port, false),
    // Generated pings are whole seconds within 60 days: a few million buckets.
    updated: bucketOrder(byAddress, flipped(lp, newest, 1000), Math.floor((newest - ping.min) / 1000) + 1) ?? fallback(lp, true),
  };
}
