// `errors:` the error answers a client can run into, each provoked at least once: an
// unknown path (a JSON 404, never an HTML page), a wrong method on every path (405 with
// `Allow`), a path parameter that names nothing (404), the body limits (413, 415) and
// the key cap (409, key-cap.ts).
import { STATUS_JUDGES } from '../../spec/judges/registry.ts';
import type { Operation } from '../../spec/model.ts';
import { weakest, type Provenance } from '../../spec/provenance.ts';
import { NO_OPERATION } from '../shared/answer-log.ts';
import type { CheckResult } from '../shared/recorder.ts';
import type { HttpRequest } from '../transport/http.ts';
import { skip } from './skip.ts';
import { keyCap } from './key-cap.ts';
import { pathWith } from './request-paths.ts';
import { family, type GivenFor } from './run-parts.ts';

const NEEDS = ['spec', 'scope', 'judging', 'credentials', 'http', 'reads', 'keys', 'runId'] as const;
export type ErrorsRun = GivenFor<typeof NEEDS>;
type Run = ErrorsRun;

/** Methods a client might wrongly use; HEAD and OPTIONS are left out (HTTP gives them meanings of their own). */
const METHODS = ['PUT', 'PATCH', 'DELETE', 'POST', 'GET'];

/** What a routing case is about: the status `x-routing` gives (with Allow), in the JSON error body. */
const ROUTING = [...STATUS_JUDGES, 'json', 'error-body'];

/** What the routing checks rest on: `x-routing` and the error body. */
function routingLevel(run: Run): Provenance {
  return weakest(run.spec.routing.provenance, run.judging.ctx.schemas.errorBodyLevel());
}

async function unknownPath(run: Run): Promise<CheckResult[]> {
  const { routing } = run.spec;
  const level = routingLevel(run);
  if (!run.scope.wants(level) || run.scope.only.length) return [];
  const exchange = await run.http.send({
    method: 'GET',
    url: run.http.url(`/contract-test-no-such-path-${run.runId}`),
  });
  const check = `errors: an unknown path -> ${routing.unknownPath} with the JSON error body`;
  return [run.judging.case({ op: { operationId: NO_OPERATION }, check, level, about: ROUTING }, exchange)];
}

/**
 * A method the path does not declare, once per path (filed under its first selected operation), without
 * credentials: refused before anything is authorised, and nothing can be written.
 */
async function wrongMethod(op: Operation, run: Run): Promise<CheckResult[]> {
  const { routing } = run.spec;
  const level = routingLevel(run);
  const onPath = run.spec.operations.filter((o) => o.path === op.path);
  if (!run.scope.wants(level) || onPath.find((o) => run.scope.selected(o)) !== op) return [];
  const declared = onPath.map((o) => o.method);
  const wrong = METHODS.find((m) => !declared.includes(m));
  if (!wrong) return [];
  const exchange = await run.http.send({ method: wrong, url: run.http.url(pathWith(op)) });
  const check =
    `errors: ${wrong} ${op.path} (not declared) -> ` + `${routing.wrongMethod} with Allow: ${declared.join(', ')}`;
  return [run.judging.case({ op, check, level, about: ROUTING }, exchange)];
}

/**
 * A value for a path parameter that the schema accepts and that names nothing: a host
 * under `.invalid` (RFC 2606: no real server is ever looked up), or an id of the run.
 */
function nothingValue(run: Run, schema: Record<string, any>, example: unknown): string | undefined {
  if (schema.type === 'integer' || schema.type === 'number') return example === undefined ? undefined : String(example);
  const id = `contract${run.runId}`;
  return [`${id}.invalid`, `${id}.invalid:1`, `key_${id}`, id].find((c) => run.judging.ctx.schemas.accepts(schema, c));
}

/** Why an operation's provoking request cannot be sent, if it cannot; else its headers. */
function credentialsFor(op: Operation, run: Run): { headers?: Record<string, string>; blocked?: string } {
  const headers = op.schemes.length ? run.credentials.forOperation(op) : run.reads.headers;
  const blocked =
    run.scope.writesBlocked(op) ?? (headers ? undefined : `no credentials for ${op.allowedSchemes.join(' or ')}`);
  return blocked ? { blocked } : { headers };
}

async function namingNothing(op: Operation, run: Run): Promise<CheckResult[]> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  if (!op.responses.has(404) || !pathParams.length) return [];
  const check = `errors: ${pathParams.map((p) => `{${p.name}}`).join('/')} naming nothing -> 404 as declared`;
  const level = weakest(op.provenance, ...pathParams.map((p) => p.provenance));
  if (!run.scope.wants(level)) return [];
  const values = pathParams.map((p) => nothingValue(run, p.schema, p.example));
  const { headers, blocked } = credentialsFor(op, run);
  if (blocked || values.includes(undefined))
    return skip(run.scope, {
      op,
      check,
      level,
      reason: blocked ?? 'no value of the path parameter schema names nothing for certain',
    });
  let path = op.path;
  pathParams.forEach((p, i) => {
    path = path.replace(`{${p.name}}`, encodeURIComponent(values[i]!).replace(/%3A/gi, ':'));
  });
  const exchange = await run.http.send({ method: op.method, url: run.http.url(path), headers });
  const known = { namesNothing: true, ...(op.isPublic ? {} : { credential: 'valid' as const }) };
  return [run.judging.case({ op, check, level, about: STATUS_JUDGES, known }, exchange)];
}

/** The body limits: over `x-max-body-bytes` (413), not JSON (415). */
async function bodyLimits(op: Operation, run: Run): Promise<CheckResult[]> {
  if (!op.requestBody) return [];
  const max = run.spec.limits.maxBodyBytes;
  const level = weakest(op.provenance, run.spec.documentProvenance, run.judging.ctx.schemas.errorBodyLevel());
  const { headers, blocked } = credentialsFor(op, run);
  const url = run.http.url(op.path);
  const valid = run.keys.newKeyBody();
  const cases: { status: number; judge: string; check: string; request: HttpRequest }[] = [
    // Over the limit and so not valid either: the size is what a server must notice first.
    {
      status: 413,
      judge: 'body-limit',
      check: `errors: a body over x-max-body-bytes (${max} bytes) -> 413`,
      request: { method: op.method, url, headers, body: { ...valid, padding: 'x'.repeat(max) } },
    },
    {
      status: 415,
      judge: 'media-type',
      check: 'errors: a body that is not JSON (Content-Type: text/plain) -> 415',
      request: {
        method: op.method,
        url,
        headers: { ...headers, 'Content-Type': 'text/plain' },
        body: `name=${valid.name}`,
      },
    },
  ];
  const out: CheckResult[] = [];
  for (const c of cases.filter((x) => op.responses.has(x.status))) {
    if (!run.scope.wants(level)) continue;
    if (blocked) out.push(...skip(run.scope, { op, check: c.check, level, reason: blocked }));
    else
      out.push(run.judging.case({ op, check: c.check, level, about: STATUS_JUDGES }, await run.http.send(c.request)));
  }
  return out;
}

async function provokedErrors(op: Operation, run: Run): Promise<CheckResult[]> {
  const out = [...(await wrongMethod(op, run)), ...(await namingNothing(op, run)), ...(await bodyLimits(op, run))];
  if (op.responses.has(409) && op.raw['x-max-keys-per-user'] !== undefined)
    out.push(...(await keyCap(op, run, credentialsFor(op, run))));
  return out;
}

export const errorsFamily = family({ name: 'errors', needs: NEEDS, once: unknownPath, perOperation: provokedErrors });
