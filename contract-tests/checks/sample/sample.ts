// `sample:` and `sort:` the family that pages through the search (the operation whose
// parameters page and sort its rows), as wide as the budget allows, keeping room for
// the pings; its verdicts are in verdicts.ts, its paging in sampler.ts.
import { meaningLevel } from '../../../spec/judges/rows.ts';
import type { Operation } from '../../../spec/model.ts';
import { weakest } from '../../../spec/provenance.ts';
import type { Scope } from '../../shared/scope.ts';
import type { CheckResult } from '../../shared/recorder.ts';
import { combinations } from '../meaning/combinations.ts';
import { ROW_RULES } from '../meaning/row-rules.ts';
import { family, type GivenFor } from '../run-parts.ts';
import { PINGED_SERVERS, pingOperations } from './ping.ts';
import type { Sampler } from './sampler.ts';
import { sampleVerdicts } from './verdicts.ts';

const NEEDS = ['spec', 'scope', 'judging', 'reads', 'sample'] as const;
type Run = GivenFor<typeof NEEDS>;

/** Whether any of the sample's checks is within the run's --provenance (else its requests would be wasted). */
function wanted(s: Sampler, scope: Scope): boolean {
  const { op } = s;
  const levels = [weakest(op.provenance, op.rows?.provenance)];
  for (const p of op.parameters)
    if (p.meaning && (p.meaning.rule === 'page' || p.meaning.rule === 'sort' || p.meaning.rule in ROW_RULES))
      levels.push(meaningLevel(op, p, p.meaning));
  return levels.some((l) => scope.wants(l));
}

/** The operation whose rows are sampled: the one whose parameters page them. */
export function searchedOperation(operations: readonly Operation[]): Operation | undefined {
  return operations.find((o) => o.rows && o.parameters.some((p) => p.meaning?.rule === 'page'));
}

async function sample(op: Operation, run: Run): Promise<CheckResult[]> {
  const s = run.sample;
  if (!s || op !== s.op || !wanted(s, run.scope)) return [];
  await s.seed();
  s.plan(combinations(op, s.seen));
  await s.walk(pingOperations(run).length * (PINGED_SERVERS + 1));
  return sampleVerdicts(s, run);
}

export const sampleFamily = family({ name: 'sample', needs: NEEDS, perOperation: sample, fence: true });
