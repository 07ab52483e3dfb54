// The query parameters that pick rows, each applied by the rule its `x-meaning` in the
// spec names (spec/meaning.ts). FILTERS is the one table from a rule to what it asks:
// values of a field that pass (tested once per distinct value, so the index caches the
// set of rows they pick: plan) or a range of a numeric field (a run of a sort order when
// the field has one). The metadata lookups apply the same asks to their few rows
// (rowFilter). So a parameter the spec adds with a rule this table knows is applied
// with no code change, on any field of a row (the index builds a column for a field it
// did not keep as one). The contract suite checks the same rules with real requests
// (contract-tests/checks/meaning/row-rules.ts): text matching ignores case, and a row whose field
// is null passes no filter on it.
import type { Meaning, Operation } from '../../spec/model.ts';
import type { Rule } from '../../spec/meaning.ts';
import { wordsFor, type Bits } from './row-sets.ts';
import { lowered, sortedField, unionSet, valueSet, type ServerIndex } from './search-index.ts';
import type { SortKey } from '../dataset/sort-orders.ts';
import type { Numbers } from '../dataset/columns.ts';
import { wildcardMatcher } from './wildcard.ts';

/** The rules that pick rows: FILTERS has a builder for each. */
export type FilterRule =
  | 'wholeWildcard'
  | 'substringWildcard'
  | 'nameOrCode'
  | 'equals'
  | 'flag'
  | 'atLeast'
  | 'atMost'
  | 'ageAtLeastDays'
  | 'ageAtMostDays';

/**
 * The rules that shape the answer instead (which rows are hidden, how many, their order,
 * their fields): the search reads those parameters by their names in the generated
 * types. Every rule of spec/meaning.ts is in one table or the other (a new one does not
 * compile until it is placed).
 */
/** Each with the name of the parameter that carries it on findServers. */
export const SHAPE_RULES: Readonly<Record<Exclude<Rule, FilterRule>, string>> = {
  addsField: 'favicon',
  relativeTime: 'relativeTime',
  revealsHidden: 'noFilter',
  limitsRows: 'limit',
  page: 'page',
  sort: 'sort',
  ignored: 'order',
};

/** A parameter that picks rows, with its rule. */
export interface Filter {
  name: string;
  meaning: Meaning & { rule: FilterRule };
}

/** A value filter: the key its row set is cached under, and the set (built on first use). */
export interface RowSet {
  key: string;
  bits: () => Bits;
}

/** A range of a sorted numeric field: the rows at a run of positions of its order. */
export interface OrderRange {
  order: SortKey;
  descending: boolean;
  values: Numbers;
  lo: number;
  hi: number;
}

/** What a query asks of the rows: sets to intersect and runs of sort orders. */
export interface Plan {
  sets: RowSet[];
  ranges: OrderRange[];
}

/** [lo, hi] of numbers, or of times in ms (the age rules). */
interface Range {
  field: string;
  lo: number;
  hi: number;
  time: boolean;
}

/**
 * The values of one field that pass: `text` tests a value that is text, lower-cased
 * (the wildcards: the index keeps each column's distinct values lower-cased once);
 * `test` any value. Either way it is asked once per distinct value, and `key` names
 * what it asks, so the set of rows it picks can be cached.
 */
interface Part {
  field: string;
  key: string;
  text?: (lower: string) => boolean;
  test?: (value: unknown) => boolean;
  /** A pattern of stars alone: every row with text passes (the default `version=*`). */
  anyText?: boolean;
}

/** What one parameter's value asks: a row passes when any part does (equals over several fields), or a range. */
type Ask = { any: Part[] } | { range: Range } | undefined;
type Builder<R extends FilterRule> = (m: Meaning & { rule: R }, value: unknown, now: number) => Ask;

const DAY = 86_400_000;
/** A number written as text (`asn_number` is a string of digits). */
const NUMERIC = /^-?\d+(?:\.\d+)?$/;

function wildcard(field: string, value: unknown, whole: boolean): Ask {
  const pattern = String(value).toLowerCase();
  // Made on first use: a set already cached needs no matcher.
  let match: ((lower: string) => boolean) | undefined;
  const text = (lower: string) => (match ??= wildcardMatcher(pattern, { whole }))(lower);
  return { any: [{ field, key: `${whole ? 'w' : 's'}${pattern}`, text, anyText: /^\*+$/.test(pattern) }] };
}

/** Equal, ignoring case; a number also equals the same number written as text. */
function equal(field: string, value: unknown): Part {
  if (typeof value === 'number') {
    return {
      field,
      key: `#${value}`,
      test: (v) =>
        typeof v === 'number' ? v === value : typeof v === 'string' && NUMERIC.test(v) && Number(v) === value,
    };
  }
  const want = String(value).toLowerCase();
  return {
    field,
    key: `=${want}`,
    test: (v) => v !== null && v !== undefined && typeof v !== 'object' && String(v).toLowerCase() === want,
  };
}

const num = (value: unknown): number | undefined => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && NUMERIC.test(value) ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
};
const range = (field: string, lo: number | undefined, hi: number | undefined, time: boolean): Ask =>
  lo === undefined || hi === undefined ? undefined : { range: { field, lo, hi, time } };

/** Each rule that picks rows, by its name in `x-meaning`. */
export const FILTERS: { [R in FilterRule]: Builder<R> } = {
  wholeWildcard: (m, value) => wildcard(m.field, value, true),
  substringWildcard: (m, value) => wildcard(m.field, value, false),
  // Exactly two letters is an ISO code; anything else a whole-value wildcard on the name.
  nameOrCode: (m, value) =>
    /^[A-Za-z]{2}$/.test(String(value)) ? { any: [equal(m.codeField, value)] } : wildcard(m.field, value, true),
  equals: (m, value) => ({ any: m.fields.map((f) => equal(f, value)) }),
  // Any value but the `off` one: the field holds `value`.
  flag: (m, value) =>
    String(value) === m.off
      ? undefined
      : { any: [{ field: m.field, key: `==${JSON.stringify(m.value)}`, test: (v) => v === m.value }] },
  atLeast: (m, value) => range(m.field, num(value), Infinity, false),
  atMost: (m, value) => range(m.field, -Infinity, num(value), false),
  ageAtLeastDays: (m, value, now) => {
    const days = num(value);
    return range(m.field, -Infinity, days === undefined ? undefined : now - days * DAY, true);
  },
  ageAtMostDays: (m, value, now) => {
    const days = num(value);
    return range(m.field, days === undefined ? undefined : now - days * DAY, Infinity, true);
  },
};

/** Does a value pass a range? Numbers for atLeast / atMost, timestamps (ISO text) for the age rules. */
function inRange(r: Range): (v: unknown) => boolean {
  const within = (x: number) => x >= r.lo && x <= r.hi;
  return r.time ? (v) => typeof v === 'string' && within(Date.parse(v)) : (v) => typeof v === 'number' && within(v);
}

const partPasses = (part: Part, v: unknown): boolean =>
  part.text ? typeof v === 'string' && part.text(v.toLowerCase()) : part.test!(v);

/** The asks of a query's filters, in the filters' order (a parameter not given asks nothing). */
function asks(filters: readonly Filter[], q: Record<string, unknown>, now: number): Exclude<Ask, undefined>[] {
  const out: Exclude<Ask, undefined>[] = [];
  for (const { name, meaning } of filters) {
    const value = q[name];
    if (value === undefined || value === null || value === '') continue;
    const ask = (FILTERS[meaning.rule] as Builder<FilterRule>)(meaning, value, now);
    if (ask) out.push(ask);
  }
  return out;
}

/**
 * The same rules over plain rows (the metadata lookups answer a few hundred): a test of
 * a row, and a key naming what it asks (to cache answers by); undefined when the query
 * filters nothing.
 */
export function rowFilter(
  filters: readonly Filter[],
  q: Record<string, unknown>,
  now: number,
): { key: string; passes: (row: Record<string, unknown>) => boolean } | undefined {
  const all = asks(filters, q, now);
  if (!all.length) return undefined;
  const tests = all.map((ask): ((row: Record<string, unknown>) => boolean) => {
    if ('any' in ask) return (row) => ask.any.some((p) => partPasses(p, row[p.field]));
    const passes = inRange(ask.range);
    return (row) => passes(row[ask.range.field]);
  });
  const key = all
    .map((ask) =>
      'range' in ask
        ? `${ask.range.field}[${ask.range.lo},${ask.range.hi}]`
        : ask.any.map((p) => `${p.field}\u0000${p.key}`).join('|'),
    )
    .join('\u0001');
  return { key, passes: (row) => tests.every((t) => t(row)) };
}

const isFilterRule = (rule: Rule): rule is FilterRule => rule in FILTERS;

/** The parameters of an operation that pick rows, in the spec's order. */
export function filtersOf(op: Operation): Filter[] {
  return op.parameters.flatMap((p) =>
    p.meaning && isFilterRule(p.meaning.rule) ? [{ name: p.name, meaning: p.meaning as Filter['meaning'] }] : [],
  );
}

/** A range as a set: the field's distinct values tested once (a field without a sort order). */
function rangeSet(ix: ServerIndex, r: Range): RowSet {
  const key = `[${r.lo},${r.hi}]${r.time ? 't' : 'n'}`;
  return { key: `${r.field}\u0000${key}`, bits: () => valueSet(ix, r.field, key, inRange(r)) };
}

/** A part as a set of the index's rows. */
function partSet(ix: ServerIndex, part: Part): RowSet {
  const { field, key } = part;
  if (part.text) {
    const text = part.text;
    return {
      key: `${field}\u0000${key}`,
      bits: () => {
        const low = lowered(ix, field);
        return valueSet(ix, field, key, (_, id) => {
          const v = low[id];
          return typeof v === 'string' && text(v);
        });
      },
    };
  }
  return { key: `${field}\u0000${key}`, bits: () => valueSet(ix, field, key, part.test!) };
}

/** Does every row hold text in this field? Then a pattern of stars alone filters nothing. */
function allText(ix: ServerIndex, field: string): boolean {
  return lowered(ix, field).every((v) => v !== null);
}

/** A value that filters nothing (`version=*` where every row has text): remembered as such. */
const NO_SET = Object.freeze({});

/** Each filter's number, for the keys of the index's remembered values (a Filter is an object of the spec the mock serves). */
const filterIds = new WeakMap<Filter, number>();
let filtersSeen = 0;
const filterId = (filter: Filter): number => {
  let id = filterIds.get(filter);
  if (id === undefined) filterIds.set(filter, (id = filtersSeen++));
  return id;
};

/**
 * The set a value-picking filter asks for, made once per value and remembered by the
 * index within its budget (the values come from clients); the rows are built on first
 * use, and cached apart.
 */
function valueFilter(ix: ServerIndex, filter: Filter, value: unknown): RowSet | null {
  const key = `${filterId(filter)}\u0000${typeof value}\u0000${String(value)}`;
  const hit = ix.lazy.filterValues.get(key);
  if (hit !== undefined) return hit === NO_SET ? null : (hit as RowSet);
  const ask = (FILTERS[filter.meaning.rule] as Builder<FilterRule>)(filter.meaning, value, 0);
  let set: RowSet | null = null;
  if (ask && 'any' in ask && !(ask.any.length === 1 && ask.any[0]!.anyText && allText(ix, ask.any[0]!.field))) {
    const parts = ask.any.map((p) => partSet(ix, p));
    if (parts.length === 1) set = parts[0]!;
    else {
      const key = parts.map((p) => p.key).join('\u0001');
      set = {
        key,
        bits: () =>
          unionSet(
            ix,
            key,
            parts.map((p) => p.bits),
          ),
      };
    }
  }
  ix.lazy.filterValues.offer(key, set ?? NO_SET);
  return set;
}

const RANGE_RULES: ReadonlySet<FilterRule> = new Set(['atLeast', 'atMost', 'ageAtLeastDays', 'ageAtMostDays']);

/** What query `q` asks of the index's rows, by `filters`; `now` for the age rules. */
export function plan(ix: ServerIndex, filters: readonly Filter[], q: Record<string, unknown>, now: number): Plan {
  const sets: RowSet[] = [];
  let ranges: Range[] | undefined;
  for (let i = 0; i < filters.length; i++) {
    const filter = filters[i]!;
    const value = q[filter.name];
    if (value === undefined || value === null || value === '') continue;
    if (!RANGE_RULES.has(filter.meaning.rule)) {
      const set = valueFilter(ix, filter, value);
      if (set) sets.push(set);
      continue;
    }
    const ask = (FILTERS[filter.meaning.rule] as Builder<FilterRule>)(filter.meaning, value, now);
    if (!ask || !('range' in ask)) continue;
    // Two bounds on one field (minUsers and maxUsers) are one range.
    const r = ask.range;
    const had = ranges?.find((x) => x.field === r.field && x.time === r.time);
    if (!had) (ranges ??= []).push(r);
    else {
      had.lo = Math.max(had.lo, r.lo);
      had.hi = Math.min(had.hi, r.hi);
    }
  }
  const runs: OrderRange[] = [];
  if (ranges) {
    for (const r of ranges) {
      const sorted = sortedField(ix, r.field);
      if (!sorted) sets.push(rangeSet(ix, r));
      // A range of numbers over times, or of ages over numbers: no row passes it.
      else if (sorted.time !== r.time) sets.push({ key: '\u0002none', bits: () => new Uint32Array(wordsFor(ix.size)) });
      else runs.push({ order: sorted.order, descending: sorted.descending, values: sorted.values, lo: r.lo, hi: r.hi });
    }
  }
  return { sets, ranges: runs };
}
