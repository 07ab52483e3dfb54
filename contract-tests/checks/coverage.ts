// `coverage:` every non-2xx status an operation declares is provoked at least once (by
// a check that expected it) or seen in some answer of the run; the others are listed as
// skipped, with the reason. Runs last among the families: it reads what all the others
// did.
import { reasonPhrase } from '../../spec/messages.ts';
import type { Operation } from '../../spec/model.ts';
import type { CheckResult } from '../shared/recorder.ts';
import { skip } from './skip.ts';
import { family, type GivenFor } from './run-parts.ts';

const NEEDS = ['scope', 'answers', 'results'] as const;
type Run = GivenFor<typeof NEEDS>;

/**
 * Why a declared status no check provoked could not be, for the report;
 * `unavoidable` when no setting of the suite would provoke it.
 */
function notProvokedBecause(run: Run, op: Operation, status: number): { reason: string; unavoidable: boolean } {
  if (status >= 500)
    return {
      reason: 'cannot be provoked: a 5xx is the server failing, and one met by any check fails that check',
      unavoidable: true,
    };
  // The suite paces itself to stay within the limits rather than provoke them.
  if (status === 429)
    return { reason: 'no 429 seen: the target enforced no limit, or the pacing kept within it', unavoidable: true };
  return { reason: run.scope.writesBlocked(op) ?? 'no check provokes it (yet)', unavoidable: false };
}

async function coverage(op: Operation, run: Run): Promise<CheckResult[]> {
  const provoked = new Set(
    run
      .results()
      .filter((r) => r.operationId === op.operationId && r.evidence?.expectedStatus)
      .map((r) => r.evidence!.expectedStatus),
  );
  const out: CheckResult[] = [];
  for (const status of op.responses.keys()) {
    if (status < 300 || provoked.has(status) || run.answers.showed(op.operationId, status)) continue;
    const why = notProvokedBecause(run, op, status);
    out.push(
      ...skip(run.scope, {
        op,
        check: `coverage: the declared ${status} ${reasonPhrase(status)} is exercised`,
        level: op.provenance,
        reason: why.reason,
        unavoidable: why.unavoidable,
      }),
    );
  }
  return out;
}

export const coverageFamily = family({ name: 'coverage', needs: NEEDS, perOperation: coverage, fence: true });
