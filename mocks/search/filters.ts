// The query parameters that pick rows, applied by what their rule's descriptor
// (spec/rules.ts) says a value asks: tests of a field's values, or a range. By the
// descriptor's kind the index answers an ask: a text or flag value is a set of rows
// whose value passes (each distinct value tested once, the set cached), a range of a
// field with a sort order a run of that order (else a set too). The metadata lookups
// apply the same asks to their few rows (rowFilter). So a parameter the spec adds with
// a known rule is applied with no code, on any field of a row (the index builds a
// column for a field it did not keep as one); the contract suite judges rows by the
// same descriptors: text matching ignores case, a null field passes no filter.
import type { Operation } from '../../spec/model.ts';
import {
  descriptorOf,
  inRange,
  isFilter,
  passes,
  type Ask,
  type FieldTest,
  type FilterMeaning,
  type Range,
} from '../../spec/rules.ts';
import type { Numbers } from '../dataset/columns.ts';
import { numbersOf } from '../dataset/columns.ts';
import { wordsFor, type Bits } from './row-sets.ts';
import { lowered, unionSet, valueSet, type IndexOrder, type ServerIndex } from './search-index.ts';

/** A parameter that picks rows, with its rule. */
export interface Filter {
  name: string;
  meaning: FilterMeaning;
  /** The rule's kind: a range is a run of an order where one sorts its field. */
  range: boolean;
  /** What a value asks (the rule's descriptor). */
  ask: (value: unknown, now: number) => Ask | undefined;
}

/** The filter of parameter `name` with meaning `m`. */
export function filterOf(name: string, meaning: FilterMeaning): Filter {
  const d = descriptorOf(meaning);
  if (d.role !== 'filter') throw new Error(`${name}: ${meaning.rule} picks no rows`);
  return { name, meaning, range: d.kind === 'range', ask: (value, now) => d.ask(meaning, value, now) };
}

/** The parameters of an operation that pick rows, in the spec's order. */
export function filtersOf(op: Operation): Filter[] {
  return op.parameters.flatMap((p) => (p.meaning && isFilter(p.meaning) ? [filterOf(p.name, p.meaning)] : []));
}

/** A value's row set: the key it is cached under, and the set (built on first use). */
export interface RowSet {
  key: string;
  bits: () => Bits;
}

/** A range of a numeric field as a run of an order sorted by it. */
export interface OrderRange {
  order: IndexOrder;
  descending: boolean;
  values: Numbers;
  lo: number;
  hi: number;
}

/** A range of a query, with the order that sorts its field, if the spec declares one. */
export interface PlannedRange {
  range: Range;
  order?: IndexOrder | undefined;
}

/** A given value of a filter (a parameter left out or empty asks nothing). */
const given = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

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
  const all: Ask[] = [];
  for (const f of filters) {
    const ask = given(q[f.name]) ? f.ask(q[f.name], now) : undefined;
    if (ask) all.push(ask);
  }
  if (!all.length) return undefined;
  const key = all
    .map((ask) =>
      'range' in ask
        ? `${ask.range.field}[${ask.range.lo},${ask.range.hi}]`
        : ask.tests.map((t) => `${t.field}\u0000${t.key}`).join('|'),
    )
    .join('\u0001');
  return { key, passes: (row) => all.every((ask) => passes(ask, row)) };
}

/** A range as a set: the field's distinct values tested once (a field without a sort order). */
function rangeSet(ix: ServerIndex, r: Range): RowSet {
  const key = `[${r.lo},${r.hi}]${r.time ? 't' : 'n'}`;
  return {
    key: `${r.field}\u0000${key}`,
    bits: () => valueSet(ix, r.field, key, (v) => v !== null && v !== undefined && inRange(r, v)),
  };
}

/** A field test as a set of the index's rows. */
function testSet(ix: ServerIndex, t: FieldTest): RowSet {
  const { field, key } = t;
  const lowerText = t.lowerText;
  if (lowerText) {
    return {
      key: `${field}\u0000${key}`,
      bits: () => {
        const low = lowered(ix, field);
        return valueSet(ix, field, key, (_, id) => {
          const v = low[id];
          return typeof v === 'string' && lowerText(v);
        });
      },
    };
  }
  return {
    key: `${field}\u0000${key}`,
    bits: () => valueSet(ix, field, key, (v) => v !== null && v !== undefined && t.test(v)),
  };
}

/** Does every row hold text in this field? Then a pattern of stars alone filters nothing. */
function allText(ix: ServerIndex, field: string): boolean {
  return lowered(ix, field).every((v) => v !== null);
}

/** A value that filters nothing (`version=*` where every row has text): remembered as such. */
const NO_SET = Object.freeze({});

/** Each filter's number, for the keys of the index's remembered values (a Filter belongs to the spec served). */
const filterIds = new WeakMap<Filter, number>();
let filtersSeen = 0;
const filterId = (filter: Filter): number => {
  let id = filterIds.get(filter);
  if (id === undefined) filterIds.set(filter, (id = filtersSeen++));
  return id;
};

/**
 * The set a text or flag value asks for, made once per value and remembered by the
 * index within its budget (the values come from clients); the rows are built on first
 * use, and cached apart. Null when the value filters nothing.
 */
export function valueRows(ix: ServerIndex, filter: Filter, value: unknown): RowSet | null {
  const key = `${filterId(filter)}\u0000${typeof value}\u0000${String(value)}`;
  const hit = ix.lazy.filterValues.get(key);
  if (hit !== undefined) return hit === NO_SET ? null : (hit as RowSet);
  const ask = filter.ask(value, 0);
  let set: RowSet | null = null;
  if (ask && 'tests' in ask && !(ask.tests.length === 1 && ask.tests[0]!.anyText && allText(ix, ask.tests[0]!.field))) {
    const parts = ask.tests.map((t) => testSet(ix, t));
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

/** No row: a range of numbers over times, or of ages over numbers. */
const noRows = (ix: ServerIndex): RowSet => ({ key: '\u0002none', bits: () => new Uint32Array(wordsFor(ix.size)) });

/** A range of a query as the index answers it: a run of the order that sorts its field, or a set. */
export function rangeRows(ix: ServerIndex, { range: r, order }: PlannedRange): RowSet | OrderRange {
  const column = order && numbersOf(ix.dataset, r.field);
  if (!order || !column) return rangeSet(ix, r);
  if (column.time !== r.time) return noRows(ix);
  const descending = order.definition.direction === 'desc';
  return { order, descending, values: column.numbers, lo: r.lo, hi: r.hi };
}
