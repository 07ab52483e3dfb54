// What an override is, and the one check of it that both `mock.use()` and
// `POST /__mock/overrides` run: for one operation of the spec (by operationId, or method
// and path), optionally only for requests with given query, header or body values,
// answer a declared status with a named example or a given body, add a delay, or fail
// the transport; once, N times or until reset; or at a rate, with a seed, for
// resilience runs. A given body is held to what the spec declares for that status and
// refused with the reason, unless the override says it is off the contract on purpose
// (`offContract`), which every place the answer shows then says (decision 0041).
import { didYouMean } from '../../../cli/flags.ts';
import { operationFor, type Operation, type SpecModel } from '../../../spec/model.ts';
import { createRng, type Rng } from '../../dataset/rng.ts';
import { nearMiss } from '../../../spec/judges/request-judges.ts';
import { printable } from '../printable.ts';
import type { ResponseChecker } from '../self-check/self-check.ts';
import { FAULTS, type FaultKind } from './transport.ts';

/** An override as a test writes it (in code, or as the JSON of `POST /__mock/overrides`). */
export interface OverrideInput {
  /** The operation, by its operationId (`findServers`); or give `method` and `path`. */
  operationId?: string;
  /** With `path`: the operation by method and path (`GET`, `/servers/find`, or a concrete `/user/apikeys/key_1`). */
  method?: string;
  path?: string;
  /** Only requests with these values: query parameters as sent, headers (any case), body fields (deep, partial). */
  when?: {
    query?: Record<string, string | number | boolean>;
    headers?: Record<string, string>;
    body?: Record<string, unknown>;
  };
  /** Answer this status, one the operation declares (its default example, unless `example` or `body`). */
  status?: number;
  /** Answer this named example of the status (`empty`). */
  example?: string;
  /** Answer this body, checked against the spec's schema for the status. */
  body?: unknown;
  /** More headers on the answer. */
  headers?: Record<string, string>;
  /** Wait this long (ms, at most 60,000) before answering (the real answer, when nothing else is given). */
  delay?: number;
  /** Fail the transport: `reset` the connection, `truncate` the answer, or give `no-answer`. */
  fault?: FaultKind;
  /** Apply to this many requests, then step aside (1: once); absent: until reset or removed. */
  times?: number;
  /** Apply to this share of the matching requests (0 < rate <= 1), drawn from `seed`: the same seed, the same ones. */
  rate?: number;
  seed?: number;
  /**
   * Answer a body or status the spec does not allow, on purpose (`true`,
   * or why): marked off-contract wherever it shows.
   */
  offContract?: boolean | string;
}

const FIELDS = [
  'operationId',
  'method',
  'path',
  'when',
  'status',
  'example',
  'body',
  'headers',
  'delay',
  'fault',
  'times',
  'rate',
  'seed',
  'offContract',
] as const satisfies readonly (keyof OverrideInput)[];

/** The longest delay, as `--latency` allows. */
export const MAX_DELAY_MS = 60_000;
/** The most overrides a mock holds at once (each is small; a runaway test loop is refused, not kept). */
export const MAX_OVERRIDES = 1000;

/** What the journal says of the override that took a request. */
export interface AppliedOverride {
  id: number;
  /** Why its answer breaks the contract, when it was allowed to. */
  offContract?: string;
  delay?: number;
  fault?: FaultKind;
}

/** An override, checked: what the stage needs to apply it. */
export interface Override {
  id: number;
  /** As given (listed by GET /__mock/overrides). */
  input: OverrideInput;
  /** Undefined: every operation (a delay or a fault only). */
  op?: Operation;
  /** A concrete path (relative to the base path) the request's must equal. */
  path?: string;
  query?: [string, string][];
  headers?: [string, string][];
  body?: unknown;
  answer?: {
    status: number;
    /** The body to answer; an example is made consistent with the request at answer time. */
    body: unknown;
    /** An example of the spec (its counts follow its rows), not a body the test wrote. */
    example: boolean;
    headers: Record<string, string>;
    /** Why it breaks the contract, when it was allowed to. */
    offContract?: string;
  };
  delay?: number;
  fault?: FaultKind;
  /** How many requests it may still take; undefined: no end. */
  remaining?: number;
  used: number;
  rate?: number;
  rng?: Rng;
}

/** The parts of the mock an override is checked against. */
export interface OverrideContext {
  model: SpecModel;
  /** The spec's judge of an answer body (made on first use: most mocks never check one). */
  checker: () => ResponseChecker;
}

/** The problems of an override, each a sentence; a thrown error and a 400 both list them. */
export class OverrideError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid override: ${problems.join('; ')}`);
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the transport owns: an override cannot set them. */
const OWN_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'content-type', 'set-cookie']);

/** What a value is, for a message. */
function kindOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`;
}

/** The operation a method and a path (relative to the base path, or under it; a template or a concrete one) name. */
function resolvePath(model: SpecModel, method: string, path: string): { op?: Operation; concrete?: string } {
  const relative = path.startsWith(`${model.basePath}/`) ? path.slice(model.basePath.length) : path;
  const op = operationFor(model, method, relative);
  return {
    ...(op ? { op } : {}),
    ...(op && !relative.includes('{') && op.path !== relative ? { concrete: relative } : {}),
  };
}

/** Checks `raw` and returns the override it means; throws OverrideError listing every problem. */
export function parseOverride(raw: unknown, id: number, ctx: OverrideContext): Override {
  const { model } = ctx;
  const problems: string[] = [];
  if (!isRecord(raw)) throw new OverrideError([`an override is a JSON object, not ${kindOf(raw)}`]);
  for (const key of Object.keys(raw)) {
    if ((FIELDS as readonly string[]).includes(key)) continue;
    const guess = didYouMean(key, FIELDS);
    problems.push(
      `unknown field '${printable(key)}'${guess ? `: did you mean '${guess}'?` : ` (fields: ${FIELDS.join(', ')})`}`,
    );
  }
  const input = raw as OverrideInput;
  const out: Override = { id, input, used: 0 };

  // Which operation.
  const ids = [...model.byId.keys()];
  if (input.operationId !== undefined) {
    const op = typeof input.operationId === 'string' ? model.byId.get(input.operationId) : undefined;
    if (op) out.op = op;
    else {
      const guess = typeof input.operationId === 'string' ? didYouMean(input.operationId, ids) : undefined;
      problems.push(
        `operationId ${printable(JSON.stringify(input.operationId))} is not an operation of the spec` +
          (guess ? `: did you mean '${guess}'?` : ` (operations: ${ids.join(', ')})`),
      );
    }
  }
  if (input.method !== undefined || input.path !== undefined) {
    if (typeof input.method !== 'string' || typeof input.path !== 'string')
      problems.push('method and path go together, both strings (`GET`, `/servers/find`)');
    else {
      const { op, concrete } = resolvePath(model, input.method, input.path);
      if (!op)
        problems.push(
          `${printable(input.method.toUpperCase())} ${printable(input.path)} is no operation of the spec ` +
            `(paths are relative to ${model.basePath}, such as /servers/find)`,
        );
      else if (out.op && out.op !== op)
        problems.push(`operationId ${out.op.operationId} and ${op.method} ${op.path} (${op.operationId}) disagree`);
      else {
        out.op = op;
        if (concrete) out.path = concrete;
      }
    }
  }

  // When.
  if (input.when !== undefined) {
    if (!isRecord(input.when)) problems.push(`when is an object ({query, headers, body}), not ${kindOf(input.when)}`);
    else {
      for (const key of Object.keys(input.when))
        if (!['query', 'headers', 'body'].includes(key))
          problems.push(`when.${printable(key)} is not a condition (query, headers, body)`);
      const { query, headers, body } = input.when;
      if (query !== undefined) {
        if (!isRecord(query)) problems.push('when.query is an object of parameter values');
        else if (!out.op) problems.push('when.query needs an operation, whose parameters it names');
        else {
          const own = out.op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
          out.query = [];
          for (const [name, value] of Object.entries(query)) {
            if (!own.includes(name)) {
              const guess = nearMiss(name, own);
              problems.push(
                `when.query: '${printable(name)}' is not a parameter of ${out.op.operationId}` +
                  (guess ? `: did you mean '${guess}'?` : ` (it takes ${own.join(', ') || 'none'})`),
              );
            } else if (!['string', 'number', 'boolean'].includes(typeof value))
              problems.push(
                `when.query.${name} is a value as sent (a string, number or boolean), not ${kindOf(value)}`,
              );
            else out.query.push([name, String(value)]);
          }
        }
      }
      if (headers !== undefined) {
        if (!isRecord(headers)) problems.push('when.headers is an object of header values');
        else {
          out.headers = [];
          for (const [name, value] of Object.entries(headers)) {
            if (!TOKEN.test(name) || typeof value !== 'string')
              problems.push(`when.headers: '${printable(name)}' needs a header name and a string value`);
            else out.headers.push([name.toLowerCase(), value]);
          }
        }
      }
      if (body !== undefined) {
        if (out.op && !out.op.requestBody) problems.push(`when.body: ${out.op.operationId} takes no request body`);
        else if (!isRecord(body)) problems.push('when.body is an object of body fields');
        else out.body = body;
      }
    }
  }

  // What to do.
  if (input.delay !== undefined) {
    if (!Number.isInteger(input.delay) || input.delay < 0 || input.delay > MAX_DELAY_MS)
      problems.push(
        `delay is whole milliseconds from 0 to ${MAX_DELAY_MS}, got ${printable(JSON.stringify(input.delay))}`,
      );
    else out.delay = input.delay;
  }
  if (input.fault !== undefined) {
    if (!FAULTS.includes(input.fault))
      problems.push(`fault is one of ${FAULTS.join(', ')}, got ${printable(JSON.stringify(input.fault))}`);
    else out.fault = input.fault;
  }
  const answers = input.status !== undefined || input.example !== undefined || input.body !== undefined;
  if (
    input.offContract !== undefined &&
    typeof input.offContract !== 'boolean' &&
    typeof input.offContract !== 'string'
  )
    problems.push('offContract is true, or a string saying why');
  if (answers) {
    if (input.fault === 'reset' || input.fault === 'no-answer')
      problems.push(`fault '${input.fault}' sends no answer: leave out status, example and body`);
    if (!out.op) {
      if (input.operationId === undefined && input.method === undefined)
        problems.push('an answer needs its operation: give operationId, or method and path');
    } else {
      const answer = answerOf(input, out.op, ctx, problems);
      if (answer) out.answer = answer;
    }
  } else if (input.headers !== undefined)
    problems.push('headers go with an answer: give a status, an example or a body');
  if (!answers && out.delay === undefined && out.fault === undefined)
    problems.push('an override needs something to do: a status, an example, a body, a delay or a fault');

  // How often.
  if (input.times !== undefined) {
    if (!Number.isInteger(input.times) || input.times < 1)
      problems.push(`times is a whole number from 1 (once), got ${printable(JSON.stringify(input.times))}`);
    else out.remaining = input.times;
  }
  if (input.rate !== undefined) {
    if (typeof input.rate !== 'number' || !(input.rate > 0 && input.rate <= 1))
      problems.push(
        `rate is a share of the requests, above 0 and at most 1, got ${printable(JSON.stringify(input.rate))}`,
      );
    else out.rate = input.rate;
  }
  if (input.seed !== undefined) {
    if (!Number.isInteger(input.seed) || input.seed < 0 || input.seed > 2 ** 32 - 1)
      problems.push('seed is a whole number from 0 to 4294967295');
    else if (input.rate === undefined) problems.push('seed goes with rate: it draws which requests the rate takes');
  }
  if (out.rate !== undefined) out.rng = createRng(input.seed ?? 1);

  if (problems.length) throw new OverrideError(problems);
  return out;
}

/** The answer an override gives, checked against the operation's declared responses. */
function answerOf(input: OverrideInput, op: Operation, ctx: OverrideContext, problems: string[]): Override['answer'] {
  const offContract = input.offContract === true ? 'allowed by the override' : input.offContract || undefined;
  const status = input.status ?? op.successStatus;
  if (!Number.isInteger(status) || status < 200 || status > 599) {
    problems.push(`status is an HTTP status from 200 to 599, got ${printable(JSON.stringify(input.status))}`);
    return undefined;
  }
  const declared = op.responses.get(status);
  const headers: Record<string, string> = {};
  if (declared?.headers.has('Retry-After')) headers['Retry-After'] = '45';
  if (input.headers !== undefined) {
    if (!isRecord(input.headers)) problems.push('headers is an object of header values');
    else
      for (const [name, value] of Object.entries(input.headers)) {
        if (!TOKEN.test(name) || typeof value !== 'string' || /[\r\n\0]/.test(value))
          problems.push(`headers: '${printable(name)}' needs a header name and a one-line string value`);
        else if (OWN_HEADERS.has(name.toLowerCase()))
          problems.push(`headers: ${printable(name)} is the mock's to write, not an override's`);
        else headers[name] = value;
      }
  }
  if (input.example !== undefined && input.body !== undefined) {
    problems.push('example and body are two answers: give one');
    return undefined;
  }
  const statuses = [...op.responses.keys()].join(', ');
  if (input.body !== undefined) {
    const drift = ctx.checker().check(op, status, input.body);
    if (drift && !offContract) {
      problems.push(
        `the body is not what ${op.operationId} may answer with ${status}: ${drift}` +
          ' (offContract: true answers it anyway, marked as off the contract)',
      );
      return undefined;
    }
    return {
      status,
      body: input.body,
      example: false,
      headers,
      ...(drift ? { offContract: `${offContract}: ${drift}` } : {}),
    };
  }
  if (!declared) {
    if (offContract)
      return {
        status,
        body: undefined,
        example: false,
        headers,
        offContract: `${offContract}: ${op.operationId} does not declare ${status}`,
      };
    problems.push(`${op.operationId} does not declare a ${status} response (declared: ${statuses})`);
    return undefined;
  }
  const name = input.example ?? 'default';
  if (typeof name !== 'string' || !declared.examples.has(name)) {
    const names = [...declared.examples.keys()].filter((k) => k !== 'default');
    problems.push(
      input.example === undefined
        ? `${op.operationId}'s ${status} response has no example: give a body`
        : `example ${printable(JSON.stringify(input.example))} is not an example of ${op.operationId}'s ` +
            `${status} response` +
            ` (examples: ${names.join(', ') || 'default'})`,
    );
    return undefined;
  }
  return { status, body: declared.examples.get(name), example: true, headers };
}
