import { describe, expect, it } from 'vitest';
import { createRng, int, pick, weightedIndex, type Rng } from './rng.ts';

/** A picker of values by weightedIndex, as the generator uses it. */
const weighted = <T>(entries: readonly (readonly [T, number])[]) => {
  const index = weightedIndex(entries);
  return (rng: Rng): T => entries[index(rng)]![0];
};

/** A stand-in source that returns the given values in turn. */
const fixed = (...values: number[]): Rng => {
  let i = 0;
  return () => values[i++ % values.length]!;
};

describe('createRng', () => {
  it('gives the same sequence for the same seed, another for another seed', () => {
    const draw = (seed: number) => {
      const rng = createRng(seed);
      return Array.from({ length: 100 }, () => rng());
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(43)).not.toEqual(draw(42));
  });

  it('keeps the algorithm (sfc32 seeded via splitmix32): known first draws, in units of 2^-32', () => {
    // Every generated dataset depends on these: a change here changes every seed's servers.
    const first = (seed: number) => {
      const rng = createRng(seed);
      return Array.from({ length: 4 }, () => rng() * 4294967296);
    };
    expect(first(0)).toEqual([4004507919, 2784870557, 583645593, 1144939716]);
    expect(first(42)).toEqual([2784860155, 1560037678, 3290702580, 4065216088]);
    expect(first(0xffffffff)).toEqual([2529910156, 315115646, 3811551870, 3393375612]);
  });

  it('reads the seed as an unsigned 32-bit integer', () => {
    expect(createRng(-1)()).toBe(createRng(0xffffffff)());
    expect(createRng(2 ** 32 + 5)()).toBe(createRng(5)());
  });

  it('draws floats in [0, 1), spread over the whole range', () => {
    const rng = createRng(7);
    const buckets = new Array<number>(10).fill(0);
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < 100_000; i++) {
      const x = rng();
      if (x < min) min = x;
      if (x > max) max = x;
      buckets[Math.floor(x * 10)]!++;
    }
    expect(min).toBeGreaterThanOrEqual(0);
    expect(max).toBeLessThan(1);
    for (const b of buckets) expect(Math.abs(b - 10_000)).toBeLessThan(500);
  });
});

describe('int and pick', () => {
  it('map [0, 1) onto an index, never past the end', () => {
    expect(int(fixed(0), 5)).toBe(0);
    expect(int(fixed(0.999999), 5)).toBe(4);
    expect(pick(fixed(0), ['a', 'b', 'c'])).toBe('a');
    expect(pick(fixed(0.5), ['a', 'b', 'c'])).toBe('b');
    expect(pick(fixed(0.999999), ['a', 'b', 'c'])).toBe('c');
  });
});

describe('weightedIndex', () => {
  it('splits [0, 1) into spans as wide as the weights', () => {
    const w = weighted([
      ['a', 1],
      ['b', 2],
      ['c', 1],
    ] as const);
    expect(w(fixed(0))).toBe('a');
    expect(w(fixed(0.24))).toBe('a');
    expect(w(fixed(0.25))).toBe('b');
    expect(w(fixed(0.74))).toBe('b');
    expect(w(fixed(0.75))).toBe('c');
    expect(w(fixed(0.999999))).toBe('c');
  });

  it('never picks a value of weight 0, and a single entry always', () => {
    const w = weighted([
      ['a', 1],
      ['never', 0],
      ['b', 1],
    ] as const);
    const rng = createRng(3);
    const seen = new Set(Array.from({ length: 10_000 }, () => w(rng)));
    expect(seen).toEqual(new Set(['a', 'b']));
    expect(weighted([['only', 5]] as const)(createRng(1))).toBe('only');
  });

  it('draws in proportion to the weights (fractional weights too)', () => {
    const w = weighted([
      ['x', 0.5],
      ['y', 1.5],
      ['z', 8],
    ] as const);
    const rng = createRng(11);
    const counts = { x: 0, y: 0, z: 0 };
    const n = 100_000;
    for (let i = 0; i < n; i++) counts[w(rng)]++;
    expect(counts.x / n).toBeCloseTo(0.05, 2);
    expect(counts.y / n).toBeCloseTo(0.15, 2);
    expect(counts.z / n).toBeCloseTo(0.8, 2);
  });
});
