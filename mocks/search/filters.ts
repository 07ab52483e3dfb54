// The query parameters that pick rows, each applied by the rule its `x-meaning` in the
// spec names (spec/meaning.ts). FILTERS is the one table from a rule to what it asks of
// the index: a set of rows (a value filter: the column's distinct values are tested
// once and the set is cached) or a range of a numeric field (a run of a sort order when
// the field has one). So a parameter the spec adds with a rule this table knows is
// applied with no code change, on any field of a row (the index builds a column for a
// field it did not know). The contract suite checks the same rules with real requests
// (contract-tests/lib/row-rules.ts): text matching ignores case, and a row whose field
// is null passes no filter on it.
import type { Meaning, Operation } from '../../spec/model.ts';
import type { Rule } from '../../spec/meaning.ts';
import { wordsFor, type Bits } from './row-sets.ts';
import { lowered, sortedField, unionSet, valueSet, type ServerIndex } from './search-index.ts';
import type { SortKey } from '../dataset/sort-orders.ts';
import type { Numbers } from '../dataset/columns.ts';
import { wildcardMatcher } from './wildcard.ts';

/** The rules that pick rows: FILTERS has a builder for each. */
export type FilterRule = 'wholeWildcard' | 'substringWildcard' | 'nameOrCode' | 'equals' | 'flag' | 'atLeast' | 'atMost' | 'ageAtLeastDays' | 'ageAtMostDays';

/**
 * The rules that shape the answer instead (which rows are hidden, how many, their order,
 * their fields): the search reads those parameters by their names in the generated
 * types. Every rule of spec/meaning.ts is in one table or the other (a new one does not
 * compile until it is placed).
 */
export const SHAPE_RULES: Readonly<Record<Exclude<Rule, FilterRule>, string>> = {
  addsField: 'favicon', relativeTime: 'relativeTime', revealsHidden: 'noFilter', limitsRows: 'limit', page: 'page', sort: 'sort', ignored: 'order',
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

type Ask = { set: RowSet } | { range: Range } | undefined;
type Builder<R extends FilterRule> = (m: Meaning & { rule: R }, value: unknown, ix: ServerIndex, now: number) => Ask;

const DAY = 86_400_000;
/** A number written as text (`asn_number` is a string of digits). */
const NUMERIC = /^-?\d+(?:\.\d+)?$/;

const set = (field: string, key: string, bits: () => Bits): { set: RowSet } => ({ set: { key: `${field}\u0000${key}`, bits } });

/** Does every row hold text in this field? Then a pattern of stars alone filters nothing (the default `version=*`). */
function allText(ix: ServerIndex, field: string): boolean {
  return lowered(ix, field).every((v) => v !== null);
}

function wildcard(ix: ServerIndex, field: string, value: unknown, whole: boolean): Ask {
  const pattern = String(value).toLowerCase();
  if (/^\*+$/.test(pattern) && allText(ix, field)) return undefined;
  const key = `${whole ? 'w' : 's'}${pattern}`;
  return set(field, key, () => {
    const low = lowered(ix, field);
    const match = wildcardMatcher(pattern, { whole });
    return valueSet(ix, field, key, (_, id) => {
      const v = low[id];
      return typeof v === 'string' && match(v);
    });
  });
}

/** Equal, ignoring case; a number also equals the same number written as text. */
function equal(ix: ServerIndex, field: string, value: unknown): { set: RowSet } {
  if (typeof value === 'number') {
    const key = `#${value}`;
    return set(field, key, () => valueSet(ix, field, key, (v) => (typeof v === 'number' ? v === value : typeof v === 'string' && NUMERIC.test(v) && Number(v) === value)));
  }
  const want = String(value).toLowerCase();
  const key = `=${want}`;
  return set(field, key, () => valueSet(ix, field, key, (v) => v !== null && v !== undefined && typeof v !== 'object' && String(v).toLowerCase() === want));
}

const num = (value: unknown): number | undefined => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && NUMERIC.test(value) ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
};
const range = (field: string, lo: number | undefined, hi: number | undefined, time: boolean): Ask =>
  lo === undefined || hi === undefined ? undefined : { range: { field, lo, hi, time } };

/** Each rule that picks rows, by its name in `x-meaning`. */
export const FILTERS: { [R in FilterRule]: Builder<R> } = {
  wholeWildcard: (m, value, ix) => wildcard(ix, m.field, value, true),
  substringWildcard: (m, value, ix) => wildcard(ix, m.field, value, false),
  // Exactly two letters is an ISO code; anything else a whole-value wildcard on the name.
  nameOrCode: (m, value, ix) => (/^[A-Za-z]{2}$/.test(String(value)) ? equal(ix, m.codeField, value) : wildcard(ix, m.field, value, true)),
  equals: (m, value, ix) => {
    if (m.fields.length === 1) return equal(ix, m.fields[0]!, value);
    const parts = m.fields.map((f) => equal(ix, f, value).set);
    const key = parts.map((p) => p.key).join('\u0001');
    return { set: { key, bits: () => unionSet(ix, key, parts.map((p) => p.bits)) } };
  },
  // Any value but the `off` one: the field holds `value`.
  flag: (m, value, ix) => {
    if (String(value) === m.off) return undefined;
    const key = `==${JSON.stringify(m.value)}`;
    return set(m.field, key, () => valueSet(ix, m.field, key, (v) => v === m.value));
  },
  atLeast: (m, value) => range(m.field, num(value), Infinity, false),
  atMost: (m, value) => range(m.field, -Infinity, num(value), false),
  ageAtLeastDays: (m, value, _ix, now) => {
    const days = num(value);
    return range(m.field, -Infinity, days === undefined ? undefined : now - days * DAY, true);
  },
  ageAtMostDays: (m, value, _ix, now) => {
    const days = num(value);
    return range(m.field, days === undefined ? undefined : now - days * DAY, Infinity, true);
  },
};

const isFilterRule = (rule: Rule): rule is FilterRule => rule in FILTERS;

/** The parameters of an operation that pick rows, in the spec's order. */
export function filtersOf(op: Operation): Filter[] {
  return op.parameters.flatMap((p) => (p.meaning && isFilterRule(p.meaning.rule) ? [{ name: p.name, meaning: p.meaning as Filter['meaning'] }] : []));
}

/** A range as a set: the field's distinct values tested once (a field without a sort order). */
function rangeSet(ix: ServerIndex, r: Range): RowSet {
  const key = `[${r.lo},${r.hi}]${r.time ? 't' : 'n'}`;
  const inRange = (x: number) => x >= r.lo && x <= r.hi;
  const test = r.time ? (v: unknown) => typeof v === 'string' && inRange(Date.parse(v)) : (v: unknown) => typeof v === 'number' && inRange(v);
  return { key: `${r.field}\u0000${key}`, bits: () => valueSet(ix, r.field, key, test) };
}

/** What query `q` asks of the rows, by `filters`; `now` for the age rules. */
export function plan(ix: ServerIndex, filters: readonly Filter[], q: Record<string, unknown>, now: number): Plan {
  const sets: RowSet[] = [];
  const ranges = new Map<string, Range>();
  for (const { name, meaning } of filters) {
    const value = q[name];
    if (value === undefined || value === null || value === '') continue;
    const ask = (FILTERS[meaning.rule] as Builder<FilterRule>)(meaning, value, ix, now);
    if (!ask) continue;
    if ('set' in ask) sets.push(ask.set);
    else {
      // Two bounds on one field (minUsers and maxUsers) are one range.
      const r = ask.range;
      const id = `${r.field}\u0000${r.time}`;
      const had = ranges.get(id);
      ranges.set(id, had ? { ...r, lo: Math.max(had.lo, r.lo), hi: Math.min(had.hi, r.hi) } : r);
    }
  }
  const runs: OrderRange[] = [];
  for (const r of ranges.values()) {
    const sorted = sortedField(ix, r.field);
    if (!sorted) sets.push(rangeSet(ix, r));
    // A range of numbers over times, or of ages over numbers: no row passes it.
    else if (sorted.time !== r.time) sets.push({ key: '\u0002none', bits: () => new Uint32Array(wordsFor(ix.size)) });
    else runs.push({ order: sorted.order, descending: sorted.descending, values: sorted.values, lo: r.lo, hi: r.hi });
  }
  return { sets, ranges: runs };
}
