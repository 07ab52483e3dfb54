// Is this answer one the spec allows for this request? The judge of the fuzz runs,
// independent of the mock's own self-check: it reads the spec model and validates with
// its own ajv. It asks what any client may count on:
//  - no 5xx (a request, however bad, is the client's fault, never the server's);
//  - every body is JSON (`application/json`), except where HTTP says there is none;
//  - every 4xx is the error shape, its message starting with the status's reason
//    phrase (429: the real service's own text);
//  - a status the operation declares has the declared body and headers;
//  - a success the operation does not declare is a finding too.
import type { ValidateFunction } from 'ajv';
import { reasonPhrase } from './messages.ts';
import { operationFor, type SpecModel } from './model.ts';
import { describeErrors, SchemaValidator } from './validator.ts';

export type FindingKind = '5xx' | 'not-json' | 'error-shape' | 'schema' | 'undeclared';

export interface Finding {
  kind: FindingKind;
  detail: string;
}

export interface Answer {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: string;
}

export class AnswerChecker {
  private readonly validator: SchemaValidator;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly model: SpecModel) {
    this.validator = new SchemaValidator(model.doc);
  }

  private compiledFor(key: string, schema: () => unknown): ValidateFunction {
    let v = this.compiled.get(key);
    if (!v) this.compiled.set(key, (v = this.validator.compile(schema())));
    return v;
  }

  /**
   * Everything wrong with `answer` to `method path` (path with the base path and
   * query); empty when it keeps the spec. `requestHeaders` tell a 5xx the client asked
   * for (`Prefer: code=500`, Prism's convention, which the mock follows) from one it did not.
   */
  check(method: string, path: string, answer: Answer, requestHeaders: Record<string, string> = {}): Finding[] {
    const out: Finding[] = [];
    const { status } = answer;
    if (status >= 500 && preferredCode(requestHeaders) !== status) out.push({ kind: '5xx', detail: `${status}: ${answer.body.slice(0, 200)}` });

    // HEAD answers, 204 and 304 carry no body by HTTP's rules.
    if (method === 'HEAD' || status === 204 || status === 304) {
      if (answer.body !== '') out.push({ kind: 'not-json', detail: `${status} to ${method} carries a body` });
      return out;
    }
    const type = answer.headers['content-type'] ?? '';
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      out.push({ kind: 'not-json', detail: `${status} body is not JSON: ${JSON.stringify(answer.body.slice(0, 120))}` });
      return out;
    }
    if (!/^application\/json\b/i.test(type)) out.push({ kind: 'not-json', detail: `${status} has Content-Type ${JSON.stringify(type)}` });

    if (status >= 400) {
      const validate = this.compiledFor('ErrorBody', () => ({ $ref: '#/components/schemas/ErrorBody' }));
      if (!validate(body)) out.push({ kind: 'error-shape', detail: `${status}: ${describeErrors(validate.errors, 'body')}` });
      else if (status !== 429) {
        const message = (body as { message: string }).message;
        if (!message.startsWith(reasonPhrase(status))) out.push({ kind: 'error-shape', detail: `${status} message does not start with "${reasonPhrase(status)}": ${JSON.stringify(message)}` });
      }
    }

    const base = this.model.basePath;
    // As the server reads it: `/status/ping/.` is `/status/ping/` (dot segments removed).
    const pathname = new URL(`http://localhost${path}`).pathname;
    if (pathname !== base && !pathname.startsWith(`${base}/`)) return out;
    const op = operationFor(this.model, method, pathname.slice(base.length));
    if (!op) return out;
    const declared = op.responses.get(status);
    if (!declared) {
      if (status < 400) out.push({ kind: 'undeclared', detail: `${op.operationId} does not declare ${status}` });
      return out;
    }
    if (declared.schema) {
      const validate = this.compiledFor(`${op.operationId} ${status}`, () => declared.schema);
      if (!validate(body)) out.push({ kind: 'schema', detail: `${op.operationId} ${status}: ${describeErrors(validate.errors, 'body')}` });
    }
    for (const [name, header] of declared.headers) {
      const raw = answer.headers[name.toLowerCase()];
      if (raw === undefined) {
        out.push({ kind: 'schema', detail: `${op.operationId} ${status}: header ${name} is missing` });
        continue;
      }
      const value = header.schema.type === 'integer' && /^-?\d+$/.test(raw) ? Number(raw) : raw;
      const validate = this.compiledFor(`header ${name}`, () => header.schema);
      if (!validate(value)) out.push({ kind: 'schema', detail: `${op.operationId} ${status}: header ${name}: ${describeErrors(validate.errors, JSON.stringify(raw))}` });
    }
    return out;
  }
}

/** The status a `Prefer: code=NNN` header asks for, if any. */
function preferredCode(headers: Record<string, string>): number | undefined {
  const prefer = Object.entries(headers).find(([k]) => k.toLowerCase() === 'prefer')?.[1];
  const code = prefer && /(?:^|[,;]\s*)code=(\d{3})\b/.exec(prefer)?.[1];
  return code ? Number(code) : undefined;
}
