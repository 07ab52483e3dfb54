// What the HTTP layer adds to each operation of the spec model: its Hono route, a
// parameter parser (ajv, compiled once, with coercion and the schemas' defaults) and
// its body validator. Add a parameter to the spec and it is parsed, coerced and
// validated without a code change; what the operation means stays in spec/model.ts.
import { eachQueryPair } from '../../spec/query-pairs.ts';
import type { ValidateFunction } from 'ajv';
import type { Operation, Parameter, SpecModel } from '../../spec/model.ts';
import { anyCaseWords } from '../../spec/rules.ts';
import { describeErrors, SchemaValidator } from '../../spec/validator.ts';
import { printable } from './printable.ts';

export interface CompiledOperation {
  op: Operation;
  /** Full path with the base and Hono's `:param` syntax. */
  routePath: string;
  parseParams(rawQuery: string, pathParams: Record<string, string>): ParamResult;
  validateBody?: ValidateFunction;
}

/** The parameters as read; `unknown`: query parameters the operation does not have, as sent (for the journal). */
export type ParamResult = (
  | { ok: true; query: Record<string, any>; path: Record<string, any> }
  | { ok: false; message: string }
) & { unknown?: string[] };

interface ParamGroup {
  where: 'query' | 'path';
  params: Map<string, Parameter>;
  validate: ValidateFunction;
  /** Per parameter whose words any case of a value matches (spec/rules.ts anyCaseWords): lower-cased -> as written. */
  anyCase: Map<string, ReadonlyMap<string, string>>;
}

function compileGroup(validator: SchemaValidator, where: 'query' | 'path', params: Parameter[]): ParamGroup {
  const own = params.filter((p) => p.in === where);
  const schema = {
    type: 'object',
    properties: Object.fromEntries(own.map((p) => [p.name, p.schema])),
    required: own.filter((p) => p.required).map((p) => p.name),
  };
  // Most operations have no path (or no query) parameters: nothing to compile.
  const validate = own.length
    ? validator.compile(schema)
    : (Object.assign(() => true, { errors: null }) as unknown as ValidateFunction);
  // `region=eu` is `EU`: such a value is read as the spec writes it, before it is validated.
  const anyCase = new Map(
    own.flatMap((p) => {
      const words = anyCaseWords(p);
      return words ? [[p.name, words] as const] : [];
    }),
  );
  return { where, params: new Map(own.map((p) => [p.name, p])), validate, anyCase };
}

/** Turns the first ajv error into "query parameter 'limit' must be integer". */
function paramError(group: ParamGroup, values: Record<string, unknown>): string {
  const err = group.validate.errors?.[0];
  if (!err) return `${group.where} parameters are invalid`;
  const name =
    err.keyword === 'required'
      ? (err.params as { missingProperty: string }).missingProperty
      : (err.instancePath.split('/')[1] ?? '');
  const label = `${group.where} parameter '${name}'`;
  if (err.keyword === 'required') return `${label} is required`;
  if (err.keyword === 'pattern') {
    // A regex says little to a person: the schema's description says what is expected
    // (written to follow "must be"), and the parameter's example shows one.
    const p = group.params.get(name);
    const shape = typeof p?.schema.description === 'string' ? `${p.schema.description.replace(/\.$/, '')}, ` : '';
    const like =
      p?.example !== undefined ? `like ${JSON.stringify(String(p.example))}` : 'like the examples in the spec';
    return `${label} must be ${shape}${like}; got ${printable(JSON.stringify(String(values[name])))}`;
  }
  return describeErrors([{ ...err, instancePath: '' }], label);
}

/** Reads the query into `out`; returns the names of parameters the operation does not have (undefined: none). */
function parseQuery(group: ParamGroup, rawQuery: string, out: Record<string, unknown>): string[] | undefined {
  if (!rawQuery) return undefined;
  let unknown: string[] | undefined;
  let empty: Set<string> | undefined;
  eachQueryPair(rawQuery, (name, value) => {
    if (!group.params.has(name)) {
      // Ignored, as the real service does; the journal says so (core/journal/findings.ts).
      if (!unknown?.includes(name)) (unknown ??= []).push(name);
      return;
    }
    // The first value wins when a parameter is repeated; real clients send `motd=&version=`
    // for unused filters: empty means "no filter".
    if (name in out || empty?.has(name)) return;
    if (value === '') {
      (empty ??= new Set()).add(name);
      return;
    }
    out[name] = group.anyCase.get(name)?.get(value.toLowerCase()) ?? value;
  });
  return unknown;
}

/** The operation's Hono route: the full path, its parameters in Hono's `:param` syntax. */
export function routePathOf(model: SpecModel, op: Operation): string {
  return model.basePath + op.path.replace(/\{([^}]+)\}/g, ':$1');
}

/**
 * What compiles one operation of `model` (its parameter groups and body validator), the
 * validators shared: a mock made per test (createMock) compiles an operation on its first
 * request (core/app.ts), a server every operation at start.
 */
export function operationCompiler(model: SpecModel): (op: Operation) => CompiledOperation {
  // One ajv per option set; answers name only the first error, so stop at it.
  const paramValidator = new SchemaValidator(model.doc, { coerceTypes: true, useDefaults: true, allErrors: false });
  const bodyValidator = new SchemaValidator(model.doc, { allErrors: false });
  return (op) => {
    const query = compileGroup(paramValidator, 'query', op.parameters);
    const pathGroup = compileGroup(paramValidator, 'path', op.parameters);
    return {
      op,
      routePath: routePathOf(model, op),
      ...(op.requestBody ? { validateBody: bodyValidator.compile(op.requestBody.schema ?? {}) } : {}),
      parseParams(rawQuery, pathParams) {
        const q: Record<string, unknown> = {};
        const unknown = parseQuery(query, rawQuery, q);
        const extra = unknown ? { unknown } : {};
        if (!query.validate(q)) return { ok: false, message: paramError(query, q), ...extra };
        const p: Record<string, unknown> = { ...pathParams };
        if (!pathGroup.validate(p)) return { ok: false, message: paramError(pathGroup, p), ...extra };
        return { ok: true, query: q, path: p, ...extra };
      },
    };
  };
}

/** Every operation of `model`, compiled now. */
export function compileOperations(model: SpecModel): CompiledOperation[] {
  return model.operations.map(operationCompiler(model));
}
