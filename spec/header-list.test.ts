import { describe, expect, it } from 'vitest';
import { joinHeader, sameHeaderList } from './header-list.ts';

describe('joinHeader', () => {
  it('joins a repeated field with a comma, cookies with a semicolon, as Node and fetch do', () => {
    expect(joinHeader('accept', undefined, 'a')).toBe('a');
    expect(joinHeader('accept', 'a', 'b')).toBe('a, b');
    expect(joinHeader('cookie', 'x=1', 'y=2')).toBe('x=1; y=2');
  });
});

describe('sameHeaderList', () => {
  it('is the same list only string for string, case and order included', () => {
    expect(sameHeaderList(['Host', 'a'], ['Host', 'a'])).toBe(true);
    expect(sameHeaderList(undefined, undefined)).toBe(true);
    expect(sameHeaderList(['Host', 'a'], ['host', 'a'])).toBe(false);
    expect(sameHeaderList(['A', '1', 'B', '2'], ['B', '2', 'A', '1'])).toBe(false);
    expect(sameHeaderList(['Host', 'a'], ['Host', 'a', 'X', '1'])).toBe(false);
    expect(sameHeaderList(['Host', 'a'], undefined)).toBe(false);
  });
});
