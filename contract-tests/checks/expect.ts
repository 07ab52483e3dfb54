// Shared state of one suite run inside the Dredd process: the spec model, the run's
// settings, and the primitives every check uses (send a request within the budget and
// the target's rate limits, judge the answer against the spec, record the outcome,
// write down what was created). Every answer passes the hygiene scan on its way in.
import type { ValidateFunction } from 'ajv';
import { credentialHeaders, loadModel, operationFor, type Operation, type SpecModel } from '../../spec/model.ts';
import { weakest, within, type Provenance } from '../../spec/provenance.ts';
import { SchemaValidator, describeErrors } from '../../spec/validator.ts';
import type { RunConfig } from './config.ts';
import { nameFixtureSecrets, unknownKeyLike, unknownSessionLike } from './credentials.ts';
import { describeNetworkError, excerpt, mediaType, send, type HttpRequest, type HttpResponse } from './http.ts';
import { HEADERS_CHECK, HeaderWatch } from './headers.ts';
import { HYGIENE_LEVEL, HygieneWatch, LISTED_PER_OPERATION } from './hygiene.ts';
import { schemaLevel, toJsonSchema } from '../../spec/json-schema.ts';
import { Ledger } from './ledger.ts';
import { describeHeaders, rememberSecret } from './mask.ts';
import { MAX_429_RETRIES, Pacer } from './pacing.ts';
import { Recorder, type Evidence, type Status } from './results.ts';

/** Where results about requests that match no operation of the spec (an unknown path) are filed. */
export const NO_OPERATION = '(no operation)';

/** What a result is filed under: an operation of the spec, or NO_OPERATION. */
export type Subject = Pick<Operation, 'operationId'>;

/** The credential variants the auth matrix sends. */
export type Principal = 'none' | 'apiKey' | 'session' | 'forbidden' | 'unknownKey' | 'malformed' | 'unknownSession';

export interface Exchange {
  request: HttpRequest;
  response?: HttpResponse;
  /** Network failure (no answer at all). */
  error?: string;
  /** Not sent, and why (the request budget is used up). */
  skipped?: string;
  /** How long the request took, waits for rate limits left out. */
  ms?: number;
}

export interface Expectation {
  status: number;
  /** The operation whose spec response the answer is judged by, when not the one recorded under. */
  against?: Operation;
  /** Extra problems a schema cannot express; each names the defect. */
  extra?: (res: HttpResponse) => string[];
  /** Judge the body against the response schema (default true; a meaning check leaves rows to the sample's schema check). */
  schema?: boolean;
  /** What is expected, for people, when more than the status and schema. */
  expected?: string;
}

/**
 * The requests the suite may send beyond Dredd's own (`--budget`). Cleanup is never
 * refused: a key the suite created is always removed.
 */
export class Budget {
  spent = 0;
  refused = 0;
  /** Cleanup requests, sent whatever the budget. */
  cleanup = 0;
  constructor(readonly limit: number) {}
  left(): number {
    return Math.max(0, this.limit - this.spent);
  }
  take(essential = false): boolean {
    if (essential) {
      this.cleanup++;
      return true;
    }
    if (this.spent >= this.limit) {
      this.refused++;
      return false;
    }
    this.spent++;
    return true;
  }
}

export class SuiteContext {
  readonly model: SpecModel;
  readonly recorder: Recorder;
  readonly ledger: Ledger;
  readonly cookieName: string;
  readonly budget: Budget;
  readonly pacer: Pacer;
  readonly hygiene = new HygieneWatch();
  readonly headerWatch = new HeaderWatch();
  /** Statuses of every answer, by operation (NO_OPERATION included): a route that only ever answers 404 is missing. */
  readonly answers = new Map<string, Record<number, number>>();
  /** Media types of every answer with a body, for a wrong Content-Type that is everywhere. */
  readonly answerTypes: Record<string, number> = {};
  /** `operationId status` of every non-2xx status a check set out to provoke. */
  readonly provoked = new Set<string>();
  /** `operationId status` of every answer received. */
  readonly seen = new Set<string>();
  private readonly validator: SchemaValidator;
  private errorBodyValidator: ValidateFunction | undefined;
  private readonly paramValidator: SchemaValidator;
  private readonly paramValidators = new WeakMap<object, ValidateFunction>();
  private readonly compiled = new Map<string, { validate: ValidateFunction; level: Provenance | undefined } | undefined>();
  private readonly unknownKey: string;
  private readonly unknownSession: string;

  constructor(readonly config: RunConfig) {
    this.model = loadModel();
    this.recorder = new Recorder(config.resultsFile);
    this.ledger = new Ledger(config.ledgerFile);
    this.cookieName = this.model.cookieName ?? '';
    this.validator = new SchemaValidator(this.model.doc);
    this.paramValidator = new SchemaValidator(this.model.doc, { coerceTypes: true, allErrors: false });
    this.budget = new Budget(config.budget);
    this.pacer = new Pacer({ honourRemaining: config.pace, groups: this.model.limits.rateLimits.groups });
    const { apiKey, session, forbiddenKey } = config.credentials;
    nameFixtureSecrets(this.model);
    for (const s of [apiKey, session, forbiddenKey]) rememberSecret(s);
    this.unknownKey = unknownKeyLike(apiKey);
    this.unknownSession = unknownSessionLike(session);
  }

  selected(op: Operation): boolean {
    return this.config.only.length === 0 || this.config.only.includes(op.operationId);
  }

  wants(provenance: Provenance): boolean {
    return within(provenance, this.config.provenance);
  }

  url(relative: string): string {
    return `${this.config.baseUrl}${relative}`;
  }

  /** A request URL relative to the base URL (path and query). */
  relative(url: string): string {
    return url.startsWith(this.config.baseUrl) ? url.slice(this.config.baseUrl.length) : new URL(url).pathname;
  }

  /** The operation a request belongs to (by path alone for a wrong method), or NO_OPERATION. */
  subjectOf(method: string, url: string): Subject {
    const path = this.relative(url);
    return operationFor(this.model, method, path) ?? this.model.operations.map((o) => operationFor(this.model, o.method, path)).find(Boolean) ?? { operationId: NO_OPERATION };
  }

  /** Headers for one principal; undefined when the run has no such credential. */
  headersFor(principal: Principal): Record<string, string> | undefined {
    const { apiKey, session, forbiddenKey } = this.config.credentials;
    const bearer = this.schemeOfKind('bearer');
    const cookie = this.schemeOfKind('cookie');
    const present = (scheme: typeof bearer, secret: string | undefined) => (scheme && secret ? credentialHeaders(scheme, secret) : undefined);
    switch (principal) {
      case 'none': return {};
      case 'apiKey': return present(bearer, apiKey);
      case 'session': return present(cookie, session);
      case 'forbidden': return present(bearer, forbiddenKey);
      case 'unknownKey': return present(bearer, this.unknownKey);
      // The valid key without its scheme: a server that accepts it parses the header too loosely.
      case 'malformed': return { Authorization: apiKey ?? this.unknownKey };
      case 'unknownSession': return present(cookie, this.unknownSession);
    }
  }

  /** Headers presenting a key the suite holds (one it created), the way the spec's bearer scheme says. */
  bearer(secret: string): Record<string, string> {
    const scheme = this.schemeOfKind('bearer');
    if (!scheme) throw new Error('the spec declares no bearer security scheme');
    return credentialHeaders(scheme, secret);
  }

  private schemeOfKind(kind: 'bearer' | 'cookie') {
    return [...this.model.schemes.values()].find((s) => s.kind === kind);
  }

  /** The principal whose valid credential authenticates with a spec security scheme. */
  principalForScheme(scheme: string): 'apiKey' | 'session' | undefined {
    const kind = this.model.schemes.get(scheme)?.kind;
    return kind === 'bearer' ? 'apiKey' : kind === 'cookie' ? 'session' : undefined;
  }

  /**
   * Sends one request of the suite's: within the budget (unless `essential`, for
   * cleanup), paced by the target's rate-limit headers, asked again after a 429.
   */
  async exchange(request: HttpRequest, options: { essential?: boolean } = {}): Promise<Exchange> {
    const bucket = this.pacer.bucketOf(this.relative(request.url), request.headers);
    for (let attempt = 0; ; attempt++) {
      if (!this.budget.take(options.essential)) return { request, skipped: `the request budget is used up (--budget ${this.budget.limit})` };
      await this.pacer.beforeSend(bucket);
      let response: HttpResponse;
      const started = performance.now();
      try {
        response = await send(request);
      } catch (err) {
        return { request, error: describeNetworkError(err).text, ms: performance.now() - started };
      }
      const ms = performance.now() - started;
      this.observe(request, response);
      const retryMs = this.pacer.afterAnswer(bucket, response.status, response.headers);
      if (retryMs === undefined || attempt >= MAX_429_RETRIES) return { request, response, ms };
      await this.pacer.pause(retryMs);
    }
  }

  /**
   * Every answer the suite receives, Dredd's included: its status and media type are
   * counted, its declared headers checked and its body scanned for leaks.
   */
  observe(request: HttpRequest, response: Pick<HttpResponse, 'status' | 'headers' | 'text' | 'json'>): void {
    const subject = this.subjectOf(request.method, request.url);
    this.seen.add(`${subject.operationId} ${response.status}`);
    const statuses = this.answers.get(subject.operationId) ?? {};
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    this.answers.set(subject.operationId, statuses);
    if (response.text) {
      const type = mediaType(response.headers['content-type']) || '(none)';
      this.answerTypes[type] = (this.answerTypes[type] ?? 0) + 1;
    }
    const op = this.model.byId.get(subject.operationId);
    if (op) {
      this.headerWatch.note(op, response.status, response.headers, (schema, value) => this.accepts(schema, value), () => ({
        request: describeRequest(this.config.baseUrl, request),
        actual: describeResponse(response),
      }));
    }
    if (!this.wants(HYGIENE_LEVEL)) return;
    const { leaks, listed } = this.hygiene.scan(subject.operationId, response.text, response.json);
    if (!listed) return;
    this.recorder.record({
      operationId: subject.operationId,
      check: HYGIENE_CHECK,
      provenance: HYGIENE_LEVEL,
      status: 'fail',
      request: describeRequest(this.config.baseUrl, request),
      expected: 'an answer without stack traces, SQL text, server file paths or framework internals',
      actual: describeResponse(response),
      message: leaks.map((l) => `${l.kind}: '${l.excerpt}'`).join('; '),
    });
  }

  /** The hygiene verdict of each operation, once every answer is in. */
  recordHygiene(): void {
    if (!this.wants(HYGIENE_LEVEL)) return;
    for (const { operationId, scanned, found } of this.hygiene.summary()) {
      if (found === 0) this.recorder.record({ operationId, check: HYGIENE_CHECK, provenance: HYGIENE_LEVEL, status: 'pass', message: `${scanned} answers scanned` });
      else if (found > LISTED_PER_OPERATION) {
        this.recorder.record({ operationId, check: HYGIENE_CHECK, provenance: HYGIENE_LEVEL, status: 'fail',
          message: `${found - LISTED_PER_OPERATION} more of its ${scanned} answers leak (the first ${LISTED_PER_OPERATION} are listed)` });
      }
    }
  }

  /** The header verdict of each selected operation, once every answer is in. */
  recordHeaders(): void {
    for (const v of this.headerWatch.verdicts()) {
      if (!this.selected(v.op) || !this.wants(v.provenance)) continue;
      this.recorder.record({
        operationId: v.op.operationId,
        check: HEADERS_CHECK,
        provenance: v.provenance,
        status: v.problems.length ? 'fail' : 'pass',
        request: v.problems.length ? v.example?.request : undefined,
        expected: v.problems.length ? `${v.declared.join(', ')} on every answer that declares them` : undefined,
        actual: v.problems.length ? v.example?.actual : undefined,
        message: v.problems.length ? v.problems.join('; ') : `${v.answers} answers carry ${v.declared.join(', ')}`,
        ...(v.missing ? { evidence: { missingHeaders: v.missing } } : {}),
      });
    }
  }

  /** Judges one exchange against the spec's response for `expect.status` and records it. */
  verify(op: Operation, check: string, provenance: Provenance, ex: Exchange, expect: Expectation): boolean {
    const problems: string[] = [];
    const res = ex.response;
    const target = expect.against ?? op;
    if (expect.status >= 300) this.provoked.add(`${target.operationId} ${expect.status}`);
    if (ex.skipped) {
      this.record(op, check, provenance, 'skip', undefined, undefined, ex.skipped);
      return false;
    }
    // The check relies on the body's schema too (what the run's level keeps of it), and on JSON answers.
    const level = weakest(provenance, expect.schema === false ? undefined : this.schemaLevel(target, expect.status), this.contentTypeLevel());
    const evidence: Evidence = { expectedStatus: expect.status };
    if (!res) problems.push(`no answer: ${ex.error ?? 'request failed'}`);
    else {
      if (res.status !== expect.status) problems.push(`status ${res.status}, expected ${expect.status}`);
      const typeProblems = this.contentTypeProblems(target, res.status, res);
      if (typeProblems.length) evidence.wrongType = mediaType(res.headers['content-type']) || '(none)';
      problems.push(...typeProblems);
      // The body is judged against the schema of the status the spec promises, so a wrong
      // status does not also drown the message in schema noise.
      if (res.status === expect.status && expect.schema !== false) {
        const body = this.bodyCheck(target, expect.status, res);
        problems.push(...body.problems);
        if (body.schemaErrors.length) evidence.schemaErrors = body.schemaErrors;
      }
      if (expect.extra) problems.push(...expect.extra(res));
    }
    this.record(op, check, level, problems.length ? 'fail' : 'pass', ex, expect.expected ?? this.expectedText(target, expect.status), compactProblems(problems).join('; '), evidence);
    return problems.length === 0;
  }

  /**
   * Judges an answer that must be the spec's error body with `status`, for requests
   * whose expected answer no operation declares (an unknown path, a wrong method).
   */
  verifyError(subject: Subject, check: string, provenance: Provenance, ex: Exchange, status: number, extra?: (res: HttpResponse) => string[]): boolean {
    if (ex.skipped) {
      this.record(subject, check, provenance, 'skip', undefined, undefined, ex.skipped);
      return false;
    }
    const problems: string[] = [];
    const res = ex.response;
    const errorBody = { $ref: '#/components/schemas/ErrorBody' };
    const level = weakest(provenance, schemaLevel(this.model.doc, errorBody, this.config.provenance));
    const evidence: Evidence = { expectedStatus: status };
    if (!res) problems.push(`no answer: ${ex.error ?? 'request failed'}`);
    else {
      if (res.status !== status) problems.push(`status ${res.status}, expected ${status}`);
      const type = mediaType(res.headers['content-type']);
      if (type !== 'application/json') {
        problems.push(`Content-Type is ${type ? `'${res.headers['content-type']}'` : 'missing'}, expected application/json (the error body)`);
        evidence.wrongType = type || '(none)';
      } else {
        const validate = this.errorBodyValidator ??= this.validator.compile(toJsonSchemaOf(this.model, errorBody.$ref, this.config.provenance));
        if (!validate(res.json)) {
          problems.push(describeErrors(validate.errors, 'body'));
          evidence.schemaErrors = schemaErrorKeys(validate.errors);
        }
      }
      if (extra) problems.push(...extra(res));
    }
    this.record(subject, check, level, problems.length ? 'fail' : 'pass', ex, `${status} application/json {"success": false, "message": "..."}`, compactProblems(problems).join('; '), evidence);
    return problems.length === 0;
  }

  /**
   * Whether a parameter's schema accepts a value as sent in a URL ("20" for an integer).
   * Values the suite sends as valid must be, and values it sends as invalid must not
   * be, or a check would accuse a correct server.
   */
  accepts(schema: Record<string, any>, value: unknown): boolean {
    let validate = this.paramValidators.get(schema);
    if (!validate) this.paramValidators.set(schema, (validate = this.paramValidator.compile({ type: 'object', properties: { v: schema } })));
    return Boolean(validate({ v: value }));
  }

  /** What "requests and responses are JSON" rests on, when the run checks it. */
  contentTypeLevel(): Provenance | undefined {
    return this.wants(this.model.documentProvenance) ? this.model.documentProvenance : undefined;
  }

  /** Every answer the spec gives a JSON body must say so in Content-Type. */
  contentTypeProblems(op: Operation, status: number, res: { headers: Record<string, string>; text: string }): string[] {
    const declared = op.responses.get(status);
    const isJson = declared ? declared.schema !== undefined : res.text.trim().startsWith('{');
    if (!isJson || !this.wants(this.model.documentProvenance)) return [];
    const got = res.headers['content-type'];
    return mediaType(got) === 'application/json' ? [] : [`Content-Type is ${got ? `'${got}'` : 'missing'}, expected application/json`];
  }

  /** The body against the spec's schema for `status`, cut to the run's level: the problems, and the errors' keys for grouping. */
  bodyCheck(op: Operation, status: number, res: Pick<HttpResponse, 'json' | 'text'>): { problems: string[]; schemaErrors: string[] } {
    const validate = this.validatorFor(op, status)?.validate;
    if (!validate) return { problems: [], schemaErrors: [] };
    if (res.json === undefined) return { problems: [`body is not JSON: ${excerpt(res.text, 120)}`], schemaErrors: ['body is not JSON'] };
    return validate(res.json) ? { problems: [], schemaErrors: [] } : { problems: [describeErrors(validate.errors, 'body')], schemaErrors: schemaErrorKeys(validate.errors) };
  }

  /** How firm a check of this response's body is at the run's level; undefined when the level keeps nothing of its schema. */
  schemaLevel(op: Operation, status: number): Provenance | undefined {
    return this.validatorFor(op, status)?.level;
  }

  /** The draft-07 schema of a response, cut to the selected provenance; undefined without a JSON body. */
  jsonSchemaFor(op: Operation, status: number): Record<string, unknown> | undefined {
    const schema = op.responses.get(status)?.schema;
    return schema ? toJsonSchema(this.model.doc, schema, this.config.provenance) : undefined;
  }

  private validatorFor(op: Operation, status: number): { validate: ValidateFunction; level: Provenance | undefined } | undefined {
    const key = `${op.operationId} ${status}`;
    if (!this.compiled.has(key)) {
      const raw = op.responses.get(status)?.schema;
      const schema = this.jsonSchemaFor(op, status);
      const level = raw ? schemaLevel(this.model.doc, raw, this.config.provenance) : undefined;
      if (!schema || !level) this.compiled.set(key, undefined);
      else {
        const { $schema: _ignored, ...rest } = schema;
        this.compiled.set(key, { validate: this.validator.compile(rest), level });
      }
    }
    return this.compiled.get(key);
  }

  expectedText(op: Operation, status: number): string {
    const declared = op.responses.get(status);
    const example = declared?.examples.get('default') as { success?: unknown; message?: unknown } | undefined;
    // Error bodies are fixed texts: show the exact one. Success bodies: name the schema.
    if (example && example.success === false) return `${status} ${JSON.stringify(example)}`;
    const ref = (declared?.schema as { $ref?: string } | undefined)?.$ref?.split('/').pop();
    return `${status} application/json${ref ? ` matching ${ref}` : ''}`;
  }

  record(op: Subject, check: string, provenance: Provenance, status: Status, ex: Exchange | undefined, expected?: string, message?: string, evidence: Evidence = {}): void {
    const res = ex?.response;
    const principal = ex && this.principalOf(ex.request.headers);
    const found: Evidence = {
      ...evidence,
      ...(res ? { answer: { status: res.status, type: mediaType(res.headers['content-type']) } } : {}),
      ...(principal ? { principal } : {}),
    };
    this.recorder.record({
      operationId: op.operationId,
      check,
      provenance,
      status,
      request: ex ? describeRequest(this.config.baseUrl, ex.request) : undefined,
      expected,
      actual: res ? describeResponse(res) : ex?.error ? `no answer: ${ex.error}` : undefined,
      message: message || undefined,
      ...(ex?.ms !== undefined ? { ms: Math.round(ex.ms) } : {}),
      ...(Object.keys(found).length ? { evidence: found } : {}),
    });
  }

  /** Which of the run's own credentials a request carries, if any. */
  principalOf(headers: Record<string, string> | undefined): Evidence['principal'] {
    const { apiKey, session, forbiddenKey } = this.config.credentials;
    const sent = Object.entries(headers ?? {}).map(([k, v]) => `${k.toLowerCase()}: ${v}`).join('\n');
    if (forbiddenKey && sent.includes(`Bearer ${forbiddenKey}`)) return 'forbidden';
    if (apiKey && sent.includes(`Bearer ${apiKey}`)) return 'apiKey';
    if (session && sent.includes(`=${session}`)) return 'session';
    return undefined;
  }

  /** `unavoidable`: no setting of the suite could have run it (a 5xx cannot be provoked), so `--strict` lets it pass. */
  skip(op: Subject, check: string, provenance: Provenance, reason: string, unavoidable = false): void {
    if (!this.wants(provenance)) return;
    if (unavoidable) this.recorder.record({ operationId: op.operationId, check, provenance, status: 'skip', message: reason, unavoidable });
    else this.record(op, check, provenance, 'skip', undefined, undefined, reason);
  }

  /** Writes happen only on a loopback target or with --allow-writes. */
  writesBlocked(op: Operation): string | undefined {
    return op.isWrite && !this.config.allowWrites ? `writes are off (${this.config.writesReason}); pass --allow-writes to test ${op.method} ${op.path}` : undefined;
  }
}

/** A components schema as draft-07, cut to the run's provenance, for ajv (without `$schema`). */
function toJsonSchemaOf(model: SpecModel, ref: string, level: Provenance): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = toJsonSchema(model.doc, { $ref: ref }, level);
  return rest;
}

export const HYGIENE_CHECK = 'hygiene: no answer leaks a stack trace, SQL text, a server file path or framework internals';

/** Body-schema errors as keys that do not depend on the row: `body.results.*.port must be integer`. */
export function schemaErrorKeys(errors: Parameters<typeof describeErrors>[0]): string[] {
  const keys = (errors ?? []).map((e) => describeErrors([{ ...e, instancePath: e.instancePath.replace(/\/\d+(?=\/|$)/g, '/*') }], 'body'));
  return [...new Set(keys.filter(Boolean))];
}


/**
 * One line per distinct defect: the same error on every row of a page is reported once,
 * with how many rows share it, so the message names the defect instead of burying it.
 */
export function compactProblems(problems: string[]): string[] {
  const groups = new Map<string, { first: string; count: number }>();
  for (const problem of problems.flatMap((p) => p.split('; ')).filter(Boolean)) {
    const key = problem.replace(/([./])\d+(?=[./'\s])/g, '$1*');
    const g = groups.get(key);
    if (g) g.count++;
    else groups.set(key, { first: problem, count: 1 });
  }
  return [...groups.values()].map((g) => (g.count > 1 ? `${g.first} (and ${g.count - 1} more like it)` : g.first));
}

export function describeRequest(baseUrl: string, req: HttpRequest): string {
  const path = req.url.startsWith(baseUrl) ? new URL(req.url).pathname + new URL(req.url).search : req.url;
  const body = req.body === undefined ? '' : ` body ${JSON.stringify(req.body)}`;
  return `${req.method} ${path} (${describeHeaders(req.headers)})${body}`;
}

export function describeResponse(res: { status: number; headers: Record<string, string>; text: string }): string {
  return `${res.status} ${res.headers['content-type'] ?? '(no Content-Type)'} ${excerpt(res.text)}`;
}
