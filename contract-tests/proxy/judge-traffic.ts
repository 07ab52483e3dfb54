// Live traffic judged one exchange at a time, with the suite's own judges: the spec's
// judge of an answer (spec/judge.ts: a declared status, JSON, the body's schema, the error
// body, the declared headers, each finding at the level of the promise it breaks), the
// rows of an answer against the filters its request sent (search-rows.ts, on the meaning
// rules), the hygiene patterns (no leaks), and three things one exchange shows about the
// request side: a protected operation answered without credentials, a value the spec
// refuses answered 2xx, a method the path does not declare answered otherwise than 405.
//
// A violation is logged once per operation, check and level, with a curl line that
// repeats it (credentials as the variables the suite reads them from); later ones are
// counted. The results feed the suite's report writers (reports/outcome.ts `outcomeOf`):
// one result per operation and check, passes included, and a skip for answers that were
// forwarded but not judged (too big, cut off, no answer), so the report says so.
import { mediaType, type AnswerJudge } from '../../spec/judge.ts';
import type { Operation, SpecModel } from '../../spec/model.ts';
import { weakest, within, type Provenance } from '../../spec/provenance.ts';
import { HYGIENE_LEVEL, findLeaks } from '../checks/hygiene.ts';
import { NO_OPERATION } from '../kit/answer-log.ts';
import { describeResponse, redact } from '../kit/mask.ts';
import type { CheckResult, Evidence } from '../kit/recorder.ts';
import { signature } from '../transport/http.ts';
import { CHECKS, type Judged, type Violation } from './exchange.ts';
import { requestSide, wrongMethod } from './request-checks.ts';
import { nameStandIns, showRequest } from './show-request.ts';
import { rowProblems } from './search-rows.ts';

export { CHECKS, type Judged, type Violation };

/** Checks that hold for every answer of an operation (the rest only where they apply). */
const EVERY_ANSWER = [
  CHECKS['5xx'],
  CHECKS.undeclared,
  CHECKS['not-json'],
  CHECKS['error-shape'],
  CHECKS.schema,
  CHECKS.header,
  CHECKS.leaks,
];

interface Tally {
  operationId: string;
  check: string;
  level: Provenance;
  /** Answers this check judged on this operation. */
  judged: number;
  failed: number;
  first?: { violation: Violation; request: string; repro: string; actual: string };
}

const DAY = 86_400_000;

// A Date header changes once a second while every answer carries one: parsed once per value.
let lastDate = '';
let lastDateMs = NaN;
function parseDate(text: string): number {
  if (text !== lastDate) [lastDate, lastDateMs] = [text, Date.parse(text)];
  return lastDateMs;
}

export class TrafficJudge {
  private readonly tallies = new Map<string, Tally>();
  private readonly notJudged = new Map<string, Map<string, number>>();
  private judgedCount = 0;
  /** Answers judged per operation. */
  private readonly answers = new Map<string, number>();
  private readonly sessionCookie: string | undefined;

  /** `log` gets one line per new violation; `level`: only promises this firm or firmer are judged. */
  constructor(
    private readonly model: SpecModel,
    private readonly judge: AnswerJudge,
    private readonly level: Provenance,
    private readonly log: (line: string) => void,
  ) {
    this.sessionCookie = model.cookieName;
    nameStandIns(this.sessionCookie);
  }

  /** An answer that was forwarded but not judged, and why. */
  skipped(method: string, path: string, why: string): void {
    const op = this.operationOf(method, path);
    const id = op?.operationId ?? NO_OPERATION;
    let reasons = this.notJudged.get(id);
    if (!reasons) this.notJudged.set(id, (reasons = new Map()));
    reasons.set(why, (reasons.get(why) ?? 0) + 1);
  }

  operationOf(method: string, path: string): Operation | undefined {
    return this.judge.operationOf({ method, path });
  }

  /**
   * Judges one whole exchange: every check, each violation logged the first time its
   * operation, check and level meet it. `known`: what the same bytes answered to the same
   * request showed before (the judge's own cache, proxy.ts); only the headers are judged
   * again. Returns what the body showed, for that cache.
   */
  judgeOne(
    j: Judged,
    request: { upstreamUrl: string; body?: string },
    known?: readonly Violation[],
  ): readonly Violation[] {
    this.judgedCount++;
    const op = j.op;
    const id = op?.operationId ?? NO_OPERATION;
    this.answers.set(id, (this.answers.get(id) ?? 0) + 1);
    const fromBody = known ?? this.bodyViolations(j);
    const violations = [...fromBody, ...this.headerViolations(j)].filter((v) => within(v.level, this.level));
    const applied = new Set<string>(op ? EVERY_ANSWER : [CHECKS['not-json'], CHECKS['error-shape'], CHECKS.leaks]);
    if (op?.rows && j.status >= 200 && j.status < 300) applied.add(CHECKS.filters).add(CHECKS.order);
    if (op && !op.isPublic) applied.add(CHECKS.auth);
    for (const v of violations) applied.add(v.check);
    for (const check of applied) {
      const mine = violations.filter((v) => v.check === check);
      if (!mine.length) {
        const level = this.passLevel(op, check);
        if (within(level, this.level)) this.tally(id, check, level).judged++;
        continue;
      }
      for (const level of new Set(mine.map((v) => v.level))) {
        const v = mine.find((x) => x.level === level)!;
        const t = this.tally(id, check, level);
        t.judged++;
        t.failed++;
        if (t.first) continue;
        const shown = showRequest(j, request, this.sessionCookie);
        t.first = { violation: v, ...shown, actual: redact(describeResponse(j)) };
        this.log(
          `VIOLATION [${level}] ${id}  ${check}: ${redact(v.why)}; request: ${shown.request}; repro: ${shown.repro}`,
        );
      }
    }
    return fromBody;
  }

  private tally(operationId: string, check: string, level: Provenance): Tally {
    const key = `${operationId}\u0000${check}\u0000${level}`;
    let t = this.tallies.get(key);
    if (!t) this.tallies.set(key, (t = { operationId, check, level, judged: 0, failed: 0 }));
    return t;
  }

  /** The level a passing check is filed at: the operation's (each of its checks rests on it at least). */
  private passLevel(op: Operation | undefined, check: string): Provenance {
    return check === CHECKS.leaks ? HYGIENE_LEVEL : (op?.provenance ?? this.model.routing.provenance);
  }

  /** The headers its status declares (`X-RateLimit-*`), on an answer the judge reads whole: they change from answer to answer, so are never cached. */
  headerViolations(j: Judged): Violation[] {
    const op = j.op;
    if (!op?.responses.has(j.status) || j.method === 'HEAD' || j.status === 204 || j.status === 304 || !j.parsed)
      return [];
    const findings = this.judge.headerFindings(op, j.status, { status: j.status, headers: j.headers, body: '' });
    if (!findings.length) return [];
    const evidence: Evidence = {
      answer: { status: j.status, type: mediaType(j.headers['content-type']) || '(none)' },
      missingHeaders: { names: findings.flatMap((f) => f.keys ?? []), every: false },
    };
    return [
      {
        check: CHECKS.header,
        level: weakest(...findings.map((f) => f.level)),
        why: findings.map((f) => f.detail).join('; '),
        evidence,
      },
    ];
  }

  /** What the answer's body and status show: the same for the same bytes to the same request. */
  bodyViolations(j: Judged): Violation[] {
    const out: Violation[] = [];
    const answer = {
      status: j.status,
      headers: j.headers,
      body: j.text,
      ...(j.json !== undefined ? { json: j.json } : {}),
    };
    const type = mediaType(j.headers['content-type']) || '(none)';
    const base: Evidence = { answer: { status: j.status, type } };
    const findings = this.judge.exchange(
      {
        ...(j.op ? { operation: j.op } : {}),
        request: { method: j.method, path: j.url.pathname + j.url.search, headers: j.requestHeaders },
        response: answer,
      },
      { headers: false },
    );
    for (const f of findings) {
      const evidence: Evidence = { ...base };
      if (f.kind === '5xx') evidence.crash = signature({ status: j.status, text: j.text, json: j.json });
      if (f.kind === 'schema' || f.kind === 'error-shape') evidence.schemaErrors = f.keys ?? [];
      if (f.kind === 'not-json') evidence.wrongType = type;
      out.push({ check: CHECKS[f.kind], level: f.level, why: f.detail, evidence });
    }
    // A crash's leak shares its cause with the crash.
    const crash = j.status >= 500 ? { crash: signature({ status: j.status, text: j.text, json: j.json }) } : {};
    for (const leak of findLeaks(j.text, j.json))
      out.push({
        check: CHECKS.leaks,
        level: HYGIENE_LEVEL,
        why: `it leaks ${leak.kind}: '${leak.excerpt}'`,
        evidence: { ...base, ...crash },
      });
    const op = j.op;
    if (op && j.status === 404 && !op.responses.has(404)) {
      // Any request may get a 4xx the operation does not list (400, 413, 429, ...), but a 404 on a route the spec has says the route is missing.
      out.push({
        check: CHECKS.undeclared,
        level: op.provenance,
        why: `status 404, which ${op.method} ${op.path} does not declare: the route is missing`,
        expected: `${op.successStatus} as the spec says`,
        evidence: { ...base, expectedStatus: op.successStatus },
      });
    }
    if (op) {
      if (j.status >= 200 && j.status < 300 && j.json !== undefined) {
        for (const p of rowProblems(op, this.judge, { query: j.url.searchParams, body: j.json, now: j.now })) {
          out.push({
            check: CHECKS[p.check],
            level: p.level,
            why: p.detail,
            evidence: { ...base, subject: `${op.operationId} ${p.parameter}` },
          });
        }
      }
      out.push(...requestSide(this.model, this.judge, j, op));
    } else if (!['HEAD', 'OPTIONS'].includes(j.method)) out.push(...wrongMethod(this.model, j));
    return out;
  }

  /** Every result so far: one per operation, check and level (passes too), and a skip per operation with answers not judged. */
  results(): CheckResult[] {
    const out: CheckResult[] = [];
    const failing = new Set(
      [...this.tallies.values()].filter((t) => t.failed).map((t) => `${t.operationId}\u0000${t.check}`),
    );
    for (const t of this.tallies.values()) {
      if (!t.failed) {
        // A check that failed at some level on an operation is not also listed as passing there.
        if (failing.has(`${t.operationId}\u0000${t.check}`)) continue;
        out.push({
          operationId: t.operationId,
          check: t.check,
          provenance: t.level,
          status: 'pass',
          message: `${t.judged} answer${t.judged === 1 ? '' : 's'} judged`,
        });
        continue;
      }
      const f = t.first!;
      const evidence = { ...f.violation.evidence };
      if (evidence.missingHeaders)
        evidence.missingHeaders = { ...evidence.missingHeaders, every: t.failed === this.answersOf(t.operationId) };
      out.push({
        operationId: t.operationId,
        check: t.check,
        provenance: t.level,
        status: 'fail',
        request: f.request,
        repro: f.repro,
        expected: f.violation.expected,
        actual: f.actual,
        message: `${redact(f.violation.why)} (${t.failed} of ${t.judged} answer${t.judged === 1 ? '' : 's'} judged${t.failed > 1 ? ' break it; the first is shown' : ''})`,
        evidence,
      });
    }
    for (const [operationId, reasons] of this.notJudged) {
      const n = [...reasons.values()].reduce((a, b) => a + b, 0);
      out.push({
        operationId,
        check: CHECKS.judged,
        provenance: 'assumed',
        status: 'skip',
        message: `${n} answer${n === 1 ? ' was' : 's were'} forwarded but not judged: ${[...reasons].map(([why, k]) => `${k} ${why}`).join(', ')}`,
      });
    }
    return out;
  }

  private answersOf(operationId: string): number {
    return this.answers.get(operationId) ?? 0;
  }

  /** Answers judged so far, and answers forwarded but not judged. */
  counts(): { judged: number; notJudged: number } {
    let notJudged = 0;
    for (const reasons of this.notJudged.values()) for (const n of reasons.values()) notJudged += n;
    return { judged: this.judgedCount, notJudged };
  }

  /** The answer's time: its Date header (whole seconds), else the proxy's clock. */
  static answerTime(headers: Record<string, string>, fallback = Date.now()): number {
    const t = headers.date ? parseDate(headers.date) : NaN;
    return Number.isNaN(t) || Math.abs(t - fallback) > 3650 * DAY ? fallback : t;
  }
}
