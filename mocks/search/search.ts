// `/servers/find` in one pass: the query planned from the spec (query-plan.ts: each
// parameter by its `x-meaning` rule), then its row sets (filters.ts: a text or flag
// value is a cached set of the rows whose value passes, a range of a sorted field a run
// of that order), counted together a word (32 rows) at a time, then the page read off
// the requested order, then the bytes: the HTTP answer is assembled from each row's
// JSON, kept in a bounded cache.
import { loadModel, parameterDefaults } from '../../spec/model.ts';
import type { FindResponse, operations, Server } from '../../spec/openapi.gen.ts';
import { serverAt } from '../dataset/columns.ts';
import type { StoredServer } from '../dataset/server-row.ts';
import { rangeRows, valueRows, type OrderRange, type RowSet } from './filters.ts';
import { planQuery, searchOperation, type QueryPlan, type SearchOperation } from './query-plan.ts';
import { hasBit, intersectAndCount, type Bits } from './row-sets.ts';
import {
  hiddenOrder,
  orderOf,
  orderRanges,
  rememberedCount,
  ranks,
  runOf,
  scratchSets,
  visibleOrder,
  type ServerIndex,
} from './search-index.ts';

export { buildIndex, DEFAULT_ROW_CACHE_BYTES, type ServerIndex } from './search-index.ts';
export { searchOperation, type SearchOperation } from './query-plan.ts';

type FindParams = NonNullable<operations['findServers']['parameters']['query']>;

/**
 * The coerced `/servers/find` query (the generated types of its parameters), with the
 * defaults the HTTP layer applies (the parameter schemas' `default`s, see
 * DEFAULT_FIND_QUERY). The search reads each parameter by its rule (query-plan.ts).
 */
export type FindQuery = FindParams &
  Required<Pick<FindParams, 'limit' | 'page' | 'sort' | 'favicon' | 'relativeTime' | 'noFilter'>>;

const findServers = loadModel().byId.get('findServers')!;

/** What each left-out parameter means: the defaults of findServers' parameter schemas in the spec. */
export const DEFAULT_FIND_QUERY: Readonly<FindQuery> = Object.freeze(
  parameterDefaults(findServers) as unknown as FindQuery,
);

/** findServers of spec/openapi.yaml, read for the search (a mock serving another copy of the spec passes its own). */
export const FIND_SEARCH: SearchOperation = searchOperation(findServers);

/** DEFAULT_FIND_QUERY with `q` on top (undefined values in `q` do not override defaults). */
export function findQuery(q: Partial<FindQuery> = {}): FindQuery {
  const out: FindQuery = { ...DEFAULT_FIND_QUERY };
  for (const [k, v] of Object.entries(q)) if (v !== undefined) (out as unknown as Record<string, unknown>)[k] = v;
  return out;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// ---------------------------------------------------------------------------
// Query

/**
 * What a filter combination matched: how many rows (TCPShield ones included), how many
 * of them are TCPShield rows, and, when they are few, the rows themselves.
 */
interface Counted {
  members: number;
  marked: number;
  rows: Uint32Array | undefined;
}

/** Match lists are kept up to this many rows (16 KiB); more matches are met by walking an order. */
const FEW_ROWS = 4096;

/** A range with the [start, end) positions of its run in its order. */
type Run = OrderRange & { from: number; to: number };

/**
 * Counts the rows passing every filter: one pass over the words of the value sets and
 * of the ranges' runs. Remembered per filter combination (and run positions), so the
 * pages and sort orders of one search, and a search repeated, count once.
 */
function count(ix: ServerIndex, sets: readonly RowSet[], runs: readonly Run[], setsOf: () => Bits[]): Counted {
  let key = '';
  for (const s of sets) key += `${s.key}\u0001`;
  for (const r of runs) key += `|${r.order.key}:${r.from}:${r.to}`;
  return rememberedCount(ix, key, () => {
    const bits = [...setsOf()];
    const scratch = scratchSets(ix, runs.length);
    for (let k = 0; k < runs.length; k++) {
      const r = runs[k]!;
      bits.push(orderRanges(ix, r.order).range(r.from, r.to, scratch.runs[k]!, scratch.spare));
    }
    const work = scratch.work;
    const { members, marked } = intersectAndCount(bits, ix.tcp, work);
    let rows: Uint32Array | undefined;
    if (members <= FEW_ROWS) {
      rows = new Uint32Array(members);
      let k = 0;
      for (let w = 0; w < work.length; w++) {
        for (let x = work[w] as number; x !== 0; x &= x - 1) rows[k++] = (w << 5) + 31 - Math.clz32(x & -x);
      }
    }
    return { members, marked, rows };
  });
}

/** The matching total, the TCPShield-hidden count (undefined when they are revealed) and the page's rows. */
interface Matched {
  total: number;
  filtered: number | undefined;
  page: ArrayLike<number>;
}

/**
 * Into `acc`: the rows at [offset, end) of `order` among those in every
 * set and run (a walk that meets the page's rows).
 */
function walk(
  order: Uint32Array,
  sets: readonly Bits[],
  runs: readonly Run[],
  offset: number,
  end: number,
  acc: number[],
): void {
  let found = 0;
  next: for (let k = 0; k < order.length && found < end; k++) {
    const i = order[k] as number;
    for (let j = 0; j < sets.length; j++) if (!hasBit(sets[j]!, i)) continue next;
    for (let j = 0; j < runs.length; j++) {
      const r = runs[j]!;
      const v = r.values[i] as number;
      if (!(v >= r.lo && v <= r.hi)) continue next;
    }
    if (found >= offset) acc.push(i);
    found++;
  }
}

/** The [start, end) positions of a range's run in order `o` (every position without a range). */
const within = (r: OrderRange | undefined, o: Uint32Array): [number, number] =>
  r ? runOf(r.values, o, r.lo, r.hi, r.descending) : [0, o.length];

/** A plan taken through the index: its row sets and runs, counted, and its page. */
function matchRows(ix: ServerIndex, p: QueryPlan): Matched {
  const sets: RowSet[] = [];
  for (const { filter, value } of p.values) {
    const set = valueRows(ix, filter, value);
    if (set) sets.push(set);
  }
  const ranges: OrderRange[] = [];
  for (const planned of p.ranges) {
    const r = rangeRows(ix, planned);
    if ('bits' in r) sets.push(r);
    else ranges.push(r);
  }
  const { offset, end, revealsHidden } = p;
  const order = revealsHidden ? orderOf(ix, p.order) : visibleOrder(ix, p.order);

  if (sets.length === 0 && ranges.length <= 1) {
    // At most one range (the age window of every default search): counts come from
    // binary searches in its order, with and without the hidden rows.
    const r = ranges[0];
    const by = r?.order ?? p.order;
    const [a, b] = within(r, revealsHidden ? orderOf(ix, by) : visibleOrder(ix, by));
    const total = b - a;
    let filtered: number | undefined;
    if (!revealsHidden) {
      const [ha, hb] = within(r, hiddenOrder(ix, by));
      filtered = hb - ha;
    }
    if (by.key === p.order.key)
      return { total, filtered, page: order.subarray(Math.min(a + offset, b), Math.min(a + end, b)) };
    // Walk this sort order until the page is full.
    const acc: number[] = [];
    if (offset < total) {
      const values = r!.values;
      const lo = r!.lo;
      const hi = r!.hi;
      let found = 0;
      for (let k = 0; k < order.length && found < end; k++) {
        const i = order[k] as number;
        const v = values[i] as number;
        if (v < lo || v > hi) continue;
        if (found >= offset) acc.push(i);
        found++;
      }
    }
    return { total, filtered, page: acc };
  }

  const runs: Run[] = [];
  for (const r of ranges) {
    const [from, to] = runOf(r.values, orderOf(ix, r.order), r.lo, r.hi, r.descending);
    runs.push({ order: r.order, descending: r.descending, values: r.values, lo: r.lo, hi: r.hi, from, to });
  }
  // The value sets, built (or found) once per query: a set asked for once is not kept (bounded-cache.ts).
  let bits: Bits[] | undefined;
  const setsOf = () => (bits ??= sets.map((s) => s.bits()));
  const counted = count(ix, sets, runs, setsOf);
  const filtered = revealsHidden ? undefined : counted.marked;
  const total = revealsHidden ? counted.members : counted.members - counted.marked;
  const acc: number[] = [];
  if (offset >= total) return { total, filtered, page: acc };
  const n = ix.size;
  // Few matches: sort their positions in this order (native sort of ranks).
  // Many: walk the order testing each row, which meets the page's rows quickly.
  if (counted.rows && total * 8 < Math.min(order.length, (end * n) / total)) {
    const rank = ranks(ix, p.order);
    const picked = new Uint32Array(total);
    let k = 0;
    for (const i of counted.rows) if (revealsHidden || !hasBit(ix.tcp, i)) picked[k++] = rank[i] as number;
    picked.sort();
    const all = orderOf(ix, p.order);
    for (let j = offset; j < Math.min(end, total); j++) acc.push(all[picked[j] as number] as number);
    return { total, filtered, page: acc };
  }
  walk(order, setsOf(), runs, offset, end, acc);
  return { total, filtered, page: acc };
}

/**
 * Runs the query: the matching total, the TCPShield-hidden count (undefined with
 * noFilter) and the page's rows. `s`: the search operation of the spec the mock serves.
 */
export function runQuery(ix: ServerIndex, q: FindQuery, now: number, s: SearchOperation = FIND_SEARCH): Matched {
  return matchRows(ix, planQuery(s, q as Record<string, unknown>, now));
}

// ---------------------------------------------------------------------------
// Rows

/** English relative time: "just now", "1 minute ago", "5 hours ago", "3 days ago", "2 months ago", "1 year ago". */
export function relativeTime(then: number, now: number): string {
  const diff = now - then;
  if (!(diff >= 45_000)) return 'just now';
  const unit = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'} ago`;
  if (diff < HOUR) return unit(Math.max(1, Math.floor(diff / MINUTE)), 'minute');
  if (diff < DAY) return unit(Math.floor(diff / HOUR), 'hour');
  if (diff < 30 * DAY) return unit(Math.floor(diff / DAY), 'day');
  if (diff < 365 * DAY) return unit(Math.floor(diff / (30 * DAY)), 'month');
  return unit(Math.floor(diff / (365 * DAY)), 'year');
}

/** A search row in spec order; `favicon` only when asked for. */
function makeRow(s: StoredServer, lastPing: string, favicon: boolean): Server {
  const row: Server = {
    address: s.address,
    port: s.port,
    version: s.version,
    offline_mode: s.offline_mode,
    players_online: s.players_online,
    players_limit: s.players_limit,
    motd: s.motd,
    motd_stripped: s.motd_stripped,
    players: s.players,
    plugins: s.plugins,
    country: s.country,
    country_code: s.country_code,
    region: s.region,
    city: s.city,
    asn_number: s.asn_number,
    asn_name: s.asn_name,
    last_ping: lastPing,
    ...(favicon ? { favicon: s.favicon ?? null } : {}),
    detected_mod_pack: s.detected_mod_pack,
    detected_mod_pack_short: s.detected_mod_pack_short,
  };
  return row;
}

function row(ix: ServerIndex, i: number, p: QueryPlan, now: number): Server {
  const s = serverAt(ix.dataset, i);
  return makeRow(s, p.relativeTime ? relativeTime(ix.lastPing[i] as number, now) : s.last_ping, p.addsField);
}

/** `/servers/find` as an object (for tests and tools; the HTTP layer sends searchBuffer's bytes). */
export function search(ix: ServerIndex, q: FindQuery, now: number, s: SearchOperation = FIND_SEARCH): FindResponse {
  const p = planQuery(s, q as Record<string, unknown>, now);
  const { total, filtered, page } = matchRows(ix, p);
  const results: Server[] = new Array(page.length);
  for (let k = 0; k < page.length; k++) results[k] = row(ix, page[k] as number, p, now);
  return filtered === undefined
    ? { displayed: results.length, total, results }
    : { displayed: results.length, total, filtered, results };
}

/** Row `i`'s JSON with its ISO `last_ping`, from the cache or serialised now. */
function rowBytes(ix: ServerIndex, i: number, favicon: boolean): Buffer {
  const key = 2 * i + (favicon ? 1 : 0);
  let bytes = ix.rowCache.get(key);
  if (bytes === undefined) {
    const s = serverAt(ix.dataset, i);
    bytes = Buffer.from(JSON.stringify(makeRow(s, s.last_ping, favicon)));
    ix.rowCache.set(key, bytes);
  }
  return bytes;
}

const LAST_PING_KEY = Buffer.from('"last_ping":"');
const QUOTE = 0x22;
const COMMA = Buffer.from(',');
const TAIL = Buffer.from(']}');

/**
 * Exactly `JSON.stringify(search(ix, q, now))` as UTF-8 bytes, assembled from the rows'
 * cached bytes: no per-request serialisation, and no encoding of a 16 KB string when
 * node writes it (measured 1.4x the plain-query throughput of building a string).
 */
export function searchBuffer(ix: ServerIndex, q: FindQuery, now: number, s: SearchOperation = FIND_SEARCH): Buffer {
  const p = planQuery(s, q as Record<string, unknown>, now);
  const { total, filtered, page } = matchRows(ix, p);
  // The rows read below are views into the cache's slab until Buffer.concat copies them: pin them.
  ix.rowCache.nextAnswer();
  const parts: Buffer[] = [
    Buffer.from(
      `{"displayed":${page.length},"total":${total}` +
        `${filtered === undefined ? '' : `,"filtered":${filtered}`},"results":[`,
    ),
  ];
  for (let k = 0; k < page.length; k++) {
    const i = page[k] as number;
    if (k > 0) parts.push(COMMA);
    const bytes = rowBytes(ix, i, p.addsField);
    if (!p.relativeTime) parts.push(bytes);
    else {
      // The first `"last_ping":"` is the row's own key: inside JSON string values quotes are escaped.
      const at = bytes.indexOf(LAST_PING_KEY) + LAST_PING_KEY.length;
      const close = bytes.indexOf(QUOTE, at);
      parts.push(
        bytes.subarray(0, at),
        Buffer.from(relativeTime(ix.lastPing[i] as number, now)),
        bytes.subarray(close),
      );
    }
  }
  parts.push(TAIL);
  return Buffer.concat(parts);
}

/** searchBuffer as text. */
export function searchJson(ix: ServerIndex, q: FindQuery, now: number, s?: SearchOperation): string {
  return searchBuffer(ix, q, now, s).toString('utf8');
}
