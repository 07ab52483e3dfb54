// Closing Dredd's OpenAPI 3 type hole: Gavel, Dredd's validator, only checks that the
// example's keys are present unless it is given a body schema; the replay gives it the
// spec's own, converted to draft-07 (spec/json-schema.ts). Shown on exactly what Dredd runs.
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import { toJsonSchema } from '../../spec/json-schema.ts';
import { loadSpec } from '../../spec/load.ts';

const doc = loadSpec();
const gavel = createRequire(import.meta.url)('gavel') as {
  validate(expected: object, real: object): { valid: boolean };
};

describe("closing Dredd's type hole", () => {
  const row = { displayed: 1, total: 1, results: [{ port: 'x' }] };
  const example = JSON.stringify({ displayed: 1, total: 1, results: [{ port: 25565 }] });
  const real = { statusCode: '200', headers: { 'content-type': 'application/json' }, body: JSON.stringify(row) };

  test('Gavel with only the example (what Dredd does for OpenAPI 3) lets "port": "x" through', () => {
    expect(
      gavel.validate({ statusCode: '200', headers: { 'content-type': 'application/json' }, body: example }, real).valid,
    ).toBe(true);
  });

  test('with the spec schema as bodySchema, Gavel rejects it', () => {
    const bodySchema = toJsonSchema(doc, { $ref: '#/components/schemas/FindResponse' });
    expect(gavel.validate({ statusCode: '200', headers: {}, body: example, bodySchema }, real).valid).toBe(false);
  });

  test('$refs are inlined, nullable becomes a null type, OpenAPI-only keys and formats go', () => {
    const schema = toJsonSchema(doc, { $ref: '#/components/schemas/ServerCore' });
    expect(JSON.stringify(schema)).not.toMatch(/\$ref|nullable|x-provenance|"example"/);
    expect(schema.properties.city.type).toEqual(['string', 'null']);
    expect(JSON.stringify(schema.properties.region)).toContain('"EU"');
    // `format: password` marks the new key's secret; ajv 6 (Gavel) would throw on it.
    const created = toJsonSchema(doc, { $ref: '#/components/schemas/CreatedApiKey' });
    expect(JSON.stringify(created)).not.toContain('"format":"password"');
    const key = {
      success: true,
      key: {
        id: 'key_abcdef',
        name: null,
        prefix: 'sls_test_9f2c',
        created_at: '2026-01-01T00:00:00Z',
        expires_at: null,
        last_used_at: null,
        secret: `sls_test_${'a'.repeat(40)}`,
      },
    };
    const answer = { statusCode: '201', headers: { 'content-type': 'application/json' }, body: JSON.stringify(key) };
    expect(
      gavel.validate({ statusCode: '201', headers: {}, body: answer.body, bodySchema: created }, answer).valid,
    ).toBe(true);
  });

  // Real rows hold nulls and odd values (the spec's "gaps" example); `region` is a
  // nullable $ref, written as anyOf [Region, NullValue] since OpenAPI 3.0 allows no
  // `nullable` beside a $ref. Gavel (what Dredd runs) must read it as the spec means it.
  test('the real-world gaps pass Gavel with the converted schema; a wrong region or uuid does not', () => {
    const bodySchema = toJsonSchema(doc, { $ref: '#/components/schemas/FindResponse' });
    const gaps = doc.paths['/servers/find']!.get.responses['200'].content['application/json'].examples.gaps.value;
    const check = (body: unknown) =>
      gavel.validate(
        { statusCode: '200', headers: {}, body: JSON.stringify(body), bodySchema },
        { statusCode: '200', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
      ).valid;
    const withRow = (over: Record<string, unknown>) => ({ ...gaps, results: [{ ...gaps.results[0], ...over }] });
    expect(gaps.results[0].region).toBeNull();
    expect(check(gaps)).toBe(true);
    expect(check(withRow({ region: 'EU' }))).toBe(true);
    expect(check(withRow({ region: 'XX' }))).toBe(false);
    expect(check(withRow({ region: 'null' }))).toBe(false);
    expect(check(withRow({ players: [{ uuid: 'not-a-uuid', name: 'Steve' }] }))).toBe(false);
    expect(check(withRow({ country_code: 'xx' }))).toBe(false);
  });

  test('--provenance interface cuts softer parts, and their required entries', () => {
    const schema = toJsonSchema(doc, { $ref: '#/components/schemas/FindResponse' }, 'interface');
    expect(schema.properties).toBeUndefined();
    const unauthorized = toJsonSchema(
      doc,
      doc.components.responses!.Unauthorized.content['application/json'].schema,
      'interface',
    );
    expect(JSON.stringify(unauthorized)).toContain('Unauthorized: Invalid API key or session');
  });
});
