// Which operation a request is, as the mock's router reads it: the path the URL parser
// gives (dot segments resolved, some characters encoded), taken as it is when it is plain.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../model.ts';
import { pathOf, routeOf } from './route.ts';

/** What the URL parser makes of a target's path (a target it cannot parse: its path as sent). */
function parsed(target: string): string {
  try {
    return new URL(target, 'http://route.invalid').pathname;
  } catch {
    return target.split(/[?#]/)[0]!;
  }
}

// A small alphabet of what a path may hold: plain characters, dots, separators, escapes, and
// characters the parser encodes or reads as something else.
const target = fc
  .string({
    unit: fc.constantFrom(
      'a',
      'Z',
      '0',
      '-',
      '.',
      '/',
      '/',
      '%',
      '2',
      'e',
      '\\',
      ' ',
      '"',
      '{',
      '|',
      '~',
      'é',
      '?',
      '#',
      ';',
    ),
    maxLength: 16,
  })
  .map((s) => `/${s}`);

describe('pathOf', () => {
  it('is the path the URL parser gives, for any target (plain ones are taken as they are)', () => {
    fc.assert(
      fc.property(target, (t) => {
        expect(pathOf(t)).toBe(parsed(t));
      }),
      { numRuns: 5000 },
    );
  });

  it('resolves dot segments, a second slash first, escapes and a backslash as the parser does', () => {
    for (const t of [
      '/api/v0.1/servers/find?limit=5',
      '/api/v0.1/status/ping/play.example.com',
      '/api/v0.1/servers/../servers/find',
      '/api/v0.1/servers/./find',
      '/api/v0.1/servers/find/..',
      '/api/v0.1/servers/find/.',
      '/api/v0.1/servers/.../find',
      '//api/v0.1/servers/find',
      '/api/v0.1/servers/%2e%2e/find',
      '/api/v0.1\\servers\\find',
      '/api/v0.1/servers/f ind',
      '/api/v0.1/servers/find#x?y',
    ])
      expect(pathOf(t), t).toBe(parsed(t));
  });
});

describe('routeOf', () => {
  const model = loadModel();
  it('finds the operation, its path parameters, and the methods a path has', () => {
    expect(routeOf(model, 'GET', '/api/v0.1/servers/find?limit=5')).toMatchObject({
      kind: 'operation',
      op: { operationId: 'findServers' },
    });
    expect(routeOf(model, 'HEAD', '/api/v0.1/servers/%66ind')).toMatchObject({ op: { operationId: 'findServers' } });
    expect(routeOf(model, 'get', '/api/v0.1/servers/find')).toMatchObject({ op: { operationId: 'findServers' } });
    expect(routeOf(model, 'GET', '/api/v0.1/status/ping/play.example.com')).toMatchObject({
      kind: 'operation',
      path: { address: 'play.example.com' },
    });
    expect(routeOf(model, 'DELETE', '/api/v0.1/servers/find')).toEqual({
      kind: 'wrong-method',
      template: '/servers/find',
      allowed: ['GET'],
    });
    expect(routeOf(model, 'OPTIONS', '/api/v0.1/servers/find')).toEqual({
      kind: 'preflight',
      template: '/servers/find',
      allowed: ['GET'],
    });
    expect(routeOf(model, 'OPTIONS', '/api/v0.1/nowhere')).toEqual({ kind: 'preflight', allowed: [] });
    expect(routeOf(model, 'GET', '/api/v0.1/nowhere')).toEqual({ kind: 'unknown-path' });
    expect(routeOf(model, 'GET', '/api/v0.1/')).toEqual({ kind: 'outside-api' });
    for (const t of [
      '/api/v0.1/servers/find/',
      '/api/v0.1/servers//find',
      '/api/v0.1/Servers/Find',
      '//api/v0.1/servers/find',
    ])
      expect(routeOf(model, 'GET', t).kind, t).not.toBe('operation');
  });
});
