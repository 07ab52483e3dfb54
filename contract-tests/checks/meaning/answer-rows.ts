// Rows as the suite meets them: the array of an answer that holds them (`results`,
// `versions`, ... as spec/model.ts finds it), who a row is, and the rows the sample
// collected with the query each came from (so a probe can ask within the same scope).
import type { Operation } from '../../../spec/model.ts';

export type Row = Record<string, unknown>;
export type Query = Record<string, string>;

/** A row the suite has seen, and the query that answered it. */
export interface SeenRow {
  row: Row;
  query: Query;
}

/**
 * The rows of an answer, or undefined when the body holds no such array. Only rows that
 * are objects: a `null` or a number in the array is the schema check's finding, and
 * every rule about a row's fields would trip over it.
 */
export function rowsOf(op: Operation, body: unknown): Row[] | undefined {
  const rows = op.rows && (body as Record<string, unknown> | undefined)?.[op.rows.property];
  return Array.isArray(rows)
    ? (rows.filter((r) => r !== null && typeof r === 'object' && !Array.isArray(r)) as Row[])
    : undefined;
}

/** How many rows an answer holds, whatever they are (a `null` row counts against `limit` too). */
export function rowCountOf(op: Operation, body: unknown): number | undefined {
  const rows = op.rows && (body as Record<string, unknown> | undefined)?.[op.rows.property];
  return Array.isArray(rows) ? rows.length : undefined;
}

/** A top-level integer of an answer (`total`, `unique_versions`, ...). */
export function countOf(body: unknown, name: string): number | undefined {
  const v = (body as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'number' ? v : undefined;
}

/**
 * Who a row is: the fields its operation's sort breaks ties by (`address`, `port`), which
 * the spec makes unique; the whole row where the spec names none.
 */
export function identityOf(op: Operation, row: Row): string {
  const fields = identityFields(op);
  // A row that lacks one of them (a broken server) is told apart by all it holds.
  if (!fields.length || fields.some((f) => row[f] === null || row[f] === undefined)) return JSON.stringify(row);
  return fields.map((f) => String(row[f])).join(':');
}

export function identityFields(op: Operation): string[] {
  for (const p of op.parameters) if (p.meaning?.rule === 'sort') return p.meaning.tieBreak;
  return [];
}

export function queryString(query: Query): string {
  const s = new URLSearchParams(query).toString();
  return s ? `?${s}` : '';
}

/** A query as people read it: `region=EU&minUsers=3`, or `(no parameters)`. */
export function describeQuery(query: Query): string {
  return (
    Object.entries(query)
      .map(([k, v]) => `${k}=${v}`)
      .join('&') || '(no parameters)'
  );
}
