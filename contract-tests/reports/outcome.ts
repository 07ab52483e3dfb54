// A run's outcome, and the summary people read on stdout: the verdict, the failures per
// level and the causes, worst level first, each with its count and one example (its
// request, what came back and a curl line that repeats it); then every failure per
// operation (request, expected, got, why, its cause and its repro). The JSON, JUnit,
// markdown and HTML reports render the same outcome (json.ts, junit.ts, markdown.ts,
// html.ts). `outcomeOf` makes one from any list of results, whether a suite run or a
// proxy judging live traffic produced them. Inputs are already masked by the recorder.
import type { PromiseCoverage } from '../../spec/promise-coverage.ts';
import { LEVELS, type Provenance } from '../../spec/provenance.ts';
import { findCauses, type Cause, type Observed, type OperationInfo } from './causes.ts';
import type { CheckResult } from '../shared/recorder.ts';
import { linesForTerminal } from './escape.ts';

export interface OperationReport {
  operationId: string;
  /** `GET /servers/find`, when it is an operation of the spec. */
  route?: string;
  results: CheckResult[];
}

export function groupByOperation(
  operations: { operationId: string; route?: string }[],
  results: readonly CheckResult[],
): OperationReport[] {
  const ids = operations.map((o) => o.operationId);
  const extra = [...new Set(results.map((r) => r.operationId))]
    .filter((id) => !ids.includes(id))
    .map((operationId) => ({ operationId }));
  return [...operations, ...extra].map((o) => ({
    ...o,
    results: results.filter((r) => r.operationId === o.operationId),
  }));
}

export interface RunOutcome {
  exitCode: 0 | 1 | 2;
  /** The counts every report shows, worked out once (tallyOf). */
  tally: Tally;
  /** Each failure's cause, numbered as listed (causes[n - 1]), worked out once. */
  causeOf: ReadonlyMap<CheckResult, { n: number; cause: Cause }>;
  /** Why nothing was checked (exit 2): the target could not be reached, a mistake in the flags... */
  refusal?: string;
  /** The run's settings for people: target, level, writes, credentials (masked). */
  settings: string[];
  reports: OperationReport[];
  /** Every failure is under one of them. */
  causes: Cause[];
  /** Requests, waits, the sample, the time taken. */
  figures: string[];
  /** `--strict`: a skip fails the run (unless no setting could avoid it). */
  strict: boolean;
  startedAt: Date;
  durationMs: number;
  /** What the run covered of the spec's promise map, when the caller worked it out. */
  promises?: PromiseCoverage;
}

export interface OutcomeInput {
  /** Every result (passes too), masked. */
  results: readonly CheckResult[];
  /** The spec's operations: the causes read their routes; the reports list them in this order. */
  operations: OperationInfo[];
  /** The operations to list (default all); results about others are listed after them. */
  selected?: readonly string[];
  /** What every answer showed (a missing route is told by it), when the caller counted them. */
  observed?: Observed;
  settings: string[];
  figures?: string[];
  strict?: boolean;
  startedAt: Date;
  durationMs: number;
  promises?: PromiseCoverage;
}

/** The outcome of a list of results: grouped per operation, every failure under a cause, the counts, the exit code. */
export function outcomeOf(input: OutcomeInput): RunOutcome {
  const listed = input.operations.filter((o) => !input.selected || input.selected.includes(o.operationId));
  const reports = groupByOperation(
    listed.map((o) => ({ operationId: o.operationId, route: `${o.method} ${o.path}` })),
    input.results,
  );
  const strict = input.strict ?? false;
  const causes = findCauses(input.results, input.operations, input.observed);
  const tally = tallyOf(reports, strict);
  return {
    exitCode: tally.failed || tally.strictFailures.length ? 1 : 0,
    tally,
    causeOf: causeIndex(causes),
    settings: input.settings,
    reports,
    causes,
    figures: input.figures ?? [],
    strict,
    startedAt: input.startedAt,
    durationMs: input.durationMs,
    ...(input.promises ? { promises: input.promises } : {}),
  };
}

/**
 * The promise map's line: how many promises the spec makes, how many a judge holds, how many the run put to the test.
 */
export function promisesLine(p: PromiseCoverage): string {
  const share = p.total ? Math.round((100 * p.exercised) / p.total) : 0;
  const areas = Object.entries(p.byArea)
    .map(([area, a]) => `${area} ${a.exercised}/${a.total}`)
    .join(', ');
  return (
    `Promises: ${p.total} in the spec, ${p.covered} held by a judge (${p.total - p.covered} not: see the ` +
    `report); this run put ${p.exercised} to the test (${share}%: ${areas})`
  );
}

/** The outcome of a run that checked nothing (exit 2), and why. */
export function refusedOutcome(
  input: Pick<RunOutcome, 'refusal' | 'settings' | 'figures' | 'startedAt' | 'durationMs'>,
): RunOutcome {
  return {
    exitCode: 2,
    tally: tallyOf([], false),
    causeOf: new Map(),
    reports: [],
    causes: [],
    strict: false,
    ...input,
  };
}

/** A skip that fails the run under `--strict`. */
export function failsStrictly(r: CheckResult, strict: boolean): boolean {
  return strict && r.status === 'skip' && !r.unavoidable && !r.declined;
}

export interface Tally {
  run: number;
  passed: number;
  failed: number;
  skipped: number;
  /** Skips no setting of the suite could have avoided. */
  unavoidable: number;
  /** Skips that fail the run under --strict. */
  strictFailures: CheckResult[];
  failuresByLevel: Record<Provenance, number>;
}

function tallyOf(reports: readonly OperationReport[], strict: boolean): Tally {
  const all = reports.flatMap((r) => r.results);
  const failures = all.filter((r) => r.status === 'fail');
  const failuresByLevel = Object.fromEntries(
    LEVELS.map((l) => [l, failures.filter((f) => f.provenance === l).length]),
  ) as Record<Provenance, number>;
  const skipped = all.filter((r) => r.status === 'skip');
  return {
    run: all.length - skipped.length,
    passed: all.filter((r) => r.status === 'pass').length,
    failed: failures.length,
    skipped: skipped.length,
    unavoidable: skipped.filter((r) => r.unavoidable).length,
    strictFailures: skipped.filter((r) => failsStrictly(r, strict)),
    failuresByLevel,
  };
}

/** PASSED / FAILED / NOT RUN, with the counts that say why: the line a gate shows. */
export function verdictLine(outcome: RunOutcome): string {
  if (outcome.exitCode === 2) return `NOT RUN: ${outcome.refusal ?? 'the suite refused to run'}`;
  const t = outcome.tally;
  const causes = outcome.causes.length
    ? ` (${outcome.causes.length} cause${outcome.causes.length === 1 ? '' : 's'})`
    : '';
  const skips = `${t.skipped} skipped${t.unavoidable ? ` (${t.unavoidable} unavoidable)` : ''}`;
  const strict = t.strictFailures.length
    ? ` ${t.strictFailures.length} skip${t.strictFailures.length === 1 ? '' : 's'} fail` +
      `${t.strictFailures.length === 1 ? 's' : ''} the run under --strict`
    : '';
  return (
    `${outcome.exitCode === 0 ? 'PASSED' : 'FAILED'}: ${t.run} checks run, ${t.failed} failed${causes}, ` +
    `${skips}${strict ? `;${strict}` : ''}`
  );
}

export function levelsLine(t: Tally): string {
  return `Failures by level: ${LEVELS.map((l) => `${l} ${t.failuresByLevel[l]}`).join(', ')}`;
}

/** `[observed] findServers  Dredd: GET ...`: a failure in one line. */
export function failureLine(r: CheckResult): string {
  return `[${r.provenance}] ${r.operationId}  ${r.check}`;
}

/** Each failure's cause, as its number in the list and its title. */
function causeIndex(causes: readonly Cause[]): Map<CheckResult, { n: number; cause: Cause }> {
  const index = new Map<CheckResult, { n: number; cause: Cause }>();
  causes.forEach((cause, i) => {
    for (const f of cause.failures) index.set(f, { n: i + 1, cause });
  });
  return index;
}

/**
 * A failure's lines: what was sent, expected, came back, why, its cause (when given) and the curl line that repeats it.
 */
export function failureFields(r: CheckResult, cause?: string): [string, string][] {
  return (
    [
      ['request', r.request],
      ['expected', r.expected],
      ['got', r.actual],
      ['why', r.message],
      ['cause', cause],
      ['repro', r.repro],
    ] as [string, string | undefined][]
  ).filter((x): x is [string, string] => Boolean(x[1]));
}

/** The causes, each with its level, count and one example. */
function causeLines(outcome: RunOutcome): string[] {
  const lines = ['Causes, worst level first:'];
  outcome.causes.forEach((c, i) => {
    const [example] = c.failures;
    lines.push(
      `  ${i + 1}. [${c.level}] ${c.title}: ${c.failures.length} failure${c.failures.length === 1 ? '' : 's'}`,
    );
    if (c.hint) lines.push(`       ${c.hint}`);
    if (!example) return;
    lines.push(`       e.g. ${failureLine(example)}`);
    for (const [k, v] of failureFields(example).filter(([k]) => k !== 'expected'))
      lines.push(`         ${`${k}:`.padEnd(9)} ${v}`);
  });
  return lines;
}

/**
 * The summary for a terminal: every line masked and made one line (text from
 * the target is never trusted: reports/escape.ts).
 */
export function summary(outcome: RunOutcome): string {
  const t = outcome.tally;
  const lines = [...outcome.settings, '', verdictLine(outcome)];
  if (t.failed) lines.push(levelsLine(t), ...causeLines(outcome), '', 'Every check, per operation:');
  const causes = outcome.causeOf;
  const width = Math.max(...outcome.reports.map((r) => r.operationId.length), 10);
  for (const { operationId, results } of outcome.reports) {
    const failed = results.filter((r) => r.status === 'fail').length;
    const skipped = results.filter((r) => r.status === 'skip').length;
    const ran = results.length - skipped;
    const verdict = failed ? 'FAIL' : ran ? 'PASS' : 'SKIP';
    const detail =
      results.length === 0
        ? 'no checks selected'
        : `${failed ? `${failed} of ${ran} failed` : `${ran} checks`}${skipped ? `, ${skipped} skipped` : ''}`;
    lines.push(`${verdict}  ${operationId.padEnd(width)}  ${detail}`);
    for (const r of results.filter((x) => x.status === 'fail')) {
      lines.push(`      x [${r.provenance}] ${r.check}`);
      const cause = causes.get(r);
      for (const [k, v] of failureFields(r, cause && `${cause.n}. ${cause.cause.title}`))
        lines.push(`          ${`${k}:`.padEnd(9)} ${v}`);
    }
    for (const r of results.filter((x) => x.status === 'skip' && !x.unavoidable)) {
      lines.push(
        `      - skipped${failsStrictly(r, outcome.strict) ? ' (fails under --strict)' : ''}: ${r.check} (` +
          `${r.message ?? 'no reason given'})`,
      );
    }
    // Skips no setting can avoid are the same on every run: one line, their reasons in the reports.
    const unavoidable = results.filter((x) => x.unavoidable);
    if (unavoidable.length) lines.push(`      - skipped, unavoidable: ${unavoidable.map((r) => r.check).join('; ')}`);
  }
  return linesForTerminal(lines);
}
