// `keys:` an API key's life as the spec's links tell it (create -> list, create ->
// revoke): the family creates a key, lists the keys, uses the key, revokes it, uses and
// lists again, each time saying what it knows (the key it holds is valid, then revoked;
// its secret; its id must be listed, then not) for the judges to hold the answers to: a
// new key's secret is in the create answer (`schema`), never in the list (`secrets`), and
// works (`success`); a revoked key gets 401 (`auth`) and is gone from the list (`listed`).
// The key is the run's own (named after it, a day to live), and the ledger removes it if
// a step fails.
import { STATUS_JUDGES } from '../../spec/judges/registry.ts';
import type { Operation } from '../../spec/model.ts';
import type { CreatedKey } from '../shared/key-ledger.ts';
import type { KeyLifecycle } from '../shared/key-lifecycle.ts';
import type { CheckResult } from '../shared/recorder.ts';
import type { Exchange } from '../transport/transport.ts';
import { skip } from './skip.ts';
import { family, type GivenFor } from './run-parts.ts';

const NEEDS = ['scope', 'judging', 'credentials', 'http', 'keys'] as const;
type Run = GivenFor<typeof NEEDS>;

/** After a key was created: its secret was in the create answer, is never listed, and works. */
async function createdKey(
  run: Run,
  lc: KeyLifecycle & { list: Operation },
  made: { key?: CreatedKey; exchange: Exchange },
): Promise<CheckResult[]> {
  const { http, credentials } = run;
  const op = lc.create;
  const check = 'keys: the secret is in the create answer';
  const { key, exchange } = made;
  if (!key)
    return skip(run.scope, {
      op,
      check,
      level: op.provenance,
      reason:
        `no key was created ` +
        `(${exchange.skipped ?? exchange.error ?? `${op.method} ${op.path} answered ${exchange.response?.status}`})`,
    });
  const valid = { credential: 'valid' } as const;
  const out = [
    run.judging.case({ op, check, level: op.provenance, about: [...STATUS_JUDGES, 'schema'], known: valid }, exchange),
  ];
  const listed = await http.send({
    method: 'GET',
    url: http.url(lc.list.path),
    headers: credentials.forOperation(lc.list),
  });
  const field = idField(lc);
  const known = { ...valid, secrets: key.secret ? [key.secret] : [], listed: { field, present: [key.id] } };
  const secretCheck = "keys: a created key's secret never appears in the list";
  out.push(
    run.judging.case(
      { op, check: secretCheck, level: op.provenance, about: [...STATUS_JUDGES, 'schema', 'secrets', 'listed'], known },
      listed,
    ),
  );
  if (key.secret) {
    const use = await http.send({
      method: 'GET',
      url: http.url(lc.list.path),
      headers: credentials.bearer(key.secret),
    });
    const check = 'keys: a created key authenticates';
    out.push(run.judging.case({ op, check, level: op.provenance, about: STATUS_JUDGES, known: valid }, use));
  }
  return out;
}

/** The field of a listed key its id is in: the last step of the pointer the spec's link reads it by. */
function idField(lc: KeyLifecycle): string {
  return lc.idPointer.split('/').pop() ?? 'id';
}

/** After a key was revoked: it gets 401 and is gone from the list. */
async function revokedKey(
  run: Run,
  lc: KeyLifecycle & { list: Operation; revoke: NonNullable<KeyLifecycle['revoke']> },
  made: { key?: CreatedKey; exchange: Exchange },
): Promise<CheckResult[]> {
  const { http, keys, credentials } = run;
  const op = lc.revoke.op;
  const check = 'keys: a revoked key stops working (401)';
  const { key, exchange } = made;
  const answered = `${lc.create.method} ${lc.create.path} answered ${exchange.response?.status}`;
  if (!key)
    return skip(run.scope, {
      op,
      check,
      level: op.provenance,
      reason: `no key was created to revoke (${exchange.skipped ?? exchange.error ?? answered})`,
    });
  if (!key.secret)
    return skip(run.scope, {
      op,
      check,
      level: op.provenance,
      reason: 'the create answer held no secret to try the revoked key with',
    });
  const revoked = await http.send({
    method: op.method,
    url: http.url(keys.revokePath(key.id)!),
    headers: credentials.forOperation(op),
  });
  if (revoked.response?.status !== op.successStatus) {
    return skip(run.scope, {
      op,
      check,
      level: op.provenance,
      reason:
        `no key was revoked ` +
        `(${revoked.skipped ?? revoked.error ?? `${op.method} ${op.path} answered ${revoked.response?.status}`})`,
    });
  }
  const use = await http.send({ method: 'GET', url: http.url(lc.list.path), headers: credentials.bearer(key.secret) });
  // The revoked key on the other operations too: creating a key with it, revoking itself again.
  const elsewhere = [
    { on: lc.create, path: lc.create.path, body: keys.newKeyBody() },
    { on: op, path: keys.revokePath(key.id)!, body: undefined },
  ];
  const tried = [];
  for (const e of elsewhere) {
    const exchange = await http.send({
      method: e.on.method,
      url: http.url(e.path),
      headers: credentials.bearer(key.secret),
      body: e.body,
    });
    const made = keys.keyIn(exchange.response?.json);
    if (made) await keys.remove(made);
    tried.push({ op: e.on, exchange });
  }
  const listed = await http.send({
    method: 'GET',
    url: http.url(lc.list.path),
    headers: credentials.forOperation(lc.list),
  });
  const revokedKnown = { credential: 'revoked', secrets: [key.secret] } as const;
  const gone = { credential: 'valid', listed: { field: idField(lc), absent: [key.id] } } as const;
  return [
    run.judging.case({ op, check, level: op.provenance, about: STATUS_JUDGES, known: revokedKnown }, use),
    ...tried.map((t) =>
      run.judging.case(
        {
          op: t.op,
          check: `keys: a revoked key stops working on ${t.op.operationId} (401)`,
          level: t.op.provenance,
          about: STATUS_JUDGES,
          known: revokedKnown,
        },
        t.exchange,
      ),
    ),
    run.judging.case(
      {
        op,
        check: 'keys: a revoked key is gone from the list',
        level: op.provenance,
        about: [...STATUS_JUDGES, 'listed'],
        known: gone,
      },
      listed,
    ),
  ];
}

/** Why the life of a key cannot be checked on `op`, if it cannot. */
function blocked(run: Run, op: Operation): string | undefined {
  return (
    run.scope.writesBlocked(op) ??
    (run.credentials.forOperation(op) ? undefined : `no credentials for ${op.allowedSchemes.join(' or ')}`)
  );
}

async function keyLife(run: Run): Promise<CheckResult[]> {
  const { scope, keys } = run;
  const lc = keys.lifecycle;
  if (!lc?.list || !lc.revoke) return [];
  const life = lc as KeyLifecycle & { list: Operation; revoke: NonNullable<KeyLifecycle['revoke']> };
  const checksCreate = scope.selected(lc.create) && scope.wants(lc.create.provenance);
  const checksRevoke = scope.selected(lc.revoke.op) && scope.wants(lc.revoke.op.provenance);
  if (!checksCreate && !checksRevoke) return [];
  const why = blocked(run, lc.create) ?? (checksRevoke ? blocked(run, lc.revoke.op) : undefined);
  if (why) {
    return [
      ...(checksCreate
        ? skip(scope, {
            op: lc.create,
            check: 'keys: the secret is in the create answer',
            level: lc.create.provenance,
            reason: why,
          })
        : []),
      ...(checksRevoke
        ? skip(scope, {
            op: lc.revoke.op,
            check: 'keys: a revoked key stops working (401)',
            level: lc.revoke.op.provenance,
            reason: why,
          })
        : []),
    ];
  }
  const exchange = await run.http.send({
    method: lc.create.method,
    url: run.http.url(lc.create.path),
    headers: run.credentials.forOperation(lc.create),
    body: keys.newKeyBody(),
  });
  const key = exchange.response && exchange.response.status < 300 ? keys.keyIn(exchange.response.json) : undefined;
  return [
    ...(checksCreate ? await createdKey(run, life, { key, exchange }) : []),
    ...(checksRevoke ? await revokedKey(run, life, { key, exchange }) : []),
  ];
}

export const keysFamily = family({ name: 'keys', needs: NEEDS, once: keyLife });
