// The project's one seeded PRNG and the draws built on it: the generator and the
// benchmark's query mix depend on its exact output, so a seed always means the same data.

/** A source of floats in [0, 1). */
export type Rng = () => number;

/** sfc32, seeded through splitmix32. Returns floats in [0, 1). */
export function createRng(seed: number): Rng {
  let s = seed >>> 0;
  const split = (): number => {
    s = (s + 0x9e3779b9) | 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = split();
  let b = split();
  let c = split();
  let d = split();
  // The state stays int32 (every step ends in `| 0`): uint32 values would not fit a small
  // integer and cost an allocation each time they are stored, tens of millions of times
  // for a big dataset. The output is the same: only the low 32 bits of each sum matter.
  a |= 0;
  b |= 0;
  c |= 0;
  d |= 0;
  const next = (): number => {
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return next;
}

/** An integer in [0, n). */
export const int = (rng: Rng, n: number): number => Math.floor(rng() * n);

export const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)] as T;

/**
 * Weighted draw over `[value, weight]` pairs, answering the entry's index:
 * built once, O(log n) and one rng() call per draw.
 */
export function weightedIndex(entries: readonly (readonly [unknown, number])[]): (rng: Rng) => number {
  const cum = new Float64Array(entries.length);
  let sum = 0;
  entries.forEach((e, i) => {
    sum += e[1];
    cum[i] = sum;
  });
  return (rng) => {
    const x = rng() * sum;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cum[mid] as number) > x) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
}
