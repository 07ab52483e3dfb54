// The origins of x-cors as patterns: what a pattern matches, what can never be a browser's
// Origin, and the origin the suite sends for a pattern.
import { describe, expect, it } from 'vitest';
import { exampleOrigin, originMatcher, originPatternProblem } from './cors-origins.ts';

describe('origin patterns', () => {
  it('a * matches any run but /, in any case; a lone * every origin', () => {
    const allowed = originMatcher(['http://localhost:*', 'https://*.example.test']);
    expect(allowed('http://localhost:5173')).toBe(true);
    expect(allowed('HTTP://LOCALHOST:3000')).toBe(true);
    expect(allowed('https://app.example.test')).toBe(true);
    expect(allowed('http://localhost:5173.evil.test/x')).toBe(false);
    expect(allowed('https://example.test')).toBe(false);
    expect(originMatcher(['*'])('https://anything.test')).toBe(true);
  });

  it('names what a browser Origin never has: a path, a trailing slash, no scheme', () => {
    expect(originPatternProblem('http://localhost:*')).toBeUndefined();
    expect(originPatternProblem('null')).toBeUndefined();
    expect(originPatternProblem('http://localhost:5173/')).toMatch(/has a path.*use http:\/\/localhost:5173$/);
    expect(originPatternProblem('localhost:5173')).toMatch(/is not an origin: write scheme:\/\/host/);
  });

  it('stands a page origin for a pattern, which the pattern allows', () => {
    for (const [pattern, origin] of [
      ['http://localhost:*', 'http://localhost:5173'],
      ['http://*.myproj.test:*', 'http://app.myproj.test:5173'],
      ['https://app.example.test', 'https://app.example.test'],
    ] as const) {
      expect(exampleOrigin(pattern)).toBe(origin);
      expect(originMatcher([pattern])(origin)).toBe(true);
    }
  });
});
