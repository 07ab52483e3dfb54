// Two answers of one operation compared by a comparison of the registry
// (spec/judges/comparisons.ts): the `default:` checks and the `ignored` rule (a parameter
// answering like it left out), `revealsHidden` and `limitsRows` (their counts). A live
// target's counts move between two requests, so a difference is asked again once before it
// is called a defect: the asking is the suite's, the judging the comparison's.
import type { Finding } from '../../../spec/judges/judge.ts';
import type { Operation } from '../../../spec/model.ts';
import type { Exchange } from '../../transport/transport.ts';
import type { CachedReads } from '../cached-reads.ts';
import { describeQuery, type Query } from './answer-rows.ts';

export interface Comparing {
  op: Operation;
  /** The query without the parameter, and with it. */
  without: Query;
  with: Query;
  /** The comparison's findings on the two bodies, none when they agree. */
  compare: (without: unknown, withIt: unknown) => Finding[];
}

/**
 * Compares two answers; when they disagree, asks both again once, so a live target whose
 * counts moved between the requests is not taken for a defect. Returns the exchange with
 * the parameter, and what the comparison found.
 */
export async function stableCompare(
  reads: CachedReads,
  c: Comparing,
): Promise<{ exchange: Exchange; findings: Finding[]; asked: Exchange[] }> {
  let [ea, eb] = [await reads.get(c.op, c.without), await reads.get(c.op, c.with)];
  const asked = [ea, eb];
  let findings = ea.response && eb.response ? c.compare(ea.response.json, eb.response.json) : [];
  if (findings.length) {
    [ea, eb] = [await reads.get(c.op, c.without, { fresh: true }), await reads.get(c.op, c.with, { fresh: true })];
    asked.push(ea, eb);
    findings = ea.response && eb.response ? c.compare(ea.response.json, eb.response.json) : findings;
  }
  // The request to compare with was not sent (the budget ran out): the case is a skip, not a failure.
  if (ea.skipped && !ea.response) return { exchange: ea, findings: [], asked };
  if (!ea.response && eb.response) {
    const why = `the request without ${describeQuery(c.with)} got no answer: ${ea.skipped ?? ea.error}`;
    findings.push({ judge: 'comparison', level: c.op.provenance, why, defect: 'an answer to compare with is missing' });
  }
  return { exchange: eb, findings, asked };
}
