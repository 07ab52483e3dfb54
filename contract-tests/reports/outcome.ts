// A run's outcome, and the summary people read on stdout: each operation with its
// failures (request, expected, got, why, and the level of the promise each breaks),
// then the verdict, the failures per level and the causes, worst level first. The
// JUnit, markdown and HTML reports render the same outcome (junit.ts, markdown.ts,
// html-report.ts). Inputs are already masked by the recorder.
import { LEVELS, type Provenance } from '../../spec/provenance.ts';
import type { Cause } from './causes.ts';
import type { CheckResult } from '../kit/recorder.ts';

export interface OperationReport {
  operationId: string;
  /** `GET /servers/find`, when it is an operation of the spec. */
  route?: string;
  results: CheckResult[];
}

export function groupByOperation(operations: { operationId: string; route?: string }[], results: CheckResult[]): OperationReport[] {
  const ids = operations.map((o) => o.operationId);
  const extra = [...new Set(results.map((r) => r.operationId))].filter((id) => !ids.includes(id)).map((operationId) => ({ operationId }));
  return [...operations, ...extra].map((o) => ({ ...o, results: results.filter((r) => r.operationId === o.operationId) }));
}

export interface RunOutcome {
  exitCode: 0 | 1 | 2;
  /** Why nothing was checked (exit 2): the target could not be reached, a mistake in the flags... */
  refusal?: string;
  /** The run's settings for people: target, level, writes, credentials (masked). */
  settings: string[];
  reports: OperationReport[];
  causes: Cause[];
  /** Failures that share no cause. */
  single: CheckResult[];
  /** Requests, waits, the sample, the time taken. */
  figures: string[];
  /** `--strict`: a skip fails the run (unless no setting could avoid it). */
  strict: boolean;
  startedAt: Date;
  durationMs: number;
}

/** A skip that fails the run under `--strict`. */
export function failsStrictly(r: CheckResult, strict: boolean): boolean {
  return strict && r.status === 'skip' && !r.unavoidable;
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

export function tally(outcome: Pick<RunOutcome, 'reports' | 'strict'>): Tally {
  const all = outcome.reports.flatMap((r) => r.results);
  const failures = all.filter((r) => r.status === 'fail');
  const failuresByLevel = Object.fromEntries(LEVELS.map((l) => [l, failures.filter((f) => f.provenance === l).length])) as Record<Provenance, number>;
  const skipped = all.filter((r) => r.status === 'skip');
  return {
    run: all.length - skipped.length,
    passed: all.filter((r) => r.status === 'pass').length,
    failed: failures.length,
    skipped: skipped.length,
    unavoidable: skipped.filter((r) => r.unavoidable).length,
    strictFailures: skipped.filter((r) => failsStrictly(r, outcome.strict)),
    failuresByLevel,
  };
}

/** PASSED / FAILED / NOT RUN, with the counts that say why: the line a gate shows. */
export function verdictLine(outcome: RunOutcome): string {
  if (outcome.exitCode === 2) return `NOT RUN: ${outcome.refusal ?? 'the suite refused to run'}`;
  const t = tally(outcome);
  const causes = outcome.causes.length ? ` (${outcome.causes.length} cause${outcome.causes.length === 1 ? '' : 's'}${outcome.single.length ? `, ${outcome.single.length} other failure${outcome.single.length === 1 ? '' : 's'}` : ''})` : '';
  const skips = `${t.skipped} skipped${t.unavoidable ? ` (${t.unavoidable} unavoidable)` : ''}`;
  const strict = t.strictFailures.length ? ` ${t.strictFailures.length} skip${t.strictFailures.length === 1 ? '' : 's'} fail${t.strictFailures.length === 1 ? 's' : ''} the run under --strict` : '';
  return `${outcome.exitCode === 0 ? 'PASSED' : 'FAILED'}: ${t.run} checks run, ${t.failed} failed${causes}, ${skips}${strict ? `;${strict}` : ''}`;
}

export function levelsLine(t: Tally): string {
  return `Failures by level: ${LEVELS.map((l) => `${l} ${t.failuresByLevel[l]}`).join(', ')}`;
}

/** `[observed] findServers  Dredd: GET ...`: a failure in one line, as the causes list it. */
export function failureLine(r: CheckResult): string {
  return `[${r.provenance}] ${r.operationId}  ${r.check}`;
}

/** Failures listed under a cause in the summary; the rest are counted. */
const LISTED_PER_CAUSE = 12;

export function summary(outcome: RunOutcome): string {
  const lines = [...outcome.settings, ''];
  const width = Math.max(...outcome.reports.map((r) => r.operationId.length), 10);
  for (const { operationId, results } of outcome.reports) {
    const failed = results.filter((r) => r.status === 'fail').length;
    const skipped = results.filter((r) => r.status === 'skip').length;
    const ran = results.length - skipped;
    const verdict = failed ? 'FAIL' : ran ? 'PASS' : 'SKIP';
    const detail = results.length === 0 ? 'no checks selected' : `${failed ? `${failed} of ${ran} failed` : `${ran} checks`}${skipped ? `, ${skipped} skipped` : ''}`;
    lines.push(`${verdict}  ${operationId.padEnd(width)}  ${detail}`);
    for (const r of results.filter((x) => x.status === 'fail')) {
      lines.push(`      x [${r.provenance}] ${r.check}`);
      if (r.request) lines.push(`          request:  ${r.request}`);
      if (r.expected) lines.push(`          expected: ${r.expected}`);
      if (r.actual) lines.push(`          got:      ${r.actual}`);
      if (r.message) lines.push(`          why:      ${r.message}`);
    }
    for (const r of results.filter((x) => x.status === 'skip' && !x.unavoidable)) {
      lines.push(`      - skipped${failsStrictly(r, outcome.strict) ? ' (fails under --strict)' : ''}: ${r.check} (${r.message ?? 'no reason given'})`);
    }
    // Skips no setting can avoid are the same on every run: one line, their reasons in the reports.
    const unavoidable = results.filter((x) => x.unavoidable);
    if (unavoidable.length) lines.push(`      - skipped, unavoidable: ${unavoidable.map((r) => r.check).join('; ')}`);
  }
  const t = tally(outcome);
  lines.push('', verdictLine(outcome));
  if (t.failed) lines.push(levelsLine(t));
  if (outcome.causes.length) {
    lines.push('Causes, worst level first:');
    for (const c of outcome.causes) {
      lines.push(`  [${c.level}] ${c.title}: ${c.failures.length} failures`);
      if (c.hint) lines.push(`      ${c.hint}`);
      for (const f of c.failures.slice(0, LISTED_PER_CAUSE)) lines.push(`      x ${failureLine(f)}`);
      if (c.failures.length > LISTED_PER_CAUSE) lines.push(`      ... and ${c.failures.length - LISTED_PER_CAUSE} more (each is listed under its operation above, and in the reports)`);
    }
    if (outcome.single.length) lines.push('Other failures:', ...outcome.single.map((f) => `  x ${failureLine(f)}`));
  }
  return lines.join('\n');
}
