// How the suite's run turns exchanges into results with the registry's judges
// (spec/judges/registry.ts), the one set of rules the proxy and the mock use too. Two
// ways in, as Schemathesis' engine has them:
// - a case: a family sent a request to provoke something (no credentials, a refused
//   value, a key it just revoked) and names the judges it is about; its result holds
//   their findings on that exchange, and what the family knows about the request the
//   wire does not show (`Known`) goes to them;
// - every answer of the run (Dredd's, the sample's pages, the cases' own) is judged by
//   every other judge, and each operation gets one result per judge and level: how many
//   answers it judged and the first that broke it. A judge a case is about on an answer
//   is that case's, not counted again here.
import { counted, rateLimit } from '../../spec/judges/comparisons.ts';
import { answerTime, type Exchange as Judged, type Known, lowerCased, mediaType } from '../../spec/judges/exchange.ts';
import type { Finding } from '../../spec/judges/judge.ts';
import { JudgeContext, judgeExchange, type Verdict } from '../../spec/judges/registry.ts';
import { crashSignature } from '../../spec/judges/server-error.ts';
import { owedStatuses } from '../../spec/judges/owed-status.ts';
import type { Operation, SpecModel } from '../../spec/model.ts';
import { LEVELS, type Provenance, weakest } from '../../spec/provenance.ts';
import { NO_OPERATION, type Subject } from '../shared/answer-log.ts';
import type { CredentialSet } from '../shared/credentials.ts';
import { describeResponse } from '../shared/mask.ts';
import type { CheckResult, Evidence } from '../shared/recorder.ts';
import { evidenceOf, VerdictTally } from '../shared/verdict-tally.ts';
import { show } from '../shared/repro.ts';
import { type HttpRequest, type HttpResponse, onTheWire } from '../transport/http.ts';
import type { Exchange } from '../transport/transport.ts';

/** A case: what a family set out to provoke, and the judges its result is about. */
export interface Case {
  op: Operation | Subject;
  check: string;
  /** The softest part of the spec the case rests on. */
  level: Provenance;
  /** The judges whose findings on its exchange are its result (`auth`, `refused-values`, ...). */
  about: readonly string[];
  /** What the family knows about the request that the wire does not show. */
  known?: Known;
  /** What is expected, for people, when the judges' words are not enough. */
  expected?: string;
  /** The comparison's findings explain the judges' (an ignored parameter that reorders rows): they come first. */
  comparisonFirst?: boolean;
}

/** The firmest of some levels. */
const hardest = (levels: readonly Provenance[]): Provenance => LEVELS.find((l) => levels.includes(l)) ?? 'assumed';

/** What the judges of a case promise, for people: what a case without an owed status expects. */
function promises(verdicts: readonly Verdict[]): string {
  return verdicts.map((v) => v.judge.promise).join('; ');
}

/** The request and answer of the suite's transport as the judges read them. */
export function judgedExchange(request: HttpRequest, response: HttpResponse, known?: Known, received?: number): Judged {
  const wire = onTheWire(request);
  const url = new URL(request.url);
  return {
    request: {
      method: request.method.toUpperCase(),
      target: url.pathname + url.search,
      headers: lowerCased(wire.headers),
      ...(wire.body !== undefined ? { body: wire.body } : {}),
    },
    answer: {
      status: response.status,
      headers: response.headers,
      text: response.text,
      json: response.json,
      ...(response.unreadable ? { unreadable: response.unreadable } : {}),
    },
    at: answerTime(response.headers, received),
    ...(known ? { known } : {}),
  };
}

interface Observed {
  subject: Operation | Subject;
  request: HttpRequest;
  response: HttpResponse;
  /** When it came, by the run's clock (what a target without a Date header is judged by). */
  at: number;
  /** What a case knew about its request (a credential it made up, a path naming nothing). */
  known?: Known;
  /** Judges a case claimed on this answer. */
  claimed: Set<string>;
  /** The place of the work that asked, in the order a sequential run sends (run/lanes.ts). */
  place: number;
}

/** A comparison the run made: what the promise map's coverage reads (the comparison, its operation, its parameter). */
export interface Compared {
  name: string;
  operationId: string;
  parameter?: string;
}

export class RunJudging {
  readonly ctx: JudgeContext;
  private readonly observed: Observed[] = [];
  private readonly byResponse = new WeakMap<HttpResponse, Observed>();
  private readonly comparisons = new Map<string, Compared>();

  constructor(
    model: SpecModel,
    level: Provenance,
    private readonly credentials: Pick<CredentialSet, 'carriedBy'>,
    /** The run's clock: when an answer came, for a target that sends no Date. */
    private readonly now: () => number = Date.now,
    /** The place of the work sending now (run/lanes.ts); an answer outside any keeps the place of the one before. */
    private readonly placeOf: () => number | undefined = () => undefined,
  ) {
    this.ctx = JudgeContext.of(model, level);
  }

  /** Every answer of the run passes here (the transport's observer). */
  observe(subject: Operation | Subject, request: HttpRequest, response: HttpResponse): void {
    const place = this.placeOf() ?? this.observed.at(-1)?.place ?? -1;
    const o: Observed = { subject, request, response, at: this.now(), claimed: new Set(), place };
    this.observed.push(o);
    this.byResponse.set(response, o);
  }

  /**
   * The result of a case: its judges' findings on its exchange, and those of any
   * comparison it made (`more`); a skip when it was not sent, a failure when it got no answer.
   */
  case(c: Case, exchange: Exchange, more: readonly Finding[] = []): CheckResult {
    const base = {
      operationId: c.op.operationId,
      check: c.check,
      provenance: c.level,
      ...this.place(exchange.request),
    };
    if (exchange.skipped) return { ...base, status: 'skip', message: exchange.skipped };
    const res = exchange.response;
    const shown = show(exchange.request);
    const ms = exchange.ms === undefined ? {} : { ms: Math.round(exchange.ms) };
    if (!res) {
      const message = `no answer: ${exchange.error ?? 'request failed'}`;
      return { ...base, status: 'fail', ...shown, actual: message, message, ...ms };
    }
    const { ex, verdicts } = this.judged(exchange.request, res, c.about, c.known);
    const credential = this.credentials.carriedBy(exchange.request.headers);
    const judged = verdicts.flatMap((v) => v.findings);
    const compared = more.filter((f) => this.ctx.wants(f.level));
    const findings = c.comparisonFirst ? [...compared, ...judged] : [...judged, ...compared];
    const owed = owedStatuses(ex, this.ctx)[0];
    const evidence: Evidence = {
      ...evidenceOf(findings),
      // Whatever a judge found in a 5xx answer, it is that crash's.
      ...(res.status >= 500 && findings.length ? { crash: crashSignature(res) } : {}),
      answer: { status: res.status, type: mediaType(res.headers['content-type']) },
      ...(owed ? { expectedStatus: owed.status } : {}),
    };
    if (credential) evidence.credential = credential;
    const failed = findings.length > 0;
    return {
      ...base,
      // A failure breaks the hardest promise its findings break, never harder than the case rests on
      // (a call that rests on x-cors's credentials may still fail an assumed rule of it).
      ...(failed ? { provenance: weakest(c.level, hardest(findings.map((f) => f.level))) } : {}),
      status: failed ? 'fail' : 'pass',
      ...shown,
      expected:
        c.expected ?? (owed ? `${owed.status} (${owed.because})` : (findings[0]?.expected ?? promises(verdicts))),
      actual: describeResponse(res),
      ...(failed ? { message: findings.map((f) => f.why).join('; '), findings } : {}),
      ...ms,
      evidence,
    };
  }

  /** Notes a comparison the run made (spec/judges/comparisons.ts), for what the run covered. */
  compared(name: string, op: Pick<Operation, 'operationId'>, parameter?: string): void {
    const key = `${name}\u0000${op.operationId}\u0000${parameter ?? ''}`;
    if (!this.comparisons.has(key))
      this.comparisons.set(key, { name, operationId: op.operationId, ...(parameter ? { parameter } : {}) });
  }

  /** The comparisons the run made. */
  comparisonsMade(): Compared[] {
    return [...this.comparisons.values()];
  }

  /** Every answer of the run, as the judges read it, with what a case knew of its request. */
  exchanges(): Judged[] {
    return this.inSendingOrder().map((o) => judgedExchange(o.request, o.response, o.known, o.at));
  }

  /**
   * The rate-limit headers of the run's answers, one caller and path group at a time
   * (`bucketOf`: the transport's pacing buckets), held to `rate-limit`: one result per
   * path group of the spec's rate limits, filed under the operation of the answer that
   * broke it (or the first that met the group).
   */
  rateLimits(bucketOf: (request: HttpRequest) => string, wants: (operationId: string) => boolean): CheckResult[] {
    const limits = this.ctx.model.limits.rateLimits;
    const level = limits.provenance ?? 'assumed';
    if (!this.ctx.wants(level)) return [];
    const base = this.ctx.model.basePath;
    const groups = [...limits.groups.map((g) => ({ ...g, name: `${g.pathPrefix}*` }))];
    const groupOf = (path: string) => groups.find((g) => path.startsWith(g.pathPrefix));
    const buckets = new Map<string, { observed: Observed[]; group: string; window: number }>();
    for (const o of this.observed) {
      // A browser's preflight is CORS's: no rate limit speaks of it.
      if (o.request.method.toUpperCase() === 'OPTIONS' || o.subject.operationId === NO_OPERATION) continue;
      const path = new URL(o.request.url).pathname.slice(base.length);
      const g = groupOf(path);
      const key = `${g?.pathPrefix ?? ''}\u0000${bucketOf(o.request)}`;
      const had = buckets.get(key) ?? {
        observed: [],
        group: g?.name ?? 'every path',
        window: g?.windowSeconds ?? limits.windowsSeconds[0]!,
      };
      had.observed.push(o);
      buckets.set(key, had);
    }
    const byGroup = new Map<string, { findings: Finding[]; first?: Observed; broke?: Observed }>();
    // A pass is filed under the group's first operation in the spec's order, the same on every run.
    const rank = (o: Observed) => this.ctx.model.operations.findIndex((op) => op.operationId === o.subject.operationId);
    for (const { observed, group, window } of buckets.values()) {
      const verdict = byGroup.get(group) ?? { findings: [] };
      const earliest = observed.reduce((a, b) => (rank(b) < rank(a) ? b : a));
      if (!verdict.first || rank(earliest) < rank(verdict.first)) verdict.first = earliest;
      const answers = observed.map((o) => counted(judgedExchange(o.request, o.response, undefined, o.at)));
      const found = rateLimit.compare(this.ctx, answers, window, level);
      if (found.length && !verdict.findings.length) {
        const at = answers.findIndex((a) => found[0]!.why.startsWith(a.request));
        verdict.broke = observed[Math.max(0, at)];
      }
      verdict.findings.push(...found);
      byGroup.set(group, verdict);
    }
    const out: CheckResult[] = [];
    for (const [group, { findings, first, broke }] of byGroup) {
      const filed = broke ?? first;
      if (!filed || !wants(filed.subject.operationId)) continue;
      const result = {
        operationId: filed.subject.operationId,
        family: 'rate-limit',
        check: `rate-limit: ${group}: ${rateLimit.promise}`,
        provenance: level,
        ...this.place(filed.request),
      };
      if (!findings.length) {
        out.push({ ...result, status: 'pass', message: `${buckets.size} caller(s) and path group(s) judged` });
        continue;
      }
      // One finding per defect: the same defect met by several callers is one.
      const distinct = findings.filter((f, i) => findings.findIndex((g) => g.defect === f.defect) === i);
      out.push({
        ...result,
        status: 'fail',
        ...show(filed.request),
        expected: rateLimit.promise,
        actual: describeResponse(filed.response),
        message: distinct.map((f) => f.why).join('; '),
        findings: distinct,
        evidence: {
          ...evidenceOf(distinct),
          answer: { status: filed.response.status, type: mediaType(filed.response.headers['content-type']) },
        },
      });
    }
    return out;
  }

  /**
   * The answers in the order a sequential run has them: by the place of the work that asked, then as they came. Work
   * run at once (run/lanes.ts) leaves the verdicts as they would be.
   */
  private inSendingOrder(): Observed[] {
    return this.observed
      .map((o, i) => ({ o, i }))
      .sort((a, b) => a.o.place - b.o.place || a.i - b.i)
      .map(({ o }) => o);
  }

  /**
   * Claims the judges `about` names on answers a case read but is not filed under (the first asking of a comparison
   * asked again).
   */
  claim(exchanges: readonly Exchange[], about: readonly string[]): void {
    for (const e of exchanges) {
      const observed = e.response && this.byResponse.get(e.response);
      for (const j of about) observed?.claimed.add(j);
    }
  }

  /**
   * The verdicts of the judges `about` names on an answer, which they claim (the run's
   * verdicts on every answer leave them out there). The run knows its own credentials: a
   * request carrying one is known to carry a valid one, or the forbidden user's.
   */
  judged(
    request: HttpRequest,
    response: HttpResponse,
    about: readonly string[],
    given?: Known,
  ): { ex: Judged; verdicts: Verdict[] } {
    const observed = this.byResponse.get(response);
    for (const j of about) observed?.claimed.add(j);
    const credential = this.credentials.carriedBy(request.headers);
    const standing: Known['credential'] = credential === 'forbidden' ? 'forbidden' : credential ? 'valid' : undefined;
    const known: Known | undefined = standing && !given?.credential ? { ...given, credential: standing } : given;
    const ex = judgedExchange(request, response, known, observed?.at ?? this.now());
    if (observed && known) observed.known = known;
    return { ex, verdicts: judgeExchange(ex, this.ctx).filter((v) => about.includes(v.judge.name)) };
  }

  /**
   * Where a request went, as fields: its method, and its route as the spec writes it (the path it asked, read as the
   * mock routes it).
   */
  private place(request: HttpRequest): { method: string; route?: string } {
    const url = new URL(request.url);
    const route = this.ctx.read({
      request: { method: request.method, target: url.pathname + url.search, headers: {} },
    }).route;
    const template = route.kind === 'operation' ? route.op.path : 'template' in route ? route.template : undefined;
    return { method: request.method.toUpperCase(), ...(template ? { route: template } : {}) };
  }

  /**
   * Every judge's verdict on every answer of the run that no case claimed, one result per
   * operation, judge and level (shared/verdict-tally.ts). `wants`: the operations the run selected.
   */
  tallies(wants: (operationId: string) => boolean): CheckResult[] {
    const tally = new VerdictTally();
    for (const o of this.inSendingOrder()) {
      const operationId = o.subject.operationId;
      if (operationId !== NO_OPERATION && !wants(operationId)) continue;
      const ex = judgedExchange(o.request, o.response, undefined, o.at);
      const verdicts = judgeExchange(ex, this.ctx).filter((v) => !o.claimed.has(v.judge.name));
      tally.add({ operationId, ...this.place(o.request) }, verdicts, () => ({
        ...show(o.request),
        actual: describeResponse(o.response),
        answer: { status: o.response.status, type: mediaType(o.response.headers['content-type']) },
        ...(o.response.status >= 500 ? { crash: crashSignature(o.response) } : {}),
      }));
    }
    return tally.results();
  }
}
