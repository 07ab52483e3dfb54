// Judges of a request alone: what a client sent that the operation does not have. The
// real service answers such requests without a word (it ignores a query parameter it does
// not know, so `sortBy=users` sorts nothing), which is why a frontend's test passes while
// its app is wrong. The mock runs these judges on every request it receives (its journal,
// `assertNoFindings`, one warning per kind); they read the request as every judge does
// (reading.ts), so the mock and the suite agree on what a request is. A judge here owes
// no status: a request it finds may still be answered 200.
import { didYouMean } from '../../cli/flags.ts';
import type { Operation, SpecModel } from '../model.ts';
import type { Exchange } from './exchange.ts';
import type { Finding, JudgeContext } from './judge.ts';

export interface RequestJudge {
  /** Its name: what a finding carries, and the mock's journal shows. */
  name: string;
  /** The promise a client is held to, for people. */
  promise: string;
  judge(ex: Pick<Exchange, 'request'>, ctx: JudgeContext): Finding[];
}

/** Shown names are cut: a request's names are the client's, of any length. */
const NAME_CHARS = 64;

function shown(name: string): string {
  const cut = name.length > NAME_CHARS ? `${name.slice(0, NAME_CHARS)}…` : name;
  return JSON.stringify(cut).slice(1, -1);
}

/**
 * The name a mistyped one most likely meant: another case (`MaxAge`), a near spelling
 * (`limt`), or one it starts with (`sortBy` for `sort`).
 */
export function nearMiss(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  return (
    known.find((k) => k.toLowerCase() === lower) ??
    didYouMean(name, known) ??
    known.filter((k) => k.length >= 3 && lower.startsWith(k.toLowerCase())).sort((a, b) => b.length - a.length)[0]
  );
}

/** Which operations take each query parameter, once per model: "a parameter of another operation". */
const OWNERS = new WeakMap<SpecModel, Map<string, string[]>>();

function queryOwners(model: SpecModel): Map<string, string[]> {
  let owners = OWNERS.get(model);
  if (!owners) {
    owners = new Map();
    for (const op of model.operations)
      for (const p of op.parameters)
        if (p.in === 'query') owners.set(p.name, [...(owners.get(p.name) ?? []), op.operationId]);
    OWNERS.set(model, owners);
  }
  return owners;
}

function queryNames(op: Operation): string[] {
  return op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
}

export const unknownParameter: RequestJudge = {
  name: 'unknown-parameter',
  promise: 'a request sends only the query parameters its operation has',
  judge: (ex, ctx) => {
    const reading = ctx.read(ex);
    const op = reading.op;
    if (!op || reading.unknownQuery.length === 0) return [];
    const own = queryNames(op);
    return reading.unknownQuery.map((name) => {
      const elsewhere = queryOwners(ctx.model).get(name);
      const guess = nearMiss(name, own);
      return {
        judge: 'unknown-parameter',
        level: op.provenance,
        why:
          `'${shown(name)}' is not a parameter of ${op.operationId}` +
          (elsewhere ? ` (it is one of ${elsewhere.join(', ')})` : '') +
          '; the real service ignores it',
        defect: `a query parameter ${op.operationId} does not have`,
        subject: { parameter: name },
        hint: guess
          ? `did you mean '${guess}'?`
          : `${op.operationId} takes ${own.length ? own.join(', ') : 'no query parameters'}`,
      };
    });
  },
};

export const unknownBodyField: RequestJudge = {
  name: 'unknown-body-field',
  promise: "a request's JSON body holds only the fields its schema names",
  judge: (ex, ctx) => {
    const reading = ctx.read(ex);
    const op = reading.op;
    const body = reading.body.json;
    if (!op?.requestBody || !body || typeof body !== 'object' || Array.isArray(body)) return [];
    const fields = op.requestBody.fields;
    return Object.keys(body)
      .filter((name) => !fields.includes(name))
      .map((name) => {
        const guess = nearMiss(name, fields);
        return {
          judge: 'unknown-body-field',
          level: op.provenance,
          why: `the body's '${shown(name)}' is not a field of ${op.operationId}'s body`,
          defect: `a body field ${op.operationId} does not have`,
          subject: { field: name },
          hint: guess ? `did you mean '${guess}'?` : `its fields are ${fields.join(', ') || '(none)'}`,
        };
      });
  },
};

export const malformedCredential: RequestJudge = {
  name: 'malformed-credential',
  promise: 'a credential is sent the way a security scheme of the spec reads it',
  judge: (ex, ctx) => {
    const reading = ctx.read(ex);
    if (!reading.op) return [];
    return reading.credentials.malformed.map((what) => ({
      judge: 'malformed-credential',
      level: ctx.model.documentProvenance,
      why: `${what} is no credential any scheme of the spec reads, so the request carries none`,
      defect: 'a credential in a form no security scheme reads',
      hint: what.startsWith('Authorization')
        ? "send 'Authorization: Bearer <API key>'"
        : 'send the session cookie the dev login sets, or none',
    }));
  },
};

/**
 * The judges of a request alone, in the order their findings are listed. The registry
 * (registry.ts) lists them beside the judges of exchanges; the mock imports them from
 * here, without the judges of answers it does not run.
 */
export const REQUEST_JUDGES: readonly RequestJudge[] = [unknownParameter, unknownBodyField, malformedCredential];

/** What the request judges find in a request, at the context's level. */
export function judgeRequest(
  ex: Pick<Exchange, 'request'>,
  ctx: JudgeContext,
  judges: readonly RequestJudge[] = REQUEST_JUDGES,
): Finding[] {
  const out: Finding[] = [];
  for (const j of judges) for (const f of j.judge(ex, ctx)) if (ctx.wants(f.level)) out.push(f);
  return out;
}
