// A check that did not run, as a result: the reason, or nothing when the run's
// --provenance leaves the check out anyway.
import type { Provenance } from '../../spec/provenance.ts';
import type { Subject } from '../shared/answer-log.ts';
import type { CheckResult } from '../shared/recorder.ts';
import type { Scope } from '../shared/scope.ts';

/**
 * A check that did not run, and why; nothing when the run's --provenance leaves it out.
 * `unavoidable`: no setting could have run it; `optional`: it needs something a target
 * may not have (an expired credential), so its skip does not fail --strict either.
 */
export function skip(
  scope: Scope,
  s: { op: Subject; check: string; level: Provenance; reason: string; unavoidable?: boolean; optional?: boolean },
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
      ...(s.optional ? { declined: true } : {}),
    },
  ];
}
