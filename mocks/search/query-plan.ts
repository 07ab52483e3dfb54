// A search query planned from the spec alone, before the index is touched: each
// parameter is found by its `x-meaning` rule, not by its name (spec/rules.ts). The
// filters' values (text and flag values to look up as row sets, ranges merged per
// field, each with the order that sorts its field when the spec declares one), the
// order the rows come in (the `sort` rule's orders: a value it does not list gets its
// default), the page (`limitsRows`, `page`) and the switches (`revealsHidden`,
// `addsField`, `relativeTime`). search.ts then takes the plan through the index.
import type { Operation } from '../../spec/model.ts';
import { isOn, parameterWith, type Range } from '../../spec/rules.ts';
import { orderKey, ordersOf, sortRuleOf, STORED_ORDER } from '../dataset/sort-orders.ts';
import { filtersOf, type Filter, type PlannedRange } from './filters.ts';
import type { IndexOrder } from './search-index.ts';

/** An order of the spec with its key (an index holds its orders by key). */
export type PlannedOrder = IndexOrder;

/** What the spec says of a search operation, read once: its filters, orders and shape parameters. */
export interface SearchOperation {
  filters: readonly Filter[];
  /** The parameters that shape the answer, found by their rules (undefined: the spec has none). */
  shape: {
    limitsRows?: string | undefined;
    page?: string | undefined;
    sort?: string | undefined;
    revealsHidden?: string | undefined;
    addsField?: string | undefined;
    relativeTime?: string | undefined;
  };
  /** The page size when the query gives none (the limit's default). */
  defaultLimit: number;
  /** Each order by the sort value that names it. */
  orders: ReadonlyMap<string, PlannedOrder>;
  /** The order of a query that names none, or one the spec does not list: the sort's default. */
  defaultOrder: PlannedOrder;
  /** The first order by each field (a range of the field is a run of it). */
  orderOfField: ReadonlyMap<string, PlannedOrder>;
}

/** What one query asks. */
export interface QueryPlan {
  /** The text and flag filters given, with their values: row sets (filters.ts valueRows). */
  values: { filter: Filter; value: unknown }[];
  /** The ranges, two bounds on one field merged into one. */
  ranges: PlannedRange[];
  order: PlannedOrder;
  /** The page: rows [offset, end) of the order. */
  offset: number;
  end: number;
  /** The hidden rows are included (and not counted apart). */
  revealsHidden: boolean;
  addsField: boolean;
  relativeTime: boolean;
}

/** The plan-ready reading of a search operation of the spec. */
export function searchOperation(op: Operation): SearchOperation {
  const name = (rule: Parameters<typeof parameterWith>[1]) => parameterWith(op, rule)?.name;
  const limit = parameterWith(op, 'limitsRows');
  const sort = parameterWith(op, 'sort');
  const orders = new Map<string, PlannedOrder>();
  const orderOfField = new Map<string, PlannedOrder>();
  for (const [value, o] of ordersOf(sortRuleOf(op))) {
    orders.set(value, o);
    if (!orderOfField.has(o.definition.field)) orderOfField.set(o.definition.field, o);
  }
  const fallback = sort && orders.get(String(sort.default));
  return {
    filters: filtersOf(op),
    shape: {
      limitsRows: limit?.name,
      page: name('page'),
      sort: sort?.name,
      revealsHidden: name('revealsHidden'),
      addsField: name('addsField'),
      relativeTime: name('relativeTime'),
    },
    defaultLimit: typeof limit?.default === 'number' ? limit.default : Number.MAX_SAFE_INTEGER,
    orders,
    defaultOrder: fallback ?? orders.values().next().value ?? { definition: STORED_ORDER, key: orderKey(STORED_ORDER) },
    orderOfField,
  };
}

/** A given value (a parameter left out or empty is no value: real clients send `motd=`). */
const given = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

/** The range already planned on this field, if any. */
function sameField(ranges: readonly PlannedRange[], r: Range): Range | undefined {
  for (const x of ranges) if (x.range.field === r.field && x.range.time === r.time) return x.range;
  return undefined;
}

/** Is the switch `name` on in `q`? (Plain functions on the query path: no closure per query.) */
const on = (q: Record<string, unknown>, name: string | undefined): boolean => name !== undefined && isOn(q[name]);

/** What query `q` (coerced by its schemas) asks of `s`'s rows; `now` for the age rules. */
export function planQuery(s: SearchOperation, q: Record<string, unknown>, now: number): QueryPlan {
  const values: QueryPlan['values'] = [];
  let ranges: PlannedRange[] | undefined;
  for (let i = 0; i < s.filters.length; i++) {
    const filter = s.filters[i]!;
    const value = q[filter.name];
    if (!given(value)) continue;
    if (!filter.range) {
      values.push({ filter, value });
      continue;
    }
    const ask = filter.ask(value, now);
    if (!ask || !('range' in ask)) continue;
    // Two bounds on one field (minUsers and maxUsers) are one range.
    const r: Range = ask.range;
    const had = ranges && sameField(ranges, r);
    if (had) {
      had.lo = Math.max(had.lo, r.lo);
      had.hi = Math.min(had.hi, r.hi);
    } else (ranges ??= []).push({ range: r, order: s.orderOfField.get(r.field) });
  }
  const { shape } = s;
  const named = shape.sort === undefined ? undefined : q[shape.sort];
  const order = (typeof named === 'string' && s.orders.get(named)) || s.defaultOrder;
  const asked = shape.limitsRows === undefined ? undefined : q[shape.limitsRows];
  const limit = typeof asked === 'number' && Number.isFinite(asked) ? Math.max(0, Math.floor(asked)) : s.defaultLimit;
  const pageAsked = shape.page === undefined ? undefined : q[shape.page];
  const page = typeof pageAsked === 'number' && Number.isFinite(pageAsked) ? Math.max(1, Math.floor(pageAsked)) : 1;
  const offset = (page - 1) * limit;
  return {
    values,
    ranges: ranges ?? [],
    order,
    offset,
    end: offset + limit,
    revealsHidden: on(q, shape.revealsHidden),
    addsField: on(q, shape.addsField),
    relativeTime: on(q, shape.relativeTime),
  };
}
