// What a schema cannot say, checked with real requests: paging arithmetic, credentials
// on a public endpoint, and the API-key lifecycle (the secret is shown once, a revoked
// key stops working).
import type { SuiteContext } from './context.ts';
import type { HttpResponse } from './http.ts';
import type { CreatedKey } from './ledger.ts';
import { propertyProvenance, type Operation } from '../../spec/model.ts';
import { weakest } from '../../spec/provenance.ts';

interface Page {
  displayed?: unknown;
  total?: unknown;
  results?: unknown;
}

const SMALL_LIMIT = 3;

export async function checkPaging(ctx: SuiteContext, op: Operation): Promise<void> {
  const limitParam = op.parameters.find((p) => p.in === 'query' && p.name === 'limit');
  const pageParam = op.parameters.find((p) => p.in === 'query' && p.name === 'page');
  if (!limitParam || !pageParam) return;
  const displayedProv = propertyProvenance(ctx.model, 'FindResponse', 'displayed');
  const resultsProv = propertyProvenance(ctx.model, 'FindResponse', 'results');
  const limitProv = weakest(limitParam.provenance, resultsProv);
  const pageProv = weakest(pageParam.provenance, resultsProv);

  const first = await ctx.exchange({ method: 'GET', url: ctx.url(`${op.path}?limit=${SMALL_LIMIT}`) });
  const page = first.response?.json as Page | undefined;
  if (ctx.wants(displayedProv)) {
    ctx.verify(op, 'paging: displayed equals results.length', displayedProv, first, {
      status: op.successStatus,
      extra: () =>
        Array.isArray(page?.results) && page.displayed !== page.results.length
          ? [`displayed is ${JSON.stringify(page.displayed)} but results.length is ${page.results.length}`]
          : [],
    });
  }
  if (ctx.wants(limitProv)) {
    ctx.verify(op, `paging: results.length is at most limit (limit=${SMALL_LIMIT})`, limitProv, first, {
      status: op.successStatus,
      extra: () =>
        Array.isArray(page?.results) && page.results.length > SMALL_LIMIT
          ? [`results.length is ${page.results.length}, more than limit=${SMALL_LIMIT}: limit is ignored`]
          : [],
    });
  }
  if (ctx.wants(pageProv)) {
    const maxPage = Number(pageParam.schema?.maximum ?? 1_000_000);
    const total = typeof page?.total === 'number' ? page.total : undefined;
    const past = total === undefined ? maxPage : Math.min(maxPage, Math.floor(total / SMALL_LIMIT) + 2);
    const ex = await ctx.exchange({ method: 'GET', url: ctx.url(`${op.path}?limit=${SMALL_LIMIT}&page=${past}`) });
    ctx.verify(op, 'paging: a page past the end is empty, not an error', pageProv, ex, {
      status: op.successStatus,
      extra: (res) => {
        const body = res.json as Page | undefined;
        return Array.isArray(body?.results) && (body.results.length !== 0 || body.displayed !== 0)
          ? [`page ${past} of ${total ?? '?'} rows has ${body.results.length} results (displayed ${JSON.stringify(body.displayed)}), expected none`]
          : [];
      },
    });
  }
}

/** Public endpoints accept credentials (rate limits are per account): the answer must not change. */
export async function checkPublicWithCredentials(ctx: SuiteContext, op: Operation, relativePath: string): Promise<void> {
  if (!ctx.wants(op.provenance)) return;
  for (const principal of ['apiKey', 'session'] as const) {
    const name = `public: a request with a valid ${principal === 'apiKey' ? 'API key' : 'session'} still succeeds`;
    const headers = ctx.headersFor(principal);
    if (!headers) {
      ctx.skip(op, name, op.provenance, `no ${principal === 'apiKey' ? 'CONTRACT_API_KEY' : 'CONTRACT_SESSION_COOKIE'}`);
      continue;
    }
    const ex = await ctx.exchange({ method: op.method, url: ctx.url(relativePath), headers });
    ctx.verify(op, name, op.provenance, ex, { status: op.successStatus });
  }
}

/** After a key was created: its secret was in the create answer, is never listed, and works. */
export async function checkCreatedKey(ctx: SuiteContext, op: Operation, created: CreatedKey | undefined, createAnswer: HttpResponse | undefined): Promise<void> {
  const list = ctx.model.byId.get('listApiKeys');
  if (!list || !ctx.wants(op.provenance)) return;
  const name = 'keys: the secret is in the create answer';
  if (!created || !createAnswer) {
    ctx.skip(op, name, op.provenance, 'no key was created (see the Dredd check above)');
    return;
  }
  ctx.record(op, name, op.provenance, created.secret ? 'pass' : 'fail', undefined, `key.secret in the ${op.successStatus} answer`,
    created.secret ? undefined : 'the create answer holds no key.secret');
  const session = ctx.headersFor('session');
  const ex = await ctx.exchange({ method: 'GET', url: ctx.url(list.path), headers: session });
  ctx.verify(op, 'keys: a created key\'s secret never appears in the list', op.provenance, ex, {
    status: list.successStatus,
    against: list,
    extra: (res) => {
      const keys = (res.json as { keys?: { id?: unknown; secret?: unknown }[] } | undefined)?.keys ?? [];
      const problems: string[] = [];
      const withSecret = keys.filter((k) => k && typeof k === 'object' && 'secret' in k).length;
      if (withSecret) problems.push(`${withSecret} listed key(s) carry a 'secret' field`);
      if (created.secret && res.text.includes(created.secret)) problems.push('the new key\'s secret appears in the list');
      if (!keys.some((k) => k?.id === created.id)) problems.push(`the new key ${created.id} is missing from the list`);
      return problems;
    },
  });
  if (created.secret) {
    const use = await ctx.exchange({ method: 'GET', url: ctx.url(list.path), headers: ctx.bearer(created.secret) });
    ctx.verify(op, 'keys: a created key authenticates', op.provenance, use, { status: list.successStatus, against: list });
  }
}

/** After a key was revoked: it gets 401 and is gone from the list. */
export async function checkRevokedKey(ctx: SuiteContext, op: Operation, revoked: CreatedKey | undefined, ok: boolean): Promise<void> {
  const list = ctx.model.byId.get('listApiKeys');
  if (!list || !ctx.wants(op.provenance)) return;
  const name = 'keys: a revoked key stops working (401)';
  if (!revoked?.secret || !ok) {
    ctx.skip(op, name, op.provenance, 'no key was revoked (see the Dredd check above)');
    return;
  }
  const use = await ctx.exchange({ method: 'GET', url: ctx.url(list.path), headers: ctx.bearer(revoked.secret) });
  ctx.verify(op, name, op.provenance, use, { status: 401, against: list });
  const ex = await ctx.exchange({ method: 'GET', url: ctx.url(list.path), headers: ctx.headersFor('session') });
  ctx.verify(op, 'keys: a revoked key is gone from the list', op.provenance, ex, {
    status: list.successStatus,
    against: list,
    extra: (res) => ((res.json as { keys?: { id?: unknown }[] } | undefined)?.keys ?? []).some((k) => k?.id === revoked.id) ? [`revoked key ${revoked.id} is still listed`] : [],
  });
}
