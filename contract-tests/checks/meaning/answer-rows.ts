// Queries as the suite sends them, and the rows it has seen with the query each came from
// (so a probe can ask within the same scope). What rows are, and who a row is, is read
// once, in spec/judges/rows.ts.
import type { Row } from '../../../spec/judges/rows.ts';

export type { Query, Row } from '../../../spec/judges/rows.ts';

/** A row the suite has seen, and the query that answered it. */
export interface SeenRow {
  row: Row;
  query: Record<string, string>;
}

export function queryString(query: Record<string, string>): string {
  const s = new URLSearchParams(query).toString();
  return s ? `?${s}` : '';
}

/** A query as people read it: `region=EU&minUsers=3`, or `(no parameters)`. */
export function describeQuery(query: Record<string, string>): string {
  return (
    Object.entries(query)
      .map(([k, v]) => `${k}=${v}`)
      .join('&') || '(no parameters)'
  );
}
