// The request generator: it reaches every operation and parameter of the spec, picks up
// a parameter added to the spec without a code change, is repeatable from its seed, and
// only makes requests every HTTP client library can send.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadSpec } from './load.ts';
import { buildModel, loadModel, type SpecModel } from './model.ts';
import { curlLine, requestArbitrary, type FuzzRequest } from './request-arbitraries.ts';

const model = loadModel();
const credentials = [
  { scheme: 'apiKey', value: 'sls_test_example' },
  { scheme: 'session', value: 'sess_test_example' },
];
const sample = (m: SpecModel, seed = 1, numRuns = 3000): FuzzRequest[] =>
  fc.sample(requestArbitrary(m, { credentials }), { seed, numRuns });
const queryNames = (reqs: FuzzRequest[]) =>
  new Set(reqs.flatMap((r) => [...new URLSearchParams(r.path.split('?')[1] ?? '').keys()]));

describe('requestArbitrary', () => {
  const reqs = sample(model);

  it('requests every operation of the spec with its own method, and every query parameter', () => {
    for (const op of model.operations) {
      const template = new RegExp(`^${model.basePath}${op.path.replace(/\{[^}]+\}/g, '[^/?]+')}(\\?|$)`);
      expect(
        reqs.some((r) => r.method === op.method && template.test(r.path)),
        op.operationId,
      ).toBe(true);
    }
    const names = queryNames(reqs);
    for (const p of model.operations.flatMap((o) => o.parameters.filter((x) => x.in === 'query')))
      expect(names.has(p.name), p.name).toBe(true);
  });

  it('fuzzes a parameter added to the spec, with no code change', () => {
    const doc = loadSpec();
    doc.paths['/servers/find']!.get.parameters.push({
      name: 'brandNew',
      in: 'query',
      schema: { type: 'integer', minimum: 3, maximum: 9 },
      example: 5,
      'x-provenance': 'assumed',
    });
    const names = queryNames(sample(buildModel(doc)));
    expect(names.has('brandNew')).toBe(true);
  });

  it('presents the credentials it was given, and broken ones', () => {
    expect(reqs.some((r) => r.headers.Authorization === 'Bearer sls_test_example')).toBe(true);
    expect(reqs.some((r) => r.headers.Cookie === `${model.cookieName}=sess_test_example`)).toBe(true);
    expect(reqs.some((r) => /sls_session=%($|;)/.test(r.headers.Cookie ?? ''))).toBe(true);
  });

  it('names a host of its own in some requests: other sites, loopback names, addresses', () => {
    const hosts = new Set(reqs.flatMap((r) => (r.host === undefined ? [] : [r.host])));
    expect(hosts.has('evil.test')).toBe(true);
    expect(hosts.has('localhost:5173')).toBe(true);
    expect(reqs.filter((r) => r.host === undefined).length).toBeGreaterThan(reqs.length * 0.9);
    expect(curlLine('http://127.0.0.1:4010', { method: 'GET', path: '/x', headers: {}, host: 'evil.test' })).toBe(
      `curl -i -X GET 'http://127.0.0.1:4010/x' -H 'Host: evil.test'`,
    );
  });

  it('is the same from the same seed', () => {
    expect(sample(model, 9, 50)).toEqual(sample(model, 9, 50));
  });

  it(
    'only makes requests any client can send: an ASCII request target, Latin-1 header values, no body on GET or ' +
      'HEAD',
    () => {
      for (const r of reqs) {
        expect(r.path).toMatch(/^\/[\x21-\x7e]*$/);
        for (const v of Object.values(r.headers)) expect(v).toMatch(/^[\t\x20-\x7e\x80-\xff]*$/);
        if (r.host !== undefined) expect(new URL(`http://${r.host}/`).host).toBeTruthy();
        if (r.method === 'GET' || r.method === 'HEAD') expect(r.body).toBeUndefined();
      }
    },
  );

  it('writes a curl line that quotes what the shell would otherwise read', () => {
    expect(
      curlLine('http://127.0.0.1:4010', {
        method: 'POST',
        path: '/x?a=1',
        headers: { Cookie: "it's" },
        body: '{"a":1}',
      }),
    ).toBe(`curl -i -X POST 'http://127.0.0.1:4010/x?a=1' -H 'Cookie: it'\\''s' --data-raw '{"a":1}'`);
  });
});
