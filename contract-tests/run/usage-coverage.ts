// Coverage across sides (`--usage FILE...`): of the operations and parameters consumers
// were seen to use (their usage profiles, spec/usage-profile.ts), which the run verified
// against the target and which it never checked. What the run sent is read from the
// transport, which sees every request of the run, Dredd's included (run/assemble.ts
// notes each in a profile of the suite's own), never from the names of its checks. Each
// used operation and parameter is one result: a pass when the run sent it and got an
// answer; when it did not, a skip no setting avoids (the suite does not send it), or a
// failure under `--require-usage`.
import type { SpecModel } from '../../spec/model.ts';
import { weakest, type Provenance } from '../../spec/provenance.ts';
import type { UsageProfile } from '../../spec/usage-profile.ts';
import type { CheckResult } from '../shared/recorder.ts';

interface Used {
  operationId: string;
  parameter?: string;
  /** Requests per consumer. */
  by: Record<string, number>;
}

export interface UsageCoverage {
  results: CheckResult[];
  /** The lines the reports close with. */
  figures: string[];
}

/** Every operation and parameter the profiles used, with who used it how often. */
function usedBy(profiles: readonly UsageProfile[]): Used[] {
  const used = new Map<string, Used>();
  const add = (operationId: string, parameter: string | undefined, consumer: string, n: number) => {
    const key = `${operationId}\u0000${parameter ?? ''}`;
    const entry = used.get(key) ?? { operationId, ...(parameter ? { parameter } : {}), by: {} };
    entry.by[consumer] = (entry.by[consumer] ?? 0) + n;
    used.set(key, entry);
  };
  for (const p of profiles)
    for (const [id, op] of Object.entries(p.operations)) {
      if (!op.requests) continue;
      add(id, undefined, p.consumer, op.requests);
      for (const [name, param] of Object.entries(op.parameters))
        if (param.requests) add(id, name, p.consumer, param.requests);
    }
  return [...used.values()];
}

const whoWords = (by: Record<string, number>) =>
  Object.entries(by)
    .map(([consumer, n]) => `${consumer}, ${n} request${n === 1 ? '' : 's'}`)
    .join('; ');

const what = (u: Used) => (u.parameter ? `${u.operationId} ${u.parameter}` : u.operationId);

export function usageCoverage(
  profiles: readonly UsageProfile[],
  checked: UsageProfile,
  model: SpecModel,
  require: boolean,
): UsageCoverage {
  const results: CheckResult[] = [];
  const never: string[] = [];
  const used = usedBy(profiles);
  for (const u of used) {
    const op = model.byId.get(u.operationId);
    const param = op?.parameters.find((p) => p.name === u.parameter);
    const provenance: Provenance = op ? weakest(op.provenance, param?.provenance) : 'interface';
    const sent = checked.operations[u.operationId];
    const answered = sent && Object.keys(sent.statuses).length > 0;
    const verified = Boolean(answered && (!u.parameter || sent.parameters[u.parameter]?.requests));
    const check =
      `usage: ${u.parameter ? `parameter ${u.parameter}` : 'the operation'}, as consumers use it, is ` +
      `checked against the target`;
    const base = { operationId: u.operationId, check, provenance, expected: `used by ${whoWords(u.by)}` };
    if (verified) {
      const n = u.parameter ? sent!.parameters[u.parameter]!.requests : sent!.requests;
      results.push({ ...base, status: 'pass', message: `the run sent it ${n} time${n === 1 ? '' : 's'}` });
      continue;
    }
    never.push(`${what(u)} (${whoWords(u.by)})`);
    const why = !op
      ? 'no operation of the spec has this operationId'
      : u.parameter && !param
        ? 'the spec declares no such parameter'
        : 'no request of the run sent it';
    results.push({
      ...base,
      status: require ? 'fail' : 'skip',
      ...(require ? {} : { unavoidable: true }),
      message: `never checked: ${why}${require ? '' : ' (--require-usage fails the run on it)'}`,
    });
  }
  const consumers = [...new Set(profiles.map((p) => p.consumer))].join(', ');
  const figures = [
    `Usage (${consumers}): ${used.length - never.length} of ${used.length} operations and parameters they use ` +
      `were checked against the target${never.length ? `; never checked: ${never.join(', ')}` : ''}`,
  ];
  return { results, figures };
}
