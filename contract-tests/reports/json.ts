// reports/contract-report.json: the run for a program. Every check with its result, level,
// cause, request, expected, got, why and repro; the causes, each with its level, count
// and example; the verdict, the totals, the settings and the figures. Its JSON Schema is
// contract-report.schema.json beside this file (a test validates every report against
// it); `format` names the version of that shape, raised when a field changes meaning.
import type { PromiseCoverage } from '../../spec/promise-coverage.ts';
import { LEVELS, type Provenance } from '../../spec/provenance.ts';
import { forJson } from './escape.ts';
import { failsStrictly, verdictLine, type RunOutcome } from './outcome.ts';

export const REPORT_FORMAT = 'server-listing-contract-report/1';

export interface JsonCheck {
  operation: string;
  /** `GET /servers/find`, when the operation is one of the spec's. */
  route?: string;
  check: string;
  result: 'pass' | 'fail' | 'skip';
  level: Provenance;
  /** The number of its cause in `causes` (failures only). */
  cause?: number;
  request?: string;
  expected?: string;
  got?: string;
  /** Why it failed or was skipped. */
  why?: string;
  repro?: string;
  ms?: number;
  /** A skip no setting of the suite could have avoided. */
  unavoidable?: boolean;
  /** A skip that fails the run under --strict. */
  failsUnderStrict?: boolean;
}

export interface JsonCause {
  id: number;
  level: Provenance;
  title: string;
  hint?: string;
  count: number;
  /** Its first failure, the one the summary shows. */
  example: { operation: string; check: string };
}

export interface JsonReport {
  format: typeof REPORT_FORMAT;
  verdict: 'passed' | 'failed' | 'not run';
  exitCode: 0 | 1 | 2;
  /** The verdict line, as the summary prints it. */
  summary: string;
  refusal?: string;
  startedAt: string;
  durationMs: number;
  strict: boolean;
  settings: string[];
  totals: {
    run: number;
    passed: number;
    failed: number;
    skipped: number;
    unavoidable: number;
    failuresByLevel: Record<Provenance, number>;
  };
  causes: JsonCause[];
  checks: JsonCheck[];
  figures: string[];
  /** What the run covered of the spec's promise map. */
  promises?: {
    total: number;
    covered: number;
    exercised: number;
    byArea: PromiseCoverage['byArea'];
    list: PromiseCoverage['promises'];
  };
}

const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

export function jsonReport(outcome: RunOutcome): JsonReport {
  const t = outcome.tally;
  const causes = outcome.causeOf;
  return defined({
    format: REPORT_FORMAT,
    verdict: outcome.exitCode === 0 ? 'passed' : outcome.exitCode === 1 ? 'failed' : 'not run',
    exitCode: outcome.exitCode,
    summary: verdictLine(outcome),
    refusal: outcome.refusal,
    startedAt: outcome.startedAt.toISOString(),
    durationMs: outcome.durationMs,
    strict: outcome.strict,
    settings: outcome.settings,
    totals: {
      run: t.run,
      passed: t.passed,
      failed: t.failed,
      skipped: t.skipped,
      unavoidable: t.unavoidable,
      failuresByLevel: Object.fromEntries(LEVELS.map((l) => [l, t.failuresByLevel[l]])) as Record<Provenance, number>,
    },
    causes: outcome.causes.map((c, i) =>
      defined({
        id: i + 1,
        level: c.level,
        title: c.title,
        hint: c.hint,
        count: c.failures.length,
        example: { operation: c.failures[0]!.operationId, check: c.failures[0]!.check },
      }),
    ),
    checks: outcome.reports.flatMap((op) =>
      op.results.map((r) =>
        defined<JsonCheck>({
          operation: r.operationId,
          route: op.route,
          check: r.check,
          result: r.status,
          level: r.provenance,
          cause: causes.get(r)?.n,
          request: r.request,
          expected: r.expected,
          got: r.actual,
          why: r.message,
          repro: r.repro,
          ms: r.ms,
          unavoidable: r.unavoidable,
          failsUnderStrict: failsStrictly(r, outcome.strict) || undefined,
        }),
      ),
    ),
    figures: outcome.figures,
    promises: outcome.promises && {
      total: outcome.promises.total,
      covered: outcome.promises.covered,
      exercised: outcome.promises.exercised,
      byArea: outcome.promises.byArea,
      list: outcome.promises.promises,
    },
  });
}

/** The report as the file holds it. */
export function jsonText(outcome: RunOutcome): string {
  return forJson(jsonReport(outcome));
}
