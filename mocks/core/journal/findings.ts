// What the mock finds about a request it received, besides refusing it: a query parameter
// the operation does not have (which the real service silently ignores, so a typo such as
// `sortBy` for `sort` passes every test and filters nothing), a parameter of another
// operation, a malformed credential on an operation that ignores it. Each finding is
// named the way the contract suite names its judges, with a near-miss hint.
//
// This module is the one place that fills findings, from what the mock sees without the
// suite's judges; when the request-side judges of spec/judges/ land, they replace it
// (decision 0041): the journal, the test helper and the once-per-kind warning only read
// the list.
import { didYouMean } from '../../../cli/flags.ts';
import type { Operation, SpecModel } from '../../../spec/model.ts';
import { printable } from '../printable.ts';

/** One thing found about a request: the judge that would say it, how bad, why, and what was probably meant. */
export interface Finding {
  judge: string;
  level: 'error' | 'warning' | 'info';
  why: string;
  hint?: string;
}

/**
 * The stage of the mock's pipeline that refused a request (every 4xx says one), named as
 * the suite's judges are where one judges the same thing: `auth` (401, 403), `refused-values`
 * (a parameter), `json` and `schema` (a body), `routing` (404, 405), `body-limit` (413),
 * `media-type` (415); the mock's own: `override` (an override answered it), `prefer` (an
 * undeclared `Prefer`), `rate-limit` (429), `host-check` and `cors` (403 before any operation),
 * `dev-route` (a `/__mock/*` route refused its input), `operation` (the operation's own answer,
 * such as 409 for a user at the key cap).
 */
export type Rule =
  | 'auth'
  | 'refused-values'
  | 'json'
  | 'schema'
  | 'routing'
  | 'body-limit'
  | 'media-type'
  | 'override'
  | 'prefer'
  | 'rate-limit'
  | 'host-check'
  | 'cors'
  | 'dev-route'
  | 'operation';

/** The judge of a parameter the operation does not have (the suite's request-side name for it). */
export const UNKNOWN_PARAMETER = 'unknown-parameter';
/** The judge of a credential in a form no scheme of the spec reads. */
export const MALFORMED_CREDENTIAL = 'malformed-credential';

/**
 * The parameter a name most likely meant: a near spelling (`limt`), another case (`MaxAge`),
 * or one it starts with (`sortBy` for `sort`, `pageSize`... for `page`).
 */
export function nearMiss(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  return (
    known.find((k) => k.toLowerCase() === lower) ??
    didYouMean(name, known) ??
    known.filter((k) => k.length >= 3 && lower.startsWith(k.toLowerCase())).sort((a, b) => b.length - a.length)[0]
  );
}

/** Which operations take each query parameter, for "a parameter of another operation". */
function queryOwners(model: SpecModel): Map<string, string[]> {
  const owners = new Map<string, string[]>();
  for (const op of model.operations)
    for (const p of op.parameters)
      if (p.in === 'query') owners.set(p.name, [...(owners.get(p.name) ?? []), op.operationId]);
  return owners;
}

/** What the mock found about a request to `op` that sent `unknownQuery` and these headers. */
export type FindingsOf = (
  op: Operation | undefined,
  unknownQuery: readonly string[] | undefined,
  headers: Headers,
) => Finding[] | undefined;

/** The mock's own findings for requests to this spec. */
export function mockFindings(model: SpecModel): FindingsOf {
  let owners: Map<string, string[]> | undefined;
  const bearer = [...model.schemes.values()].some((s) => s.kind === 'bearer');
  return (op, unknownQuery, headers) => {
    let out: Finding[] | undefined;
    if (op && unknownQuery?.length) {
      owners ??= queryOwners(model);
      const own = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
      for (const name of unknownQuery) {
        const guess = nearMiss(name, own);
        const elsewhere = owners.get(name);
        (out ??= []).push({
          judge: UNKNOWN_PARAMETER,
          level: 'warning',
          why:
            `'${printable(name, 64)}' is not a parameter of ${op.operationId}` +
            (elsewhere ? ` (it is one of ${elsewhere.join(', ')})` : '') +
            '; the real service ignores it',
          ...(guess
            ? { hint: `did you mean '${guess}'?` }
            : { hint: `${op.operationId} takes ${own.length ? own.join(', ') : 'no query parameters'}` }),
        });
      }
    }
    const authorization = bearer ? headers.get('authorization') : null;
    if (authorization !== null && !/^Bearer +\S+ *$/i.test(authorization)) {
      (out ??= []).push({
        judge: MALFORMED_CREDENTIAL,
        level: 'warning',
        why: `the Authorization header is not 'Bearer <API key>' (${authorization.split(' ')[0]!.slice(0, 20) || 'empty'} ...), so no scheme reads it`,
        hint: "send 'Authorization: Bearer <API key>'",
      });
    }
    return out;
  };
}
