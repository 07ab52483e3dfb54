// Queries built from rows the suite has seen: a probe asks within the scope its witness
// row came from (its query without the paging), and filters combine with AND (pairs of
// filters each taken from one seen row, which satisfies both, for the sample to page
// through).
import type { Rule } from '../../../spec/meaning.ts';
import type { Operation, Parameter } from '../../../spec/model.ts';
import { isRowRule, ROW_RULES, type RowMeaning, type RowRule } from './row-rules.ts';
import type { Query, SeenRow } from './answer-rows.ts';

/** The parameters whose rule shapes pages rather than picks rows: a probe keeps none of them. */
export const PAGING: readonly Rule[] = ['limitsRows', 'page', 'sort'];

/** The query a witness came from, without paging, so a probe asks within the same scope. */
export function scopeOf(op: Operation, query: Query): Query {
  const paging = new Set(op.parameters.filter((p) => p.meaning && PAGING.includes(p.meaning.rule)).map((p) => p.name));
  return Object.fromEntries(Object.entries(query).filter(([k]) => !paging.has(k)));
}

export interface Predicate {
  param: Parameter;
  meaning: RowMeaning;
  value: string;
}

/** The stable name of a combination check: the filters it combines (their values are data). */
export function combinationName(predicates: { param: Parameter }[]): string {
  return `meaning: filters combine with AND (${predicates.map((p) => p.param.name).join(' and ')})`;
}

export function combinations(op: Operation, seen: SeenRow[], count = 3): { query: Query; predicates: Predicate[] }[] {
  const filters = op.parameters.filter(
    (p) => p.meaning && isRowRule(p.meaning) && p.meaning.rule !== 'addsField' && p.meaning.rule !== 'relativeTime',
  );
  const out: ReturnType<typeof combinations> = [];
  for (let i = 0; i < count && seen.length; i++) {
    const w = seen[Math.floor(((i + 1) * seen.length) / (count + 1))]!;
    const usable = filters.flatMap((p) => {
      const m = p.meaning as RowMeaning;
      const value = (ROW_RULES[m.rule] as RowRule).valueFor(m, w.row, p);
      return value === undefined ? [] : [{ param: p, meaning: m, value }];
    });
    // A different pair for each combination, spread over the filters.
    const pair = [
      usable[(2 * i) % Math.max(1, usable.length)],
      usable[(2 * i + 1) % Math.max(1, usable.length)],
    ].filter((x, j, a) => x && a.indexOf(x) === j) as typeof usable;
    if (pair.length < 2) continue;
    out.push({
      query: { ...scopeOf(op, w.query), ...Object.fromEntries(pair.map((p) => [p.param.name, p.value])) },
      predicates: pair,
    });
  }
  return out;
}
