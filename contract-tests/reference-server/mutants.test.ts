// The mutants made from the promise map (mutants.ts) and the runner (mutant-run.ts): every
// kind of promise a judge holds has a mutant; the correct reference server, seen through
// the runner, fails nothing; and a deterministic sample, one mutant per kind of promise,
// is killed and named by one cause as often as the whole set must be (the whole set is
// `npm run mutants`, scripts/mutants.ts: it takes minutes).
import { describe, expect, test } from 'vitest';
import { loadModel } from '../../spec/model.ts';
import { promiseMap } from '../../spec/promises.ts';
import { mutantLines, runMutants } from './mutant-report.ts';
import { runMutant } from './mutant-run.ts';
import { type Mutant, mutantsOf } from './mutants.ts';

const model = loadModel();
const map = promiseMap(model);
const all = mutantsOf(model, map);

/** The first mutant of each kind of promise, in the map's order. */
function onePerKind(mutants: readonly Mutant[]): Mutant[] {
  const seen = new Set<string>();
  return mutants.filter((m) => !seen.has(m.promise.kind) && seen.add(m.promise.kind));
}

describe('mutants from the promise map', () => {
  test('every kind of promise a judge holds has a mutant; ids are unique; each breaks a promise of the map', () => {
    const kinds = new Set(all.map((m) => m.promise.kind));
    const held = new Set(map.filter((p) => !p.uncovered).map((p) => p.kind));
    expect([...held].filter((k) => !kinds.has(k))).toEqual([]);
    expect(new Set(all.map((m) => m.id)).size).toBe(all.length);
    const ids = new Set(map.map((p) => p.id));
    for (const m of all) {
      expect(ids.has(m.promise.id), m.id).toBe(true);
      expect(m.promise.uncovered, m.id).toBeUndefined();
    }
    // Made from the map: a promise the spec adds gets its mutants with no code (the map's test adds one).
    expect(all.length).toBeGreaterThan(500);
  });

  test('the correct reference server through the runner: no failure', async () => {
    // A promise no family is named for: every family runs, on every operation.
    const promise = { ...all[0]!.promise, provokedBy: [] };
    const none: Mutant = { id: 'none', promise, operator: 'none', says: 'nothing wrong', tamper: (r, next) => next(r) };
    const v = await runMutant(none);
    expect(v.killed).toBe(false);
    expect(v.causes).toEqual([]);
    expect(v.why).toMatch(/^put to the test \d+ time\(s\), and no judge of .* failed$/);
  });

  test('one mutant per kind of promise: at least 95% killed, at least 90% named by exactly one cause', {
    timeout: 300_000,
  }, async () => {
    const sample = onePerKind(all);
    expect(sample.length).toBeGreaterThan(70);
    const s = await runMutants(sample);
    const report = mutantLines(s).join('\n');
    expect(s.killed / s.total, report).toBeGreaterThanOrEqual(0.95);
    expect(s.oneCause / s.total, report).toBeGreaterThanOrEqual(0.9);
    for (const v of s.verdicts) {
      expect(v.rerun).toContain('npm run mutants -- --filter ');
      if (v.killed) expect(v.repro, v.id).toMatch(/^curl /);
      else expect(v.why, v.id).toMatch(/no case put it to the test|put to the test \d+ time/);
    }
  });
});
