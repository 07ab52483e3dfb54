// The one judge of an answer against the spec: is its status declared, is it JSON where
// the spec promises JSON, does its body match the declared schema (or the error body),
// does it carry the headers its status declares. The contract suite, the mock's
// self-check and the fuzzer all ask it; a validation proxy can hand it one exchange.
// Schemas are cut to a provenance level (spec/json-schema.ts), so a judge at `interface`
// holds an answer only to what the interface document promises.
import type { ErrorObject, ValidateFunction } from 'ajv';
import { schemaLevel, toJsonSchema } from './json-schema.ts';
import { reasonPhrase } from './messages.ts';
import { operationFor, type Operation, type SpecModel } from './model.ts';
import { weakest, within, type Provenance } from './provenance.ts';
import { describeErrors, SchemaValidator } from './validator.ts';

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

/** What a request looked like, as far as judging its answer goes. */
export interface AskedRequest {
  method: string;
  /** The path with the base path and the query, as sent. */
  path: string;
  headers?: Record<string, string>;
}

export type FindingKind = '5xx' | 'not-json' | 'error-shape' | 'schema' | 'header' | 'undeclared';

export interface Finding {
  kind: FindingKind;
  detail: string;
  /** How firm the promise it breaks is: the softest part of the spec the finding rests on. */
  level: Provenance;
  /** For `schema`: the errors as keys without the row (`body.results.*.port must be integer`); for `header`: the header's name. */
  keys?: string[];
}

export interface BodyVerdict {
  problems: string[];
  /** The schema errors as keys that do not depend on the row (`body.results.*.port must be integer`): failures that share one share a cause. */
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

/** The media type of a Content-Type header, without parameters, lower case. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

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

const judges = new WeakMap<SpecModel, Map<Provenance, AnswerJudge>>();

export class AnswerJudge {
  /** The judge of a model at a level, made once: it holds only what it compiled. */
  static of(model: SpecModel, level: Provenance = 'assumed'): AnswerJudge {
    let byLevel = judges.get(model);
    if (!byLevel) judges.set(model, (byLevel = new Map()));
    let judge = byLevel.get(level);
    if (!judge) byLevel.set(level, (judge = new AnswerJudge(model, level)));
    return judge;
  }

  private readonly validator: SchemaValidator;
  private readonly coercing: SchemaValidator;
  private readonly compiled = new Map<string, Compiled>();
  private readonly headerValidators = new WeakMap<object, ValidateFunction>();

  /** `level`: the softest promise the judge holds an answer to (`assumed`, the default: all of them). */
  constructor(
    readonly model: SpecModel,
    readonly level: Provenance = 'assumed',
  ) {
    this.validator = new SchemaValidator(model.doc);
    // Header and parameter values travel as text: "20" is an integer there.
    this.coercing = new SchemaValidator(model.doc, { coerceTypes: true, allErrors: false });
  }

  private compile(key: string, schema: unknown): Compiled {
    if (!this.compiled.has(key)) {
      const level = schema === undefined ? undefined : schemaLevel(this.model.doc, schema, this.level);
      if (!level) this.compiled.set(key, undefined);
      else {
        const { $schema: _ignored, ...rest } = toJsonSchema(this.model.doc, schema, this.level);
        this.compiled.set(key, { validate: this.validator.compile(rest), level });
      }
    }
    return this.compiled.get(key);
  }

  private bodyValidator(op: Operation, status: number): Compiled {
    return this.compile(`${op.operationId} ${status}`, op.responses.get(status)?.schema);
  }

  private errorValidator(): Compiled {
    return this.compile('ErrorBody', { $ref: ERROR_BODY_REF });
  }

  /** How firm a check of this response's body is at the judge's level; undefined when the level keeps nothing of its schema. */
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
          `body is not JSON: ${text.length > 120 ? `${text.slice(0, 120)}… (${text.length} chars)` : text || '(empty body)'}`,
        ],
        schemaErrors: ['body is not JSON'],
      };
    }
    return compiled.validate(body.json)
      ? { problems: [], schemaErrors: [] }
      : {
          problems: [describeErrors(compiled.validate.errors, 'body')],
          schemaErrors: schemaErrorKeys(compiled.validate.errors),
        };
  }

  /** The body against the schema the spec declares for `status` on `op`. */
  body(op: Operation, status: number, answer: Answer): BodyVerdict {
    return this.judgeBody(this.bodyValidator(op, status), answer);
  }

  /** A parsed body's schema errors against the declared schema of `status` (none when it matches, or the level keeps nothing of it), for a caller that groups them itself (by row). */
  bodyErrors(op: Operation, status: number, json: unknown): ErrorObject[] {
    const compiled = this.bodyValidator(op, status);
    return !compiled || compiled.validate(json) ? [] : [...(compiled.validate.errors ?? [])];
  }

  /** The body against the error body. */
  errorBody(answer: Answer): BodyVerdict {
    return this.judgeBody(this.errorValidator(), answer);
  }

  /** Whether a schema allows a value as it travels in a URL or a header ("20" for an integer). */
  accepts(schema: Record<string, any>, value: unknown): boolean {
    let validate = this.headerValidators.get(schema);
    if (!validate)
      this.headerValidators.set(
        schema,
        (validate = this.coercing.compile({ type: 'object', properties: { v: schema } })),
      );
    return Boolean(validate({ v: value }));
  }

  /** The headers `status` declares on `op` (within the judge's level) that the answer lacks or carries with a refused value. */
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

  /**
   * One exchange as any client may count on it (the fuzzer, a validation proxy): no 5xx
   * it did not ask for (`Prefer: code=`), JSON wherever HTTP allows a body, every 4xx in
   * the error shape with its reason phrase (429: the real service's own text), a declared
   * status with its declared body and headers, no success the operation does not declare.
   */
  exchange(
    ex: { operation?: Operation; request: AskedRequest; response: Answer },
    options: { headers?: boolean } = {},
  ): Finding[] {
    const { request, response: answer } = ex;
    const out: Finding[] = [];
    const { status } = answer;
    const text = answer.body;
    const op = ex.operation ?? this.operationOf(request);
    const opLevel = op?.provenance ?? 'assumed';
    // A server error breaks the operation's promise of a declared answer; with no operation, this project's rule.
    if (status >= 500 && preferredCode(request.headers ?? {}) !== status)
      out.push({ kind: '5xx', detail: `${status}: ${text.slice(0, 200)}`, level: opLevel });
    const jsonLevel = weakest(opLevel, this.jsonLevel() ?? 'assumed');
    // HEAD answers, 204 and 304 carry no body by HTTP's rules.
    if (request.method === 'HEAD' || status === 204 || status === 304) {
      if (text !== '')
        out.push({ kind: 'not-json', detail: `${status} to ${request.method} carries a body`, level: jsonLevel });
      return out;
    }
    const body = parsed(answer);
    if (!body.ok)
      return [
        ...out,
        {
          kind: 'not-json',
          detail: `${status} body is not JSON: ${JSON.stringify(text.slice(0, 120))}`,
          level: jsonLevel,
        },
      ];
    if (!/^application\/json\b/i.test(answer.headers['content-type'] ?? ''))
      out.push({
        kind: 'not-json',
        detail: `${status} has Content-Type ${JSON.stringify(answer.headers['content-type'] ?? '')}`,
        level: jsonLevel,
      });
    if (status >= 400) out.push(...this.errorShape(status, { ...answer, json: body.json }, opLevel));
    if (!op) return out;
    if (!op.responses.has(status)) {
      if (status < 400)
        out.push({ kind: 'undeclared', detail: `${op.operationId} does not declare ${status}`, level: op.provenance });
      return out;
    }
    const verdict = this.body(op, status, { ...answer, json: body.json });
    const bodyLevel = weakest(op.provenance, this.bodyLevel(op, status) ?? 'assumed');
    for (const p of verdict.problems)
      out.push({
        kind: 'schema',
        detail: `${op.operationId} ${status}: ${p}`,
        level: bodyLevel,
        keys: verdict.schemaErrors,
      });
    if (options.headers !== false) out.push(...this.headerFindings(op, status, answer));
    return out;
  }

  /** The headers `status` declares on `op`, as exchange() reports them: one finding per header missing or refused. */
  headerFindings(op: Operation, status: number, answer: Answer): Finding[] {
    return this.headers(op, status, answer).map((h) => ({
      kind: 'header',
      detail: `${op.operationId} ${status}: header ${h.name} ${h.value === undefined ? 'is missing' : `is ${JSON.stringify(h.value)}, which its schema does not allow`}`,
      level: weakest(op.provenance, h.provenance),
      keys: [h.name],
    }));
  }

  private errorShape(status: number, answer: Answer, opLevel: Provenance): Finding[] {
    const level = this.errorBodyLevel();
    if (!level) return [];
    const verdict = this.errorBody(answer);
    if (verdict.problems.length)
      return [
        {
          kind: 'error-shape',
          detail: `${status}: ${verdict.problems.join('; ')}`,
          level: weakest(opLevel, level),
          keys: verdict.schemaErrors,
        },
      ];
    const message = (answer.json as { message: string }).message;
    if (status === 429 || message.startsWith(reasonPhrase(status))) return [];
    return [
      {
        kind: 'error-shape',
        detail: `${status} message does not start with "${reasonPhrase(status)}": ${JSON.stringify(message)}`,
        level: weakest(opLevel, level),
      },
    ];
  }

  /** The operation a request path belongs to, read as a server reads it (dot segments removed). */
  operationOf(request: AskedRequest): Operation | undefined {
    const base = this.model.basePath;
    const pathname = new URL(`http://localhost${request.path}`).pathname;
    if (pathname !== base && !pathname.startsWith(`${base}/`)) return undefined;
    return operationFor(this.model, request.method, pathname.slice(base.length));
  }
}

/** The status a `Prefer: code=NNN` header asks for, if any. */
function preferredCode(headers: Record<string, string>): number | undefined {
  const prefer = Object.entries(headers).find(([k]) => k.toLowerCase() === 'prefer')?.[1];
  const code = prefer && /(?:^|[,;]\s*)code=(\d{3})\b/.exec(prefer)?.[1];
  return code ? Number(code) : undefined;
}
