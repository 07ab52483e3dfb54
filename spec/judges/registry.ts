// The one registry of judges: every rule an exchange is held to, each a small pure
// function (judge.ts). The suite hands it every exchange of its run, the validation proxy
// every exchange of live traffic, the mock what it receives and answers; each gets the
// same findings for the same exchange. A new rule is one file and one line here.
import type { Provenance } from '../provenance.ts';
import type { Exchange } from './exchange.ts';
import { type Finding, type Judge, JudgeContext } from './judge.ts';
import { about } from './about.ts';
import { COMPARISONS } from './comparisons.ts';
import { cors } from './cors.ts';
import { declaredStatus } from './declared-status.ts';
import { errorBody } from './error-body.ts';
import { headers } from './headers.ts';
import { json } from './json.ts';
import { hygiene } from './leaks.ts';
import { listed, secrets } from './listed.ts';
import { readable } from './readable.ts';
import { judgeRequest, REQUEST_JUDGES, type RequestJudge } from './request-judges.ts';
import {
  auth,
  bodyLimit,
  keyCap,
  mediaTypeRule,
  notFound,
  publicIgnoresCredentials,
  refusedValues,
  routing,
  success,
} from './rule-judges.ts';
import { counts, filters, order, page, switches } from './row-judges.ts';
import { schema } from './schema.ts';
import { serverError } from './server-error.ts';
import { trueWhen } from './true-when.ts';

export { JudgeContext, judgeRequest, REQUEST_JUDGES };
export type { Finding, Judge, RequestJudge };

/**
 * The judges of an answer's status: what a request is owed, and what no answer may be. A case about its status claims
 * them all.
 */
const STATUS: readonly Judge[] = [
  serverError,
  routing,
  bodyLimit,
  auth,
  publicIgnoresCredentials,
  mediaTypeRule,
  refusedValues,
  notFound,
  keyCap,
  success,
  declaredStatus,
];

/** The judges of an answer's headers: they run whether or not its body could be read. */
const HEADERS: readonly Judge[] = [headers, cors];

/** Every judge, in the order its findings are listed: whether the answer could be read, its status, then the rest. */
export const JUDGES: readonly Judge[] = [
  readable,
  ...STATUS,
  json,
  errorBody,
  schema,
  ...HEADERS,
  hygiene,
  listed,
  secrets,
  about,
  trueWhen,
  counts,
  filters,
  order,
  page,
  switches,
];

/**
 * The judges that read an answer's body: all but `readable`'s, the status's and the headers'. They skip an unreadable
 * body.
 */
const BODY_JUDGES: ReadonlySet<Judge> = new Set(
  JUDGES.filter((j) => j !== readable && !STATUS.includes(j) && !HEADERS.includes(j)),
);

export const JUDGE_NAMES: readonly string[] = JUDGES.map((j) => j.name);

/** Every judge and comparison by name, with the extensions each holds: what the promise map maps promises to. */
export function registryNames(): { name: string; holds?: readonly string[] }[] {
  return [
    ...JUDGES.map((j) => ({ name: j.name, ...(j.holds ? { holds: j.holds } : {}) })),
    ...COMPARISONS.map((c) => ({ name: c.name })),
  ];
}

/** The names of the status judges. */
export const STATUS_JUDGES: readonly string[] = STATUS.map((j) => j.name);

/** What one judge made of one exchange it applies to. */
export interface Verdict {
  judge: Judge;
  /** How firm the judge's promise is on this exchange: where a pass is filed (a failure has its findings' levels). */
  level: Provenance;
  findings: Finding[];
}

/**
 * Every judge that applies to the exchange, with its findings at the context's level (a
 * promise softer than the level is not judged). A judge that throws on an answer it
 * cannot read is a finding of its own, not the end of the caller.
 */
export function judgeExchange(ex: Exchange, ctx: JudgeContext, judges: readonly Judge[] = JUDGES): Verdict[] {
  const out: Verdict[] = [];
  const unreadable = ex.answer.unreadable?.kind;
  for (const j of judges) {
    // No answer: nothing to judge but that. A body that could not be read: only the status and headers.
    if (unreadable && (unreadable === 'no-answer' ? j !== readable : BODY_JUDGES.has(j))) continue;
    try {
      if (!j.applies(ex, ctx)) continue;
      const level = j.level(ex, ctx);
      const findings = j.judge(ex, ctx).filter((f) => ctx.wants(f.level));
      // A pass of a promise softer than the context's level is no pass of anything it judges.
      if (findings.length || ctx.wants(level)) out.push({ judge: j, level, findings });
    } catch (err) {
      const why = `the ${j.name} judge could not read this exchange: ${(err as Error).message.slice(0, 200)}`;
      const findings = [{ judge: j.name, level: 'assumed' as const, why, defect: `the ${j.name} judge failed` }];
      out.push({ judge: j, level: 'assumed', findings });
    }
  }
  return out;
}

/** Only the findings, for a caller that needs no passes. */
export function findingsOf(ex: Exchange, ctx: JudgeContext, judges?: readonly Judge[]): Finding[] {
  return judgeExchange(ex, ctx, judges).flatMap((v) => v.findings);
}
