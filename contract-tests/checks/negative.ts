// `negative:` for every parameter and every property of a JSON request body, the values
// its schema refuses (a wrong type, below the minimum, above the maximum, outside the
// enum, against the pattern, too long), each sent alone. The family only chooses and
// sends them: the `refused-values` judge reads from each request what it refuses and
// holds the answer to the declared 400 whose message names it. A new parameter is
// covered without code.
import { deref } from '../../spec/load.ts';
import { STATUS_JUDGES } from '../../spec/judges/registry.ts';
import type { Operation } from '../../spec/model.ts';
import { provenanceOf, weakest, type Provenance } from '../../spec/provenance.ts';
import type { CheckResult } from '../shared/recorder.ts';
import type { HttpRequest } from '../transport/http.ts';
import { skip } from './skip.ts';
import { queryString } from './meaning/answer-rows.ts';
import { pathWith } from './request-paths.ts';
import { family, type GivenFor } from './run-parts.ts';

const NEEDS = ['spec', 'scope', 'judging', 'credentials', 'http', 'reads', 'keys'] as const;
type Run = GivenFor<typeof NEEDS>;

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

/**
 * Variants of the example that break the pattern: an invalid character, a
 * zero or oversized number in place of the last digits.
 */
function againstPattern(pattern: string, example: unknown): string[] {
  const re = new RegExp(pattern, 'u');
  const ex = String(example ?? 'x');
  const lastDigits = /\d+(?!.*\d)/;
  const candidates = [
    `${ex}!`,
    ex.replace(lastDigits, '0'),
    ex.replace(lastDigits, '99999'),
    ex.replace(lastDigits, 'abc'),
    ' ',
  ];
  return [...new Set(candidates)].filter((c) => c !== ex && c.trim() !== '' && !re.test(c)).slice(0, 3);
}

/**
 * The values a schema refuses. `inQuery`: an empty string means "left out" there, so a
 * minLength is not broken with one.
 */
export function badValues(
  schema: Record<string, any>,
  example: unknown,
  options: { inQuery: boolean; inBody?: boolean },
): BadValue[] {
  const out: BadValue[] = [];
  const body = options.inBody === true;
  if (schema.type === 'integer' || schema.type === 'number') {
    out.push({ value: 'abc', breaks: `not ${schema.type === 'integer' ? 'an integer' : 'a number'}` });
    if (typeof schema.minimum === 'number')
      out.push({
        value: body ? schema.minimum - 1 : String(schema.minimum - 1),
        breaks: `below minimum ${schema.minimum}`,
      });
    if (typeof schema.maximum === 'number')
      out.push({
        value: body ? schema.maximum + 1 : String(schema.maximum + 1),
        breaks: `above maximum ${schema.maximum}`,
      });
  } else if (schema.type === 'boolean') {
    out.push({ value: 'maybe', breaks: 'not a boolean' });
  } else if (schema.type === 'string' || Array.isArray(schema.enum)) {
    if (body) out.push({ value: 123, breaks: 'not a string' });
    if (Array.isArray(schema.enum))
      out.push({ value: notInEnum(schema.enum), breaks: `not one of ${schema.enum.join(', ')}` });
    if (typeof schema.pattern === 'string')
      for (const v of againstPattern(schema.pattern, example)) out.push({ value: v, breaks: 'against its pattern' });
    if (typeof schema.maxLength === 'number')
      out.push({ value: 'x'.repeat(schema.maxLength + 1), breaks: `longer than maxLength ${schema.maxLength}` });
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

interface Case {
  /** The parameter or body property broken. */
  name: string;
  /** Which rule the value breaks, for people. */
  breaks: string;
  check: string;
  level: Provenance;
  request: HttpRequest;
}

/** Every query and path parameter, broken one value at a time. */
function parameterCases(op: Operation, run: Run, headers: Record<string, string>): Case[] {
  const errorBody = run.judging.ctx.schemas.errorBodyLevel();
  return op.parameters
    .filter((x) => x.in === 'query' || x.in === 'path')
    .flatMap((p) =>
      badValues(p.schema, p.example, { inQuery: p.in === 'query' })
        .filter((bad) => !run.judging.ctx.schemas.accepts(p.schema, bad.value))
        .map((bad) => ({
          name: p.name,
          breaks: `${p.name}=${show(bad.value)}: ${bad.breaks}`,
          check:
            `negative: ${p.in} ${p.name}=${show(bad.value)} (${bad.breaks}) -> 400 with the error body ` +
            `naming '${p.name}'`,
          level: weakest(op.provenance, p.provenance, errorBody),
          request: {
            method: op.method,
            url: run.http.url(
              p.in === 'path'
                ? pathWith(op, p.name, String(bad.value))
                : `${pathWith(op)}${queryString({ [p.name]: String(bad.value) })}`,
            ),
            headers,
          },
        })),
    );
}

/**
 * Every property of a JSON request body, broken one at a time (on the suite's own
 * valid body); and a property the schema does not know.
 */
function bodyCases(op: Operation, run: Run, headers: Record<string, string>): Case[] {
  const schema = op.requestBody?.schema ? deref<Record<string, any>>(run.spec.doc, op.requestBody.schema) : undefined;
  if (!schema?.properties) return [];
  const errorBody = run.judging.ctx.schemas.errorBodyLevel();
  const valid = op === run.keys.lifecycle?.create ? run.keys.newKeyBody() : {};
  const url = run.http.url(pathWith(op));
  const cases: Case[] = [];
  const add = (name: string, value: unknown, breaks: string, level: Provenance) =>
    cases.push({
      name,
      breaks: `${name}=${show(value)}: ${breaks}`,
      check: `negative: body ${name}=${show(value)} (${breaks}) -> 400 with the error body naming '${name}'`,
      level,
      request: { method: op.method, url, headers, body: { ...valid, [name]: value } },
    });
  for (const [property, raw] of Object.entries<any>(schema.properties)) {
    const prop = deref<Record<string, any>>(run.spec.doc, raw);
    for (const bad of badValues(prop, prop.example, { inQuery: false, inBody: true }))
      add(property, bad.value, bad.breaks, weakest(op.provenance, provenanceOf(schema), provenanceOf(prop), errorBody));
  }
  if (schema.additionalProperties === false)
    add(
      'contract_unknown',
      1,
      'a property the schema does not allow',
      weakest(op.provenance, provenanceOf(schema), errorBody),
    );
  return cases;
}

async function negatives(op: Operation, run: Run): Promise<CheckResult[]> {
  if (!op.responses.has(400)) return [];
  const headers = op.schemes.length ? run.credentials.forOperation(op) : run.reads.headers;
  const blocked =
    run.scope.writesBlocked(op) ?? (headers ? undefined : `no credentials for ${op.allowedSchemes.join(' or ')}`);
  const out: CheckResult[] = [];
  for (const c of [...parameterCases(op, run, headers ?? {}), ...bodyCases(op, run, headers ?? {})]) {
    if (!run.scope.wants(c.level)) continue;
    if (blocked) {
      out.push(...skip(run.scope, { op, check: c.check, level: c.level, reason: blocked }));
      continue;
    }
    const exchange = await run.http.send(c.request);
    const expected = `400 with the error body, its message naming '${c.name}' (${c.breaks})`;
    out.push(run.judging.case({ op, check: c.check, level: c.level, about: STATUS_JUDGES, expected }, exchange));
  }
  return out;
}

export const negativeFamily = family({ name: 'negative', needs: NEEDS, perOperation: negatives });
