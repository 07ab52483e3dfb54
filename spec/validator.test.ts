// ajv (the mock's parameter parsing, self-check and --data loading) reads the spec's
// nullable forms as the spec means them, the nullable $ref (`anyOf` [Region, NullValue])
// and the `NO-ID` player uuid included.
import { describe, expect, it } from 'vitest';
import { loadSpec } from './load.ts';
import { SchemaValidator } from './validator.ts';

const doc = loadSpec();
const validateServer = new SchemaValidator(doc).compileRef('#/components/schemas/Server');
const gaps =
  doc.paths['/servers/find']!.get.responses['200'].content['application/json'].examples.gaps.value.results[0];
const row = (over: Record<string, unknown>) => ({ ...gaps, ...over });

describe('the real-world gaps against ajv', () => {
  it('a row with every gap is valid, and so are its located variants', () => {
    expect(validateServer(gaps)).toBe(true);
    expect(validateServer(row({ region: 'EU', country: 'Germany', country_code: 'DE' }))).toBe(true);
    expect(validateServer(row({ players: [{ uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5', name: 'Notch' }] }))).toBe(
      true,
    );
  });

  it('the nullable $ref still refuses what is neither a Region nor null', () => {
    for (const region of ['XX', 'null', '', 0, false])
      expect(validateServer(row({ region })), JSON.stringify(region)).toBe(false);
  });

  it('a uuid is a UUID or exactly NO-ID; the nullable fields still keep their type and pattern', () => {
    expect(validateServer(row({ players: [{ uuid: 'no-id', name: 'x' }] }))).toBe(false);
    expect(validateServer(row({ players: [{ uuid: null, name: 'x' }] }))).toBe(false);
    expect(validateServer(row({ asn_number: 'AS123' }))).toBe(false);
    expect(validateServer(row({ country_code: 'deu' }))).toBe(false);
    expect(validateServer(row({ motd: 5 }))).toBe(false);
  });
});
