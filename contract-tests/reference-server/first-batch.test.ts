// Issue 29's first batch: each kind of defect, planted in the reference server in every
// place it can be (first-batch.ts), is named by exactly one cause, the one that says it.
import { describe, expect, test } from 'vitest';
import { loadModel } from '../../spec/model.ts';
import { FIRST_BATCH, firstBatch } from './first-batch.ts';
import { runMutant } from './mutant-run.ts';

const model = loadModel();
const planted = firstBatch(model);

describe("the first batch's kinds, each one cause", () => {
  for (const [i, kind] of FIRST_BATCH.entries())
    test(`${kind.name}: ${kind.says}`, { timeout: 60_000 }, async () => {
      const v = await runMutant(planted[i]!);
      expect(v.killed, v.why).toBe(true);
      expect(v.causes, v.causes.join('\n')).toHaveLength(1);
      expect(v.causes[0]).toMatch(kind.cause);
      expect(v.repro).toMatch(/^curl /);
    });

  test('each is made of every mutant of the map that is that defect somewhere', () => {
    const sizes = Object.fromEntries(planted.map((m) => [m.id, 1 + (m.also?.length ?? 0)]));
    // Every text filter's `*`, every filter's case, both bounds, every protected operation's expired credentials.
    expect(sizes['* matched literally']).toBeGreaterThanOrEqual(5);
    expect(sizes['case-sensitive text']).toBeGreaterThanOrEqual(5);
    expect(sizes['inclusive bound read as strict']).toBe(2);
    expect(sizes.expiry).toBeGreaterThanOrEqual(3);
    expect(sizes['naive timestamps']).toBeGreaterThanOrEqual(2);
  });
});
