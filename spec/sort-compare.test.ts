// The comparators of the sort orders: the mock sorts by them and the suite judges by
// them, so they are the mock's order (the pinned answers): numbers by value, text in
// code-unit order, versions numeric-aware and total, times as instants.
import { describe, expect, it } from 'vitest';
import { COMPARATORS, compareVersions } from './sort-compare.ts';

describe('compareVersions', () => {
  it('compareVersions is natural and total', () => {
    const sorted = [
      '1.9',
      '1.20.4',
      '1.8.8',
      '1.20',
      'Paper 1.21.1',
      'paper 1.9',
      '1.20-1.20.4',
      '1.21',
      'Velocity 3.3.0',
    ].sort(compareVersions);
    expect(sorted).toEqual([
      '1.8.8',
      '1.9',
      '1.20',
      '1.20-1.20.4',
      '1.20.4',
      '1.21',
      'paper 1.9',
      'Paper 1.21.1',
      'Velocity 3.3.0',
    ]);
    expect(compareVersions('1.20.4', '1.20.4')).toBe(0);
    expect(Math.sign(compareVersions('Paper 1.20', 'paper 1.20'))).toBe(-1);
  });
});

describe('COMPARATORS', () => {
  it('natural: numbers by value, text in code-unit order (upper case before lower), nothing else', () => {
    const { natural } = COMPARATORS;
    expect(Math.sign(natural(2, 10)!)).toBe(-1);
    expect(Math.sign(natural('10', '2')!)).toBe(-1);
    expect(Math.sign(natural('Zeta', 'alpha')!)).toBe(-1);
    expect(natural('a', 'a')).toBe(0);
    expect(natural(null, 'a')).toBeUndefined();
    expect(natural(1, '1')).toBeUndefined();
  });

  it('version: numeric-aware text, numbers by value', () => {
    const { version } = COMPARATORS;
    expect(Math.sign(version('1.9', '1.20.4')!)).toBe(-1);
    expect(Math.sign(version(3, 20)!)).toBe(-1);
    expect(version('1.9', null)).toBeUndefined();
  });

  it('time: instants, however written; text that is no time cannot be compared', () => {
    const { time } = COMPARATORS;
    expect(Math.sign(time('2026-01-02T00:00:00Z', '2026-01-01T23:00:00-02:00')!)).toBe(-1);
    expect(time('2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00Z')).toBe(0);
    expect(time('2 hours ago', '2026-01-01T00:00:00Z')).toBeUndefined();
  });
});
