// What the mock finds about a request it received, besides refusing it: what the request
// judges of spec/judges/ (request-judges.ts) find, the same the suite's judges read
// requests by: a query parameter the operation does not have (which the real service
// silently ignores, so a typo such as `sortBy` for `sort` passes every test and filters
// nothing), a parameter of another operation, a body field the schema lacks, a malformed
// credential; each with a near-miss hint. The journal, `assertNoFindings` and the
// once-per-kind warning only read the list this module fills.
import type { JudgeContext } from '../../../spec/judges/judge.ts';
import { judgeRequest } from '../../../spec/judges/request-judges.ts';
import type { SentRequest } from '../../../spec/judges/exchange.ts';

/** One thing found about a request: the judge that said it, how bad, why, and what was probably meant. */
export interface Finding {
  judge: string;
  level: 'error' | 'warning' | 'info';
  why: string;
  hint?: string;
}

/**
 * The stage of the mock's pipeline that refused a request (every 4xx says one), named as
 * the suite's judges are where one judges the same thing: `auth` (401, 403), `refused-values`
 * (a parameter), `json` and `schema` (a body), `routing` (404, 405), `body-limit` (413),
 * `media-type` (415); the mock's own: `override` (an override answered it), `prefer` (an
 * undeclared `Prefer`), `rate-limit` (429), `host-check` and `cors` (403 before any operation),
 * `dev-route` (a `/__mock/*` route refused its input), `operation` (the operation's own answer,
 * such as 409 for a user at the key cap).
 */
export type Rule =
  | 'auth'
  | 'refused-values'
  | 'json'
  | 'schema'
  | 'routing'
  | 'body-limit'
  | 'media-type'
  | 'override'
  | 'prefer'
  | 'rate-limit'
  | 'host-check'
  | 'cors'
  | 'dev-route'
  | 'operation';

/**
 * What the mock found about a request (undefined for nothing): the request judges' findings, as the journal shows them.
 */
export type FindingsOf = (request: SentRequest) => Finding[] | undefined;

/**
 * Requests whose findings each memory keeps (bare GETs by target; the rest by what the judges read): a front end
 * sends the same few requests again and again.
 */
const REMEMBERED = 512;

/**
 * The request judges on the requests the mock receives. The judges are pure, so the findings of a request without a
 * body are remembered by what they read (method, target, credentials, body type), a bounded memory that never
 * changes a finding: the same request judged again costs a lookup, not a reading.
 */
export function mockFindings(ctx: JudgeContext): FindingsOf {
  const seen = new Map<string, Finding[] | undefined>();
  /** Bare GETs (no credential, no body type), by target alone: a front end's commonest request. */
  const seenGet = new Map<string, Finding[] | undefined>();
  const judge = (request: SentRequest): Finding[] | undefined => {
    const ex = { request };
    // Read once for every judge, and not kept among the context's recent readings: this memory keeps what they found.
    ctx.read(ex, { remember: false });
    const found = judgeRequest(ex, ctx);
    if (found.length === 0) return undefined;
    // A request the real service answers is no error of the mock's user: each is a warning.
    return found.map((f) => ({ judge: f.judge, level: 'warning', why: f.why, ...(f.hint ? { hint: f.hint } : {}) }));
  };
  return (request) => {
    if (request.body !== undefined) return judge(request);
    const h = request.headers;
    // A GET with none of the headers the judges read (a front end's commonest request) is
    // remembered by its target alone: no key string is built for it.
    const bareGet =
      request.method === 'GET' &&
      h.authorization === undefined &&
      h.cookie === undefined &&
      h['content-type'] === undefined;
    const memory = bareGet ? seenGet : seen;
    const key = bareGet
      ? request.target
      : `${request.method} ${request.target}\n${h.authorization}\n${h.cookie}\n${h['content-type']}`;
    const known = memory.get(key);
    if (known !== undefined || memory.has(key)) return known;
    const found = judge(request);
    if (memory.size >= REMEMBERED) memory.delete(memory.keys().next().value!);
    memory.set(key, found);
    return found;
  };
}
