// What a bundle's build hands spec/load.ts and spec/validator.ts (spec/built.ts; here a
// stand-in) is used for exactly the text it was built from: the same bytes give the
// built document and its compiled validators; any other text is parsed and compiled.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { isBuiltDoc, loadSpec, parseSpec, SPEC_PATH } from './load.ts';
import { SchemaValidator, validatorKey } from './validator.ts';

const text = readFileSync(SPEC_PATH, 'utf8');
const schema = { type: 'object', properties: { limit: { type: 'integer', maximum: 5 } } };
const options = { coerceTypes: true, allErrors: false };
// A built validator that is easy to tell from ajv's: it accepts everything and counts its calls.
const builtCalls: unknown[] = [];
const builtValidator = Object.assign(
  (data: unknown) => {
    builtCalls.push(data);
    return true;
  },
  { errors: null },
);

// The stand-in for a build's module: the file's text hash, and a document
// that differs from the file's in one visible place.
const stand = vi.hoisted(() => ({ BUILT_SPEC: { sha256: '', json: '', validators: {} as Record<string, unknown> } }));
vi.mock('./built.ts', () => stand);
stand.BUILT_SPEC.sha256 = createHash('sha256').update(text).digest('hex');
stand.BUILT_SPEC.json = JSON.stringify({ ...parseSpec(text), 'x-built': true });
stand.BUILT_SPEC.validators[validatorKey(options, schema)] = builtValidator;

describe('the built spec', () => {
  it('the text it was built from gives the built document; another text is parsed', () => {
    const built = loadSpec();
    expect(built['x-built']).toBe(true);
    expect(isBuiltDoc(built)).toBe(true);
    const copy = join(mkdtempSync(join(tmpdir(), 'slm-built-')), 'openapi.yaml');
    writeFileSync(copy, `${text}\n# an edit\n`);
    const edited = loadSpec(copy);
    expect(edited['x-built']).toBeUndefined();
    expect(isBuiltDoc(edited)).toBe(false);
    expect(edited).toEqual(parseSpec(text));
    // A copy byte for byte the same is the same document.
    writeFileSync(copy, text);
    expect(loadSpec(copy)['x-built']).toBe(true);
  });

  it(
    'a built document gets the built validators; a parsed ' + 'one, and a schema the build did not compile, get ajv',
    () => {
      const built = new SchemaValidator(loadSpec(), options);
      expect(built.compile(schema)).toBe(builtValidator);
      const other = { ...schema, required: ['limit'] };
      expect(validatorKey(options, other)).not.toBe(validatorKey(options, schema));
      expect(built.compile(other)({ limit: '9' })).toBe(false);
      const parsed = new SchemaValidator(parseSpec(text), options);
      const compiled = parsed.compile(schema);
      expect(compiled).not.toBe(builtValidator);
      expect(compiled({ limit: '9' })).toBe(false);
      // Other options, other code: not the built one.
      expect(new SchemaValidator(loadSpec(), { ...options, allErrors: true }).compile(schema)).not.toBe(builtValidator);
      expect(builtCalls).toEqual([]);
    },
  );
});
