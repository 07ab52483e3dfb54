// How a sort order of `x-meaning` (rule `sort`) compares its field, one comparator per
// `compare` kind: the mock sorts its rows with them (mocks/dataset/sort-orders.ts, which
// takes faster routes to the same order for numbers, times and the address) and the
// contract suite judges whether rows come in that order with them. The mock's order is
// the one the pinned answers hold, so these are its comparisons: text in code-unit
// order, versions numeric-aware.
import type { Comparison } from './meaning.ts';

/** An ascending comparison of two field values; undefined when they cannot be compared (a null, a wrong type). */
export type Comparator = (a: unknown, b: unknown) => number | undefined;

type Token = number | string;
function tokens(v: string): Token[] {
  const out: Token[] = [];
  const re = /(\d+)|(\D+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(v))) out.push(m[1] !== undefined ? Number(m[1]) : (m[2] as string).toLowerCase());
  return out;
}

/**
 * Natural, numeric-aware comparison: digit runs compare as numbers (1.20.4 > 1.9),
 * other runs case-insensitively; a number sorts before text; a prefix before a
 * longer value; exact code-unit order breaks what is left.
 */
export function compareVersions(a: string, b: string): number {
  const ta = tokens(a);
  const tb = tokens(b);
  const n = Math.min(ta.length, tb.length);
  for (let i = 0; i < n; i++) {
    const x = ta[i] as Token;
    const y = tb[i] as Token;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    if (typeof x === 'number') return -1;
    if (typeof y === 'number') return 1;
    return x < y ? -1 : 1;
  }
  if (ta.length !== tb.length) return ta.length - tb.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

const numbers = (a: unknown, b: unknown): number | undefined =>
  typeof a === 'number' && typeof b === 'number' && !Number.isNaN(a) && !Number.isNaN(b) ? a - b : undefined;

/** A timestamp as ms: ISO text parsed, a number taken as ms already. */
const ms = (v: unknown): number => (typeof v === 'string' ? Date.parse(v) : typeof v === 'number' ? v : NaN);

/** Each `compare` kind of a sort order. */
export const COMPARATORS: { readonly [K in Comparison]: Comparator } = {
  // Numbers by value, text in code-unit order (as `<` reads it).
  natural: (a, b) => {
    if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
    return numbers(a, b);
  },
  version: (a, b) => (typeof a === 'string' && typeof b === 'string' ? compareVersions(a, b) : numbers(a, b)),
  time: (a, b) => {
    const x = ms(a);
    const y = ms(b);
    return Number.isNaN(x) || Number.isNaN(y) ? undefined : x - y;
  },
};
