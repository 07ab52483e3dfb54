// One ajv instance per document, with the whole document registered so that any
// `#/components/...` reference inside a schema resolves as it does in the spec. A bundle
// built from this very document (spec/built.ts) carries its validators compiled already,
// and then ajv itself is never loaded.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, Options, ValidateFunction } from 'ajv';
import { BUILT_SPEC } from './built.ts';
import { isBuiltDoc, type OpenApiDoc } from './load.ts';

export const DOC_ID = 'openapi.json';

export interface SchemaValidatorOptions {
  /** Coerce query/path strings to the schema's type ("20" -> 20). Only for parameters. */
  coerceTypes?: boolean;
  /** Fill in schema defaults. */
  useDefaults?: boolean;
  /** Collect every error (reports) or stop at the first (request validation: faster to compile and run). */
  allErrors?: boolean;
}

/** ajv with the document registered: what compiles here at run time, and what the build compiles ahead. */
export function createAjv(doc: OpenApiDoc, options: SchemaValidatorOptions, extra: Options = {}): Ajv {
  const { Ajv } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
  // ajv-formats is CommonJS with only a default export.
  const addFormats = createRequire(import.meta.url)('ajv-formats') as (ajv: Ajv) => Ajv;
  const ajv = new Ajv({
    // The document holds OpenAPI-only keywords (example, x-provenance, discriminator...):
    // strict mode would reject them, and they carry no validation meaning.
    strict: false,
    // The document is checked by `npm run spec:check`; meta-validating it again at every
    // start costs the mock tens of milliseconds.
    validateSchema: false,
    ...normalized(options),
    ...extra,
  });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, components: doc.components }, DOC_ID);
  return ajv;
}

const normalized = (o: SchemaValidatorOptions) => ({
  allErrors: o.allErrors ?? true,
  coerceTypes: o.coerceTypes ?? false,
  useDefaults: o.useDefaults ?? false,
});

/** What identifies a compiled validator: the options and the schema (within one document). */
export function validatorKey(options: SchemaValidatorOptions, schema: unknown): string {
  return `v_${createHash('sha256')
    .update(JSON.stringify([normalized(options), schema]))
    .digest('hex')
    .slice(0, 24)}`;
}

/** A schema compiled by `compile`, as the build records it (scripts/build-mock.ts). */
export interface Compiled {
  options: SchemaValidatorOptions;
  /** The schema with its refs pointing into the registered document. */
  schema: object;
  key: string;
}
let recording: Compiled[] | undefined;

/** Runs `work` and lists every schema a SchemaValidator compiled meanwhile (for the build). */
export function recordCompiled(work: () => void): Compiled[] {
  recording = [];
  try {
    work();
    return recording;
  } finally {
    recording = undefined;
  }
}

export class SchemaValidator {
  private ajv: Ajv | undefined;
  private readonly built: Readonly<Record<string, ValidateFunction>> | undefined;

  constructor(
    private readonly doc: OpenApiDoc,
    private readonly options: SchemaValidatorOptions = {},
  ) {
    this.built = BUILT_SPEC && isBuiltDoc(doc) ? BUILT_SPEC.validators : undefined;
  }

  /** Compiles a schema that may hold `#/components/...` references. */
  compile(schema: unknown): ValidateFunction {
    const key = this.built || recording ? validatorKey(this.options, schema) : '';
    const built = this.built?.[key];
    if (built) return built;
    const rebased = rebase(schema) as object;
    recording?.push({ options: this.options, schema: rebased, key });
    return (this.ajv ??= createAjv(this.doc, this.options)).compile(rebased);
  }

  /** Compiles `#/components/schemas/<name>`. */
  compileRef(ref: string): ValidateFunction {
    return this.compile({ $ref: ref });
  }
}

/** Rewrites local refs (`#/components/...`) to point into the registered document. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] =
      key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `${DOC_ID}${value}` : rebase(value);
  }
  return out;
}

/** "must be integer" style messages, with the JSON path, for people. */
export function describeErrors(errors: ErrorObject[] | null | undefined, subject = 'value'): string {
  if (!errors?.length) return '';
  return errors
    .filter((e) => e.keyword !== 'if' && e.keyword !== 'allOf')
    .map((e) => {
      const where = e.instancePath ? `${subject}${e.instancePath.replace(/\//g, '.')}` : subject;
      if (e.keyword === 'enum')
        return (
          `${where} must be one of ` +
          `${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`
        );
      if (e.keyword === 'required')
        return `${where} must have property '${(e.params as { missingProperty: string }).missingProperty}'`;
      if (e.keyword === 'additionalProperties')
        return `${where} has unknown property '${(e.params as { additionalProperty: string }).additionalProperty}'`;
      return `${where} ${e.message}`;
    })
    .join('; ');
}
