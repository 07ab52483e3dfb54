// What the build works out ahead (scripts/build-mock.ts) is what a start would work out:
// the spec's document, and every validator the mock compiles at start, which answer
// every input as ajv compiling them at run time does (results, errors, and the values
// they coerce and default), checked on generated inputs.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fc from 'fast-check';
import type { ValidateFunction } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { compileOperations } from '../mocks/core/operations.ts';
import { ResponseChecker } from '../mocks/core/self-check/self-check.ts';
import { generatorFingerprint } from '../mocks/dataset/generator.ts';
import { parseSpec, SPEC_PATH } from '../spec/load.ts';
import { buildModel } from '../spec/model.ts';
import { createAjv, recordCompiled } from '../spec/validator.ts';
import { builtModules } from './build-mock.ts';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const text = readFileSync(SPEC_PATH, 'utf8');
const doc = parseSpec(text);
const modules = builtModules();

/** A generated module, imported as a bundle would run it (its requires resolve from the repository). */
async function load<T>(name: string, source: string): Promise<T> {
  const dir = join(REPO, 'node_modules/.cache/build-mock-test');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}-${process.pid}.mjs`);
  writeFileSync(file, source);
  return (await import(pathToFileURL(file).href)) as T;
}
afterAll(() => rmSync(join(REPO, 'node_modules/.cache/build-mock-test'), { recursive: true, force: true }));
const { BUILT_SPEC } = await load<{
  BUILT_SPEC: { sha256: string; json: string; validators: Record<string, ValidateFunction> };
}>('spec', modules['spec/built.ts']);

/** Values a query or path parameter may arrive with: the schema's edges, examples, junk. */
const paramValue = fc.oneof(
  fc.constantFrom(
    '',
    '0',
    '1',
    '-1',
    '2',
    '20',
    '50',
    '500',
    '501',
    '1e3',
    '0x10',
    ' 7',
    'abc',
    'true',
    'false',
    'off',
    '1.20*',
    'Paper*',
    'EU',
    'XX',
    'de',
    'users',
    'address',
    'asc',
    'desc',
    'a'.repeat(300),
    'play.x.net:25565',
    '::1',
    'key_abc123',
  ),
  fc.string(),
  fc.integer({ min: -10, max: 100_000 }).map(String),
);

describe('the build', () => {
  it("holds the spec's text hash and its document", () => {
    expect(BUILT_SPEC.sha256).toBe(createHash('sha256').update(text).digest('hex'));
    expect(JSON.parse(BUILT_SPEC.json)).toEqual(doc);
  });

  it('holds every validator a mock compiles at start, each answering as the run-time one does', () => {
    const compiled = recordCompiled(() => compileOperations(buildModel(doc)));
    expect(compiled.length).toBeGreaterThan(5);
    for (const c of compiled) {
      const built = BUILT_SPEC.validators[c.key];
      if (!built) throw new Error(`the build did not compile ${c.key} (${JSON.stringify(c.schema).slice(0, 200)})`);
      const runtime = createAjv(doc, c.options).compile(c.schema);
      const properties = Object.keys((c.schema as { properties?: object }).properties ?? {});
      const input = properties.length
        ? fc.record(Object.fromEntries(properties.map((p) => [p, paramValue])), { requiredKeys: [] })
        : fc.oneof(fc.jsonValue(), fc.dictionary(fc.constantFrom('name', 'expires_in_days', 'other'), fc.jsonValue()));
      fc.assert(
        fc.property(input, (value) => {
          // Coercion and defaults change the value: each validator gets a copy.
          const a = structuredClone(value);
          const b = structuredClone(value);
          expect(built(a)).toBe(runtime(b));
          expect(built.errors ?? null).toEqual(runtime.errors ?? null);
          expect(a).toEqual(b);
        }),
        { seed: 24, numRuns: 300 },
      );
    }
  });

  it("the library's build holds every validator the self-check compiles, each answering as at run time", async () => {
    const { BUILT_SPEC: library } = await load<{ BUILT_SPEC: { validators: Record<string, ValidateFunction> } }>(
      'library-spec',
      builtModules({ selfCheck: true })['spec/built.ts'],
    );
    const compiled = recordCompiled(() => new ResponseChecker(buildModel(doc)).compileAll());
    expect(compiled.length).toBeGreaterThan(5);
    // What the spec shows as answers (its examples), and any JSON.
    const examples: unknown[] = [];
    const walk = (node: unknown): void => {
      if (!node || typeof node !== 'object') return;
      for (const [k, v] of Object.entries(node)) {
        if (k === 'example') examples.push(v);
        if (k === 'examples' && v && typeof v === 'object')
          for (const e of Object.values(v)) if (e && typeof e === 'object' && 'value' in e) examples.push(e.value);
        walk(v);
      }
    };
    walk(doc);
    expect(examples.length).toBeGreaterThan(5);
    for (const c of compiled) {
      const built = library.validators[c.key];
      if (!built) throw new Error(`the build did not compile ${c.key} (${JSON.stringify(c.schema).slice(0, 200)})`);
      const runtime = createAjv(doc, c.options).compile(c.schema);
      fc.assert(
        fc.property(fc.oneof(fc.constantFrom(...examples), fc.jsonValue()), (value) => {
          expect(built(structuredClone(value))).toBe(runtime(structuredClone(value)));
          expect(built.errors ?? null).toEqual(runtime.errors ?? null);
        }),
        { seed: 24, numRuns: 100 },
      );
    }
  });

  it("knows the generator's fingerprint (a snapshot is checked without generating a sample)", async () => {
    const { BUILT_DATASETS } = await load<{ BUILT_DATASETS: { generator: string; dir: string } }>(
      'datasets',
      modules['mocks/dataset/built.ts'],
    );
    expect(BUILT_DATASETS.generator).toBe(generatorFingerprint());
    expect(BUILT_DATASETS.dir).toBe(join(REPO, 'node_modules/.cache/build-mock-test/datasets/'));
  });
});
