// Negative values come from the schema alone, so a new parameter is covered without code.
import { describe, expect, test } from 'vitest';
import { loadModel } from '../../spec/model.ts';
import { badValues } from './negative.ts';

const model = loadModel();
const param = (op: string, name: string) => model.byId.get(op)!.parameters.find((p) => p.name === name)!;

describe('badValues', () => {
  test('an integer: a wrong type, below its minimum, above its maximum', () => {
    const limit = param('findServers', 'limit');
    expect(badValues(limit.schema, limit.example, { inQuery: true })).toEqual([
      { value: 'abc', breaks: 'not an integer' },
      { value: '0', breaks: 'below minimum 1' },
      { value: '501', breaks: 'above maximum 500' },
    ]);
  });

  test('an enum (behind a $ref): a value of the same shape outside it', () => {
    const region = param('findServers', 'region');
    expect(badValues(region.schema, region.example, { inQuery: true })).toEqual([
      { value: 'ZZ', breaks: 'not one of NA, EU, AS, SA, AF, OC, AN' },
    ]);
  });

  test('a pattern: the example made invalid (a bad character, port 0, a port too high)', () => {
    const address = param('pingServer', 'address');
    const host = String(address.example).replace(/:25565$/, '');
    expect(badValues(address.schema, address.example, { inQuery: false }).map((b) => b.value)).toEqual([
      `${host}:25565!`,
      `${host}:0`,
      `${host}:99999`,
      'x'.repeat(260),
    ]);
  });

  test('a boolean, a maxLength; no empty string in a query (it means "left out")', () => {
    expect(badValues({ type: 'boolean' }, false, { inQuery: true })).toEqual([
      { value: 'maybe', breaks: 'not a boolean' },
    ]);
    expect(badValues({ type: 'string', minLength: 1, maxLength: 3 }, 'ab', { inQuery: true })).toEqual([
      { value: 'xxxx', breaks: 'longer than maxLength 3' },
    ]);
    expect(badValues({ type: 'string', minLength: 1 }, 'ab', { inQuery: false, inBody: true })).toEqual([
      { value: 123, breaks: 'not a string' },
      { value: '', breaks: 'shorter than minLength 1' },
    ]);
  });

  test('a body property gets JSON values: numbers stay numbers', () => {
    expect(
      badValues({ type: 'integer', minimum: 1, maximum: 365 }, 90, { inQuery: false, inBody: true }).map(
        (b) => b.value,
      ),
    ).toEqual(['abc', 0, 366]);
  });
});
