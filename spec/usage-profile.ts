// A usage profile: what one consumer of the API was seen to use, counted: the operations
// it called, the parameters and body fields it sent and the kinds of values in them,
// the credentials it carried, the statuses it met. The mock (its journal), the validation
// proxy (live traffic) and the contract suite (its own requests) each feed a
// UsageAccumulator one request at a time; `diff --usage` weighs a spec change by the
// profiles (contract-tests/diff/usage.ts), and the suite lists which of their operations
// and parameters it checked. The shape is usage-profile.schema.json beside this file;
// free text a consumer sent is never kept, only its kind (enum values are kept).
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import { deref } from './load.ts';
import { objectProperties, type Operation, operationFor, type Parameter, type SpecModel } from './model.ts';
import SCHEMA from './usage-profile.schema.json' with { type: 'json' };

export const USAGE_FORMAT = 'server-listing-usage-profile/1';

export type ValueKind = 'empty' | 'wildcard' | 'number' | 'boolean' | 'text' | 'null' | 'array' | 'object';

/** `none`, or the kind of the security scheme whose credential the request carried (spec/model.ts `SchemeKind`). */
export type CredentialKind = 'none' | 'bearer' | 'cookie';

export interface ValueUsage {
  /** Requests that sent it. */
  requests: number;
  kinds: Partial<Record<ValueKind, number>>;
  /** The smallest and the largest number sent. */
  numbers?: { min: number; max: number };
  /** Requests per value, for a parameter or field whose schema is an enum. */
  values?: Record<string, number>;
}

export interface ParameterUsage extends ValueUsage {
  in: Parameter['in'];
}

export interface OperationUsage {
  requests: number;
  parameters: Record<string, ParameterUsage>;
  /** The top-level fields of the JSON bodies sent. */
  body: Record<string, ValueUsage>;
  credentials: Record<string, number>;
  statuses: Record<string, number>;
}

export interface UsageProfile {
  format: typeof USAGE_FORMAT;
  consumer: string;
  recordedBy?: string;
  from?: string;
  to?: string;
  requests: number;
  operations: Record<string, OperationUsage>;
}

/** One request, as a recorder saw it. */
export interface UsageNote {
  operationId: string;
  /** Query parameters as sent (a parameter sent twice: both values). */
  query?: Record<string, string | readonly string[]>;
  path?: Record<string, string>;
  /** The parsed JSON body: its top-level fields are recorded. */
  body?: unknown;
  credential?: CredentialKind;
  /** The status of the answer, when there was one. */
  status?: number;
  /** When it was sent (ISO 8601, a Date, or ms since the epoch). */
  at?: string | Date | number;
}

/** The kind of a value: query and path values are text on the wire, so `"12"` is a number there. */
export function valueKind(value: unknown, onTheWire: boolean): ValueKind {
  if (onTheWire) {
    const text = String(value);
    if (text === '') return 'empty';
    if (text.includes('*')) return 'wildcard';
    if (/^-?\d+(\.\d+)?$/.test(text)) return 'number';
    if (text === 'true' || text === 'false') return 'boolean';
    return 'text';
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'object') return 'object';
  const text = String(value);
  return text === '' ? 'empty' : text.includes('*') ? 'wildcard' : 'text';
}

const bump = (counts: Record<string, number>, key: string, by = 1) => {
  counts[key] = (counts[key] ?? 0) + by;
};

function noteValue(into: ValueUsage, values: readonly unknown[], onTheWire: boolean, enumValues?: readonly unknown[]) {
  into.requests++;
  for (const value of values) {
    const kind = valueKind(value, onTheWire);
    bump(into.kinds as Record<string, number>, kind);
    if (kind === 'number') {
      const n = Number(value);
      into.numbers = into.numbers
        ? { min: Math.min(into.numbers.min, n), max: Math.max(into.numbers.max, n) }
        : { min: n, max: n };
    }
    // Only a value the spec enumerates is kept: free text a user typed never reaches a profile.
    if (enumValues && kind !== 'empty') {
      const known = enumValues.find((v) => String(v).toLowerCase() === String(value).toLowerCase());
      if (known !== undefined) bump((into.values ??= {}), String(known));
    }
  }
}

const newOperation = (): OperationUsage => ({ requests: 0, parameters: {}, body: {}, credentials: {}, statuses: {} });

export interface AccumulatorOptions {
  /** What saw the requests: `mock`, `proxy`, `contract suite`. */
  recordedBy?: string;
  /** The spec, to keep the values of enum parameters and fields (without it, only kinds are kept). */
  model?: SpecModel;
}

/** Counts what one consumer used, one request at a time; `toJSON()` is its usage profile. */
export class UsageAccumulator {
  private readonly operations: Record<string, OperationUsage> = {};
  private requests = 0;
  /** The first and last request's time, ms since the epoch (a number: no string made per request). */
  private from?: number;
  private to?: number;

  constructor(
    readonly consumer: string,
    private readonly options: AccumulatorOptions = {},
  ) {
    if (!consumer) throw new Error('a usage profile needs a consumer name');
  }

  note(n: UsageNote): void {
    this.requests++;
    if (n.at !== undefined) {
      const at = typeof n.at === 'number' ? n.at : typeof n.at === 'string' ? Date.parse(n.at) : n.at.getTime();
      if (Number.isFinite(at)) {
        if (this.from === undefined || at < this.from) this.from = at;
        if (this.to === undefined || at > this.to) this.to = at;
      }
    }
    const op = (this.operations[n.operationId] ??= newOperation());
    op.requests++;
    bump(op.credentials, n.credential ?? 'none');
    if (n.status !== undefined) bump(op.statuses, String(n.status));
    const declared = this.options.model?.byId.get(n.operationId);
    for (const [where, given] of [
      ['query', n.query],
      ['path', n.path],
    ] as const) {
      for (const [name, raw] of Object.entries(given ?? {})) {
        const param = (op.parameters[name] ??= { in: where, requests: 0, kinds: {} });
        const spec = declared?.parameters.find((p) => p.name === name && p.in === where);
        noteValue(param, typeof raw === 'string' ? [raw] : raw, true, spec?.schema.enum);
      }
    }
    if (n.body && typeof n.body === 'object' && !Array.isArray(n.body)) {
      const props = declared?.requestBody?.schema
        ? objectProperties(this.options.model!.doc, declared.requestBody.schema)
        : undefined;
      for (const [field, value] of Object.entries(n.body as Record<string, unknown>)) {
        const schema = props?.get(field) ? deref<Record<string, any>>(this.options.model!.doc, props.get(field)) : {};
        noteValue((op.body[field] ??= { requests: 0, kinds: {} }), [value], false, schema?.enum);
      }
    }
  }

  toJSON(): UsageProfile {
    return {
      format: USAGE_FORMAT,
      consumer: this.consumer,
      ...(this.options.recordedBy ? { recordedBy: this.options.recordedBy } : {}),
      ...(this.from !== undefined
        ? { from: new Date(this.from).toISOString(), to: new Date(this.to!).toISOString() }
        : {}),
      requests: this.requests,
      operations: structuredClone(this.operations),
    };
  }
}

function mergeValue<T extends ValueUsage>(a: T | undefined, b: T): T {
  if (!a) return structuredClone(b);
  const out = structuredClone(a);
  out.requests += b.requests;
  for (const [k, v] of Object.entries(b.kinds)) bump(out.kinds as Record<string, number>, k, v);
  if (b.numbers)
    out.numbers = out.numbers
      ? { min: Math.min(out.numbers.min, b.numbers.min), max: Math.max(out.numbers.max, b.numbers.max) }
      : { ...b.numbers };
  for (const [k, v] of Object.entries(b.values ?? {})) bump((out.values ??= {}), k, v);
  return out;
}

/** Several profiles as one (of one consumer over several runs, or of everyone: name it). */
export function mergeProfiles(profiles: readonly UsageProfile[], consumer?: string): UsageProfile {
  if (!profiles.length) throw new Error('nothing to merge');
  const names = [...new Set(profiles.map((p) => p.consumer))];
  const froms = profiles.flatMap((p) => (p.from ? [p.from] : [])).sort();
  const tos = profiles.flatMap((p) => (p.to ? [p.to] : [])).sort();
  const operations: Record<string, OperationUsage> = {};
  for (const p of profiles) {
    for (const [id, op] of Object.entries(p.operations)) {
      const into = (operations[id] ??= newOperation());
      into.requests += op.requests;
      for (const [name, param] of Object.entries(op.parameters))
        into.parameters[name] = mergeValue(into.parameters[name], param);
      for (const [field, value] of Object.entries(op.body)) into.body[field] = mergeValue(into.body[field], value);
      for (const [k, v] of Object.entries(op.credentials)) bump(into.credentials, k, v);
      for (const [k, v] of Object.entries(op.statuses)) bump(into.statuses, k, v);
    }
  }
  const recorders = [...new Set(profiles.flatMap((p) => (p.recordedBy ? [p.recordedBy] : [])))];
  return {
    format: USAGE_FORMAT,
    consumer: consumer ?? names.join('+'),
    ...(recorders.length ? { recordedBy: recorders.join('+') } : {}),
    ...(froms.length ? { from: froms[0], to: tos.at(-1) } : {}),
    requests: profiles.reduce((n, p) => n + p.requests, 0),
    operations,
  };
}

/** A request as a recorder saw it: its URL (absolute, or its path and query), headers, body. */
export interface SeenRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * What a request to the API shows of its use: its operation, parameters, body, credential; undefined outside the spec.
 */
export function usageNoteOf(model: SpecModel, request: SeenRequest, status?: number): UsageNote | undefined {
  const url = new URL(request.url, 'http://localhost');
  const relative = url.pathname.startsWith(model.basePath) ? url.pathname.slice(model.basePath.length) : url.pathname;
  const op = operationFor(model, request.method, relative);
  return op ? usageNoteFor(model, op, request, status) : undefined;
}

/** Where an operation's path holds its parameters (`/status/ping/{address}`: segment 3 is `address`). */
const pathSlots = new WeakMap<Operation, { index: number; name: string }[]>();

function slotsOf(op: Operation): { index: number; name: string }[] {
  let slots = pathSlots.get(op);
  if (!slots) {
    slots = [];
    for (const [index, t] of op.path.split('/').entries()) {
      const name = /^\{([^}]+)\}$/.exec(t)?.[1];
      if (name) slots.push({ index, name });
    }
    pathSlots.set(op, slots);
  }
  return slots;
}

/**
 * What a request shows of its use, its operation known (a recorder that routed it already):
 * the query as sent (not as parsed: defaults filled in are not what the consumer used), the
 * path's values, the credential's kind by the header that carries it (valid or not). Read
 * with string searches, not a URL parser: the mock counts every request it answers.
 */
export function usageNoteFor(model: SpecModel, op: Operation, request: SeenRequest, status?: number): UsageNote {
  const { url } = request;
  const scheme = url.indexOf('://');
  const slash = scheme === -1 ? url.indexOf('/') : url.indexOf('/', scheme + 3);
  const mark = url.indexOf('?');
  const hash = url.indexOf('#');
  const pathEnd = mark !== -1 ? mark : hash !== -1 ? hash : url.length;
  const pathname = slash === -1 || slash > pathEnd ? '/' : url.slice(slash, pathEnd);
  const note: UsageNote = { operationId: op.operationId, credential: 'none' };
  if (mark !== -1) {
    const query: Record<string, string[]> = {};
    let any = false;
    for (const [k, v] of new URLSearchParams(url.slice(mark + 1, hash > mark ? hash : undefined))) {
      (query[k] ??= []).push(v);
      any = true;
    }
    if (any) note.query = query;
  }
  const slots = slotsOf(op);
  if (slots.length) {
    const relative = pathname.startsWith(model.basePath) ? pathname.slice(model.basePath.length) : pathname;
    const segments = relative.split('/');
    const path: Record<string, string> = {};
    for (const { index, name } of slots) path[name] = safeDecode(segments[index] ?? '');
    note.path = path;
  }
  let authorization: string | undefined;
  let cookie: string | undefined;
  for (const k in request.headers) {
    const name = k.toLowerCase();
    if (name === 'authorization') authorization = request.headers[k];
    else if (name === 'cookie') cookie = request.headers[k];
  }
  if (authorization !== undefined && /^bearer\s/i.test(authorization)) note.credential = 'bearer';
  else if (cookie !== undefined && model.cookieName && cookieCarried(cookie, model.cookieName))
    note.credential = 'cookie';
  let body = request.body;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch {
      body = undefined;
    }
  }
  if (body !== undefined) note.body = body;
  if (status !== undefined) note.status = status;
  return note;
}

/** The cookie header names this cookie (with a value or not). */
function cookieCarried(header: string, name: string): boolean {
  for (const part of header.split(';')) if (part.trimStart().startsWith(`${name}=`)) return true;
  return false;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** A file that is not a usage profile of this format. */
export class UsageProfileError extends Error {}

let validate: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (validate) return validate;
  const { Ajv } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
  const addFormats = createRequire(import.meta.url)('ajv-formats') as (ajv: InstanceType<typeof Ajv>) => unknown;
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  return (validate = ajv.compile(SCHEMA));
}

/** A usage profile from its JSON text, checked against usage-profile.schema.json; `where` names it in errors. */
export function readUsageProfile(text: string, where: string): UsageProfile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new UsageProfileError(`${where}: not JSON (${(err as Error).message})`);
  }
  const format = (data as Record<string, unknown> | null)?.format;
  if (typeof format === 'string' && format !== USAGE_FORMAT && format.startsWith('server-listing-usage-profile/'))
    throw new UsageProfileError(`${where}: a usage profile of format ${format}; this version reads ${USAGE_FORMAT}`);
  const check = validator();
  if (!check(data)) {
    const errors = (check.errors ?? [])
      .slice(0, 5)
      .map((e) => `${e.instancePath || '(top)'} ${e.message}`)
      .join('; ');
    throw new UsageProfileError(`${where}: not a usage profile (${USAGE_FORMAT}): ${errors}`);
  }
  return data as UsageProfile;
}
