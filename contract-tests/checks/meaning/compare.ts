// Two answers of one operation compared without their data: the `default:` checks (a
// parameter set to its default answers like the parameter left out) and the `ignored`
// rule compare the shape of two answers; `revealsHidden` and `limitsRows` compare their
// counts. A live target's counts move between two requests, so a difference is asked
// again once before it is called a defect.
import type { Operation } from '../../../spec/model.ts';
import type { Exchange } from '../../transport/transport.ts';
import type { CachedReads } from '../cached-reads.ts';
import { describeQuery, rowCountOf, rowsOf, type Query } from './answer-rows.ts';

/** What an answer looks like, without its data: keys, the kind of each row field, the counts. */
export function shapeOf(
  op: Operation,
  body: unknown,
): { keys: string; fields: string; counts: Record<string, unknown>; rows?: number } {
  const kind = (v: unknown) =>
    v === null
      ? 'null'
      : Array.isArray(v)
        ? 'array'
        : typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v)
          ? 'timestamp'
          : typeof v;
  const rows = rowsOf(op, body) ?? [];
  const fields = new Set(rows.flatMap((r) => Object.entries(r).map(([k, v]) => `${k}:${kind(v)}`)));
  const top = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  return {
    keys: Object.keys(top).sort().join(', '),
    fields: [...fields].sort().join(', '),
    counts: Object.fromEntries(Object.entries(top).filter(([, v]) => typeof v === 'number')),
    rows: rowCountOf(op, body),
  };
}

/** How two answers differ in shape, for people. */
export function shapeProblems(op: Operation, answers: { without: unknown; with: unknown }, label: string): string[] {
  const [x, y] = [shapeOf(op, answers.without), shapeOf(op, answers.with)];
  const diff = (p: string, q: string) => {
    const [ps, qs] = [new Set(p.split(', ').filter(Boolean)), new Set(q.split(', ').filter(Boolean))];
    return [
      ...[...qs].filter((k) => !ps.has(k)).map((k) => `+${k}`),
      ...[...ps].filter((k) => !qs.has(k)).map((k) => `-${k}`),
    ].join(' ');
  };
  const out: string[] = [];
  if (x.keys !== y.keys) out.push(`with ${label} the body's keys change: ${diff(x.keys, y.keys)}`);
  if (x.fields !== y.fields) out.push(`with ${label} the rows change: ${diff(x.fields, y.fields)}`);
  for (const [k, v] of Object.entries(x.counts))
    if (k in y.counts && y.counts[k] !== v) out.push(`with ${label} ${k} is ${y.counts[k]}, without it ${v}`);
  if (x.rows !== y.rows) out.push(`with ${label} ${y.rows} rows, without it ${x.rows}`);
  return out;
}

export interface Comparison {
  op: Operation;
  /** The query without the parameter, and with it. */
  without: Query;
  with: Query;
  /** The problems of the two bodies, empty when they agree. */
  compare: (without: unknown, withIt: unknown) => string[];
}

/**
 * Compares two answers; when they disagree, asks both again once, so a live target whose
 * counts moved between the requests is not taken for a defect.
 */
export async function stableCompare(
  reads: CachedReads,
  c: Comparison,
): Promise<{ exchange: Exchange; problems: string[] }> {
  let [ea, eb] = [await reads.get(c.op, c.without), await reads.get(c.op, c.with)];
  let problems = ea.response && eb.response ? c.compare(ea.response.json, eb.response.json) : [];
  if (problems.length) {
    [ea, eb] = [await reads.get(c.op, c.without, { fresh: true }), await reads.get(c.op, c.with, { fresh: true })];
    problems = ea.response && eb.response ? c.compare(ea.response.json, eb.response.json) : problems;
  }
  if (!ea.response && eb.response)
    problems.push(`the request without ${describeQuery(c.with)} got no answer: ${ea.skipped ?? ea.error}`);
  return { exchange: eb, problems };
}
