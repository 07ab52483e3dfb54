// Dredd hook file (loaded with `--require tsx/cjs --hookfiles contract-tests/hooks/dredd-hooks.ts`).
// Dredd makes one request per spec response; the suite keeps each operation's success
// response, makes it with real credentials and real ids, gives Gavel the spec's JSON
// Schema (closing Dredd's OpenAPI 3 type hole), and after it runs the checks a single
// request cannot make. Once Dredd is done, the depth checks run (lib/depth.ts). Every
// outcome goes to the results file the runner reads; the run's figures to the stats file.
import { writeFileSync } from 'node:fs';
import hooks, { type DreddTransaction } from 'hooks';
import { SuiteContext, compactProblems, type Exchange } from '../lib/context.ts';
import { runDepthChecks } from '../lib/depth.ts';
import { parseJson, type HttpRequest } from '../lib/http.ts';
import { runAuthMatrix } from '../lib/auth-matrix.ts';
import { createKey, newKeyBody, noteCreatedKey, removeOpenKeys, revokePath } from '../lib/keys.ts';
import type { CreatedKey } from '../lib/ledger.ts';
import { checkCreatedKey, checkPaging, checkPublicWithCredentials, checkRevokedKey } from '../lib/semantics.ts';
import type { Operation } from '../../spec/model.ts';
import { weakest, within, type Provenance } from '../../spec/provenance.ts';

const raw = process.env.CONTRACT_RUN;
if (!raw) throw new Error('CONTRACT_RUN is not set: run the suite through `npm run contract`');
const ctx = new SuiteContext(JSON.parse(raw));
/** Requests Dredd itself sent (outside the budget). */
let dreddRequests = 0;

interface Planned {
  op: Operation;
  /** Why the success transaction is not made (recorded as skipped); undefined = it runs. */
  skipReason?: string;
  /** The key a revoke transaction aims at. */
  victim?: CreatedKey;
  /** How firm the replay is: the operation, the parameters it keeps, JSON answers. */
  level?: Provenance;
  /** When Dredd's request went out, and how long its answer took. */
  sentAt?: number;
  ms?: number;
}
const planned = new Map<string, Planned>();

/** Dredd awaits a hook only if it takes `done`; an async function alone would be fire-and-forget. */
function async(fn: (t: DreddTransaction) => Promise<void>) {
  return (t: DreddTransaction, done: () => void) => {
    fn(t)
      .catch((err: Error) => {
        const p = planned.get(t.name);
        if (p) ctx.record(p.op, 'suite: hook error', 'interface', 'fail', undefined, undefined, `internal error in the contract hooks: ${err.stack ?? err.message}`);
      })
      .finally(done);
  };
}

function operationOf(t: DreddTransaction): Operation | undefined {
  return ctx.model.operations.find((o) => o.path === t.origin.resourceName && o.method === t.request.method.toUpperCase());
}

function setUri(t: DreddTransaction, uri: string): void {
  t.fullPath = t.fullPath.slice(0, t.fullPath.length - t.request.uri.length) + uri;
  t.request.uri = uri;
}

let indexedServer: { address: string; port: number } | null | undefined;

/** A server the target really has indexed: the spec's example address may not be. */
async function realServer(): Promise<{ address: string; port: number } | null> {
  if (indexedServer !== undefined) return indexedServer;
  const find = ctx.model.byId.get('findServers');
  const res = find ? (await ctx.exchange({ method: 'GET', url: ctx.url(`${find.path}?limit=1`) })).response : undefined;
  const row = (res?.json as { results?: { address?: unknown; port?: unknown }[] } | undefined)?.results?.[0];
  // A port sent as a string is the search's defect, found there: the ping checks still get a real server.
  const port = typeof row?.port === 'number' ? row.port : typeof row?.port === 'string' && /^\d+$/.test(row.port) ? Number(row.port) : undefined;
  indexedServer = typeof row?.address === 'string' && port !== undefined ? { address: row.address, port } : null;
  return indexedServer;
}

async function prepare(t: DreddTransaction, p: Planned): Promise<string | undefined> {
  const { op } = p;
  if (!ctx.wants(op.provenance)) return 'provenance';
  const blocked = ctx.writesBlocked(op);
  if (blocked) return blocked;
  if (op.schemes.length) {
    const principal = op.allowedSchemes.map((s) => ctx.principalForScheme(s)).find((pr) => pr && ctx.headersFor(pr));
    if (!principal) return `no credentials for ${op.allowedSchemes.join(' or ')} (set CONTRACT_API_KEY / CONTRACT_SESSION_COOKIE)`;
    Object.assign(t.request.headers, ctx.headersFor(principal));
  }
  if (op.method === 'POST') {
    // Not the spec's example: a name that marks the key as ours and an expiry of a day.
    t.request.body = JSON.stringify(newKeyBody(ctx));
    t.request.headers['Content-Type'] = 'application/json';
  }
  if (op.path.includes('{id}')) {
    p.victim = await createKey(ctx);
    if (!p.victim) return 'could not create a key to revoke (the session cannot create keys)';
    setUri(t, revokePath(ctx, p.victim.id));
  }
  if (/\{(address|host)\}/.test(op.path)) {
    const server = await realServer();
    if (server) {
      setUri(t, op.path.replace('{address}', `${server.address}:${server.port}`).replace('{host}', server.address).replace('{port}', String(server.port)));
    }
  }
  // Dredd sends every parameter's example at once, a query no row matches: an empty page
  // validates nothing, and each parameter is a promise the replay would lean on. Keep the
  // required ones and the page size (the answer stays small) when it is as firm as the
  // operation; the depth checks probe every other parameter on its own.
  const [path, search = ''] = t.request.uri.split('?');
  const keep = new URLSearchParams(search);
  for (const x of op.parameters) {
    if (x.in === 'query' && !x.required && !(x.meaning?.rule === 'limitsRows' && within(x.provenance, op.provenance))) keep.delete(x.name);
  }
  setUri(t, `${path}${keep.size ? `?${keep}` : ''}`);
  p.level = weakest(op.provenance, ...op.parameters.filter((x) => x.in === 'path' || keep.has(x.name)).map((x) => x.provenance));
  // The type hole: give Gavel the spec's schema instead of the example's key structure
  // (Dredd's own tally); the verdicts are the suite's, from the same schema.
  const schema = ctx.jsonSchemaFor(op, op.successStatus);
  if (schema) t.expected.bodySchema = schema;
  // Headers are checked by the suite on every answer (lib/headers.ts), Content-Type by media type only.
  t.expected.headers = {};
  return undefined;
}

/** The name a response's schema goes by in the spec (`FindResponse`), for check names. */
function schemaName(op: Operation): string {
  const ref = (op.responses.get(op.successStatus)?.schema as { $ref?: string } | undefined)?.$ref;
  return ref ? ref.split('/').pop()! : "the spec's schema";
}

hooks.beforeEach(
  async(async (t) => {
    const op = operationOf(t);
    // Dredd's OpenAPI 3 adapter turns every declared response into a transaction, but it
    // cannot provoke a 401, 429 or 500; only the success response is replayed as is.
    if (!op || Number(t.expected.statusCode) !== op.successStatus || !ctx.selected(op)) {
      t.skip = true;
      return;
    }
    const p: Planned = { op };
    planned.set(t.name, p);
    p.skipReason = await prepare(t, p);
    if (p.skipReason) t.skip = true;
    else {
      // Dredd's own request is paced like the suite's: it draws on the same limits.
      await ctx.pacer.beforeSend(ctx.pacer.bucketOf(t.request.uri, t.request.headers));
      dreddRequests++;
      p.sentAt = performance.now();
    }
  }),
);

function dreddRequest(t: DreddTransaction): HttpRequest {
  return { method: t.request.method, url: ctx.url(t.request.uri), headers: t.request.headers, body: t.request.body ? parseJson(t.request.body) : undefined };
}

hooks.beforeEachValidation(
  async(async (t) => {
    const p = planned.get(t.name);
    if (!p || !t.real) return;
    if (p.sentAt !== undefined) p.ms = performance.now() - p.sentAt;
    const request = dreddRequest(t);
    ctx.observe(request, { status: t.real.statusCode, headers: t.real.headers, text: t.real.body, json: parseJson(t.real.body) });
    const retryMs = ctx.pacer.afterAnswer(ctx.pacer.bucketOf(t.request.uri, t.request.headers), t.real.statusCode, t.real.headers);
    // A rate-limited answer says nothing about the contract: wait as told and ask again.
    if (retryMs === undefined) return;
    await ctx.pacer.pause(retryMs);
    const res = (await ctx.exchange(request)).response;
    if (res) t.real = { statusCode: res.status, headers: res.headers, body: res.text };
  }),
);

hooks.afterEach(
  async(async (t) => {
    const p = planned.get(t.name);
    if (!p) return;
    const { op } = p;
    const statusName = `Dredd: ${op.method} ${op.path} -> ${op.successStatus} as the spec says`;
    const bodyName = `Dredd: ${op.method} ${op.path} -> ${op.successStatus} body matches ${schemaName(op)}`;
    const bodyLevel = weakest(op.provenance, ctx.schemaLevel(op, op.successStatus));
    const request = dreddRequest(t);
    const res = t.real ? { status: t.real.statusCode, headers: t.real.headers, text: t.real.body, json: parseJson(t.real.body) } : undefined;

    if (p.skipReason && p.skipReason !== 'provenance') ctx.skip(op, statusName, op.provenance, p.skipReason);
    else if (!p.skipReason) {
      // Two checks of one answer, each as firm as what it relies on: the status (and JSON)
      // on the operation, the body on every part of the schema the run's level keeps.
      const failedToSend = (t.errors ?? []).filter((e) => e.severity === 'error').map((e) => e.message).join('; ');
      const ex: Exchange = res ? { request, response: res, ms: p.ms } : { request, error: failedToSend || 'no answer from the target' };
      ctx.verify(op, statusName, p.level ?? op.provenance, ex, { status: op.successStatus, schema: false, expected: ctx.expectedText(op, op.successStatus) });
      if (ctx.schemaLevel(op, op.successStatus)) {
        if (res?.status !== op.successStatus) ctx.skip(op, bodyName, bodyLevel, `the answer was not a ${op.successStatus} (see the check above)`);
        else {
          const body = ctx.bodyCheck(op, op.successStatus, res);
          ctx.record(op, bodyName, bodyLevel, body.problems.length ? 'fail' : 'pass', ex, `a body matching ${schemaName(op)}`, compactProblems(body.problems).join('; '), body.schemaErrors.length ? { schemaErrors: body.schemaErrors } : {});
        }
      }
    }

    const before = ctx.recorder.failures.get(op.operationId)?.length ?? 0;
    if (op.schemes.length) await runAuthMatrix(ctx, op, t.request.uri);
    else await checkPublicWithCredentials(ctx, op, t.request.uri);
    if (op.operationId === 'findServers') await checkPaging(ctx, op);
    if (op.operationId === 'createApiKey' && !p.skipReason) {
      const created = res && res.status < 300 ? noteCreatedKey(ctx, res.json) : undefined;
      await checkCreatedKey(ctx, op, created, res);
    }
    if (op.operationId === 'revokeApiKey' && !p.skipReason && p.victim) {
      const ok = res?.status === op.successStatus;
      if (ok) ctx.ledger.removed(p.victim.id);
      await checkRevokedKey(ctx, op, p.victim, ok);
    }
    const failed = (ctx.recorder.failures.get(op.operationId) ?? []).slice(before);
    // Keeps Dredd's own tally in line with the suite's.
    if (failed.length && !t.skip) t.fail = `contract checks failed: ${failed.join(', ')}`;
  }),
);

hooks.afterAll((_transactions, done) => {
  const finish = async () => {
    let sample;
    try {
      sample = await runDepthChecks(ctx);
    } catch (err) {
      ctx.recorder.record({ operationId: 'suite', check: 'suite: the depth checks ran to completion', provenance: 'interface', status: 'fail', message: `internal error in the contract suite: ${(err as Error).stack ?? (err as Error).message}` });
    }
    // The suite removes what it created here; the runner sweeps the ledger again afterwards.
    await removeOpenKeys(ctx).catch(() => undefined);
    ctx.recordHygiene();
    ctx.recordHeaders();
    const stats = { budget: ctx.budget.limit, requests: ctx.budget.spent, refused: ctx.budget.refused, cleanup: ctx.budget.cleanup, dreddRequests, ...ctx.pacer.stats, sample, answers: Object.fromEntries(ctx.answers), answerTypes: ctx.answerTypes };
    writeFileSync(ctx.config.statsFile, JSON.stringify(stats));
  };
  finish().finally(done);
});
