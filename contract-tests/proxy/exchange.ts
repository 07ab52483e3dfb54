// One exchange as the proxy's checks read it, what a violation of one says, and the
// names of the checks (the report's rows): shared by the judge (judge-traffic.ts) and
// the request-side checks (request-checks.ts).
import type { FindingKind } from '../../spec/judge.ts';
import type { Operation } from '../../spec/model.ts';
import type { Provenance } from '../../spec/provenance.ts';
import type { Evidence } from '../kit/recorder.ts';

/** An exchange with its answer read: what the checks look at. */
export interface Judged {
  method: string;
  /** Path and query, as the client sent them. */
  url: URL;
  op?: Operation;
  requestHeaders: Record<string, string>;
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed body, undefined when it is not JSON (or was not parsed again: the verdict of the same bytes is known). */
  json: unknown;
  /** The body is JSON. */
  parsed: boolean;
  /** The answer's time (its Date header, else the proxy's clock): ages are judged by it. */
  now: number;
}

export interface Violation {
  check: string;
  level: Provenance;
  why: string;
  expected?: string;
  evidence?: Evidence;
}

/** The value of the API's session cookie in a Cookie header (the one the spec's session scheme reads), if it was sent. */
export function sessionOf(cookieHeader: string | undefined, cookieName: string | undefined): string | undefined {
  if (!cookieHeader || !cookieName) return undefined;
  const prefix = `${cookieName}=`;
  for (const c of cookieHeader.split(/;\s*/)) if (c.startsWith(prefix)) return c.slice(prefix.length);
  return undefined;
}

export const CHECKS = {
  '5xx': 'proxy: no server error',
  undeclared: 'proxy: a status the operation declares',
  'not-json': 'proxy: JSON, said so (Content-Type: application/json)',
  'error-shape': 'proxy: every error answer is the error body',
  schema: 'proxy: the body matches the schema of its status',
  header: 'proxy: the headers its status declares',
  filters: 'proxy: the rows satisfy the filters sent (x-meaning)',
  order: 'proxy: the rows come in the order asked (sort)',
  leaks: 'proxy: no answer leaks a stack trace, SQL text, a server file path or framework internals',
  auth: 'proxy: a protected operation refuses a request without credentials',
  refused: 'proxy: a value the spec refuses gets 400',
  routing: 'proxy: a method the path does not declare gets 405',
  judged: 'proxy: every answer judged',
} as const satisfies Record<FindingKind | string, string>;
