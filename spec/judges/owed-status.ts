// The statuses a request is owed by what it is, in the order the spec's rules come to it:
// a path the API does not have (404) or a method it does not declare (405, `x-routing`),
// a body over `x-max-body-bytes` (413), missing or bad credentials (401) or credentials
// without the permission (403), a body that is not JSON (415), a value its schema refuses
// (400), what the sender knows (a path naming nothing: 404; the caller at the key cap:
// 409), and otherwise, where the sender knows its credential is good, the operation's
// success. Each rule is one judge of the registry (rule-judges.ts); when several apply, an
// implementation may answer any of their statuses (the spec does not order them), and
// the first is the one a failure is filed under. A preflight from an origin x-cors allows,
// about a path of the spec, is owed x-cors's preflight status (the `cors` judge holds it).
// 429 is owed to no request and taken from any: a rate limit may refuse anything.
import { weakest, type Provenance } from '../provenance.ts';
import { crossOrigin } from './cross-origin.ts';
import type { Exchange } from './exchange.ts';
import type { JudgeContext } from './judge.ts';

export interface Owed {
  /** The judge of the rule (`routing`, `auth`, ...). */
  rule: string;
  status: number;
  /** Why the request is owed it, for people. */
  because: string;
  level: Provenance;
}

/** Statuses an answer may have whatever the request: the rate limit refuses anything. */
export const ALWAYS_ALLOWED = new Set([429]);

/**
 * A conditional GET or HEAD (If-None-Match, If-Modified-Since) answered 304 Not Modified:
 * the client's cache asked for it (RFC 9110 13.1, 15.4.5), whatever the operation declares.
 */
export function notModified(ex: Exchange): boolean {
  const { method, headers } = ex.request;
  return (
    ex.answer.status === 304 &&
    (method === 'GET' || method === 'HEAD') &&
    (headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined)
  );
}

/** Invalid credentials, as the sender knows them. */
const INVALID = new Set(['unknown', 'revoked', 'expired']);

function authOwed(ex: Exchange, ctx: JudgeContext): Owed | undefined {
  const op = ctx.operation(ex);
  if (!op || op.isPublic) return undefined;
  const { model } = ctx;
  const level = weakest(op.provenance, ...op.schemes.map((s) => model.schemes.get(s)?.provenance));
  const { presented, malformed } = ctx.read(ex).credentials;
  const known = ex.known?.credential;
  const mine = presented.filter((p) => op.schemes.includes(p.scheme));
  if (!mine.length) {
    const because = malformed.length
      ? `it carries no credential (only ${malformed.join(', ')})`
      : 'it carries no credentials';
    return { rule: 'auth', status: 401, because, level };
  }
  if (known && INVALID.has(known)) return { rule: 'auth', status: 401, because: `its credential is ${known}`, level };
  if (known === 'forbidden') {
    return { rule: 'auth', status: 403, because: `its credential lacks the '${op.permission}' permission`, level };
  }
  if (known === 'valid' && !mine.some((p) => op.allowedSchemes.includes(p.scheme))) {
    const because = `x-credentials allows only ${op.allowedSchemes.join(', ')} to perform it`;
    return { rule: 'auth', status: 403, because, level };
  }
  return undefined;
}

const owedOf = new WeakMap<Exchange, { ctx: JudgeContext; owed: Owed[] }>();

/** Every status the request is owed, in the spec's order; empty when nothing about it decides its status. Worked out once per exchange. */
export function owedStatuses(ex: Exchange, ctx: JudgeContext): Owed[] {
  const had = owedOf.get(ex);
  if (had?.ctx === ctx) return had.owed;
  const owed = statusesOwed(ex, ctx);
  owedOf.set(ex, { ctx, owed });
  return owed;
}

function statusesOwed(ex: Exchange, ctx: JudgeContext): Owed[] {
  const reading = ctx.read(ex);
  const { model } = ctx;
  const out: Owed[] = [];
  const route = reading.route;
  if (route.kind === 'outside-api') return out;
  // A browser asks before it sends: the answer is x-cors's, not the routing's.
  if (route.kind === 'preflight') {
    const cors = crossOrigin(ex, ctx);
    if (cors?.standing === 'allowed' && cors.preflight && cors.template) {
      const { status, provenance } = model.cors.preflight;
      const because = `a preflight of ${cors.template} from ${cors.origin}, which x-cors allows`;
      out.push({ rule: 'cors', status, because, level: weakest(provenance, model.cors.origins.provenance) });
    }
    return out;
  }
  const routing = model.routing;
  if (route.kind === 'unknown-path') {
    out.push({
      rule: 'routing',
      status: routing.unknownPath,
      because: 'the API has no such path',
      level: routing.provenance,
    });
  } else if (route.kind === 'wrong-method') {
    const because = `${route.template} declares only ${route.allowed.join(', ')}`;
    out.push({ rule: 'routing', status: routing.wrongMethod, because, level: routing.provenance });
  }
  const op = reading.op;
  const bodyLevel = weakest(op?.provenance, model.documentProvenance);
  if (reading.body.bytes > model.limits.maxBodyBytes) {
    const because = `its body of ${reading.body.bytes} bytes is over x-max-body-bytes (${model.limits.maxBodyBytes})`;
    out.push({ rule: 'body-limit', status: 413, because, level: bodyLevel });
  }
  if (!op) return out;
  const auth = authOwed(ex, ctx);
  if (auth) out.push(auth);
  if (op.requestBody && reading.body.bytes > 0 && reading.body.type !== 'application/json') {
    const because = `its body is ${reading.body.type || 'untyped'}, not application/json`;
    out.push({ rule: 'media-type', status: 415, because, level: bodyLevel });
  }
  if (reading.refused.length) {
    const because = `the spec refuses ${reading.refused.map((r) => `${r.name}=${shortValue(r.value)}`).join(', ')}`;
    out.push({ rule: 'refused-values', status: 400, because, level: weakest(...reading.refused.map((r) => r.level)) });
  }
  const known = ex.known;
  if (known?.namesNothing) {
    out.push({ rule: 'not-found', status: 404, because: 'its path names nothing that exists', level: op.provenance });
  }
  if (known?.atKeyCap) {
    const because = `the caller holds ${model.limits.maxKeysPerUser} keys, x-max-keys-per-user`;
    out.push({ rule: 'key-cap', status: 409, because, level: op.provenance });
  }
  if (!out.length && owedSuccess(ex, ctx, op)) {
    out.push({
      rule: 'success',
      status: op.successStatus,
      because: 'nothing about it is refused',
      level: op.provenance,
    });
  }
  return out;
}

/**
 * Whether nothing but the success is left for a request no rule refuses: a protected
 * operation's when the sender knows its credential is good; a public one's when every
 * credential it carries is of known standing (or it carries none: a public operation
 * ignores them either way) and what its path names is known to exist, if it names anything.
 */
function owedSuccess(ex: Exchange, ctx: JudgeContext, op: NonNullable<ReturnType<JudgeContext['operation']>>): boolean {
  const known = ex.known;
  // What a parameter sent twice means is the server's to choose: no status is owed for it.
  if (ctx.read(ex).repeated.length) return false;
  if (!op.isPublic) return known?.credential === 'valid';
  const carries = ctx.read(ex).credentials.presented.length > 0;
  const namesSomething = op.parameters.some((p) => p.in === 'path');
  return (!carries || known?.credential !== undefined) && (!namesSomething || known?.exists === true);
}

/** A value as a short, single-line text. */
export function shortValue(v: unknown): string {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return s.length > 24 ? `${s.slice(0, 12)}…(${s.length} chars)` : s;
}
