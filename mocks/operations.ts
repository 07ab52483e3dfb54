// Compiles spec/openapi.yaml into what the HTTP layer needs per operation: its route,
// a parameter parser (ajv, compiled once, with coercion and defaults), its security
// requirements and authorization extensions, its body validator and its declared
// responses (for `Prefer`). Nothing here is written twice: add a parameter to the
// spec and it is parsed, coerced and validated without a code change.
import type { ValidateFunction } from 'ajv';
import { deref, operations, type OpenApiDoc } from '../spec/load.ts';
import { describeErrors, SchemaValidator } from '../spec/validator.ts';

export type SecurityRequirement = Record<string, string[]>;

export interface DeclaredResponse {
  status: number;
  headers: Record<string, any>;
  /** Example bodies by name; `default` is the first one. */
  examples: Map<string, unknown>;
  schema?: unknown;
}

export interface CompiledOperation {
  operationId: string;
  method: string;
  /** Path in the spec, e.g. `/status/ping/{address}`. */
  specPath: string;
  /** Full path with the base and Hono's `:param` syntax. */
  routePath: string;
  security: SecurityRequirement[];
  isPublic: boolean;
  /** `x-permission`: the account permission the caller's user needs. */
  permission?: string;
  /** `x-credentials`: the only security schemes allowed to perform it. */
  allowedSchemes?: string[];
  parseParams(rawQuery: string, pathParams: Record<string, string>): ParamResult;
  body?: { required: boolean; mediaTypes: string[]; validate: ValidateFunction };
  responses: Map<number, DeclaredResponse>;
}

export type ParamResult =
  | { ok: true; query: Record<string, any>; path: Record<string, any> }
  | { ok: false; message: string };

interface ParamGroup {
  where: 'query' | 'path';
  params: Map<string, any>;
  validate: ValidateFunction;
}

/** `/api/v0.1` from the first server URL: the spec says where the API lives. */
export function basePathOf(doc: OpenApiDoc): string {
  const url = doc.servers?.[0]?.url ?? '/';
  return new URL(url, 'http://localhost').pathname.replace(/\/$/, '');
}

function compileGroup(validator: SchemaValidator, where: 'query' | 'path', params: any[]): ParamGroup {
  const own = params.filter((p) => p.in === where);
  const schema = {
    type: 'object',
    properties: Object.fromEntries(own.map((p) => [p.name, p.schema ?? {}])),
    required: own.filter((p) => p.required).map((p) => p.name),
  };
  // Most operations have no path (or no query) parameters: nothing to compile.
  const validate = own.length ? validator.compile(schema) : (Object.assign(() => true, { errors: null }) as unknown as ValidateFunction);
  return { where, params: new Map(own.map((p) => [p.name, p])), validate };
}

/** Turns the first ajv error into "query parameter 'limit' must be integer". */
function paramError(group: ParamGroup, values: Record<string, unknown>): string {
  const err = group.validate.errors?.[0];
  if (!err) return `${group.where} parameters are invalid`;
  const name =
    err.keyword === 'required' ? (err.params as { missingProperty: string }).missingProperty : err.instancePath.split('/')[1] ?? '';
  const label = `${group.where} parameter '${name}'`;
  if (err.keyword === 'required') return `${label} is required`;
  if (err.keyword === 'pattern') {
    // A regex says little to a person; the parameter's description says what is expected.
    const p = group.params.get(name);
    return `${label} is not valid: ${JSON.stringify(values[name])} is not ${p?.description ?? `like ${JSON.stringify(p?.example)}`}`;
  }
  return describeErrors([{ ...err, instancePath: '' }], label);
}

function parseQuery(group: ParamGroup, rawQuery: string, out: Record<string, unknown>): void {
  if (!rawQuery) return;
  const search = new URLSearchParams(rawQuery);
  for (const name of group.params.keys()) {
    // Real clients send `motd=&version=` for unused filters: empty means "no filter".
    // The first value wins when a parameter is repeated; unknown parameters are ignored.
    const value = search.get(name);
    if (value !== null && value !== '') out[name] = value;
  }
}

function declaredResponses(doc: OpenApiDoc, op: Record<string, any>): Map<number, DeclaredResponse> {
  const out = new Map<number, DeclaredResponse>();
  for (const [status, ref] of Object.entries<any>(op.responses ?? {})) {
    if (!/^\d{3}$/.test(status)) continue;
    const response = deref<any>(doc, ref);
    const media = response.content?.['application/json'];
    const examples = new Map<string, unknown>();
    if (media && 'example' in media) examples.set('default', media.example);
    for (const [name, ex] of Object.entries<any>(media?.examples ?? {})) {
      const value = deref<any>(doc, ex).value;
      if (!examples.has('default')) examples.set('default', value);
      examples.set(name, value);
    }
    out.set(Number(status), { status: Number(status), headers: response.headers ?? {}, examples, schema: media?.schema });
  }
  return out;
}

export function compileOperations(doc: OpenApiDoc): CompiledOperation[] {
  // One ajv per option set; answers name only the first error, so stop at it.
  const paramValidator = new SchemaValidator(doc, { coerceTypes: true, useDefaults: true, allErrors: false });
  const bodyValidator = new SchemaValidator(doc, { allErrors: false });
  const base = basePathOf(doc);
  return operations(doc).map(({ method, path, operationId, op, parameters, security, isPublic }) => {
    const query = compileGroup(paramValidator, 'query', parameters);
    const pathGroup = compileGroup(paramValidator, 'path', parameters);
    const requestBody = op.requestBody ? deref<any>(doc, op.requestBody) : undefined;
    const mediaTypes = Object.keys(requestBody?.content ?? {});
    const bodySchema = requestBody?.content?.['application/json']?.schema;
    return {
      operationId,
      method: method.toUpperCase(),
      specPath: path,
      routePath: base + path.replace(/\{([^}]+)\}/g, ':$1'),
      security,
      isPublic,
      permission: op['x-permission'],
      allowedSchemes: op['x-credentials'],
      body: requestBody
        ? { required: Boolean(requestBody.required), mediaTypes, validate: bodyValidator.compile(bodySchema ?? {}) }
        : undefined,
      responses: declaredResponses(doc, op),
      parseParams(rawQuery, pathParams) {
        const q: Record<string, unknown> = {};
        parseQuery(query, rawQuery, q);
        if (!query.validate(q)) return { ok: false, message: paramError(query, q) };
        const p: Record<string, unknown> = { ...pathParams };
        if (!pathGroup.validate(p)) return { ok: false, message: paramError(pathGroup, p) };
        return { ok: true, query: q, path: p };
      },
    };
  });
}
