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
    clean[i] = Number.isNaN(v) ? nan : v;
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

/**
 * Every sort order of the dataset. The address order is sorted (orderByAddress); the
 * others are the address order regrouped by an integer per row (players, version rank,
 * port, ping second) with counting sorts in linear time, falling back to a packed-key
 * sort for values that are not integers (a hand-written data file). `byAddress` skips
 * the address sort (a snapshot stores it).
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
  ranked.forEach((x, r) => {
    rankOfId[x.id] = r;
  });
  const vIds = versions.ids;
  const pl = ds.playersOnline;
  const lp = ds.lastPing;
  const users = extent(pl);
  const newest = extent(lp).max;
  const by = (keys: IntegerKeys | undefined, primary: Numbers, descending: boolean): Uint32Array =>
    keys ? bucketOrder(byAddress, keys) : fallback(primary, descending);
  return {
    address: byAddress,
    users: by(
      integerKeys(n, (i) => users.max - (pl[i] as number)),
      pl,
      true,
    ),
    version: bucketOrder(
      byAddress,
      integerKeys(n, (i) => d - 1 - (rankOfId[vIds[i] as number] as number)) as IntegerKeys,
    ),
    port: by(
      integerKeys(n, (i) => ds.port[i] as number),
      ds.port,
      false,
    ),
    // Generated pings are whole seconds within 60 days: a few million keys, two passes.
    updated: by(
      integerKeys(n, (i) => (newest - (lp[i] as number)) / 1000),
      lp,
      true,
    ),
  };
}
