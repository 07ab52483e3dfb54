// Sort orders as the spec's `x-meaning` (rule `sort`) states them: a field, a direction,
// how values compare, and the fields that break ties. Used to judge whether consecutive
// rows (within a page, and across a page boundary) come in the promised order.
import type { Comparison, SortOrder } from '../../../spec/model.ts';
import type { Row } from './answer-rows.ts';

// Numeric-aware, case-insensitive: "1.20.4" sorts after "1.9", as people read versions.
const versions = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Ascending comparison of two field values; undefined when they cannot be compared (a null, a wrong type). */
export function compareValues(a: unknown, b: unknown, how: Comparison): number | undefined {
  if (how === 'time') {
    const x = typeof a === 'string' ? Date.parse(a) : NaN;
    const y = typeof b === 'string' ? Date.parse(b) : NaN;
    return Number.isNaN(x) || Number.isNaN(y) ? undefined : x - y;
  }
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a !== 'string' || typeof b !== 'string') return undefined;
  if (how === 'version') return versions.compare(a, b);
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
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
  // Equal for the comparison but not as written (e.g. case): which comes first is not pinned down.
  if (signed < 0 || prev[order.field] !== next[order.field]) return undefined;
  for (const f of tieBreak) {
    const t = compareValues(prev[f], next[f], 'natural');
    if (t === undefined || t < 0) return undefined;
    if (t > 0)
      return `on equal ${order.field}, ${show(next, f)} comes after ${show(prev, f)} (ties break by ${tieBreak.join(', ')}, ascending)`;
  }
  return undefined;
}
