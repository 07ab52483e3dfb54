// From an exchange and what a check expected of it to the check's result: the spec's
// judge (spec/judge.ts) says what is wrong with the answer, this module says it the
// suite's way (the status the check set out to provoke, each problem once, the level
// the check rests on, the evidence failures of one cause share). Checks return these
// results; the runner records them.
import { mediaType } from '../../spec/judges/exchange.ts';
import type { Schemas } from '../../spec/judges/schemas.ts';
import { reasonPhrase } from '../../spec/messages.ts';
import type { Operation } from '../../spec/model.ts';
import { weakest, type Provenance } from '../../spec/provenance.ts';
import type { Subject } from '../kit/answer-log.ts';
import type { CredentialSet } from '../kit/credentials.ts';
import { describeResponse } from '../kit/mask.ts';
import type { CheckResult, Evidence, Status } from '../kit/recorder.ts';
import type { Scope } from '../kit/scope.ts';
import type { RunJudging } from '../run/judging.ts';
import { show } from '../kit/repro.ts';
import { signature, type HttpResponse } from '../transport/http.ts';
import type { Exchange } from '../transport/transport.ts';

/** What turning an exchange into a result needs of the run. */
export interface Judging {
  judging: RunJudging;
  credentials: CredentialSet;
  scope: Scope;
}

export interface Expectation {
  /** What the result is filed under. */
  op: Operation;
  check: string;
  level: Provenance;
  exchange: Exchange;
  status: number;
  /** The operation whose declared response judges the answer, when not `op`. */
  against?: Operation;
  /** Problems a schema cannot express; each names the defect. */
  extra?: (res: HttpResponse) => string[];
  /** Judge the body against the response schema (default true; a meaning check leaves rows to the sample's schema check). */
  schema?: boolean;
  /** What is expected, for people, when more than the status and the schema. */
  expected?: string;
  /** When `extra` finds a problem: the parameter or field it is about (`findServers limit`), which failures of one cause share. */
  subject?: string;
  /** When `extra` finds a problem: what it says about the target, in words every check failing the same way shares. */
  finding?: string;
}

/**
 * One line per distinct defect: the same error on every row of a page is reported once,
 * with how many rows share it, so the message names the defect instead of burying it.
 */
export function compactProblems(problems: string[]): string[] {
  const groups = new Map<string, { first: string; count: number }>();
  for (const problem of problems.flatMap((p) => p.split('; ')).filter(Boolean)) {
    const key = problem.replace(/([./])\d+(?=[./'\s])/g, '$1*');
    const g = groups.get(key);
    if (g) g.count++;
    else groups.set(key, { first: problem, count: 1 });
  }
  return [...groups.values()].map((g) => (g.count > 1 ? `${g.first} (and ${g.count - 1} more like it)` : g.first));
}

/**
 * What a status of an operation should look like, for people: the exact error body where
 * the spec fixes its message (401, 403: another message fails the schema), else the error
 * body's shape (the spec's example message is about one parameter, not this check's), or
 * the schema's name.
 */
export function expectedText(op: Operation, status: number, judge?: Schemas): string {
  const declared = op.responses.get(status);
  if (declared && status >= 400) {
    const example = declared.examples.get('default') as { message?: unknown } | undefined;
    const another = { ...example, message: `${String(example?.message)} (another message)` };
    const pinned = example && judge?.body(op, status, { status, headers: {}, body: '', json: another }).problems.length;
    return pinned
      ? `${status} ${JSON.stringify(example)}`
      : `${status} application/json {"success": false, "message": "${reasonPhrase(status)}: …"}`;
  }
  const ref = (declared?.schema as { $ref?: string } | undefined)?.$ref?.split('/').pop();
  return `${status} application/json${ref ? ` matching ${ref}` : ''}`;
}

export interface Outcome {
  op: Subject;
  check: string;
  level: Provenance;
  status: Status;
  exchange?: Exchange;
  expected?: string;
  message?: string;
  evidence?: Evidence;
}

/** A result with what its exchange showed: the request, the answer, how long it took, which of the run's credentials it carried. */
export function outcome(run: Pick<Judging, 'credentials'>, o: Outcome): CheckResult {
  const ex = o.exchange;
  const res = ex?.response;
  const credential = ex && run.credentials.carriedBy(ex.request.headers);
  const failed = o.status === 'fail';
  const evidence: Evidence = {
    ...o.evidence,
    ...(res ? { answer: { status: res.status, type: mediaType(res.headers['content-type']) } } : {}),
    ...(credential ? { credential } : {}),
    ...(failed && res && res.status >= 500 ? { crash: signature(res) } : {}),
  };
  return {
    operationId: o.op.operationId,
    check: o.check,
    provenance: o.level,
    status: o.status,
    ...(ex ? show(ex.request) : {}),
    expected: o.expected,
    actual: res ? describeResponse(res) : ex?.error ? `no answer: ${ex.error}` : undefined,
    message: o.message || undefined,
    ...(ex?.ms !== undefined ? { ms: Math.round(ex.ms) } : {}),
    ...(Object.keys(evidence).length ? { evidence } : {}),
  };
}

/** A check that did not run, and why; nothing when the run's --provenance leaves it out. `unavoidable`: no setting could have run it. */
export function skip(
  scope: Scope,
  s: { op: Subject; check: string; level: Provenance; reason: string; unavoidable?: boolean },
): CheckResult[] {
  if (!scope.wants(s.level)) return [];
  return [
    {
      operationId: s.op.operationId,
      check: s.check,
      provenance: s.level,
      status: 'skip',
      message: s.reason,
      ...(s.unavoidable ? { unavoidable: true } : {}),
    },
  ];
}

/** The answer must be the spec's response for `status`: the status, JSON, the body's schema, and what `extra` adds. */
export function expectAnswer(run: Judging, e: Expectation): CheckResult {
  const judge = run.judging.ctx.schemas;
  const target = e.against ?? e.op;
  const evidence: Evidence = { expectedStatus: e.status };
  if (e.exchange.skipped)
    return outcome(run, {
      op: e.op,
      check: e.check,
      level: e.level,
      status: 'skip',
      message: e.exchange.skipped,
      evidence,
    });
  // The check relies on the body's schema too (what the run's level keeps of it), and on JSON answers.
  const level = weakest(e.level, e.schema === false ? undefined : judge.bodyLevel(target, e.status), judge.jsonLevel());
  const problems: string[] = [];
  const res = e.exchange.response;
  if (!res) problems.push(`no answer: ${e.exchange.error ?? 'request failed'}`);
  else {
    const answer = { status: res.status, headers: res.headers, body: res.text, json: res.json };
    if (res.status !== e.status) problems.push(`status ${res.status}, expected ${e.status}`);
    const typeProblems = judge.contentType(target, answer);
    if (typeProblems.length) evidence.wrongType = mediaType(res.headers['content-type']) || '(none)';
    problems.push(...typeProblems);
    // The body is judged against the schema of the status the spec promises, so a wrong
    // status does not also drown the message in schema noise.
    if (res.status === e.status && e.schema !== false) {
      const body = judge.body(target, e.status, answer);
      problems.push(...body.problems);
      if (body.schemaErrors.length) evidence.schemaErrors = body.schemaErrors;
    }
    const own = e.extra?.(res) ?? [];
    problems.push(...own);
    if (own.length && e.subject) evidence.subject = e.subject;
    if (own.length && e.finding) evidence.finding = e.finding;
  }
  const expected = e.expected ?? expectedText(target, e.status, judge);
  return outcome(run, {
    op: e.op,
    check: e.check,
    level,
    status: problems.length ? 'fail' : 'pass',
    exchange: e.exchange,
    expected,
    message: compactProblems(problems).join('; '),
    evidence,
  });
}
