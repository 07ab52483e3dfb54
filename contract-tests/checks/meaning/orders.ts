// Sort orders as the spec's `x-meaning` (rule `sort`) states them: a field, a direction,
// how values compare (the spec's comparators, spec/sort-compare.ts, which the mock sorts
// with), and the fields that break ties. Used to judge whether consecutive rows (within
// a page, and across a page boundary) come in the promised order.
import type { Comparison, SortOrder } from '../../../spec/model.ts';
import { COMPARATORS } from '../../../spec/sort-compare.ts';
import type { Row } from './answer-rows.ts';

/** Ascending comparison of two field values by the spec's comparator; undefined when they cannot be compared. */
export function compareValues(a: unknown, b: unknown, how: Comparison): number | undefined {
  return COMPARATORS[how](a, b);
}

/**
 * Why `next` may not follow `prev` in this order, or undefined when it may. Rows whose
 * values cannot be compared are the schema check's to report, not the order's.
 */
export function orderProblem(order: SortOrder, tieBreak: string[], prev: Row, next: Row): string | undefined {
  const c = compareValues(prev[order.field], next[order.field], order.compare);
  if (c === undefined) return undefined;
  const signed = order.direction === 'asc' ? c : -c;
  const show = (r: Row, f: string) => `${f} ${JSON.stringify(r[f])}`;
  if (signed > 0)
    return `${show(next, order.field)} comes after ${show(prev, order.field)} (${order.direction === 'asc' ? 'ascending' : 'descending'} expected)`;
  // Equal for the comparison but not as written (one instant written two ways): which comes first is not pinned down.
  if (signed < 0 || prev[order.field] !== next[order.field]) return undefined;
  for (const f of tieBreak) {
    const t = compareValues(prev[f], next[f], 'natural');
    if (t === undefined || t < 0) return undefined;
    if (t > 0)
      return `on equal ${order.field}, ${show(next, f)} comes after ${show(prev, f)} (ties break by ${tieBreak.join(', ')}, ascending)`;
  }
  return undefined;
}
