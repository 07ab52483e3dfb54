// One ajv instance per document, with the whole document registered so that any
// `#/components/...` reference inside a schema resolves as it does in the spec.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { OpenApiDoc } from './load.ts';

// ajv-formats ships CommonJS with only a default export; under NodeNext that arrives
// as the module object, so take its `default` when there is one.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

const DOC_ID = 'openapi.json';

export interface SchemaValidatorOptions {
  /** Coerce query/path strings to the schema's type ("20" -> 20). Only for parameters. */
  coerceTypes?: boolean;
  /** Fill in schema defaults. */
  useDefaults?: boolean;
  /** Collect every error (reports) or stop at the first (request validation: faster to compile and run). */
  allErrors?: boolean;
}

export class SchemaValidator {
  private readonly ajv: Ajv;

  constructor(doc: OpenApiDoc, options: SchemaValidatorOptions = {}) {
    this.ajv = new Ajv({
      // The document holds OpenAPI-only keywords (example, x-provenance, discriminator...):
      // strict mode would reject them, and they carry no validation meaning.
      strict: false,
      // The document is checked by `npm run spec:check`; meta-validating it again at every
      // start costs the mock tens of milliseconds.
      validateSchema: false,
      allErrors: options.allErrors ?? true,
      coerceTypes: options.coerceTypes ?? false,
      useDefaults: options.useDefaults ?? false,
    });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: DOC_ID, components: doc.components }, DOC_ID);
  }

  /** Compiles a schema that may hold `#/components/...` references. */
  compile(schema: unknown): ValidateFunction {
    return this.ajv.compile(rebase(schema) as object);
  }

  /** Compiles `#/components/schemas/<name>`. */
  compileRef(ref: string): ValidateFunction {
    return this.ajv.compile({ $ref: `${DOC_ID}${ref}` });
  }
}

/** Rewrites local refs (`#/components/...`) to point into the registered document. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] = key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `${DOC_ID}${value}` : rebase(value);
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
      if (e.keyword === 'enum') return `${where} must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
      if (e.keyword === 'required') return `${where} must have property '${(e.params as { missingProperty: string }).missingProperty}'`;
      if (e.keyword === 'additionalProperties') return `${where} has unknown property '${(e.params as { additionalProperty: string }).additionalProperty}'`;
      return `${where} ${e.message}`;
    })
    .join('; ');
}
