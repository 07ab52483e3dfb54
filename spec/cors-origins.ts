// The origins of `x-cors` as patterns (`http://localhost:*`): what a browser's `Origin`
// header is compared with, by the mock deciding whom to grant and by the judges deciding
// what an answer owes, and an origin a pattern stands for, for the suite to send. An
// origin is `scheme://host[:port]`, never a path: a browser's `Origin` never has one.
import { wildcardMatcher } from './wildcard.ts';

/** Why a pattern can never equal a browser's Origin, if it cannot (a path, a trailing slash, no scheme). */
export function originPatternProblem(pattern: string): string | undefined {
  if (pattern === '*' || pattern === 'null') return undefined;
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]+)(.*)$/i.exec(pattern);
  if (!m) return `'${pattern}' is not an origin: write scheme://host[:port], e.g. http://localhost:5173`;
  if (m[3] !== '') return `'${pattern}' has a path; a browser's Origin never does: use ${m[1]}://${m[2]}`;
  return undefined;
}

/**
 * A test of an Origin against patterns: `*` matches any run of characters except `/`,
 * case-insensitively; a lone `*` matches every origin. Linear in the Origin header, which
 * the client controls (no regex).
 */
export function originMatcher(patterns: readonly string[]): (origin: string) => boolean {
  if (patterns.includes('*')) return () => true;
  const tests = patterns.map((p) => wildcardMatcher(p, { whole: true, notAcross: '/' }));
  return (origin) => {
    const lower = origin.toLowerCase();
    return tests.some((t) => t(lower));
  };
}

/**
 * An origin the pattern allows, as a page would have it: a `*` port is 5173 (a dev
 * server's), any other `*` is `app` (`http://*.myproj.test:*` -> `http://app.myproj.test:5173`).
 */
export function exampleOrigin(pattern: string): string {
  return pattern.replace(/:\*$/, ':5173').replace(/\*/g, 'app');
}
