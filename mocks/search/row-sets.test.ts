// Row sets against the obvious answers: postings, value sets, ranges of a sorted order
// (checkpoints plus the bits after them), the counting intersection and the cache bound.
import { describe, expect, it } from 'vitest';
import { createRng, int } from '../dataset/rng.ts';
import { bitsOfValues, hasBit, intersectAndCount, OrderRanges, popcount32, postings, wordsFor } from './row-sets.ts';

const members = (bits: Uint32Array, n: number): number[] =>
  Array.from({ length: n }, (_, i) => i).filter((i) => hasBit(bits, i));

function shuffled(n: number, seed: number): Uint32Array {
  const rng = createRng(seed);
  const order = Uint32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = int(rng, i + 1);
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order;
}

describe('row sets', () => {
  it('popcount32 counts every bit pattern it is given', () => {
    const rng = createRng(1);
    for (let k = 0; k < 2000; k++) {
      const x = (rng() * 2 ** 32) >>> 0;
      expect(popcount32(x)).toBe(
        x
          .toString(2)
          .split('')
          .filter((c) => c === '1').length,
      );
    }
    expect(popcount32(0xffffffff)).toBe(32);
  });

  it('postings group rows by value; a value set holds exactly the rows of its values', () => {
    const rng = createRng(2);
    const n = 5003;
    const ids = Uint16Array.from({ length: n }, () => int(rng, 300));
    const p = postings(ids, 300);
    for (const values of [[0], [7, 299], [], [1, 2, 3, 4, 5]]) {
      const want = Array.from({ length: n }, (_, i) => i).filter((i) => values.includes(ids[i] as number));
      expect(members(bitsOfValues(p, values, n), n)).toEqual(want);
    }
  });

  it('ranges of a sorted order are exactly the rows at those positions, across checkpoints', () => {
    for (const n of [1, 31, 32, 33, 100, 1000, 2048, 70_001]) {
      const order = shuffled(n, n);
      const ranges = new OrderRanges(order, 16);
      const out = new Uint32Array(wordsFor(n));
      const spare = new Uint32Array(wordsFor(n));
      const rng = createRng(n);
      const cases: [number, number][] = [
        [0, n],
        [0, 0],
        [n, n],
        [0, Math.floor(n / 2)],
        [Math.floor(n / 3), n],
      ];
      for (let k = 0; k < 20; k++) {
        const a = int(rng, n + 1);
        cases.push([a, a + int(rng, n - a + 1)]);
      }
      for (const [a, b] of cases) {
        const want = Array.from(order.subarray(a, b)).sort((x, y) => x - y);
        expect(members(ranges.range(a, b, out, spare), n), `n=${n} [${a}, ${b})`).toEqual(want);
      }
    }
  });

  it('intersectAndCount: the intersection of any number of sets, its size and how many are marked', () => {
    const rng = createRng(4);
    const n = 4099;
    const random = () => {
      const s = new Uint32Array(wordsFor(n));
      for (let i = 0; i < n; i++) if (rng() < 0.6) s[i >>> 5] = (s[i >>> 5] as number) | (1 << (i & 31));
      return s;
    };
    const marked = random();
    for (let k = 1; k <= 6; k++) {
      const sets = Array.from({ length: k }, random);
      const out = new Uint32Array(wordsFor(n));
      const got = intersectAndCount(sets, marked, out);
      const want = Array.from({ length: n }, (_, i) => i).filter((i) => sets.every((s) => hasBit(s, i)));
      expect(members(out, n)).toEqual(want);
      expect(got).toEqual({ members: want.length, marked: want.filter((i) => hasBit(marked, i)).length });
    }
  });
});
