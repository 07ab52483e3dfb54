// The registry's verdicts on many answers, counted per operation, judge and level: how
// many answers each judge judged, how many broke it, and the first that did (its request
// as people read it and as a shell repeats it). The suite counts every answer of its run
// here, the validation proxy every answer of live traffic; both report the same results.
import type { Finding } from '../../spec/judges/judge.ts';
import { JUDGE_NAMES, type Verdict } from '../../spec/judges/registry.ts';
import { LEVELS, type Provenance } from '../../spec/provenance.ts';
import type { CheckResult, Evidence } from './recorder.ts';

/** Where verdicts are filed: an operation (or NO_OPERATION), with its method and route as fields. */
export interface Place {
  operationId: string;
  method: string;
  route?: string;
}

/** An answer that broke a judge, as a report shows it. */
export interface Example {
  request: string;
  repro: string;
  actual: string;
  /** What the answer was: status and media type. */
  answer: { status: number; type: string };
  /** A 5xx answer's crash signature: whatever a judge found in it, it is that crash's. */
  crash?: string;
}

interface Tally {
  place: Place;
  judge: string;
  promise: string;
  level: Provenance;
  judged: number;
  failed: number;
  /** The failing answers' requests (bounded), for people and for causes that join on a request. */
  requests: string[];
  first?: { findings: Finding[]; example: Example };
}

/** Failing requests listed per tally; the rest are counted. */
const LISTED = 10;

/** A finding's evidence as the report's causes read it: what failures of one defect share. */
export function evidenceOf(findings: readonly Finding[]): Evidence {
  const e: Evidence = {};
  for (const f of findings) {
    const x = f.evidence;
    if (x?.crash) e.crash ??= x.crash;
    if (x?.schemaErrors?.length) e.schemaErrors ??= x.schemaErrors;
    if (x?.wrongType) e.wrongType ??= x.wrongType;
    if (x?.missingHeaders) e.missingHeaders ??= { names: x.missingHeaders, every: false };
    if (x?.expectedStatus !== undefined) e.expectedStatus ??= x.expectedStatus;
    if (x?.leak) e.leak ??= x.leak;
  }
  const first = findings[0];
  if (first) {
    e.judge = first.judge;
    e.defect = first.defect;
    if (first.acrossSubjects) e.finding = first.defect;
    const about = first.subject?.parameter ?? first.subject?.field;
    if (about) e.subject = about;
  }
  return e;
}

export class VerdictTally {
  /**
   * By operation, judge and level: maps in maps, so counting a verdict builds no key (the proxy counts every answer).
   */
  private readonly byPlace = new Map<string, Map<string, Map<Provenance, Tally>>>();
  private readonly tallies: Tally[] = [];

  private tally(place: Place, judge: string, promise: string, level: Provenance): Tally {
    let byJudge = this.byPlace.get(place.operationId);
    if (!byJudge) this.byPlace.set(place.operationId, (byJudge = new Map()));
    let byLevel = byJudge.get(judge);
    if (!byLevel) byJudge.set(judge, (byLevel = new Map()));
    let t = byLevel.get(level);
    if (!t) {
      byLevel.set(level, (t = { place, judge, promise, level, judged: 0, failed: 0, requests: [] }));
      this.tallies.push(t);
    }
    return t;
  }

  /**
   * One answer's verdicts (those a case of the suite claimed left out by the caller).
   * `example` is asked only when the answer is the first to break a judge at a level.
   * Returns the findings that were such a first, for a caller that logs each once.
   */
  add(place: Place, verdicts: readonly Verdict[], example: () => Example): Finding[] {
    const firsts: Finding[] = [];
    let shown: Example | undefined;
    for (const { judge, level: passLevel, findings } of verdicts) {
      if (!findings.length) {
        this.tally(place, judge.name, judge.promise, passLevel).judged++;
        continue;
      }
      for (const level of new Set(findings.map((f) => f.level))) {
        const t = this.tally(place, judge.name, judge.promise, level);
        t.judged++;
        t.failed++;
        // The example is rendered only where it is kept: past the first failures an answer is only counted.
        if (t.first && t.requests.length >= LISTED) continue;
        shown ??= example();
        if (t.requests.length < LISTED) t.requests.push(shown.request);
        if (t.first) continue;
        const mine = findings.filter((f) => f.level === level);
        t.first = { findings: mine, example: shown };
        firsts.push(...mine);
      }
    }
    return firsts;
  }

  /**
   * How to count the same passing verdicts again at one place, for a caller that meets
   * the same answer again (the proxy's verdict cache): the tallies found once, each
   * count then one addition. Undefined when one of them is a failure, whose counting
   * also lists its request.
   */
  passes(place: Place, verdicts: readonly Verdict[]): (() => void) | undefined {
    if (verdicts.some((v) => v.findings.length)) return undefined;
    const tallies = verdicts.map(({ judge, level }) => this.tally(place, judge.name, judge.promise, level));
    return () => {
      for (const t of tallies) t.judged++;
    };
  }

  /**
   * One result per operation, judge and level: a judge failing at some level
   * on an operation is not listed as passing there.
   */
  results(): CheckResult[] {
    // In the registry's order, then hardest level first: the same on every run, whatever answer came first.
    const order = (t: Tally) => JUDGE_NAMES.indexOf(t.judge) * LEVELS.length + LEVELS.indexOf(t.level);
    const all = [...this.tallies].sort((a, b) => order(a) - order(b));
    const failing = new Set(all.filter((t) => t.failed).map((t) => `${t.place.operationId}\u0000${t.judge}`));
    const out: CheckResult[] = [];
    const plural = (n: number) => `${n} answer${n === 1 ? '' : 's'}`;
    for (const t of all) {
      const base = { ...t.place, family: t.judge, check: `${t.judge}: ${t.promise}`, provenance: t.level };
      if (!t.failed) {
        if (!failing.has(`${t.place.operationId}\u0000${t.judge}`))
          out.push({ ...base, status: 'pass', message: `${plural(t.judged)} judged` });
        continue;
      }
      const { findings, example } = t.first!;
      const evidence: Evidence = { ...evidenceOf(findings), answer: example.answer };
      // Missing from every answer the judge held to them: a family of headers the target never sends.
      if (evidence.missingHeaders) evidence.missingHeaders.every = t.failed === t.judged;
      if (example.crash) evidence.crash ??= example.crash;
      if (t.requests.length > 1) evidence.requests = t.requests;
      const counted = `${t.failed} of ${plural(t.judged)} judged${t.failed > 1 ? ' break it; the first is shown' : ''}`;
      out.push({
        ...base,
        status: 'fail',
        request: example.request,
        repro: example.repro,
        expected: findings[0]?.expected ?? t.promise,
        actual: example.actual,
        message: `${findings.map((f) => f.why).join('; ')} (${counted})`,
        findings,
        evidence,
      });
    }
    return out;
  }
}
