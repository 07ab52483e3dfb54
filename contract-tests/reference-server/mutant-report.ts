// A run of many mutants (mutants.ts), one after another, and what it comes to: how many
// the suite killed, how many it named as exactly one cause, each survivor with why, each
// mutant named by several causes with them, and a repro for each killed one. The full run
// is `npm run mutants` (scripts/mutants.ts); a sample of it is in `npm test`
// (mutants.test.ts).
import { type MutantVerdict, runMutant } from './mutant-run.ts';
import type { Mutant } from './mutants.ts';

export interface MutantSummary {
  total: number;
  killed: number;
  /** Killed, and named by exactly one cause. */
  oneCause: number;
  verdicts: MutantVerdict[];
}

/** Runs each mutant in turn (`onEach` hears each verdict as it comes). */
export async function runMutants(
  mutants: readonly Mutant[],
  onEach: (v: MutantVerdict, i: number) => void = () => undefined,
): Promise<MutantSummary> {
  const verdicts: MutantVerdict[] = [];
  for (const m of mutants) {
    const v = await runMutant(m);
    verdicts.push(v);
    onEach(v, verdicts.length);
  }
  return summaryOf(verdicts);
}

export function summaryOf(verdicts: MutantVerdict[]): MutantSummary {
  return {
    total: verdicts.length,
    killed: verdicts.filter((v) => v.killed).length,
    oneCause: verdicts.filter((v) => v.killed && v.causes.length === 1).length,
    verdicts,
  };
}

const percent = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)}%` : '-');

/** The run for people: the figures, then each survivor with why, then each mutant named by several causes. */
export function mutantLines(s: MutantSummary): string[] {
  const survivors = s.verdicts.filter((v) => !v.killed);
  const several = s.verdicts.filter((v) => v.killed && v.causes.length !== 1);
  return [
    `Mutants: ${s.total}, killed ${s.killed} (${percent(s.killed, s.total)}), ` +
      `named by exactly one cause ${s.oneCause} (${percent(s.oneCause, s.total)})`,
    ...(survivors.length ? ['', `Survivors (${survivors.length}):`] : []),
    ...survivors.map((v) => `- ${v.id}: ${v.says}. Why: ${v.why}`),
    ...(several.length ? ['', `Killed, but named by several causes (${several.length}):`] : []),
    ...several.flatMap((v) => [`- ${v.id}: ${v.causes.length} causes`, ...v.causes.map((c) => `    ${c}`)]),
  ];
}
