// The wildcard matcher: the same answers as the regex it replaced, in linear time (the
// mock's filters over HTTP on such patterns: mocks/search/filters.test.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wildcardMatcher } from './wildcard.ts';

/** The regex semantics the matcher must keep (fine on short inputs, exponential on hostile ones). */
function reference(pattern: string, whole: boolean, notAcross?: string): (v: string) => boolean {
  const any = notAcross === undefined ? '[\\s\\S]*' : `[^${notAcross}]*`;
  const body = pattern
    .toLowerCase()
    .split('*')
    .map((s) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'))
    .join(any);
  const re = new RegExp(whole || notAcross !== undefined ? `^${body}$` : body);
  return (v) => re.test(v);
}

// A small alphabet makes overlaps, repeats and near-misses common.
const text = fc.string({ unit: fc.constantFrom('a', 'b', '*', '/', '.'), maxLength: 12 });
const value = fc.string({ unit: fc.constantFrom('a', 'b', '/', '.'), maxLength: 16 });

describe('wildcardMatcher', () => {
  it('agrees with the regex it replaced: whole value, substring, and stars that stop at a separator', () => {
    fc.assert(
      fc.property(
        text,
        value,
        fc.constantFrom<[boolean, string | undefined]>([true, undefined], [false, undefined], [true, '/']),
        (pattern, v, [whole, notAcross]) => {
          const options = notAcross === undefined ? { whole } : { whole, notAcross };
          expect(wildcardMatcher(pattern, options)(v)).toBe(reference(pattern, whole, notAcross)(v));
        },
      ),
      { seed: 8, numRuns: 3000 },
    );
  });

  it('is case-insensitive in the pattern and literal everywhere but the star', () => {
    expect(wildcardMatcher('PAPER*', { whole: true })('paper 1.21.1')).toBe(true);
    expect(wildcardMatcher('1.2?.*', { whole: true })('1.20.4')).toBe(false);
    expect(wildcardMatcher('(a+)+$', { whole: false })('x(a+)+$y')).toBe(true);
    expect(wildcardMatcher('a*b', { whole: true })('ab')).toBe(true);
    expect(wildcardMatcher('a*a', { whole: true })('a')).toBe(false);
    expect(wildcardMatcher('', { whole: false })('anything')).toBe(true);
  });

  it('answers at once for many stars against a long value that does not match', () => {
    // A backtracking regex needs about n^k steps here (n = 100,000, k = 20 stars).
    const hostile = `${'*a'.repeat(20)}*b`;
    const long = 'a'.repeat(100_000);
    expect(wildcardMatcher(hostile, { whole: true })(long)).toBe(false);
    expect(wildcardMatcher(hostile, { whole: false })(long)).toBe(false);
    expect(wildcardMatcher(hostile, { whole: false })(`${long}b`)).toBe(true);
    const origin = `http://${'a:'.repeat(4000)}`;
    expect(wildcardMatcher('http://*:*:*:*:*:*:*:*b', { whole: true, notAcross: '/' })(origin)).toBe(false);
  });
});
