// The spec's schemas compiled once per model and level: the body each declared status of
// an operation promises, the error body, each declared header, a parameter's value as it
// travels ("20" is an integer in a URL). The judges (registry.ts), the mock's self-check
// and the fuzzer read answers through these. Schemas are cut to a provenance level
// (spec/json-schema.ts), so schemas at `interface` hold an answer only to what the
// interface document promises, and each says how firm a check against it is.
import type { ErrorObject, ValidateFunction } from 'ajv';
import { schemaLevel, toJsonSchema } from '../json-schema.ts';
import type { Operation, SpecModel } from '../model.ts';
import { within, type Provenance } from '../provenance.ts';
import { describeErrors, SchemaValidator } from '../validator.ts';
import { mediaType, type ReceivedAnswer } from './exchange.ts';

/** The body of every error answer; named here and nowhere else. */
export const ERROR_BODY_REF = '#/components/schemas/ErrorBody';

export interface Answer {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  /** The body as sent. */
  body: string;
  /** The parsed body, when the caller has it already (then `body` is not read). */
  json?: unknown;
}

/**
 * A received answer as the schemas read it: its text as the body, with the body already
 * parsed. Read field by field, not spread: a receiver may read text and JSON only when
 * asked (the proxy's answers do, from getters a spread would not copy).
 */
export function asBody(answer: ReceivedAnswer): Answer {
  return { status: answer.status, headers: answer.headers, body: answer.text, json: answer.json };
}

export interface BodyVerdict {
  problems: string[];
  /**
   * The schema errors as keys that do not depend on the row (`body.results.*.port must be integer`): failures that
   * share one share a cause.
   */
  schemaErrors: string[];
}

/** A declared header the answer lacks, or carries with a value its schema refuses. */
export interface HeaderProblem {
  name: string;
  provenance: Provenance;
  /** The refused value; undefined when the header is missing. */
  value?: string;
}

type Compiled = { validate: ValidateFunction; level: Provenance } | undefined;

/** Body-schema errors as keys that do not depend on the row: `body.results.*.port must be integer`. */
export function schemaErrorKeys(errors: ErrorObject[] | null | undefined): string[] {
  const keys = (errors ?? []).map((e) =>
    describeErrors([{ ...e, instancePath: e.instancePath.replace(/\/\d+(?=\/|$)/g, '/*') }], 'body'),
  );
  return [...new Set(keys.filter(Boolean))];
}

function parsed(answer: Answer): { json?: unknown; ok: boolean } {
  if ('json' in answer && answer.json !== undefined) return { json: answer.json, ok: true };
  try {
    return { json: JSON.parse(answer.body), ok: true };
  } catch {
    return { ok: false };
  }
}

const compiledByModel = new WeakMap<SpecModel, Map<Provenance, Schemas>>();

/** Texts remembered per schema by `accepts`. */
const ACCEPTED_KEPT = 256;

export class Schemas {
  /** The schemas of a model at a level, made once: it holds only what it compiled. */
  static of(model: SpecModel, level: Provenance = 'assumed'): Schemas {
    let byLevel = compiledByModel.get(model);
    if (!byLevel) compiledByModel.set(model, (byLevel = new Map()));
    let schemas = byLevel.get(level);
    if (!schemas) byLevel.set(level, (schemas = new Schemas(model, level)));
    return schemas;
  }

  private readonly validator: SchemaValidator;
  private readonly coercing: SchemaValidator;
  private readonly compiled = new Map<string, Compiled>();
  private readonly headerValidators = new WeakMap<object, ValidateFunction>();
  /** Texts each schema was asked about, and its answer (a memo, at most ACCEPTED_KEPT per schema). */
  private readonly accepted = new WeakMap<object, Map<string, boolean>>();
  private readonly requestValidators = new WeakMap<Operation, ValidateFunction>();
  private readonly valueValidators = new WeakMap<object, ValidateFunction>();

  /** `level`: the softest promise an answer is held to (`assumed`, the default: all of them). */
  constructor(
    readonly model: SpecModel,
    readonly level: Provenance = 'assumed',
  ) {
    this.validator = new SchemaValidator(model.doc);
    // Header and parameter values travel as text: "20" is an integer there.
    this.coercing = new SchemaValidator(model.doc, { coerceTypes: true, allErrors: false });
  }

  private compile(key: string, schema: unknown, unformatted: readonly string[] = []): Compiled {
    if (!this.compiled.has(key)) {
      const level = schema === undefined ? undefined : schemaLevel(this.model.doc, schema, this.level);
      if (!level) this.compiled.set(key, undefined);
      else {
        const { $schema: _ignored, ...rest } = toJsonSchema(this.model.doc, schema, this.level);
        const converted = unformatted.length ? withoutFormats(rest, new Set(unformatted)) : rest;
        this.compiled.set(key, { validate: this.validator.compile(converted), level });
      }
    }
    return this.compiled.get(key);
  }

  /**
   * The validator of a status's body; `unformatted` names fields whose `format` does not
   * hold on this answer (a switch of the request replaced it: `relativeTime=true` gives
   * `last_ping` as relative text).
   */
  private bodyValidator(op: Operation, status: number, unformatted: readonly string[] = []): Compiled {
    const key = `${op.operationId} ${status}${unformatted.length ? ` -${unformatted.join(',')}` : ''}`;
    return this.compile(key, op.responses.get(status)?.schema, unformatted);
  }

  private errorValidator(): Compiled {
    return this.compile('ErrorBody', { $ref: ERROR_BODY_REF });
  }

  /**
   * How firm a check of this response's body is at the judge's level; undefined when the level keeps nothing of its
   * schema.
   */
  bodyLevel(op: Operation, status: number): Provenance | undefined {
    return this.bodyValidator(op, status)?.level;
  }

  errorBodyLevel(): Provenance | undefined {
    return this.errorValidator()?.level;
  }

  /** What "requests and responses are JSON" rests on, when the judge's level holds it. */
  jsonLevel(): Provenance | undefined {
    return within(this.model.documentProvenance, this.level) ? this.model.documentProvenance : undefined;
  }

  /** The draft-07 schema of a response cut to the judge's level (for a validator of its own, such as Dredd's). */
  jsonSchemaFor(op: Operation, status: number): Record<string, unknown> | undefined {
    const schema = op.responses.get(status)?.schema;
    return schema ? toJsonSchema(this.model.doc, schema, this.level) : undefined;
  }

  /** The answer's Content-Type, if it is not application/json. */
  notJson(answer: Answer): string | undefined {
    const got = answer.headers['content-type'];
    return mediaType(got) === 'application/json'
      ? undefined
      : `Content-Type is ${got ? `'${got}'` : 'missing'}, expected application/json`;
  }

  /** A body the spec declares as JSON (or that looks like JSON, for a status it does not declare) must say so. */
  contentType(op: Operation | undefined, answer: Answer): string[] {
    const declared = op?.responses.get(answer.status);
    const isJson = declared ? declared.schema !== undefined : answer.body.trim().startsWith('{');
    if (!isJson || !this.jsonLevel()) return [];
    const problem = this.notJson(answer);
    return problem ? [problem] : [];
  }

  private judgeBody(compiled: Compiled, answer: Answer): BodyVerdict {
    if (!compiled) return { problems: [], schemaErrors: [] };
    const body = parsed(answer);
    if (!body.ok) {
      const text = answer.body.replace(/\s+/g, ' ').trim();
      return {
        problems: [
          `body is not JSON: ` +
            `${text.length > 120 ? `${text.slice(0, 120)}… (${text.length} chars)` : text || '(empty body)'}`,
        ],
        schemaErrors: ['body is not JSON'],
      };
    }
    if (compiled.validate(body.json)) return { problems: [], schemaErrors: [] };
    const errors = presentWhereRefused(compiled.validate.errors ?? [], compiled.validate.schema);
    return { problems: [describeErrors(errors, 'body')], schemaErrors: schemaErrorKeys(errors) };
  }

  /**
   * The body against the schema the spec declares for `status` on `op` (`unformatted`: fields whose format a switch
   * replaced).
   */
  body(op: Operation, status: number, answer: Answer, unformatted: readonly string[] = []): BodyVerdict {
    return this.judgeBody(this.bodyValidator(op, status, unformatted), answer);
  }

  /**
   * A parsed body's schema errors against the declared schema of `status` (none when it matches, or the level keeps
   * nothing of it), for a caller that groups them itself (by row).
   */
  bodyErrors(op: Operation, status: number, json: unknown, unformatted: readonly string[] = []): ErrorObject[] {
    const compiled = this.bodyValidator(op, status, unformatted);
    return !compiled || compiled.validate(json)
      ? []
      : presentWhereRefused(compiled.validate.errors ?? [], compiled.validate.schema);
  }

  /** The body against the error body. */
  errorBody(answer: Answer): BodyVerdict {
    return this.judgeBody(this.errorValidator(), answer);
  }

  /**
   * The top-level properties of a request body its schema refuses (a wrong type, one it does
   * not allow, one it requires and misses); `body` when the body as a whole is refused.
   */
  refusedProperties(op: Operation, json: unknown): string[] {
    const schema = op.requestBody?.schema;
    if (schema === undefined) return [];
    let validate = this.requestValidators.get(op);
    if (!validate) this.requestValidators.set(op, (validate = this.validator.compile(schema as object)));
    if (validate(json)) return [];
    const names = (validate.errors ?? []).map((e) => {
      const params = e.params as { additionalProperty?: string; missingProperty?: string };
      return e.instancePath.split('/')[1] || params.additionalProperty || params.missingProperty || 'body';
    });
    return [...new Set(names)];
  }

  /** Whether a schema allows a JSON value as it is (a field of a row). */
  holds(schema: Record<string, any>, value: unknown): boolean {
    let validate = this.valueValidators.get(schema);
    if (!validate)
      this.valueValidators.set(
        schema,
        (validate = this.validator.compile({ type: 'object', properties: { v: schema } })),
      );
    return Boolean(validate({ v: value }));
  }

  /** Whether a schema allows a value as it travels in a URL or a header ("20" for an integer). */
  accepts(schema: Record<string, any>, value: unknown): boolean {
    // A value as it travels (a header, a parameter) is text, and the same texts come again and again.
    if (typeof value === 'string') {
      let seen = this.accepted.get(schema);
      if (!seen) this.accepted.set(schema, (seen = new Map()));
      let ok = seen.get(value);
      if (ok === undefined) {
        if (seen.size >= ACCEPTED_KEPT) seen.clear();
        seen.set(value, (ok = this.validates(schema, value)));
      }
      return ok;
    }
    return this.validates(schema, value);
  }

  private validates(schema: Record<string, any>, value: unknown): boolean {
    let validate = this.headerValidators.get(schema);
    if (!validate)
      this.headerValidators.set(
        schema,
        (validate = this.coercing.compile({ type: 'object', properties: { v: schema } })),
      );
    return Boolean(validate({ v: value }));
  }

  /**
   * The headers `status` declares on `op` (within the judge's level) that the answer lacks or carries with a refused
   * value.
   */
  headers(op: Operation, status: number, answer: Answer): HeaderProblem[] {
    const out: HeaderProblem[] = [];
    for (const h of op.responses.get(status)?.headers.values() ?? []) {
      if (!within(h.provenance, this.level)) continue;
      const value = answer.headers[h.name.toLowerCase()];
      if (value === undefined) out.push({ name: h.name, provenance: h.provenance });
      else if (!this.accepts(h.schema, value)) out.push({ name: h.name, provenance: h.provenance, value });
    }
    return out;
  }
}

/** A converted schema with the `format` of every property named in `fields` taken out, wherever it sits. */
function withoutFormats(schema: unknown, fields: ReadonlySet<string>): any {
  if (Array.isArray(schema)) return schema.map((s) => withoutFormats(s, fields));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key !== 'properties' || !value || typeof value !== 'object') {
      out[key] = withoutFormats(value, fields);
      continue;
    }
    const props: Record<string, unknown> = {};
    for (const [name, prop] of Object.entries(value)) {
      const inner = withoutFormats(prop, fields);
      if (fields.has(name) && inner && typeof inner === 'object') delete (inner as Record<string, unknown>).format;
      props[name] = inner;
    }
    out.properties = props;
  }
  return out;
}

/** The schema at a JSON pointer of a compiled schema (`#/properties/keys/items/allOf/1/not`). */
function schemaAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const part of pointer.replace(/^#\/?/, '').split('/').filter(Boolean))
    node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node;
}

/**
 * A `not: {required: [name]}` the body broke says which property it must not carry: the
 * error is that property's (`body.keys.0.secret must not be present`), not the object's
 * (`body.keys.0 must NOT be valid`, which names nothing).
 */
function presentWhereRefused(errors: readonly ErrorObject[], root: unknown): ErrorObject[] {
  return errors.map((e) => {
    if (e.keyword !== 'not') return e;
    const names = (schemaAt(root, e.schemaPath) as { required?: unknown } | undefined)?.required;
    if (!Array.isArray(names) || names.length !== 1) return e;
    return {
      ...e,
      instancePath: `${e.instancePath}/${names[0]}`,
      keyword: 'notPresent',
      message: 'must not be present',
    };
  });
}
