// Creating and removing the suite's own API keys. Every key is named after the run and
// expires in a day, so even one the cleanup could not reach dies on its own.
import type { SuiteContext } from './context.ts';
import type { CreatedKey } from './ledger.ts';
import { rememberSecret } from './mask.ts';

export function keyName(ctx: SuiteContext): string {
  return `contract-test-${ctx.config.runId}`;
}

export function newKeyBody(ctx: SuiteContext): { name: string; expires_in_days: number } {
  return { name: keyName(ctx), expires_in_days: 1 };
}

/** Writes down a key found in an answer (`{key: {id, secret}}`), whoever created it. */
export function noteCreatedKey(ctx: SuiteContext, json: unknown): CreatedKey | undefined {
  const key = (json as { key?: { id?: unknown; secret?: unknown } } | undefined)?.key;
  if (!key || typeof key.id !== 'string') return undefined;
  const created = { id: key.id, secret: typeof key.secret === 'string' ? key.secret : undefined };
  rememberSecret(created.secret);
  ctx.ledger.created(created);
  return created;
}

function opPath(ctx: SuiteContext, operationId: string): string {
  const op = ctx.model.byId.get(operationId);
  if (!op) throw new Error(`the spec has no operation ${operationId}`);
  return op.path;
}

/** A fresh key of the session's user, for a test that needs one to revoke. */
export async function createKey(ctx: SuiteContext): Promise<CreatedKey | undefined> {
  const headers = ctx.headersFor('session');
  if (!headers) return undefined;
  const ex = await ctx.exchange({ method: 'POST', url: ctx.url(opPath(ctx, 'createApiKey')), headers, body: newKeyBody(ctx) });
  return ex.response && ex.response.status < 300 ? noteCreatedKey(ctx, ex.response.json) : undefined;
}

export function revokePath(ctx: SuiteContext, id: string): string {
  return opPath(ctx, 'revokeApiKey').replace(/\{[^}]+\}/, encodeURIComponent(id));
}

/** Removes a key: with the session, else with the key itself. True once it is gone. */
export async function removeKey(ctx: SuiteContext, key: CreatedKey): Promise<boolean> {
  const attempts = [ctx.headersFor('session'), key.secret ? ctx.bearer(key.secret) : undefined].filter(Boolean);
  for (const headers of attempts) {
    // Cleanup is never refused for want of budget.
    const ex = await ctx.exchange({ method: 'DELETE', url: ctx.url(revokePath(ctx, key.id)), headers }, { essential: true });
    const status = ex.response?.status;
    if (status === 200 || status === 204) {
      ctx.ledger.removed(key.id);
      return true;
    }
  }
  return false;
}

export async function removeOpenKeys(ctx: SuiteContext): Promise<CreatedKey[]> {
  const left: CreatedKey[] = [];
  for (const key of ctx.ledger.open()) if (!(await removeKey(ctx, key))) left.push(key);
  return left;
}
