// The odd requests real clients send, generated from the spec: each kind makes what it
// says on every operation it applies to, a request spelt otherwise names its plain twin,
// and the same seed makes the same requests.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EDGE_KINDS, edgeCases, type EdgeCase, type EdgeKind } from './edge-requests.ts';
import { loadModel } from './model.ts';

const model = loadModel();
const op = (id: string) => model.byId.get(id)!;
const ctx = { pathValues: { address: '203.0.113.7:25566', host: '203.0.113.7', port: '25566' } };
const sample = (id: string, kind: EdgeKind, seed = 1): EdgeCase[] =>
  fc.sample(edgeCases(model, op(id), kind, ctx)!, { seed, numRuns: 200 });
const entries = (c: EdgeCase) =>
  (c.path.split('?')[1] ?? '')
    .split('&')
    .filter(Boolean)
    .map((e) => e.split('=')[0]!);

describe('edgeCases', () => {
  it('applies each kind where the operation has what it touches', () => {
    const applies = (id: string) => EDGE_KINDS.filter((k) => edgeCases(model, op(id), k, ctx));
    expect(applies('findServers')).toEqual(['repeated', 'unicode', 'empty']);
    expect(applies('pingServer')).toEqual(['unicode', 'foreign', 'encoded']);
    expect(applies('listCountries')).toEqual(['repeated', 'unicode', 'empty', 'foreign']);
  });

  it('repeated: one query parameter of the operation, twice', () => {
    for (const c of sample('findServers', 'repeated')) {
      const names = entries(c);
      expect(
        names.filter((n, i) => names.indexOf(n) !== i),
        c.path,
      ).toHaveLength(1);
    }
  });

  it('unicode: a value holding 4-byte UTF-8 or control characters, in the query or the path', () => {
    const cases = [...sample('findServers', 'unicode'), ...sample('pingServerHostPort', 'unicode')];
    for (const c of cases) expect(c.path, c.path).toMatch(/%F0%[89A-F][0-9A-F]|%(0[0-9A-F]|1[0-9A-F]|7F)/);
    expect(cases.some((c) => /%F0%/.test(c.path))).toBe(true);
    expect(cases.some((c) => /%(00|01|1B|7F)/.test(c.path))).toBe(true);
    expect(cases.some((c) => c.path.startsWith('/status/ping/') && /%F0%/.test(c.path.split('/')[3]!))).toBe(true);
  });

  it('empty: parameters of the operation with an empty value or none at all', () => {
    for (const c of sample('listVersions', 'empty')) expect(c.path, c.path).toMatch(/[?&](version|limit)(=?)(&|$)/);
  });

  it('foreign: parameters only other operations of the spec take', () => {
    const mine = new Set(op('listCountries').parameters.map((p) => p.name));
    const theirs = new Set(
      model.operations.flatMap((o) => o.parameters.filter((p) => p.in === 'query').map((p) => p.name)),
    );
    const cases = sample('listCountries', 'foreign');
    const foreign = new Set(cases.flatMap((c) => entries(c).filter((n) => !mine.has(n))));
    expect([...foreign].every((n) => theirs.has(n))).toBe(true);
    expect(foreign.has('sort')).toBe(true);
    // Most requests carry most of them: the one that matters is among them, and shrinking finds it.
    expect(cases.filter((c) => entries(c).filter((n) => !mine.has(n)).length > 10).length).toBeGreaterThan(
      cases.length / 2,
    );
  });

  it("encoded: the plain request's twin with ':' or '.' percent-encoded, or a separator slipped in", () => {
    const cases = sample('pingServer', 'encoded');
    const twins = cases.filter((c) => c.same);
    for (const c of twins) {
      expect(c.same).toBe('/status/ping/203.0.113.7:25566');
      expect(decodeURIComponent(c.path)).toBe(c.same);
    }
    expect(twins.some((c) => /%3A/i.test(c.path))).toBe(true);
    expect(twins.some((c) => /%2e/.test(c.path))).toBe(true);
    expect(cases.some((c) => !c.same && /%(2F|3F|23|5C|3B|25)/.test(c.path))).toBe(true);
  });

  it('is repeatable from its seed', () => {
    for (const kind of ['repeated', 'unicode', 'empty'] as const) {
      expect(sample('findServers', kind, 7)).toEqual(sample('findServers', kind, 7));
      expect(sample('findServers', kind, 7)).not.toEqual(sample('findServers', kind, 8));
    }
  });
});
