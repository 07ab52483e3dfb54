// Reads spec/openapi.yaml and follows its local `$ref`s. What the document means
// (operations, security, limits) is worked out once, in spec/model.ts.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as JsYaml from 'js-yaml';
import { BUILT_SPEC } from './built.ts';

// '../spec/' rather than './': the same line also resolves from the bundled mock in dist/.
export const SPEC_PATH = fileURLToPath(new URL('../spec/openapi.yaml', import.meta.url));

/** The parts of an OpenAPI 3.0 document this project reads; loose on purpose. */
export interface OpenApiDoc {
  openapi: string;
  info: Record<string, unknown>;
  servers?: { url: string; description?: string }[];
  paths: Record<string, Record<string, any>>;
  components: {
    schemas: Record<string, any>;
    parameters?: Record<string, any>;
    responses?: Record<string, any>;
    headers?: Record<string, any>;
    securitySchemes?: Record<string, any>;
  };
  [key: string]: unknown;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

// js-yaml parses this document in ~15 ms where `yaml` takes ~95 ms; loaded only when a
// document is parsed (a bundle built from this very text has it parsed already: spec/built.ts).
let yaml: typeof JsYaml | undefined;
export const jsYaml = (): typeof JsYaml => (yaml ??= createRequire(import.meta.url)('js-yaml') as typeof JsYaml);

/** Documents parsed by the build from this very text: their validators are compiled already. */
const builtDocs = new WeakSet<object>();
export const isBuiltDoc = (doc: object): boolean => builtDocs.has(doc);

export function loadSpec(path: string = SPEC_PATH): OpenApiDoc {
  const text = readFileSync(path, 'utf8');
  if (BUILT_SPEC && createHash('sha256').update(text).digest('hex') === BUILT_SPEC.sha256) {
    const doc = JSON.parse(BUILT_SPEC.json) as OpenApiDoc;
    builtDocs.add(doc);
    return doc;
  }
  return parseSpec(text);
}

/** A document from its YAML (or JSON) text. */
export function parseSpec(text: string): OpenApiDoc {
  return jsYaml().load(text) as OpenApiDoc;
}

/** Follows one local `$ref` (`#/a/b/c`) inside the document; returns other values unchanged. */
export function deref<T = any>(doc: OpenApiDoc, value: any): T {
  let current = value;
  // Made only for a ref: most values handed here are not one.
  let seen: Set<string> | undefined;
  while (current && typeof current === 'object' && typeof current.$ref === 'string') {
    const ref: string = current.$ref;
    seen ??= new Set();
    if (seen.has(ref)) throw new Error(`circular $ref ${ref}`);
    seen.add(ref);
    current = resolvePointer(doc, ref);
  }
  return current as T;
}

/**
 * The refs followed while a model is built (`whileBuilding`), to their targets: a build
 * follows the same few refs hundreds of times, each a split and a string per segment, and
 * the document does not change meanwhile. (Not kept past the build: a caller may change a
 * document it built a model from.)
 */
let followed: { doc: unknown; targets: Map<string, any> } | undefined;

/** Runs `build` with the refs of `doc` it follows remembered until it returns. */
export function whileBuilding<T>(doc: unknown, build: () => T): T {
  const outer = followed;
  followed = { doc, targets: new Map() };
  try {
    return build();
  } finally {
    followed = outer;
  }
}

export function resolvePointer(doc: unknown, ref: string): any {
  const memo = followed !== undefined && followed.doc === doc ? followed.targets : undefined;
  const known = memo?.get(ref);
  if (known !== undefined) return known;
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported, got ${ref}`);
  let node: any = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = node?.[key];
    if (node === undefined) throw new Error(`$ref ${ref} points nowhere`);
  }
  memo?.set(ref, node);
  return node;
}
