// Every reading of spec/openapi.yaml that the mock, the contract suite and the spec
// checks rely on, worked out once: each operation with its security (OR of AND),
// the security schemes and what kind each is, `x-permission` / `x-credentials`, the
// parameters with their defaults, the declared responses with their examples, the
// provenance of each part, the limits the spec states as `x-` extensions, and the CORS
// contract (`x-cors`).
// Nothing else in the project interprets the document's structure.
import { originPatternProblem } from './cors-origins.ts';
import { HTTP_METHODS, deref, loadSpec, SPEC_PATH, type OpenApiDoc, whileBuilding } from './load.ts';
import { readMeaning, type Meaning, type Rows } from './meaning.ts';
import { provenanceOf, weakest, type Provenance } from './provenance.ts';

export type { Meaning, Rows, SortOrder, Comparison } from './meaning.ts';

export type SecurityRequirement = Record<string, string[]>;

/** How a security scheme presents its credential. */
export type SchemeKind = 'bearer' | 'cookie';

export interface SecurityScheme {
  name: string;
  kind: SchemeKind;
  /** The cookie's name, for a cookie scheme. */
  cookieName?: string;
  provenance: Provenance;
}

export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required: boolean;
  /** The schema, `$ref` followed. */
  schema: Record<string, any>;
  /** The schema's `default`, if it has one. */
  default?: unknown;
  example: unknown;
  description?: string;
  provenance: Provenance;
  /** `x-meaning`: what the parameter does to the rows its operation answers. */
  meaning?: Meaning;
  /** The parameter object as written (for its `x-` extensions). */
  raw: Record<string, any>;
}

export interface ResponseHeader {
  name: string;
  schema: Record<string, any>;
  provenance: Provenance;
}

export interface DeclaredResponse {
  status: number;
  description: string;
  /** Schema of the JSON body; undefined when the response has none. */
  schema?: unknown;
  /** Example bodies by name; `default` is the `example`, else the first of `examples`. */
  examples: Map<string, unknown>;
  headers: Map<string, ResponseHeader>;
  /** `links`: what a client may do next with this answer. */
  links: ResponseLink[];
}

/** An OpenAPI link: the operation a client may call next, and where its parameters come from. */
export interface ResponseLink {
  name: string;
  /** The target's operationId (a link by operationRef is not read: spec:check refuses one). */
  operationId?: string;
  /** Target parameter name -> runtime expression (`$response.body#/key/id`) or constant. */
  parameters: Record<string, string>;
  provenance: Provenance;
}

export interface RequestBody {
  required: boolean;
  mediaTypes: string[];
  /** Schema of the JSON body. */
  schema?: unknown;
  /** The properties the JSON body's schema names (a field not among them is one the operation does not have). */
  fields: string[];
}

export interface Operation {
  operationId: string;
  /** Upper case. */
  method: string;
  /** The spec's path template, e.g. `/status/ping/{address}`. */
  path: string;
  provenance: Provenance;
  /** Path-level and operation-level parameters. */
  parameters: Parameter[];
  /** The operation's security requirements (OR of AND), falling back to the document's. */
  security: SecurityRequirement[];
  /** No requirement, or an empty one (`{}`): anyone may call it. */
  isPublic: boolean;
  /** Every scheme any requirement names; empty for a public operation. */
  schemes: string[];
  /** `x-permission`: the account permission the caller's user needs. */
  permission?: string;
  /** `x-credentials`: the schemes whose valid credentials may perform it (default: all of `schemes`). */
  allowedSchemes: string[];
  requestBody?: RequestBody;
  responses: Map<number, DeclaredResponse>;
  /** The first 2xx status it declares. */
  successStatus: number;
  /** Creates, changes or deletes data. */
  isWrite: boolean;
  /** The rows its success body holds (its one array property), if any. */
  rows?: Rows;
  /** Per status, the counts of the body marked `x-count-of` (`displayed` counts `results`). */
  countsOf?: Map<number, { count: string; of: string; level: Provenance }[]>;
  /** The operation object as written (for its `x-` extensions). */
  raw: Record<string, any>;
}

/** The rate limits of `x-rate-limits`. */
export interface RateLimits {
  /** Window lengths in seconds, shortest first. */
  windowsSeconds: number[];
  /** Limits per window, by tier: a security scheme's name, or `anonymous`. */
  tiers: Record<string, number[]>;
  /** Paths with a window and limit of their own. */
  groups: { pathPrefix: string; windowSeconds: number; limit: number }[];
  provenance: Provenance | undefined;
}

/** Limits the spec states as `x-` extensions; the code reads them here, never a copy. */
export interface Limits {
  /** `x-max-body-bytes` (document). */
  maxBodyBytes: number;
  /** `x-rate-limits` (document). */
  rateLimits: RateLimits;
  /** `x-max-keys-per-user` (the operation that creates keys). */
  maxKeysPerUser: number;
  /** `x-max-by-plan` on `findServers`' `limit`: the page size cap per caller plan (`anonymous` without credentials). */
  pageSizeByPlan: Record<string, number>;
  /** `x-default-port` on the ping address. */
  defaultPort: number;
  /** `x-refresh-after-minutes` on PingResponse, in ms: an older stored ping answers `refreshing`. */
  refreshAfterMs: number;
  /** `x-window-days` on the countries lookup, in ms. */
  countryWindowMs: number;
}

/** `x-routing`: what a request that matches no operation gets. */
export interface Routing {
  unknownPath: number;
  wrongMethod: number;
  provenance: Provenance;
}

/** `x-cors`: what a browser app on another origin is answered, each part with how firm it is. */
export interface CorsContract {
  /** A page may send its cookies: an allowed origin is echoed (never `*`), with Access-Control-Allow-Credentials. */
  credentials: boolean;
  /** What `credentials` rests on (x-cors's own `x-provenance`). */
  provenance: Provenance;
  /** The origins granted, as patterns (`*` any run of characters but `/`); any other is granted nothing. */
  origins: { allowed: string[]; provenance: Provenance };
  /** What a preflight from an allowed origin answers (and every method of its path in Access-Control-Allow-Methods). */
  preflight: { status: number; allowHeaders: string[]; maxAgeSeconds?: number; provenance: Provenance };
  /** The headers every other answer to an allowed origin lists in Access-Control-Expose-Headers. */
  exposeHeaders: { names: string[]; provenance: Provenance };
}

export interface SpecModel {
  doc: OpenApiDoc;
  /** `/api/v0.1`: the path of the first server URL. */
  basePath: string;
  operations: Operation[];
  byId: Map<string, Operation>;
  schemes: Map<string, SecurityScheme>;
  /** The cookie the session scheme reads (`sls_session`). */
  cookieName: string | undefined;
  limits: Limits;
  routing: Routing;
  /** `x-cors`: the CORS contract. */
  cors: CorsContract;
  /** `x-provenance` of the document itself: what "requests and responses are JSON" rests on. */
  documentProvenance: Provenance;
  /**
   * Names of the properties the spec marks `format: password` (a created key's `secret`): no output shows their values.
   */
  secretFields: ReadonlySet<string>;
}

export class SpecError extends Error {}

/**
 * A part's `x-provenance`; a part that does not say where it comes from promises
 * nothing, so it counts as `assumed` (and `npm run spec:check` reports it).
 */
const levelOf = (node: unknown): Provenance => provenanceOf(node) ?? 'assumed';

/** Named examples of a media type, parameter or header: `example` as `default`, then `examples` by name. */
export function examplesOf(doc: OpenApiDoc, node: Record<string, any> | undefined): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!node) return out;
  if ('example' in node) out.set('default', node.example);
  for (const [name, ex] of Object.entries<any>(node.examples ?? {})) {
    const value = deref<any>(doc, ex).value;
    if (!out.has('default')) out.set('default', value);
    out.set(name, value);
  }
  return out;
}

function readParameter(doc: OpenApiDoc, ref: unknown): Parameter {
  const p = deref<Record<string, any>>(doc, ref);
  const schema = deref<Record<string, any>>(doc, p.schema ?? {});
  return {
    name: p.name,
    in: p.in,
    required: Boolean(p.required),
    schema,
    ...('default' in schema ? { default: schema.default } : {}),
    example: p.example ?? examplesOf(doc, p).get('default'),
    description: p.description,
    provenance: levelOf(p),
    raw: p,
  };
}

/** The properties of an object schema, `$ref`s followed and `allOf` parts merged. */
export function objectProperties(doc: OpenApiDoc, schema: unknown): Map<string, Record<string, any>> {
  const out = new Map<string, Record<string, any>>();
  const walk = (node: unknown) => {
    const s = deref<Record<string, any>>(doc, node);
    if (!s || typeof s !== 'object') return;
    for (const part of s.allOf ?? []) walk(part);
    // for...in: no array per property (the model's build walks these at every start).
    const props = s.properties;
    if (props) for (const name in props) out.set(name, props[name]);
  };
  walk(schema);
  return out;
}

/** A property's own `x-provenance`, else its `$ref` target's, else its parent's. */
function fieldProvenance(doc: OpenApiDoc, prop: unknown, parent: Provenance): Provenance {
  return provenanceOf(prop) ?? provenanceOf(deref(doc, prop)) ?? parent;
}

/** The one array property of a success body, with its rows' fields; undefined when there is none. */
function readRows(doc: OpenApiDoc, schema: unknown): Rows | undefined {
  if (!schema) return undefined;
  const body = deref<Record<string, any>>(doc, schema);
  const bodyLevel = levelOf(body);
  const props = objectProperties(doc, body);
  const arrays = [...props].filter(([, p]) => deref<Record<string, any>>(doc, p).type === 'array');
  if (arrays.length !== 1) return undefined;
  const [property, array] = arrays[0]!;
  const provenance = weakest(bodyLevel, fieldProvenance(doc, array, bodyLevel));
  const item = deref<Record<string, any>>(doc, deref<Record<string, any>>(doc, array).items);
  const itemLevel = provenanceOf(item) ?? provenance;
  const fields = new Map<string, { schema: Record<string, any>; provenance: Provenance }>();
  for (const [name, prop] of objectProperties(doc, item))
    fields.set(name, {
      schema: deref(doc, prop),
      provenance: weakest(provenance, fieldProvenance(doc, prop, itemLevel)),
    });
  const siblings = new Map<string, Provenance>();
  for (const [name, prop] of props)
    if (name !== property) siblings.set(name, weakest(bodyLevel, fieldProvenance(doc, prop, bodyLevel)));
  return { property, provenance, fields, siblings };
}

/** The top-level counts of each declared body marked `x-count-of: <array property>`, with their level. */
function readCounts(
  doc: OpenApiDoc,
  responses: Map<number, DeclaredResponse>,
  opLevel: Provenance,
): Map<number, { count: string; of: string; level: Provenance }[]> {
  const out = new Map<number, { count: string; of: string; level: Provenance }[]>();
  for (const [status, response] of responses) {
    if (!response.schema) continue;
    const body = deref<Record<string, any>>(doc, response.schema);
    const props = objectProperties(doc, body);
    const counts: { count: string; of: string; level: Provenance }[] = [];
    for (const [count, prop] of props) {
      const of = deref<Record<string, any>>(doc, prop)['x-count-of'];
      if (of === undefined) continue;
      if (typeof of !== 'string' || !props.has(of)) {
        throw new SpecError(`${count} has x-count-of ${JSON.stringify(of)}, which names no property beside it`);
      }
      counts.push({ count, of, level: weakest(opLevel, levelOf(body), fieldProvenance(doc, prop, levelOf(body))) });
    }
    if (counts.length) out.set(status, counts);
  }
  return out;
}

function readResponses(doc: OpenApiDoc, op: Record<string, any>): Map<number, DeclaredResponse> {
  const out = new Map<number, DeclaredResponse>();
  for (const [status, ref] of Object.entries<any>(op.responses ?? {})) {
    if (!/^\d{3}$/.test(status)) continue;
    const response = deref<Record<string, any>>(doc, ref);
    const media = response.content?.['application/json'];
    const headers = new Map<string, ResponseHeader>();
    for (const [name, h] of Object.entries<any>(response.headers ?? {})) {
      const header = deref<Record<string, any>>(doc, h);
      headers.set(name, { name, schema: header.schema ?? {}, provenance: levelOf(header) });
    }
    const links = Object.entries<any>(response.links ?? {}).map(([name, ref]): ResponseLink => {
      const link = deref<Record<string, any>>(doc, ref);
      return {
        name,
        ...(typeof link.operationId === 'string' ? { operationId: link.operationId } : {}),
        parameters: { ...(link.parameters ?? {}) },
        provenance: levelOf(link),
      };
    });
    out.set(Number(status), {
      status: Number(status),
      description: response.description ?? '',
      schema: media?.schema,
      examples: examplesOf(doc, media),
      headers,
      links,
    });
  }
  return out;
}

function readSchemes(doc: OpenApiDoc): Map<string, SecurityScheme> {
  const out = new Map<string, SecurityScheme>();
  for (const [name, s] of Object.entries<any>(doc.components.securitySchemes ?? {})) {
    if (s.type === 'http' && String(s.scheme).toLowerCase() === 'bearer') {
      out.set(name, { name, kind: 'bearer', provenance: levelOf(s) });
    } else if (s.type === 'apiKey' && s.in === 'cookie') {
      out.set(name, { name, kind: 'cookie', cookieName: s.name, provenance: levelOf(s) });
    } else {
      throw new SpecError(
        `security scheme '${name}' (${s.type}/${s.in ?? s.scheme}) is not one this project understands ` +
          `(bearer, or apiKey in a cookie)`,
      );
    }
  }
  return out;
}

function readOperations(doc: OpenApiDoc): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const security: SecurityRequirement[] = op.security ?? (doc.security as SecurityRequirement[] | undefined) ?? [];
      const isPublic = security.length === 0 || security.some((req) => Object.keys(req).length === 0);
      const schemes = isPublic ? [] : [...new Set(security.flatMap((req) => Object.keys(req)))];
      const responses = readResponses(doc, op);
      const successStatus = [...responses.keys()].find((s) => s >= 200 && s < 300);
      if (successStatus === undefined) throw new SpecError(`${op.operationId} declares no 2xx response`);
      const body = op.requestBody ? deref<Record<string, any>>(doc, op.requestBody) : undefined;
      const rows = readRows(doc, responses.get(successStatus)!.schema);
      const countsOf = readCounts(doc, responses, levelOf(op));
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => readParameter(doc, p));
      for (const p of parameters) {
        if (p.raw['x-meaning'] === undefined) continue;
        try {
          p.meaning = readMeaning(
            p.raw['x-meaning'],
            `${op.operationId} parameter '${p.name}'`,
            rows,
            deref<Record<string, any>>(doc, p.schema).enum,
          );
        } catch (err) {
          throw new SpecError((err as Error).message);
        }
      }
      out.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        provenance: levelOf(op),
        parameters,
        security,
        isPublic,
        schemes,
        ...(typeof op['x-permission'] === 'string' ? { permission: op['x-permission'] } : {}),
        allowedSchemes: Array.isArray(op['x-credentials']) ? op['x-credentials'] : schemes,
        ...(body
          ? {
              requestBody: {
                required: Boolean(body.required),
                mediaTypes: Object.keys(body.content ?? {}),
                schema: body.content?.['application/json']?.schema,
                fields: bodyFields(doc, body.content?.['application/json']?.schema),
              },
            }
          : {}),
        responses,
        successStatus,
        isWrite: !['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase()),
        ...(rows ? { rows } : {}),
        ...(countsOf.size ? { countsOf } : {}),
        raw: op,
      });
    }
  }
  return out;
}

/** `/api/v0.1` from the first server URL: the spec says where the API lives. */
function basePathOf(doc: OpenApiDoc): string {
  const url = doc.servers?.[0]?.url ?? '/';
  return new URL(url, 'http://localhost').pathname.replace(/\/$/, '');
}

const positive = (where: string, value: unknown): number => {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new SpecError(`${where} must be a positive number, got ${JSON.stringify(value)}`);
  return value;
};

/** The one node that carries extension `name`, read and checked. */
function extensionOn<T>(
  nodes: { where: string; node: Record<string, any> | undefined }[],
  name: string,
): { where: string; value: T } {
  const found = nodes.filter((n) => n.node && name in n.node);
  if (found.length !== 1)
    throw new SpecError(
      `expected exactly one ${name} in the spec (on ${nodes.map((n) => n.where).join(' or ')}), found ${found.length}`,
    );
  return { where: `${found[0]!.where} ${name}`, value: found[0]!.node![name] as T };
}

function readRateLimits(doc: OpenApiDoc): RateLimits {
  const raw = doc['x-rate-limits'] as Record<string, any> | undefined;
  if (!raw || typeof raw !== 'object') throw new SpecError('the document has no x-rate-limits');
  const windowsSeconds = ((raw.windowsSeconds as unknown[] | undefined) ?? []).map((w, i) =>
    positive(`x-rate-limits.windowsSeconds[${i}]`, w),
  );
  if (windowsSeconds.length === 0) throw new SpecError('x-rate-limits.windowsSeconds is empty');
  const tiers: Record<string, number[]> = {};
  for (const [tier, limits] of Object.entries<any>(raw.tiers ?? {})) {
    if (!Array.isArray(limits) || limits.length !== windowsSeconds.length) {
      throw new SpecError(`x-rate-limits.tiers.${tier} must list one limit per window (${windowsSeconds.length})`);
    }
    tiers[tier] = limits.map((l, i) => positive(`x-rate-limits.tiers.${tier}[${i}]`, l));
  }
  if (!tiers.anonymous) throw new SpecError('x-rate-limits.tiers has no anonymous tier');
  const groups = ((raw.groups as any[] | undefined) ?? []).map((g, i) => ({
    pathPrefix: String(g.pathPrefix),
    windowSeconds: positive(`x-rate-limits.groups[${i}].windowSeconds`, g.windowSeconds),
    limit: positive(`x-rate-limits.groups[${i}].limit`, g.limit),
  }));
  return { windowsSeconds, tiers, groups, provenance: provenanceOf(raw) };
}

function readLimits(doc: OpenApiDoc, operations: Operation[]): Limits {
  const params = operations.flatMap((o) =>
    o.parameters.map((p) => ({ where: `${o.operationId} parameter '${p.name}'`, node: p.raw })),
  );
  const ops = operations.map((o) => ({ where: o.operationId, node: o.raw }));
  const byPlan = extensionOn<Record<string, unknown>>(params, 'x-max-by-plan');
  const pageSizeByPlan: Record<string, number> = {};
  for (const [plan, n] of Object.entries(byPlan.value ?? {}))
    pageSizeByPlan[plan] = positive(`${byPlan.where}.${plan}`, n);
  if (pageSizeByPlan.anonymous === undefined) throw new SpecError(`${byPlan.where} has no anonymous entry`);
  const schemas = Object.entries(doc.components.schemas).map(([name, node]) => ({ where: `schema ${name}`, node }));
  const keys = extensionOn<unknown>(ops, 'x-max-keys-per-user');
  const port = extensionOn<unknown>(params, 'x-default-port');
  const refresh = extensionOn<unknown>(schemas, 'x-refresh-after-minutes');
  const window = extensionOn<unknown>(ops, 'x-window-days');
  return {
    maxBodyBytes: positive('x-max-body-bytes', doc['x-max-body-bytes']),
    rateLimits: readRateLimits(doc),
    maxKeysPerUser: positive(keys.where, keys.value),
    pageSizeByPlan,
    defaultPort: positive(port.where, port.value),
    refreshAfterMs: positive(refresh.where, refresh.value) * 60_000,
    countryWindowMs: positive(window.where, window.value) * 86_400_000,
  };
}

/** The property names of a JSON body's schema (an object's, through its $ref). */
function bodyFields(doc: OpenApiDoc, schema: unknown): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const resolved = deref<Record<string, any>>(doc, schema);
  return resolved?.properties && typeof resolved.properties === 'object' ? Object.keys(resolved.properties) : [];
}

function readRouting(doc: OpenApiDoc): Routing {
  const raw = doc['x-routing'] as Record<string, unknown> | undefined;
  if (!raw || typeof raw !== 'object') throw new SpecError('the document has no x-routing');
  const status = (key: string): number => {
    const v = raw[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 400 || v > 499)
      throw new SpecError(`x-routing.${key} must be a 4xx status, got ${JSON.stringify(v)}`);
    return v;
  };
  return { unknownPath: status('unknownPath'), wrongMethod: status('wrongMethod'), provenance: levelOf(raw) };
}

/** A list of header names (`Authorization`), or the reason it is not one. */
function headerNames(where: string, value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(v)))
    throw new SpecError(`${where} must be a list of header names, got ${JSON.stringify(value)}`);
  return value as string[];
}

function readCors(doc: OpenApiDoc): CorsContract {
  const raw = doc['x-cors'] as Record<string, any> | undefined;
  if (!raw || typeof raw !== 'object') throw new SpecError('the document has no x-cors');
  if (typeof raw.credentials !== 'boolean')
    throw new SpecError(`x-cors.credentials must be true or false, got ${JSON.stringify(raw.credentials)}`);
  const allowed = raw.origins?.allowed;
  if (!Array.isArray(allowed) || allowed.length === 0 || !allowed.every((o) => typeof o === 'string'))
    throw new SpecError(`x-cors.origins.allowed must list origins, got ${JSON.stringify(allowed)}`);
  for (const o of allowed as string[]) {
    const problem = originPatternProblem(o);
    if (problem) throw new SpecError(`x-cors.origins.allowed: ${problem}`);
  }
  const preflight = raw.preflight as Record<string, any> | undefined;
  const status = preflight?.status;
  // A preflight is passed only with an ok status (Fetch standard, CORS-preflight fetch).
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 299)
    throw new SpecError(`x-cors.preflight.status must be a 2xx status, got ${JSON.stringify(status)}`);
  const maxAge = preflight?.maxAgeSeconds;
  if (maxAge !== undefined && !(typeof maxAge === 'number' && Number.isInteger(maxAge) && maxAge >= 0))
    throw new SpecError(
      `x-cors.preflight.maxAgeSeconds must be a whole number of seconds, got ${JSON.stringify(maxAge)}`,
    );
  return {
    credentials: raw.credentials,
    provenance: levelOf(raw),
    origins: { allowed, provenance: levelOf(raw.origins) },
    preflight: {
      status,
      allowHeaders: headerNames('x-cors.preflight.allowHeaders', preflight?.allowHeaders ?? []),
      ...(maxAge !== undefined ? { maxAgeSeconds: maxAge } : {}),
      provenance: levelOf(preflight),
    },
    exposeHeaders: {
      names: headerNames('x-cors.exposeHeaders.names', raw.exposeHeaders?.names ?? []),
      provenance: levelOf(raw.exposeHeaders),
    },
  };
}

/** Every property name that some schema of the document marks `format: password`. */
function secretFieldsOf(doc: OpenApiDoc): Set<string> {
  const out = new Set<string>();
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    // for...in, not Object.entries/values: no array made per node of the document (it is walked at every start).
    const props = (node as { properties?: Record<string, unknown> }).properties;
    if (props && typeof props === 'object')
      for (const name in props) if ((props[name] as { format?: unknown } | null)?.format === 'password') out.add(name);
    for (const key in node) walk((node as Record<string, unknown>)[key]);
  };
  walk(doc);
  return out;
}

export function buildModel(doc: OpenApiDoc = loadSpec()): SpecModel {
  return whileBuilding(doc, () => modelOf(doc));
}

function modelOf(doc: OpenApiDoc): SpecModel {
  const operations = readOperations(doc);
  const schemes = readSchemes(doc);
  for (const op of operations) {
    for (const name of [...op.schemes, ...op.allowedSchemes]) {
      if (!schemes.has(name))
        throw new SpecError(
          `${op.operationId} names security scheme '${name}', which components.securitySchemes does not declare`,
        );
    }
  }
  const cookies = [...schemes.values()].filter((s) => s.kind === 'cookie');
  return {
    doc,
    basePath: basePathOf(doc),
    operations,
    byId: new Map(operations.map((o) => [o.operationId, o])),
    schemes,
    cookieName: cookies[0]?.cookieName,
    limits: readLimits(doc, operations),
    routing: readRouting(doc),
    cors: readCors(doc),
    documentProvenance: provenanceOf(doc.info) ?? levelOf(doc),
    secretFields: secretFieldsOf(doc),
  };
}

const cache = new Map<string, SpecModel>();

/** The model of the spec at `path` (default spec/openapi.yaml), read once per process. */
export function loadModel(path: string = SPEC_PATH): SpecModel {
  let model = cache.get(path);
  if (!model) cache.set(path, (model = buildModel(loadSpec(path))));
  return model;
}

/** The schema defaults of an operation's parameters in `where` (the values a missing parameter means). */
export function parameterDefaults(op: Operation, where: Parameter['in'] = 'query'): Record<string, unknown> {
  return Object.fromEntries(
    op.parameters.filter((p) => p.in === where && 'default' in p).map((p) => [p.name, p.default]),
  );
}

/** The operation a request path (relative to the base path, query allowed) belongs to. */
export function operationFor(model: SpecModel, method: string, relativePath: string): Operation | undefined {
  const pathname = relativePath.split('?')[0] ?? '';
  const segments = pathname.split('/');
  return model.operations.find((o) => {
    if (o.method !== method.toUpperCase()) return false;
    const template = o.path.split('/');
    return (
      template.length === segments.length &&
      template.every((t, i) => (/^\{[^}]+\}$/.test(t) ? segments[i] !== '' : t === segments[i]))
    );
  });
}

/** Provenance of a named property of a components schema (e.g. FindResponse.displayed): the weaker of the two. */
export function propertyProvenance(model: SpecModel, schema: string, property: string): Provenance {
  const s = model.doc.components.schemas[schema];
  return weakest(provenanceOf(s), provenanceOf(s?.properties?.[property]));
}

/** The request headers that present `secret` with this security scheme, as real clients send it. */
export function credentialHeaders(scheme: SecurityScheme, secret: string): Record<string, string> {
  return scheme.kind === 'bearer'
    ? { Authorization: `Bearer ${secret}` }
    : { Cookie: `${scheme.cookieName}=${secret}` };
}
