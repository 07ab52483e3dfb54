// Shared state of one suite run inside the Dredd process: the spec model, the run's
// settings, and the primitives every check uses (send a request, judge the answer against
// the spec, record the outcome, write down what was created).
import type { ValidateFunction } from 'ajv';
import { credentialHeaders, loadModel, type Operation, type SpecModel } from '../../spec/model.ts';
import { within, type Provenance } from '../../spec/provenance.ts';
import { SchemaValidator, describeErrors } from '../../spec/validator.ts';
import type { RunConfig } from './config.ts';
import { unknownKeyLike, unknownSessionLike } from './credentials.ts';
import { excerpt, mediaType, send, type HttpRequest, type HttpResponse } from './http.ts';
import { toJsonSchema } from './json-schema.ts';
import { Ledger } from './ledger.ts';
import { describeHeaders, rememberSecret } from './mask.ts';
import { Recorder, type Status } from './results.ts';

/** The credential variants the auth matrix sends. */
export type Principal = 'none' | 'apiKey' | 'session' | 'forbidden' | 'unknownKey' | 'malformed' | 'unknownSession';

export interface Exchange {
  request: HttpRequest;
  response?: HttpResponse;
  /** Network failure (no answer at all). */
  error?: string;
}

export interface Expectation {
  status: number;
  /** The operation whose spec response the answer is judged by, when not the one recorded under. */
  against?: Operation;
  /** Extra problems a schema cannot express; each names the defect. */
  extra?: (res: HttpResponse) => string[];
}

export class SuiteContext {
  readonly model: SpecModel;
  readonly recorder: Recorder;
  readonly ledger: Ledger;
  readonly cookieName: string;
  private readonly validator: SchemaValidator;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly unknownKey: string;
  private readonly unknownSession: string;

  constructor(readonly config: RunConfig) {
    this.model = loadModel();
    this.recorder = new Recorder(config.resultsFile);
    this.ledger = new Ledger(config.ledgerFile);
    this.cookieName = this.model.cookieName ?? '';
    this.validator = new SchemaValidator(this.model.doc);
    const { apiKey, session, forbiddenKey } = config.credentials;
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

  async exchange(request: HttpRequest): Promise<Exchange> {
    try {
      return { request, response: await send(request) };
    } catch (err) {
      return { request, error: (err as Error).cause ? String((err as Error & { cause: unknown }).cause) : (err as Error).message };
    }
  }

  /** Judges one exchange against the spec's response for `expect.status` and records it. */
  verify(op: Operation, check: string, provenance: Provenance, ex: Exchange, expect: Expectation): boolean {
    const problems: string[] = [];
    const res = ex.response;
    const target = expect.against ?? op;
    if (!res) problems.push(`no answer: ${ex.error ?? 'request failed'}`);
    else {
      if (res.status !== expect.status) problems.push(`status ${res.status}, expected ${expect.status}`);
      problems.push(...this.contentTypeProblems(target, res.status, res));
      // The body is judged against the schema of the status the spec promises, so a wrong
      // status does not also drown the message in schema noise.
      if (res.status === expect.status) problems.push(...this.bodyProblems(target, expect.status, res));
      if (expect.extra) problems.push(...expect.extra(res));
    }
    this.record(op, check, provenance, problems.length ? 'fail' : 'pass', ex, this.expectedText(target, expect.status), compactProblems(problems).join('; '));
    return problems.length === 0;
  }

  /** Every answer the spec gives a JSON body must say so in Content-Type. */
  contentTypeProblems(op: Operation, status: number, res: { headers: Record<string, string>; text: string }): string[] {
    const declared = op.responses.get(status);
    const isJson = declared ? declared.schema !== undefined : res.text.trim().startsWith('{');
    if (!isJson || !this.wants(this.model.documentProvenance)) return [];
    const got = res.headers['content-type'];
    return mediaType(got) === 'application/json' ? [] : [`Content-Type is ${got ? `'${got}'` : 'missing'}, expected application/json`];
  }

  bodyProblems(op: Operation, status: number, res: HttpResponse): string[] {
    const validate = this.validatorFor(op, status);
    if (!validate) return [];
    if (res.json === undefined) return [`body is not JSON: ${excerpt(res.text, 120)}`];
    return validate(res.json) ? [] : [describeErrors(validate.errors, 'body')];
  }

  /** The draft-07 schema of a response, cut to the selected provenance; undefined without a JSON body. */
  jsonSchemaFor(op: Operation, status: number): Record<string, unknown> | undefined {
    const schema = op.responses.get(status)?.schema;
    return schema ? toJsonSchema(this.model.doc, schema, this.config.provenance) : undefined;
  }

  private validatorFor(op: Operation, status: number): ValidateFunction | undefined {
    const key = `${op.operationId} ${status}`;
    if (!this.compiled.has(key)) {
      const schema = this.jsonSchemaFor(op, status);
      if (!schema) return undefined;
      const { $schema: _ignored, ...rest } = schema;
      this.compiled.set(key, this.validator.compile(rest));
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

  record(op: Operation, check: string, provenance: Provenance, status: Status, ex: Exchange | undefined, expected?: string, message?: string): void {
    this.recorder.record({
      operationId: op.operationId,
      check,
      provenance,
      status,
      request: ex ? describeRequest(this.config.baseUrl, ex.request) : undefined,
      expected,
      actual: ex?.response ? describeResponse(ex.response) : ex?.error ? `no answer: ${ex.error}` : undefined,
      message: message || undefined,
    });
  }

  skip(op: Operation, check: string, provenance: Provenance, reason: string): void {
    if (this.wants(provenance)) this.record(op, check, provenance, 'skip', undefined, undefined, reason);
  }

  /** Writes happen only on a loopback target or with --allow-writes. */
  writesBlocked(op: Operation): string | undefined {
    return op.isWrite && !this.config.allowWrites ? `writes are off (${this.config.writesReason}); pass --allow-writes to test ${op.method} ${op.path}` : undefined;
  }
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
