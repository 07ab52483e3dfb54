// Live traffic judged one exchange at a time by the registry's judges (spec/judges/), the
// same the suite's run uses: the proxy keeps no rule of its own. It knows nothing of a
// request the wire does not show (whether a key is valid, whether a server exists), so
// the judges hold each answer to what its request and the spec alone decide.
//
// A violation is logged once per operation, judge and level, with a curl line that
// repeats it (credentials as the variables the suite reads them from); later ones are
// counted (shared/verdict-tally.ts). The results feed the suite's report writers: one result
// per operation, judge and level, passes included, and a skip for answers that were
// forwarded but not judged (too big, the client gone, the upstream unreachable), so the
// report says so. An answer the judges cannot read is a failure, never a skip.
import type { Exchange } from '../../spec/judges/exchange.ts';
import { JUDGES, judgeExchange, JudgeContext, type Verdict } from '../../spec/judges/registry.ts';
import { mediaType } from '../../spec/judges/exchange.ts';
import { crashSignature } from '../../spec/judges/server-error.ts';
import type { SpecModel } from '../../spec/model.ts';
import type { Provenance } from '../../spec/provenance.ts';
import { NO_OPERATION } from '../shared/answer-log.ts';
import { describeResponse, redact } from '../shared/mask.ts';
import { forTerminal } from '../reports/escape.ts';
import { readable } from '../../spec/judges/readable.ts';
import type { CheckResult } from '../shared/recorder.ts';
import { type Place, VerdictTally } from '../shared/verdict-tally.ts';
import type { Finding } from '../../spec/judges/judge.ts';
import { nameStandIns, showRequest } from './show-request.ts';

/** The check of answers that were forwarded but not judged. */
export const NOT_JUDGED = 'judged: every answer is judged';

/**
 * The judges that read what the verdict cache's key leaves out (the rate-limit headers, which
 * change from answer to answer; a browser's Origin and the CORS headers it gets): judged every
 * time, never remembered.
 */
export const VOLATILE = new Set(['headers', 'cors']);
/** Those judges alone: an answer whose other verdicts are known is judged by them only. */
const VOLATILE_JUDGES = JUDGES.filter((j) => VOLATILE.has(j.name));

/**
 * What judging an answer leaves for the next answer with the same bytes to the same
 * request (the proxy's verdict cache): the verdicts of every judge but the volatile ones,
 * where they are filed, and, when they all pass, how to count them again.
 */
export interface Known {
  readonly verdicts: readonly Verdict[];
  readonly place: Place;
  readonly count?: () => void;
}

/** The example of a verdict that passes: never asked for. */
const NO_EXAMPLE = (): never => {
  throw new Error('a passing verdict has no example');
};

export class TrafficJudge {
  readonly ctx: JudgeContext;
  private readonly tally = new VerdictTally();
  private readonly notJudged = new Map<string, Map<string, number>>();
  private judgedCount = 0;

  /** `log` gets one line per new violation; `level`: only promises this firm or firmer are judged. */
  constructor(
    private readonly model: SpecModel,
    level: Provenance,
    private readonly log: (line: string) => void,
  ) {
    this.ctx = JudgeContext.of(model, level);
    nameStandIns(model.cookieName);
  }

  /** The operation a request is, if the judges can read it. */
  private operationId(method: string, target: string): string {
    try {
      return this.ctx.operation({ request: { method, target, headers: {} } })?.operationId ?? NO_OPERATION;
    } catch {
      return NO_OPERATION;
    }
  }

  /** An answer that was forwarded but not judged, and why (one of a few fixed reasons: read-exchange.ts). */
  skipped(method: string, target: string, why: string): void {
    const id = this.operationId(method, target);
    let reasons = this.notJudged.get(id);
    if (!reasons) this.notJudged.set(id, (reasons = new Map()));
    reasons.set(why, (reasons.get(why) ?? 0) + 1);
  }

  /**
   * An answer the proxy could not judge at all (the judges threw on it outside the registry): a failure of `readable`.
   */
  unjudgeable(method: string, target: string, err: unknown): void {
    this.judgedCount++;
    const id = this.operationId(method, target);
    const op = this.model.byId.get(id);
    const place = op
      ? { operationId: id, method: op.method, route: op.path }
      : { operationId: NO_OPERATION, method: method.toUpperCase() };
    const why = `the judges could not read it: ${String((err as Error)?.message ?? err).slice(0, 120)}`;
    const finding = { judge: readable.name, level: 'assumed' as const, why, defect: 'answers the judges cannot read' };
    const verdict = { judge: readable, level: 'assumed' as const, findings: [finding] };
    const request = redact(`${method.toUpperCase()} ${target}`);
    for (const f of this.tally.add(place, [verdict], () => ({
      request,
      repro: '-',
      actual: '(not read)',
      answer: { status: 0, type: '' },
    })))
      this.log(forTerminal(`VIOLATION [${f.level}] ${place.operationId}  ${f.judge}: ${f.why}; request: ${request}`));
  }

  /**
   * Judges one whole exchange by every judge, each violation logged the first time its
   * operation, judge and level meet it. `known`: what the same bytes answered to the same
   * request showed before (the proxy's cache, verdict-cache.ts): only the volatile judges
   * judge again. Returns what may be remembered of it, and the volatile judges' verdicts.
   */
  judgeOne(
    ex: Exchange,
    request: { upstreamUrl: string; body?: string },
    known?: Known,
  ): { known: Known; volatile: readonly Verdict[] } {
    this.judgedCount++;
    const place = known?.place ?? this.placeOf(ex);
    let shown: { request: string; repro: string } | undefined;
    const example = () => {
      shown ??= showRequest(ex, request, this.model.cookieName);
      const answer = { status: ex.answer.status, headers: ex.answer.headers, text: ex.answer.text };
      const status = { status: ex.answer.status, type: mediaType(ex.answer.headers['content-type']) };
      const crash = ex.answer.status >= 500 ? { crash: crashSignature(ex.answer) } : {};
      return { ...shown, actual: redact(describeResponse(answer)), answer: status, ...crash };
    };
    let firsts: Finding[];
    let volatile: Verdict[];
    if (known) {
      volatile = judgeExchange(ex, this.ctx, VOLATILE_JUDGES);
      // Verdicts known to pass are counted by the tallies found for them once.
      if (known.count) {
        known.count();
        firsts = this.tally.add(place, volatile, example);
      } else firsts = this.tally.add(place, [...known.verdicts, ...volatile], example);
    } else {
      const verdicts = judgeExchange(ex, this.ctx);
      firsts = this.tally.add(place, verdicts, example);
      const remembered = verdicts.filter((v) => !VOLATILE.has(v.judge.name));
      volatile = verdicts.filter((v) => VOLATILE.has(v.judge.name));
      const count = this.tally.passes(place, remembered);
      known = { verdicts: remembered, place, ...(count ? { count } : {}) };
    }
    if (firsts.length) this.logFirsts(place, firsts, shown!);
    return { known, volatile };
  }

  /**
   * An exchange judged exactly as one before it (the same request, and an answer with the
   * same headers and bytes, whose every verdict passed: verdict-cache.ts): counted, as its
   * judges would have counted it.
   */
  again(known: Known, volatile: readonly Verdict[]): void {
    this.judgedCount++;
    known.count!();
    this.tally.add(known.place, volatile, NO_EXAMPLE);
  }

  /**
   * Where an exchange's verdicts are filed: its operation (one place object each, reused), or NO_OPERATION by method.
   */
  private readonly places = new Map<string, Place>();
  private placeOf(ex: Exchange): Place {
    const op = this.ctx.operation(ex);
    const id = op ? op.operationId : `${NO_OPERATION}\u0000${ex.request.method}`;
    let place = this.places.get(id);
    if (!place) {
      // Bounded: one per operation, and one per method a request no operation matches was sent with.
      if (this.places.size > 1000) this.places.clear();
      place = op
        ? { operationId: op.operationId, method: op.method, route: op.path }
        : { operationId: NO_OPERATION, method: ex.request.method };
      this.places.set(id, place);
    }
    return place;
  }

  /** One line per operation, judge and level: the first answer that broke it, all it found there. */
  private logFirsts(place: Place, firsts: Finding[], shown: { request: string; repro: string }): void {
    const lines = new Map<string, string[]>();
    for (const f of firsts) {
      const key = `[${f.level}] ${place.operationId}  ${f.judge}`;
      lines.set(key, [...(lines.get(key) ?? []), redact(f.why)]);
    }
    for (const [key, whys] of lines) {
      // One line whatever the upstream sent: no newline, no terminal escape from it (reports/escape.ts).
      this.log(forTerminal(`VIOLATION ${key}: ${whys.join('; ')}; request: ${shown.request}; repro: ${shown.repro}`));
    }
  }

  /**
   * Every result so far: one per operation, judge and level (passes too),
   * and a skip per operation with answers not judged.
   */
  results(): CheckResult[] {
    const out = this.tally.results();
    for (const [operationId, reasons] of this.notJudged) {
      const n = [...reasons.values()].reduce((a, b) => a + b, 0);
      const why = [...reasons].map(([reason, k]) => `${k} ${reason}`).join(', ');
      out.push({
        operationId,
        check: NOT_JUDGED,
        provenance: 'assumed',
        status: 'skip',
        message: `${n} answer${n === 1 ? ' was' : 's were'} forwarded but not judged: ${why}`,
      });
    }
    return out;
  }

  /** Answers judged so far, and answers forwarded but not judged. */
  counts(): { judged: number; notJudged: number } {
    let notJudged = 0;
    for (const reasons of this.notJudged.values()) for (const n of reasons.values()) notJudged += n;
    return { judged: this.judgedCount, notJudged };
  }
}
