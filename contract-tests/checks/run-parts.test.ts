// A family is handed the parts of the run it declared and no other: at compile time (its
// functions see `Given<...>` of its `needs`) and at run time (the object holds nothing else).
import { describe, expect, test } from 'vitest';
import { runAgainstReference } from '../reference-server/in-process.ts';
import { FAMILIES } from './families.ts';
import { family } from './run-parts.ts';

describe("a family's needs", () => {
  test('the engine hands each family exactly the parts it declared, once and per operation', async () => {
    const seen: string[][] = [];
    const probe = family({
      name: 'probe',
      needs: ['scope', 'spec'],
      once: async (run) => {
        seen.push(Object.keys(run).sort());
        return [];
      },
      perOperation: async (_op, run) => {
        seen.push(Object.keys(run).sort());
        // @ts-expect-error: the transport was not declared, so it cannot be reached.
        expect(run.http).toBeUndefined();
        return [];
      },
    });
    await runAgainstReference('none', { families: [probe] });
    expect(seen.length).toBeGreaterThan(1);
    expect(new Set(seen.map((k) => k.join()))).toEqual(new Set(['scope,spec']));
  });

  test('every family of the table declares what it uses, without repeats', () => {
    for (const f of FAMILIES) {
      expect(f.needs.length, f.name).toBeGreaterThan(0);
      expect(new Set(f.needs).size, f.name).toBe(f.needs.length);
    }
  });
});
