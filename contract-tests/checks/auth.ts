// The whole auth matrix on a protected operation, from the spec: no credentials, an
// unknown key, a malformed Authorization header and an unknown session cookie get 401; the
// forbidden principal gets 403; each valid credential succeeds, or gets 403 when the
// operation's `x-credentials` excludes its scheme.
import { FORBIDDEN_MESSAGE, UNAUTHORIZED_MESSAGE } from '../../spec/messages.ts';
import type { Operation, SpecModel } from '../../spec/model.ts';
import { provenanceOf, weakest, type Provenance } from '../../spec/provenance.ts';
import type { Principal, SuiteContext } from './context.ts';
import type { HttpResponse } from './http.ts';
import { createKey, newKeyBody, noteCreatedKey, revokePath } from './keys.ts';
import type { CreatedKey } from './ledger.ts';

/** The softest provenance of the security schemes an operation relies on. */
function schemesProvenance(model: SpecModel, op: Operation): Provenance {
  return weakest(...op.schemes.map((name) => model.schemes.get(name)?.provenance));
}

interface Case {
  principal: Principal;
  label: string;
  status: number;
  provenance: Provenance;
  /** Why it cannot run, if it cannot. */
  missing?: string;
}

const PREFIX = { 401: UNAUTHORIZED_MESSAGE.split(':')[0], 403: FORBIDDEN_MESSAGE.split(':')[0] } as Record<number, string>;

export function matrixCases(ctx: SuiteContext, op: Operation): Case[] {
  const { model } = ctx;
  const errorBody = provenanceOf(model.doc.components.schemas.ErrorBody);
  // A 401 or 403 on this operation relies on the operation itself as much as on the schemes.
  const authRules = weakest(op.provenance, schemesProvenance(model, op), errorBody);
  const principals = op.schemes.map((s) => ctx.principalForScheme(s));
  const hasBearer = principals.includes('apiKey');
  const hasCookie = principals.includes('session');
  const cases: Case[] = [{ principal: 'none', label: 'no credentials', status: 401, provenance: authRules }];
  if (hasBearer) {
    cases.push({ principal: 'unknownKey', label: 'an unknown API key', status: 401, provenance: authRules });
    cases.push({ principal: 'malformed', label: "a malformed Authorization header (no 'Bearer')", status: 401, provenance: authRules });
  }
  if (hasCookie) cases.push({ principal: 'unknownSession', label: 'an unknown session cookie', status: 401, provenance: authRules });
  if (op.permission) {
    cases.push({
      principal: 'forbidden',
      label: `a valid key without the '${op.permission}' permission`,
      status: 403,
      provenance: authRules,
      missing: ctx.headersFor('forbidden') ? undefined : 'no forbidden principal: set CONTRACT_FORBIDDEN_API_KEY',
    });
  }
  for (const scheme of op.schemes) {
    const principal = ctx.principalForScheme(scheme);
    if (!principal) continue;
    const allowed = op.allowedSchemes.includes(scheme);
    cases.push({
      principal,
      label: `a valid ${principal === 'apiKey' ? 'API key' : 'session'}${allowed ? '' : ` (x-credentials allows only ${op.allowedSchemes.join(', ')})`}`,
      status: allowed ? op.successStatus : 403,
      provenance: weakest(op.provenance, schemesProvenance(model, op)),
      missing: ctx.headersFor(principal) ? undefined : `no ${principal === 'apiKey' ? 'API key: set CONTRACT_API_KEY' : 'session: set CONTRACT_SESSION_COOKIE'}`,
    });
  }
  return cases;
}

/** Exact error body: success false and the message the spec fixes, which starts with the reason. */
function errorBodyProblems(status: number, res: HttpResponse): string[] {
  const prefix = PREFIX[status];
  if (!prefix || res.status !== status) return [];
  const body = res.json as { success?: unknown; message?: unknown } | undefined;
  const problems: string[] = [];
  if (body?.success !== false) problems.push(`body.success is ${JSON.stringify(body?.success)}, expected false`);
  if (typeof body?.message !== 'string' || !body.message.startsWith(prefix)) {
    problems.push(`body.message is ${JSON.stringify(body?.message)}, expected it to start with '${prefix}'`);
  }
  return problems;
}

/**
 * Runs every case against the operation. `relativePath` is the request Dredd made (a
 * spec example); an operation on one key gets a key of the suite's own to aim at.
 */
export async function runAuthMatrix(ctx: SuiteContext, op: Operation, relativePath: string): Promise<void> {
  const blocked = ctx.writesBlocked(op);
  let victim: CreatedKey | undefined;
  for (const c of matrixCases(ctx, op)) {
    const name = `auth: ${c.label} -> ${c.status}`;
    if (!ctx.wants(c.provenance)) continue;
    if (blocked || c.missing) {
      ctx.skip(op, name, c.provenance, (blocked ?? c.missing)!);
      continue;
    }
    let path = relativePath;
    if (op.path.includes('{id}')) {
      // Aim at a real key of ours, so a server that skips the check really would revoke it.
      victim ??= await createKey(ctx);
      if (!victim) {
        ctx.skip(op, name, c.provenance, 'could not create a key to aim at (the session cannot create keys)');
        continue;
      }
      path = revokePath(ctx, victim.id);
    }
    const ex = await ctx.exchange({
      method: op.method,
      url: ctx.url(path),
      headers: ctx.headersFor(c.principal),
      body: op.method === 'POST' ? newKeyBody(ctx) : undefined,
    });
    ctx.verify(op, name, c.provenance, ex, { status: c.status, extra: (res) => errorBodyProblems(c.status, res) });
    const res = ex.response;
    if (res && res.status < 300) {
      noteCreatedKey(ctx, res.json);
      if (op.method === 'DELETE' && victim) {
        ctx.ledger.removed(victim.id);
        victim = undefined; // used up: the next case needs a fresh one
      }
    }
  }
}
