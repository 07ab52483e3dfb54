// Negative checks generated from the spec: for every parameter (and every property of a
// JSON request body), the values its schema refuses (a wrong type, below the minimum,
// above the maximum, outside the enum, against the pattern, too long), each sent alone.
// Each must get the declared 400 with the error body, whose message names what was
// wrong. A new parameter is covered without code.
import { deref } from '../../spec/load.ts';
import type { Operation } from '../../spec/model.ts';
import { provenanceOf, weakest } from '../../spec/provenance.ts';
import type { SuiteContext } from './context.ts';
import { newKeyBody, noteCreatedKey } from './keys.ts';
import { queryString } from './rows.ts';

export interface BadValue {
  /** The value as sent (a query or path string, or a JSON value in a body). */
  value: unknown;
  /** Which rule it breaks, for people: `above maximum 500`. */
  breaks: string;
}

/** A string of the same shape as `sample` that no value of the enum equals (case-insensitively). */
function notInEnum(values: unknown[]): string {
  const taken = new Set(values.map((v) => String(v).toLowerCase()));
  const shape = String(values[0] ?? 'x');
  for (const fill of ['z', 'q', 'x']) {
    const candidate = shape.replace(/[a-z]/g, fill).replace(/[A-Z]/g, fill.toUpperCase()).replace(/\d/g, '9');
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
  return `${shape}-unknown`;
}

/** Variants of the example that break the pattern: an invalid character, a zero or oversized number in place of the last digits. */
function againstPattern(pattern: string, example: unknown): string[] {
  const re = new RegExp(pattern, 'u');
  const ex = String(example ?? 'x');
  const lastDigits = /\d+(?!.*\d)/;
  const candidates = [`${ex}!`, ex.replace(lastDigits, '0'), ex.replace(lastDigits, '99999'), ex.replace(lastDigits, 'abc'), ' '];
  return [...new Set(candidates)].filter((c) => c !== ex && c.trim() !== '' && !re.test(c)).slice(0, 3);
}

/**
 * The values a schema refuses. `inQuery`: an empty string means "left out" there, so a
 * minLength is not broken with one.
 */
export function badValues(schema: Record<string, any>, example: unknown, options: { inQuery: boolean; inBody?: boolean }): BadValue[] {
  const out: BadValue[] = [];
  const body = options.inBody === true;
  if (schema.type === 'integer' || schema.type === 'number') {
    out.push({ value: 'abc', breaks: `not ${schema.type === 'integer' ? 'an integer' : 'a number'}` });
    if (typeof schema.minimum === 'number') out.push({ value: body ? schema.minimum - 1 : String(schema.minimum - 1), breaks: `below minimum ${schema.minimum}` });
    if (typeof schema.maximum === 'number') out.push({ value: body ? schema.maximum + 1 : String(schema.maximum + 1), breaks: `above maximum ${schema.maximum}` });
  } else if (schema.type === 'boolean') {
    out.push({ value: 'maybe', breaks: 'not a boolean' });
  } else if (schema.type === 'string' || Array.isArray(schema.enum)) {
    if (body) out.push({ value: 123, breaks: 'not a string' });
    if (Array.isArray(schema.enum)) out.push({ value: notInEnum(schema.enum), breaks: `not one of ${schema.enum.join(', ')}` });
    if (typeof schema.pattern === 'string') for (const v of againstPattern(schema.pattern, example)) out.push({ value: v, breaks: 'against its pattern' });
    if (typeof schema.maxLength === 'number') out.push({ value: 'x'.repeat(schema.maxLength + 1), breaks: `longer than maxLength ${schema.maxLength}` });
    if (typeof schema.minLength === 'number' && schema.minLength > 0 && !(options.inQuery && schema.minLength === 1)) {
      out.push({ value: 'x'.repeat(schema.minLength - 1), breaks: `shorter than minLength ${schema.minLength}` });
    }
  }
  return out;
}

const show = (v: unknown): string => {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > 24 ? `${s.slice(0, 12)}…(${s.length} chars)` : s;
};

/** The request path with every path parameter filled from its example, one of them replaced. */
export function pathWith(op: Operation, name?: string, value?: string): string {
  // A ':' may stand in a path segment as it is (RFC 3986 pchar), as real clients send `host:port`.
  return op.path.replace(/\{([^}]+)\}/g, (_m, p: string) =>
    encodeURIComponent(p === name ? String(value) : String(op.parameters.find((x) => x.name === p)?.example ?? 'x')).replace(/%3A/gi, ':'),
  );
}

export async function checkNegatives(ctx: SuiteContext, readHeaders: Record<string, string>): Promise<void> {
  const errorBody = provenanceOf(ctx.model.doc.components.schemas.ErrorBody);
  for (const op of ctx.model.operations.filter((o) => ctx.selected(o))) {
    if (!op.responses.has(400)) continue;
    const blocked = ctx.writesBlocked(op);
    const principal = op.allowedSchemes.map((s) => ctx.principalForScheme(s)).find((p) => p && ctx.headersFor(p));
    const headers = op.schemes.length ? (principal ? ctx.headersFor(principal) : undefined) : readHeaders;
    for (const p of op.parameters.filter((x) => x.in === 'query' || x.in === 'path')) {
      const schema = p.schema;
      for (const bad of badValues(schema, p.example, { inQuery: p.in === 'query' })) {
        if (ctx.accepts(p.schema, bad.value)) continue;
        const provenance = weakest(op.provenance, p.provenance, errorBody);
        const name = `negative: ${p.in} ${p.name}=${show(bad.value)} (${bad.breaks}) -> 400 with the error body naming '${p.name}'`;
        if (!ctx.wants(provenance)) continue;
        if (blocked || !headers) {
          ctx.skip(op, name, provenance, blocked ?? `no credentials for ${op.allowedSchemes.join(' or ')}`);
          continue;
        }
        const url = p.in === 'path' ? ctx.url(pathWith(op, p.name, String(bad.value))) : ctx.url(`${pathWith(op)}${queryString({ [p.name]: String(bad.value) })}`);
        await send400(ctx, op, name, provenance, { method: op.method, url, headers }, p.name);
      }
    }
    await checkBadBodies(ctx, op, headers, blocked, errorBody);
  }
}

/** Every property of a JSON request body, broken one at a time; and a property the schema does not know. */
async function checkBadBodies(ctx: SuiteContext, op: Operation, headers: Record<string, string> | undefined, blocked: string | undefined, errorBody: ReturnType<typeof provenanceOf>): Promise<void> {
  const schema = op.requestBody?.schema ? deref<Record<string, any>>(ctx.model.doc, op.requestBody.schema) : undefined;
  if (!schema?.properties) return;
  // The suite's own valid body (a key named after the run, expiring in a day), one property broken.
  const valid = op.method === 'POST' ? newKeyBody(ctx) : {};
  const cases: { property: string; value: unknown; breaks: string; provenance: ReturnType<typeof weakest> }[] = [];
  for (const [property, raw] of Object.entries<any>(schema.properties)) {
    const prop = deref<Record<string, any>>(ctx.model.doc, raw);
    for (const bad of badValues(prop, prop.example, { inQuery: false, inBody: true })) {
      cases.push({ property, ...bad, provenance: weakest(op.provenance, provenanceOf(schema), provenanceOf(prop), errorBody) });
    }
  }
  if (schema.additionalProperties === false) cases.push({ property: 'contract_unknown', value: 1, breaks: 'a property the schema does not allow', provenance: weakest(op.provenance, provenanceOf(schema), errorBody) });
  for (const c of cases) {
    const name = `negative: body ${c.property}=${show(c.value)} (${c.breaks}) -> 400 with the error body naming '${c.property}'`;
    if (!ctx.wants(c.provenance)) continue;
    if (blocked || !headers) {
      ctx.skip(op, name, c.provenance, blocked ?? `no credentials for ${op.allowedSchemes.join(' or ')}`);
      continue;
    }
    const url = ctx.url(pathWith(op));
    await send400(ctx, op, name, c.provenance, { method: op.method, url, headers, body: { ...valid, [c.property]: c.value } }, c.property);
  }
}

async function send400(ctx: SuiteContext, op: Operation, name: string, provenance: ReturnType<typeof weakest>, request: Parameters<SuiteContext['exchange']>[0], names: string): Promise<void> {
  const ex = await ctx.exchange(request);
  // A server that wrongly accepted a create made a key: it is removed with the rest.
  if (ex.response && ex.response.status < 300 && op.method === 'POST') noteCreatedKey(ctx, ex.response.json);
  ctx.verify(op, name, provenance, ex, { status: 400, extra: (res) => namesIt(res.json, names, res.status) });
}

/** The spec: the message "names the parameter and the rule". */
export function namesIt(body: unknown, name: string, status: number): string[] {
  if (status !== 400) return [];
  const message = (body as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' && message.includes(name) ? [] : [`body.message ${JSON.stringify(message)} does not name '${name}'`];
}

