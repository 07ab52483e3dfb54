// The judges of the statuses a request is owed (owed-status.ts), one per rule: each holds
// an answer to its rule when its rule is the first that applies, and adds what only it
// knows of the answer: a 405 lists the methods the path declares in Allow (and not the
// one refused), a 400 names what it refuses, a public operation ignores credentials.
import { weakest } from '../provenance.ts';
import type { Exchange } from './exchange.ts';
import { type Finding, type Judge, type JudgeContext, judge } from './judge.ts';
import { ALWAYS_ALLOWED, notModified, type Owed, owedStatuses, shortValue } from './owed-status.ts';

/** What a rule adds once the status is the one it owes. */
type Extra = (ex: Exchange, ctx: JudgeContext, owed: Owed) => Finding[];

/** Words of the defect when a rule's status is not the answer's. */
function statusDefect(rule: string, got: number, want: number): string {
  return `answers ${got} where the spec says ${want} (${rule})`;
}

function ruleJudge(rule: string, promise: string, extra?: Extra): Judge {
  const mine = (ex: Exchange, ctx: JudgeContext) => owedStatuses(ex, ctx).find((o) => o.rule === rule);
  return judge({
    name: rule,
    promise,
    applies: (ex, ctx) => mine(ex, ctx) !== undefined,
    level: (ex, ctx) => mine(ex, ctx)?.level ?? 'assumed',
    judge: (ex, ctx) => {
      const all = owedStatuses(ex, ctx);
      const owed = all.find((o) => o.rule === rule);
      if (!owed) return [];
      const { status } = ex.answer;
      if (status === owed.status) return extra?.(ex, ctx, owed) ?? [];
      // An answer chosen for the request (the mock's `Prefer`, a client's cache) owes nothing to what the request is.
      if (ex.known?.steered || notModified(ex)) return [];
      // A server error is `server-error`'s, a success the operation does not declare `declared-status`'s: one finding
      // each.
      const op = ctx.operation(ex);
      if (status >= 500 || (op && status < 300 && !op.responses.has(status))) return [];
      // Another rule that applies may decide first (the spec does not order them): the first rule files the failure.
      if (ALWAYS_ALLOWED.has(status) || all.some((o) => o.status === status) || all[0] !== owed) return [];
      if (mayRefuseCredentials(ex, ctx, status)) return [];
      // Every refused value a target takes is one defect, whichever parameter or operation it was.
      const accepted = status < 300 && rule === 'refused-values';
      // A credential the sender knows is expired, revoked or unknown, taken (whatever the answer then is, on
      // whichever operation): one defect of the target's credential check.
      // A 403 is taking it only where a valid credential of its scheme gets 403 too (x-credentials): elsewhere a 403
      // is a 401 spelled otherwise, which a request without any credential shows the same way.
      const standing = rule === 'auth' && owed.status === 401 ? ex.known?.credential : undefined;
      const invalid = standing && standing !== 'valid' && standing !== 'forbidden' ? standing : undefined;
      const taken = invalid && (status < 300 || (status === 403 && schemeRefused(ex, ctx))) ? invalid : undefined;
      if (taken)
        return [
          {
            judge: rule,
            level: owed.level,
            why: `status ${status}, expected ${owed.status}: ${owed.because}`,
            expected: `${owed.status}`,
            defect: `${/^[aeiou]/.test(taken) ? 'an' : 'a'} ${taken} credential is taken, not refused with 401`,
            acrossSubjects: true,
            evidence: { expectedStatus: owed.status },
          },
        ];
      return [
        {
          judge: rule,
          level: owed.level,
          why: `status ${status}, expected ${owed.status}: ${owed.because}`,
          expected: `${owed.status}`,
          defect: accepted ? REFUSED_ACCEPTED : statusDefect(rule, status, owed.status),
          ...(accepted ? { acrossSubjects: true } : {}),
          evidence: { expectedStatus: owed.status },
        },
      ];
    },
  });
}

/** Whether every credential the request presents is of a scheme x-credentials does not allow on its operation. */
function schemeRefused(ex: Exchange, ctx: JudgeContext): boolean {
  const op = ctx.operation(ex);
  const mine = op ? ctx.read(ex).credentials.presented.filter((p) => op.schemes.includes(p.scheme)) : [];
  return mine.length > 0 && !mine.some((p) => op!.allowedSchemes.includes(p.scheme));
}

/**
 * A protected operation given credentials whose standing the sender does not know (a proxy
 * never does) may refuse them, 401 or 403, whatever else the request is owed.
 */
function mayRefuseCredentials(ex: Exchange, ctx: JudgeContext, status: number): boolean {
  const op = ctx.operation(ex);
  if ((status !== 401 && status !== 403) || !op || op.isPublic || ex.known?.credential) return false;
  return ctx.read(ex).credentials.presented.some((p) => op.schemes.includes(p.scheme));
}

/** The defect of every refused value a target answered with a success, whichever parameter or operation. */
export const REFUSED_ACCEPTED = 'the target accepts values the spec refuses';

export const routing = ruleJudge(
  'routing',
  'a path the API does not have gets 404, a method a path does not declare 405 with Allow',
  (ex, ctx, owed) => {
    const route = ctx.read(ex).route;
    if (route.kind !== 'wrong-method') return [];
    const header = ex.answer.headers.allow;
    const allow = (header ?? '')
      .split(',')
      .map((m) => m.trim().toUpperCase())
      .filter(Boolean);
    const problems: string[] = [];
    if (header === undefined) problems.push('no Allow header');
    else {
      const missing = route.allowed.filter((m) => !allow.includes(m));
      if (missing.length) problems.push(`Allow '${header}' leaves out ${missing.join(', ')}`);
      if (allow.includes(ex.request.method))
        problems.push(`Allow '${header}' lists ${ex.request.method}, which was refused`);
    }
    if (!problems.length) return [];
    const expected = `${owed.status} with Allow: ${route.allowed.join(', ')}`;
    return [
      {
        judge: 'routing',
        level: owed.level,
        why: problems.join('; '),
        expected,
        defect: '405 without a right Allow header',
      },
    ];
  },
);

export const bodyLimit = ruleJudge('body-limit', 'a body over x-max-body-bytes gets 413');

export const auth = ruleJudge('auth', 'no or invalid credentials get 401, valid ones without the permission 403');

/**
 * A public operation answers as if a credential it gets were not there (rate limits are per account, so clients send
 * one everywhere).
 */
export const publicIgnoresCredentials = judge({
  name: 'public-credentials',
  promise: 'a public operation does not refuse a request for its credentials',
  applies: (ex, ctx) => {
    const op = ctx.operation(ex);
    const c = ctx.read(ex).credentials;
    return Boolean(op?.isPublic) && (c.presented.length > 0 || c.malformed.length > 0);
  },
  level: (ex, ctx) => ctx.operation(ex)!.provenance,
  judge: (ex, ctx) => {
    const { status } = ex.answer;
    if ((status !== 401 && status !== 403) || ex.known?.steered) return [];
    const op = ctx.operation(ex)!;
    return [
      {
        judge: 'public-credentials',
        level: op.provenance,
        why: `status ${status} to ${op.operationId}, which is public: a credential it carries must not be refused`,
        expected: `${op.successStatus}, as without credentials`,
        defect: 'a public operation refuses requests that carry credentials',
        evidence: { expectedStatus: op.successStatus },
      },
    ];
  },
});

export const mediaTypeRule = ruleJudge('media-type', 'a body that is not JSON gets 415');

export const refusedValues = ruleJudge(
  'refused-values',
  'a value the spec refuses gets 400, its message naming what it refuses',
  (ex, ctx, owed) => {
    // A body that is no JSON, or no error body, is `json`'s or `schema`'s finding: there is no message to read.
    const message = (ex.answer.json as { message?: unknown } | undefined)?.message;
    // No message to read (an empty one too) is the schema's finding.
    if (typeof message !== 'string' || message === '') return [];
    const { refused, repeated } = ctx.read(ex);
    // Several refused values may be met one at a time, and a parameter sent twice read either way:
    // naming one of them names what was wrong.
    const named = [...refused.map((r) => r.name), ...repeated];
    if (named.some((name) => message.includes(name))) return [];
    const unnamed = refused;
    return [
      {
        judge: 'refused-values',
        level: weakest(owed.level, ctx.schemas.errorBodyLevel() ?? 'assumed'),
        why: `body.message ${JSON.stringify(message)} does not name ${unnamed.map((r) => `'${r.name}'`).join(', ')}`,
        expected: `a message naming ${unnamed.map((r) => `'${r.name}' (${shortValue(r.value)})`).join(', ')}`,
        defect: 'error messages do not name the parameter or property they refuse',
        acrossSubjects: true,
      },
    ];
  },
);

export const notFound = ruleJudge('not-found', 'a path naming nothing that exists gets 404');

export const keyCap = ruleJudge('key-cap', 'a caller at x-max-keys-per-user gets 409 creating another key');

export const success = ruleJudge('success', "a request nothing refuses gets the operation's success");
