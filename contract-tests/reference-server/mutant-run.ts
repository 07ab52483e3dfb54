// Runs the suite against one mutant of the reference server (mutants.ts), in process: on
// the mutant's operations, with the families the promise map says provoke its promise
// (spec/promises.ts `provokedBy`), within a small budget. Killed: the run fails; at one
// cause: every failure names the one defect. A survivor says why: the run never put the
// promise to the test (no case provoked it), or it did and no judge failed.
import { FAMILIES, type Family } from '../checks/families.ts';
import type { SpecPromise } from '../../spec/promises.ts';
import { runSuite } from '../run/suite.ts';
import { fixtureEnv, REFERENCE_BASE, referenceFetch } from './in-process.ts';
import { type Mutant, mutated } from './mutants.ts';

export interface MutantVerdict {
  id: string;
  says: string;
  killed: boolean;
  /** The causes the run named. */
  causes: string[];
  /** The first failure's curl line (against the reference server in process, reference.test). */
  repro?: string;
  /** The command that runs the suite against this mutant again. */
  rerun: string;
  /** A survivor's why. */
  why?: string;
}

/** The families a provoking name of the map stands for (`sort` is the sample's, `default` the meaning family's). */
const FAMILY_OF: Record<string, string[]> = {
  sort: ['sample'],
  default: ['meaning'],
  sample: ['sample', 'ping'],
  keys: ['keys'],
};

/** The families the map says provoke some promises; all of them when it names none (what any answer provokes). */
export function familiesFor(...promises: SpecPromise[]): readonly Family[] {
  const names = new Set<string>();
  for (const by of promises.flatMap((p) => p.provokedBy)) {
    const word = by.split(' ')[0]!;
    if (word === 'every' || word === 'Dredd') continue;
    for (const name of FAMILY_OF[word] ?? [word]) names.add(name);
  }
  const picked = FAMILIES.filter((f) => names.has(f.name));
  return picked.length ? picked : FAMILIES;
}

/** A fake clock, shared by a rate-limited reference server and the suite's pacing: no real second is slept. */
function fakeClock(start = Date.now()) {
  let now = start;
  return { now: () => now, sleep: async (ms: number) => void (now += ms) };
}

export async function runMutant(
  m: Mutant,
  options: { budget?: number; promises?: boolean } = {},
): Promise<MutantVerdict> {
  const clock = fakeClock();
  // Five a second per credential: the metadata lookups, few in a small run, still meet their 429.
  const reference = referenceFetch(
    'none',
    m.limited ? { rateLimit: { limit: 5, windowMs: 1_000 }, now: clock.now } : {},
  );
  const { outcome } = await runSuite({
    baseUrl: REFERENCE_BASE,
    fetch: mutated(m, reference),
    allowWrites: true,
    dredd: false,
    env: fixtureEnv(),
    budget: options.budget ?? 150,
    families: familiesFor(m.promise, ...(m.also ?? [])),
    promises: options.promises ?? false,
    ...(m.only ? { only: m.only } : {}),
    // A 429 is met when the suite does not pace itself (headers that never count down defeat the pacing anyway).
    ...(m.limited ? { clock, pace: false } : {}),
  });
  const killed = outcome.exitCode === 1;
  const verdict: MutantVerdict = {
    id: m.id,
    says: m.says,
    killed,
    causes: outcome.causes.map((c) => c.title),
    rerun: `npm run mutants -- --filter '${m.id.replaceAll("'", "'\\''")}'`,
  };
  // The first failure a curl line repeats (a cleanup that failed has none: the next cause's).
  const example = outcome.causes.flatMap((c) => c.failures).find((f) => f.repro);
  if (example?.repro) verdict.repro = example.repro;
  // A survivor is run again with the map's coverage worked out: it says whether any case put the promise to the test.
  if (!killed && !options.promises)
    return { ...(await runMutant(m, { ...options, promises: true })), rerun: verdict.rerun };
  if (!killed) {
    const times = outcome.promises?.promises.find((x) => x.id === m.promise.id)?.times;
    verdict.why =
      outcome.exitCode === 2
        ? `the suite did not run: ${outcome.refusal}`
        : times === undefined
          ? 'no check failed'
          : times === 0
            ? `no case put it to the test (provoked by ${m.promise.provokedBy.join(', ')})`
            : `put to the test ${times} time(s), and no judge of ${m.promise.judges.join(', ')} failed`;
  }
  return verdict;
}
