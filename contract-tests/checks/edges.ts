// `edges:` for every parameter and every property of a JSON request body, each value its
// schema allows at the very edge, sent alone: a bound itself (`minimum`, `maximum`: the
// spec's bounds are inclusive), a text of exactly `maxLength` (or `minLength`), each value
// of an enum, a value matching the pattern, and an empty value where the spec allows one
// (it means left out). The `negative:` family sends the values just past each edge; this
// one the values on it, so a target that reads a bound as strict fails here
// (Schemathesis' coverage phase sends both sides of a keyword the same way). The family
// only sends them: what each is owed is the registry's (a public lookup's success; a path
// value that names nothing, its 404).
import { deref } from '../../spec/load.ts';
import { STATUS_JUDGES } from '../../spec/judges/registry.ts';
import type { Known } from '../../spec/judges/exchange.ts';
import type { Operation, Parameter } from '../../spec/model.ts';
import { provenanceOf, weakest } from '../../spec/provenance.ts';
import type { CheckResult } from '../shared/recorder.ts';
import { queryString } from './meaning/answer-rows.ts';
import { skip } from './skip.ts';
import { family, type GivenFor } from './run-parts.ts';

const NEEDS = ['spec', 'scope', 'judging', 'credentials', 'http', 'reads', 'keys', 'runId'] as const;
type Run = GivenFor<typeof NEEDS>;

/** A value a schema allows, at one of its edges. */
export interface EdgeValue {
  value: unknown;
  /** Which edge, for people: `maximum 500`. */
  edge: string;
}

/**
 * Texts of exactly `length` characters to try for a schema: letters, or a host name (labels of 63 at most, under
 * `.invalid`).
 */
function texts(length: number, seed: string): string[] {
  const host = (suffix: string): string => {
    let left = length - suffix.length;
    if (left < 1) return '';
    const labels: string[] = [];
    while (left > 0) {
      let n = Math.min(63, left);
      // Leave room for a dot and a letter rather than a dot alone.
      if (left - n === 1) n -= 1;
      labels.push('a'.repeat(n));
      left -= n;
      if (left > 0) left -= 1;
    }
    return `${labels.join('.')}${suffix}`;
  };
  // A host with the widest port first: a name of 253 at most, as DNS allows, and the port's 6 characters.
  return [seed.padEnd(length, 'x').slice(0, length), 'x'.repeat(length), host('.invalid:65535'), host('.invalid')];
}

/**
 * The values a schema allows at its edges. `inQuery`: an empty string means "left out"
 * there, so a `minLength` of 0 or 1 has no edge of its own. `fits`: whether the spec
 * allows a value (the value at an edge must pass every other keyword too).
 */
export function edgeValues(
  schema: Record<string, any>,
  example: unknown,
  fits: (value: unknown) => boolean,
  options: { inQuery: boolean; inBody?: boolean; seed?: string; sampled?: boolean },
): EdgeValue[] {
  const out: EdgeValue[] = [];
  const body = options.inBody === true;
  const add = (value: unknown, edge: string) => {
    if (fits(value)) out.push({ value, edge });
  };
  if (schema.type === 'integer' || schema.type === 'number') {
    for (const keyword of ['minimum', 'maximum'] as const)
      if (typeof schema[keyword] === 'number')
        add(body ? schema[keyword] : String(schema[keyword]), `${keyword} ${schema[keyword]}`);
  } else if (schema.type === 'string' || Array.isArray(schema.enum)) {
    if (Array.isArray(schema.enum) && !options.sampled) for (const v of schema.enum) add(String(v), `${v} of its enum`);
    if (typeof schema.pattern === 'string' && example !== undefined) add(String(example), 'its pattern (the example)');
    for (const keyword of ['maxLength', 'minLength'] as const) {
      const n = schema[keyword];
      if (typeof n !== 'number' || (keyword === 'minLength' && (n === 0 || (options.inQuery && n === 1)))) continue;
      const text = texts(n, options.seed ?? String(example ?? 'x')).find((t) => t.length === n && fits(t));
      if (text !== undefined) add(text, `${keyword} ${n}`);
    }
  }
  return out;
}

/** What an edge case is about: the status the request is owed. */
const ABOUT = STATUS_JUDGES;

/** Each query and path parameter at each edge, alone; a path value that names nothing is owed its 404. */
async function parameterEdges(op: Operation, run: Run, headers: Record<string, string>): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  const schemas = run.judging.ctx.schemas;
  const nothing = `contract${run.runId}`;
  for (const p of op.parameters.filter((x) => x.in === 'query' || x.in === 'path')) {
    const level = weakest(op.provenance, p.provenance);
    if (!run.scope.wants(level)) continue;
    // A path value of the suite's own, which names nothing; a query value, the spec's example.
    const example = p.in === 'path' ? nothingFor(run, p) : p.example;
    const edges = edgeValues(p.schema, example, (v) => schemas.accepts(p.schema, v), {
      inQuery: p.in === 'query',
      seed: p.in === 'path' ? nothing : undefined,
      // The sample asks for every sort order already.
      sampled: p.meaning?.rule === 'sort',
    });
    // An empty value of a parameter that allows one means "left out" (real clients send `motd=`).
    if (p.in === 'query' && p.raw.allowEmptyValue) edges.push({ value: '', edge: 'empty (read as left out)' });
    for (const e of edges) {
      const value = String(e.value);
      const path = pathNamingNothing(op, run, p, value);
      const query = p.in === 'query' ? queryString({ [p.name]: value }) : '';
      const exchange = await run.http.send({ method: op.method, url: run.http.url(`${path}${query}`), headers });
      // A path made up by the suite names nothing the target holds: it owes a 404, never a refusal.
      const known: Known | undefined = p.in === 'path' ? { namesNothing: true } : undefined;
      const check = `edges: ${p.in} ${p.name} at ${e.edge} is allowed`;
      out.push(run.judging.case({ op, check, level, about: ABOUT, ...(known ? { known } : {}) }, exchange));
    }
  }
  return out;
}

/**
 * A value the spec allows for a path parameter that names nothing: a host under `.invalid`, an id of the run's, a
 * number as the example.
 */
function nothingFor(run: Run, p: Parameter): string {
  const nothing = `contract${run.runId}`;
  const candidates = [`${nothing}.invalid`, `key_${nothing}`, String(p.example ?? nothing)];
  return candidates.find((v) => run.judging.ctx.schemas.accepts(p.schema, v)) ?? nothing;
}

/** The operation's path with `param` at `value` and every other path parameter at a value that names nothing. */
function pathNamingNothing(op: Operation, run: Run, param: Parameter, value: string): string {
  return op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const v = name === param.name ? value : nothingFor(run, op.parameters.find((x) => x.name === name)!);
    return encodeURIComponent(v).replace(/%3A/gi, ':');
  });
}

/**
 * Each property of a JSON request body at each edge, on the suite's own valid body; a key it creates is removed at
 * once.
 */
async function bodyEdges(op: Operation, run: Run, headers: Record<string, string>): Promise<CheckResult[]> {
  const schema = op.requestBody?.schema ? deref<Record<string, any>>(run.spec.doc, op.requestBody.schema) : undefined;
  if (!schema?.properties) return [];
  const valid = op === run.keys.lifecycle?.create ? run.keys.newKeyBody() : {};
  const out: CheckResult[] = [];
  // A body the spec does not require may be left out altogether.
  if (!op.requestBody?.required && run.scope.wants(op.provenance)) {
    const exchange = await run.http.send({ method: op.method, url: run.http.url(op.path), headers });
    const created = run.keys.keyIn(exchange.response?.json);
    if (created) await run.keys.remove(created);
    const check = 'edges: no body at all is allowed (the body is optional)';
    out.push(run.judging.case({ op, check, level: op.provenance, about: ABOUT }, exchange));
  }
  for (const [name, raw] of Object.entries<any>(schema.properties)) {
    const prop = deref<Record<string, any>>(run.spec.doc, raw);
    const level = weakest(op.provenance, provenanceOf(schema), provenanceOf(prop));
    if (!run.scope.wants(level)) continue;
    const body = (v: unknown) => ({ ...valid, [name]: v });
    const fits = (v: unknown) => run.judging.ctx.schemas.refusedProperties(op, body(v)).length === 0;
    for (const e of edgeValues(prop, prop.example, fits, { inQuery: false, inBody: true, seed: run.runId })) {
      const exchange = await run.http.send({
        method: op.method,
        url: run.http.url(op.path),
        headers,
        body: body(e.value),
      });
      const created = run.keys.keyIn(exchange.response?.json);
      if (created) await run.keys.remove(created);
      const check = `edges: body ${name} at ${e.edge} is allowed`;
      out.push(run.judging.case({ op, check, level, about: ABOUT }, exchange));
    }
  }
  return out;
}

async function edges(op: Operation, run: Run): Promise<CheckResult[]> {
  const headers = op.schemes.length ? run.credentials.forOperation(op) : run.reads.headers;
  const blocked =
    run.scope.writesBlocked(op) ?? (headers ? undefined : `no credentials for ${op.allowedSchemes.join(' or ')}`);
  if (blocked) {
    const level = op.provenance;
    const any = op.parameters.some((p) => p.in !== 'header') || op.requestBody !== undefined;
    return any
      ? skip(run.scope, { op, check: 'edges: each value at the edge of its schema is allowed', level, reason: blocked })
      : [];
  }
  return [...(await parameterEdges(op, run, headers!)), ...(await bodyEdges(op, run, headers!))];
}

export const edgesFamily = family({ name: 'edges', needs: NEEDS, perOperation: edges });
