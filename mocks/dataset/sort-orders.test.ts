// Any order the spec can declare, sorted by the dataset's fast routes (counting sorts of
// ranks, the address radix sort, the numeric columns), against a plain comparison sort
// by the spec's comparators: the field in its direction (a null last either way), ties
// by the tieBreak fields ascending, then by row.
import { describe, expect, it } from 'vitest';
import { COMPARATORS } from '../../spec/sort-compare.ts';
import { rowsOf } from './columns.ts';
import { generateDataset } from './generator.ts';
import { sortOrder, sortOrders, orderKey, type OrderDefinition, type SortRule } from './sort-orders.ts';

const ds = generateDataset({ seed: 3, count: 900, now: new Date('2026-03-01T00:00:00.000Z') });
const rows = rowsOf(ds) as unknown as Record<string, unknown>[];

/** The order by comparing rows, as the spec reads it. */
function compared(d: OrderDefinition): number[] {
  const by = (field: string, compare: OrderDefinition['compare'], sign: number) => (a: number, b: number) => {
    const x = rows[a]![field];
    const y = rows[b]![field];
    const known = (v: unknown) => v !== null && v !== undefined;
    if (!known(x) || !known(y)) return known(x) ? -1 : known(y) ? 1 : 0;
    return sign * (COMPARATORS[compare](x, y) ?? 0);
  };
  const keys = [by(d.field, d.compare, d.direction === 'asc' ? 1 : -1), ...d.tieBreak.map((f) => by(f, 'natural', 1))];
  return rows
    .map((_, i) => i)
    .sort((a, b) => {
      for (const k of keys) {
        const c = k(a, b);
        if (c !== 0) return c;
      }
      return a - b;
    });
}

const definitions: OrderDefinition[] = [
  // A dictionary column (numbers), descending.
  { field: 'players_limit', direction: 'desc', compare: 'natural', tieBreak: ['address', 'port'] },
  // Text with nulls (most cities are), ascending in code-unit order.
  { field: 'city', direction: 'asc', compare: 'natural', tieBreak: ['address', 'port'] },
  { field: 'version', direction: 'asc', compare: 'version', tieBreak: ['address', 'port'] },
  // The address itself, the other way round.
  { field: 'address', direction: 'desc', compare: 'natural', tieBreak: ['address', 'port'] },
  // The numeric columns, against their usual direction.
  { field: 'last_ping', direction: 'asc', compare: 'time', tieBreak: ['address', 'port'] },
  { field: 'players_online', direction: 'asc', compare: 'natural', tieBreak: ['address', 'port'] },
  // Ties by other fields than the address: the tie order is sorted too.
  { field: 'port', direction: 'desc', compare: 'natural', tieBreak: ['players_online'] },
  { field: 'country_code', direction: 'asc', compare: 'natural', tieBreak: ['city', 'port'] },
  // A field no row has: the tie order itself.
  { field: 'nothing', direction: 'desc', compare: 'natural', tieBreak: ['port'] },
];

describe('sortOrder', () => {
  it.each(definitions.map((d) => [orderKey(d), d] as const))('%s', (_, d) => {
    expect(Array.from(sortOrder(ds, d))).toEqual(compared(d));
  });
});

describe('sortOrders', () => {
  it('sorts every order of a rule, once per definition, and keeps the ones it is given', () => {
    const rule: SortRule = {
      rule: 'sort',
      orders: {
        slots: { field: 'players_limit', direction: 'desc', compare: 'natural' },
        also: { field: 'players_limit', direction: 'desc', compare: 'natural' },
        city: { field: 'city', direction: 'asc', compare: 'natural' },
      },
      tieBreak: ['address', 'port'],
    };
    const slots = orderKey({ ...rule.orders.slots!, tieBreak: rule.tieBreak });
    const city = orderKey({ ...rule.orders.city!, tieBreak: rule.tieBreak });
    const given = new Uint32Array(ds.size).fill(7);
    const orders = sortOrders(ds, rule, new Map([[city, given]]));
    expect([...orders.keys()].sort()).toEqual([city, slots].sort());
    expect(orders.get(city)).toBe(given);
    expect(Array.from(orders.get(slots)!)).toEqual(compared({ ...rule.orders.slots!, tieBreak: rule.tieBreak }));
  });
});
