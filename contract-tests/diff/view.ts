// The contract as plain data, one per version of the spec: what a client or an
// implementation can rely on, read through spec/model.ts and laid out so that two views
// compare key by key. Operations are keyed by method and path template (parameter names
// taken out: `/status/ping/{}`), parameters by where and name, schemas with every `$ref`
// followed, `allOf` merged, "X or null" written as `nullable`, `required` moved onto each
// property and `enum` turned into a set. Words for people (descriptions, summaries,
// examples, tags) are left out: changing them changes no contract.
import { deref, type OpenApiDoc } from '../../spec/load.ts';
import type { Operation, Parameter, SpecModel } from '../../spec/model.ts';

/** A key a schema view adds: the property is in its parent's `required`. */
export const REQUIRED = '@required';

/** Keys of a document that say nothing a client or an implementation acts on. */
const WORDS = new Set([
  'description',
  'summary',
  'example',
  'examples',
  'title',
  'externalDocs',
  'xml',
  'tags',
  '$comment',
]);

/** Extensions the view reads into fields of their own (the rest are kept under `extensions`). */
const READ_ELSEWHERE = new Set(['x-provenance', 'x-permission', 'x-credentials', 'x-meaning']);

export type View = Record<string, any>;

/** `/status/ping/{address}` -> `/status/ping/{}`: a renamed path parameter is the same route. */
export const routeKey = (method: string, path: string): string => `${method} ${path.replace(/\{[^}]+\}/g, '{}')}`;

export const parameterKey = (p: Pick<Parameter, 'in' | 'name'>): string => `${p.in} ${p.name}`;

const isNullOnly = (s: Record<string, any>): boolean =>
  s.type === 'null' || (Array.isArray(s.enum) && s.enum.length === 1 && s.enum[0] === null && !s.type);

/**
 * A schema as plain data: `$ref`s followed, `allOf` merged, null branches as `nullable`, `required` on each property.
 */
export function schemaView(doc: OpenApiDoc, node: unknown, seen: Set<object> = new Set()): View {
  const s = deref<Record<string, any>>(doc, node);
  if (!s || typeof s !== 'object') return {};
  // A recursive schema (none in this spec) is cut where it repeats, by its name.
  if (seen.has(s)) return { recursive: (node as any)?.$ref ?? true };
  const inner = new Set(seen).add(s);
  const out: View = {};
  const properties: Record<string, View> = {};
  const required = new Set<string>();
  const absorb = (part: Record<string, any>) => {
    for (const [key, value] of Object.entries(part)) {
      if (WORDS.has(key) || key === '$ref') continue;
      if (key === 'allOf') {
        for (const branch of value as unknown[]) absorb(deref(doc, branch));
      } else if (key === 'properties') {
        for (const [name, prop] of Object.entries<any>(value)) properties[name] = schemaView(doc, prop, inner);
      } else if (key === 'required' && Array.isArray(value)) {
        for (const name of value) required.add(String(name));
      } else if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(value)) {
        const branches = value.map((b) => deref<Record<string, any>>(doc, b));
        const kept = branches.filter((b) => !isNullOnly(b));
        if (kept.length === 1 && kept.length < branches.length) {
          Object.assign(out, schemaView(doc, kept[0], inner), { nullable: true });
        } else {
          const views = kept.map((b) => schemaView(doc, b, inner));
          out[key] = Object.fromEntries(views.map((v) => [JSON.stringify(v), v]));
          if (kept.length < branches.length) out.nullable = true;
        }
      } else if (key === 'enum' && Array.isArray(value)) {
        out.enum = Object.fromEntries(value.map((v) => [JSON.stringify(v), true]));
      } else if (key === 'nullable') {
        if (value === true) out.nullable = true;
      } else if (key === 'items' || key === 'not' || (key === 'additionalProperties' && typeof value === 'object')) {
        out[key] = schemaView(doc, value, inner);
      } else {
        out[key] = value;
      }
    }
  };
  absorb(s);
  // A `required` name without a property of that name still promises the key is there.
  for (const name of required) properties[name] ??= {};
  for (const name of required) properties[name]![REQUIRED] = true;
  if (Object.keys(properties).length) out.properties = properties;
  return out;
}

function extensions(node: Record<string, any>): View | undefined {
  const found = Object.entries(node).filter(([k]) => k.startsWith('x-') && !READ_ELSEWHERE.has(k));
  return found.length ? Object.fromEntries(found) : undefined;
}

const set = (names: readonly string[]): Record<string, true> => Object.fromEntries(names.map((n) => [n, true]));

function parameterView(doc: OpenApiDoc, p: Parameter): View {
  const raw = p.raw;
  return {
    'x-provenance': p.provenance,
    required: p.required,
    ...(raw.deprecated ? { deprecated: true } : {}),
    ...(raw.allowEmptyValue ? { allowEmptyValue: true } : {}),
    ...(raw.style ? { style: raw.style } : {}),
    ...(raw.explode !== undefined ? { explode: raw.explode } : {}),
    schema: schemaView(doc, raw.schema ?? {}),
    ...(p.meaning ? { meaning: p.meaning } : {}),
    ...(extensions(raw) ? { extensions: extensions(raw) } : {}),
  };
}

function operationView(doc: OpenApiDoc, op: Operation): View {
  const raw = op.raw;
  // Each alternative of the security requirement, its schemes joined; `(none)` is anonymous access.
  const alternatives = op.security.length
    ? op.security.map((req) => Object.keys(req).sort().join('+') || '(none)')
    : ['(none)'];
  const responses: View = {};
  for (const [status, r] of op.responses) {
    const rawResponse = deref<Record<string, any>>(doc, raw.responses?.[String(status)]);
    const content: View = {};
    for (const [type, media] of Object.entries<any>(rawResponse?.content ?? {}))
      content[type] = media?.schema ? { schema: schemaView(doc, media.schema) } : {};
    const headers: View = {};
    for (const [name, h] of r.headers) {
      const header = deref<Record<string, any>>(doc, rawResponse?.headers?.[name]);
      headers[name.toLowerCase()] = {
        'x-provenance': h.provenance,
        ...(header?.required ? { required: true } : {}),
        schema: schemaView(doc, h.schema),
      };
    }
    responses[String(status)] = { headers, content };
  }
  const body = raw.requestBody ? deref<Record<string, any>>(doc, raw.requestBody) : undefined;
  return {
    operationId: op.operationId,
    'x-provenance': op.provenance,
    ...(raw.deprecated ? { deprecated: true } : {}),
    security: set(alternatives),
    ...(op.permission ? { 'x-permission': op.permission } : {}),
    credentials: set(op.allowedSchemes),
    ...(extensions(raw) ? { extensions: extensions(raw) } : {}),
    parameters: Object.fromEntries(op.parameters.map((p) => [parameterKey(p), parameterView(doc, p)])),
    ...(body
      ? {
          requestBody: {
            required: Boolean(body.required),
            content: Object.fromEntries(
              Object.entries<any>(body.content ?? {}).map(([type, media]) => [
                type,
                media?.schema ? { schema: schemaView(doc, media.schema) } : {},
              ]),
            ),
          },
        }
      : {}),
    responses,
  };
}

/** The whole contract of one version of the spec. */
export function contractView(model: SpecModel): View {
  const { doc } = model;
  const operations: View = {};
  for (const op of model.operations) operations[routeKey(op.method, op.path)] = operationView(doc, op);
  const { rateLimits } = model.limits;
  return {
    basePath: model.basePath,
    schemes: Object.fromEntries(
      [...model.schemes.values()].map((s) => [
        s.name,
        { kind: s.kind, ...(s.cookieName ? { cookieName: s.cookieName } : {}), 'x-provenance': s.provenance },
      ]),
    ),
    limits: {
      'x-max-body-bytes': model.limits.maxBodyBytes,
      'x-rate-limits': {
        ...(rateLimits.provenance ? { 'x-provenance': rateLimits.provenance } : {}),
        // Each tier's limit per window, keyed by the window's length: a window added is a limit added.
        tiers: Object.fromEntries(
          Object.entries(rateLimits.tiers).map(([tier, limits]) => [
            tier,
            Object.fromEntries(rateLimits.windowsSeconds.map((w, i) => [`${w}s`, limits[i]])),
          ]),
        ),
        groups: Object.fromEntries(rateLimits.groups.map((g) => [g.pathPrefix, { [`${g.windowSeconds}s`]: g.limit }])),
      },
      'x-routing': {
        'x-provenance': model.routing.provenance,
        unknownPath: model.routing.unknownPath,
        wrongMethod: model.routing.wrongMethod,
      },
    },
    operations,
  };
}
