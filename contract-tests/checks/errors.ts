// The error answers a client can run into, each provoked at least once: an unknown path
// (JSON 404, never an HTML page), a wrong method on every path (405 with `Allow`), a
// path parameter that names nothing (404), the body limits (413, 415) and the key cap
// (409). Afterwards, every non-2xx status an operation declares and no check provoked is
// listed as skipped, with the reason.
import { reasonPhrase } from '../../spec/messages.ts';
import type { Operation } from '../../spec/model.ts';
import { provenanceOf, weakest, type Provenance } from '../../spec/provenance.ts';
import { NO_OPERATION, type SuiteContext } from './context.ts';
import type { HttpRequest } from './http.ts';
import { newKeyBody, noteCreatedKey, removeKey } from './keys.ts';
import type { CreatedKey } from './ledger.ts';
import { pathWith } from './negative.ts';

/** Methods a client might wrongly use; HEAD and OPTIONS are left out (HTTP gives them meanings of their own). */
const METHODS = ['PUT', 'PATCH', 'DELETE', 'POST', 'GET'];

/** Credentials an operation accepts, if the run has them. */
function credentialsFor(ctx: SuiteContext, op: Operation, readHeaders: Record<string, string>): Record<string, string> | undefined {
  if (!op.schemes.length) return readHeaders;
  const principal = op.allowedSchemes.map((s) => ctx.principalForScheme(s)).find((p) => p && ctx.headersFor(p));
  return principal ? ctx.headersFor(principal) : undefined;
}

/** Why an operation's provoking request cannot be sent, if it cannot. */
function blockedReason(ctx: SuiteContext, op: Operation, headers: Record<string, string> | undefined): string | undefined {
  return ctx.writesBlocked(op) ?? (headers ? undefined : `no credentials for ${op.allowedSchemes.join(' or ')}`);
}

export async function checkRouting(ctx: SuiteContext): Promise<void> {
  const { routing } = ctx.model;
  const provenance = weakest(routing.provenance, provenanceOf(ctx.model.doc.components.schemas.ErrorBody));
  if (!ctx.wants(provenance)) return;
  if (!ctx.config.only.length) {
    const path = `/contract-test-no-such-path-${ctx.config.runId}`;
    const ex = await ctx.exchange({ method: 'GET', url: ctx.url(path) });
    ctx.verifyError({ operationId: NO_OPERATION }, `errors: an unknown path -> ${routing.unknownPath} with the JSON error body`, provenance, ex, routing.unknownPath);
  }
  const byPath = new Map<string, Operation[]>();
  for (const op of ctx.model.operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  for (const [path, ops] of byPath) {
    if (!ops.some((o) => ctx.selected(o))) continue;
    const declared = ops.map((o) => o.method);
    const wrong = METHODS.find((m) => !declared.includes(m));
    if (!wrong) continue;
    // Without credentials: a wrong method is refused before anything is authorised, and nothing can be written.
    const ex = await ctx.exchange({ method: wrong, url: ctx.url(pathWith(ops[0]!)) });
    ctx.verifyError(ops[0]!, `errors: ${wrong} ${path} (not declared) -> ${routing.wrongMethod} with Allow: ${declared.join(', ')}`, provenance, ex, routing.wrongMethod, (res) => {
      if (res.status !== routing.wrongMethod) return [];
      const allow = (res.headers.allow ?? '').split(',').map((m) => m.trim().toUpperCase()).filter(Boolean);
      const problems: string[] = [];
      if (!res.headers.allow) problems.push('no Allow header');
      else {
        const missing = declared.filter((m) => !allow.includes(m));
        if (missing.length) problems.push(`Allow '${res.headers.allow}' leaves out ${missing.join(', ')}`);
        if (allow.includes(wrong)) problems.push(`Allow '${res.headers.allow}' lists ${wrong}, which was just refused`);
      }
      return problems;
    });
  }
}

/**
 * A value for a path parameter that the schema accepts and that names nothing: a host
 * under `.invalid` (RFC 2606: no real server is ever looked up), or an id of the run.
 */
function nothingValue(ctx: SuiteContext, schema: Record<string, any>, example: unknown): string | undefined {
  if (schema.type === 'integer' || schema.type === 'number') return example === undefined ? undefined : String(example);
  const id = `contract${ctx.config.runId}`;
  return [`${id}.invalid`, `${id}.invalid:1`, `key_${id}`, id].find((c) => ctx.accepts(schema, c));
}

export async function checkProvokedErrors(ctx: SuiteContext, readHeaders: Record<string, string>): Promise<void> {
  for (const op of ctx.model.operations.filter((o) => ctx.selected(o))) {
    const headers = credentialsFor(ctx, op, readHeaders);
    const blocked = blockedReason(ctx, op, headers);
    const pathParams = op.parameters.filter((p) => p.in === 'path');
    if (op.responses.has(404) && pathParams.length) {
      const values = pathParams.map((p) => nothingValue(ctx, p.schema, p.example));
      const name = `errors: ${pathParams.map((p) => `{${p.name}}`).join('/')} naming nothing -> 404 as declared`;
      const provenance = weakest(op.provenance, ...pathParams.map((p) => p.provenance));
      if (ctx.wants(provenance)) {
        if (blocked || values.includes(undefined)) ctx.skip(op, name, provenance, blocked ?? 'no value of the path parameter schema names nothing for certain');
        else {
          let path = op.path;
          pathParams.forEach((p, i) => (path = path.replace(`{${p.name}}`, encodeURIComponent(values[i]!).replace(/%3A/gi, ':'))));
          ctx.verify(op, name, provenance, await ctx.exchange({ method: op.method, url: ctx.url(path), headers }), { status: 404 });
        }
      }
    }
    if (!op.requestBody) continue;
    const max = ctx.model.limits.maxBodyBytes;
    const provenance = weakest(op.provenance, ctx.model.documentProvenance, provenanceOf(ctx.model.doc.components.schemas.ErrorBody));
    if (op.responses.has(413)) {
      // Over the limit and so not valid either: the size is what a server must notice first.
      const body = { ...newKeyBody(ctx), padding: 'x'.repeat(max) };
      await provoke(ctx, op, `errors: a body over x-max-body-bytes (${max} bytes) -> 413`, provenance, blocked, { method: op.method, url: ctx.url(op.path), headers, body }, 413);
    }
    if (op.responses.has(415)) {
      const request = { method: op.method, url: ctx.url(op.path), headers: { ...headers, 'Content-Type': 'text/plain' }, body: `name=${newKeyBody(ctx).name}` };
      await provoke(ctx, op, `errors: a body that is not JSON (Content-Type: text/plain) -> 415`, provenance, blocked, request, 415);
    }
    if (op.responses.has(409) && op.raw['x-max-keys-per-user'] !== undefined) await checkKeyCap(ctx, op, headers, blocked);
  }
}

async function provoke(ctx: SuiteContext, op: Operation, name: string, provenance: Provenance, blocked: string | undefined, request: HttpRequest, status: number): Promise<void> {
  if (!ctx.wants(provenance)) return;
  if (blocked) return ctx.skip(op, name, provenance, blocked);
  const ex = await ctx.exchange(request);
  if (ex.response && ex.response.status < 300) noteCreatedKey(ctx, ex.response.json);
  ctx.verify(op, name, provenance, ex, { status });
}

/**
 * Creates keys up to `x-max-keys-per-user`, then one more, which must be 409; then
 * removes every key it made. Costs about twice the keys it has to make.
 */
async function checkKeyCap(ctx: SuiteContext, op: Operation, headers: Record<string, string> | undefined, blocked: string | undefined): Promise<void> {
  const cap = ctx.model.limits.maxKeysPerUser;
  const name = `errors: a key beyond x-max-keys-per-user (${cap}) -> 409 with the error body`;
  if (!ctx.wants(op.provenance)) return;
  const list = ctx.model.byId.get('listApiKeys');
  if (blocked || !list || !headers) return ctx.skip(op, name, op.provenance, blocked ?? 'no operation lists the keys');
  const listed = await ctx.exchange({ method: 'GET', url: ctx.url(list.path), headers });
  const keys = (listed.response?.json as { keys?: unknown[] } | undefined)?.keys;
  if (!Array.isArray(keys)) return ctx.skip(op, name, op.provenance, `could not count the keys (${listed.skipped ?? listed.error ?? `GET ${list.path} answered ${listed.response?.status}`})`);
  const need = Math.max(0, cap - keys.length);
  if (ctx.budget.left() < need + 1) return ctx.skip(op, name, op.provenance, `needs ${need + 1} creates and as many removals; ${ctx.budget.left()} requests of the budget are left (raise --budget)`);
  const made: CreatedKey[] = [];
  try {
    for (let i = 0; i < need; i++) {
      const ex = await ctx.exchange({ method: 'POST', url: ctx.url(op.path), headers, body: newKeyBody(ctx) });
      const key = ex.response?.status === op.successStatus ? noteCreatedKey(ctx, ex.response.json) : undefined;
      if (!key) {
        const early = ex.response?.status === 409 ? ` after ${i} new keys (${keys.length} were listed; the cap is ${cap})` : '';
        ctx.record(op, name, op.provenance, ex.skipped ? 'skip' : 'fail', ex, `${op.successStatus} for key ${keys.length + i + 1} of ${cap}`, ex.skipped ?? `creating key ${keys.length + i + 1} of ${cap} failed${early}`);
        return;
      }
      made.push(key);
    }
    const over = await ctx.exchange({ method: 'POST', url: ctx.url(op.path), headers, body: newKeyBody(ctx) });
    if (over.response && over.response.status < 300) {
      const key = noteCreatedKey(ctx, over.response.json);
      if (key) made.push(key);
    }
    ctx.verify(op, name, op.provenance, over, { status: 409 });
  } finally {
    for (const key of made) await removeKey(ctx, key);
  }
}

/** Why a declared status no check provoked could not be, for the report; `unavoidable` when no setting of the suite would provoke it. */
function notProvokedBecause(ctx: SuiteContext, op: Operation, status: number): { reason: string; unavoidable: boolean } {
  if (status >= 500) return { reason: 'cannot be provoked: a 5xx is the server failing, and one met by any check fails that check', unavoidable: true };
  // The suite paces itself to stay within the limits rather than provoke them.
  if (status === 429) return { reason: 'no 429 seen: the target enforced no limit, or the pacing kept within it', unavoidable: true };
  return { reason: ctx.writesBlocked(op) ?? 'no check provokes it (yet)', unavoidable: false };
}

/** Lists, as skipped, every declared non-2xx status that no check provoked and no answer showed. */
export function recordCoverage(ctx: SuiteContext): void {
  for (const op of ctx.model.operations.filter((o) => ctx.selected(o))) {
    for (const status of op.responses.keys()) {
      if (status < 300 || ctx.provoked.has(`${op.operationId} ${status}`) || ctx.seen.has(`${op.operationId} ${status}`)) continue;
      const why = notProvokedBecause(ctx, op, status);
      ctx.skip(op, `coverage: the declared ${status} ${reasonPhrase(status)} is exercised`, op.provenance, why.reason, why.unavoidable);
    }
  }
}
