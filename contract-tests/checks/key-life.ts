// `keys:` an API key's life as the spec's links tell it (create -> list, create ->
// revoke): a new key's secret is in the create answer, never in the list, and works; a
// revoked key gets 401 and is gone from the list. The key is the run's own (named after
// it, a day to live), and the ledger removes it if a step fails.
import type { Operation } from '../../spec/model.ts';
import type { CreatedKey } from '../kit/key-ledger.ts';
import type { KeyLifecycle } from '../kit/key-lifecycle.ts';
import type { CheckResult } from '../kit/recorder.ts';
import type { Exchange } from '../transport/transport.ts';
import { expectAnswer, outcome, skip } from './expect.ts';
import { family, type GivenFor } from './run-kit.ts';

const NEEDS = ['scope', 'judge', 'credentials', 'http', 'keys'] as const;
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
      reason: `no key was created (${exchange.skipped ?? exchange.error ?? `${op.method} ${op.path} answered ${exchange.response?.status}`})`,
    });
  const out = [
    outcome(run, {
      op,
      check,
      level: op.provenance,
      status: key.secret ? 'pass' : 'fail',
      expected: `key.secret in the ${op.successStatus} answer`,
      message: key.secret ? undefined : 'the create answer holds no key.secret',
    }),
  ];
  const listed = await http.send({
    method: 'GET',
    url: http.url(lc.list.path),
    headers: credentials.forOperation(lc.list),
  });
  out.push(
    expectAnswer(run, {
      op,
      check: "keys: a created key's secret never appears in the list",
      level: op.provenance,
      exchange: listed,
      status: lc.list.successStatus,
      against: lc.list,
      extra: (res) => {
        const listedKeys = (res.json as { keys?: { id?: unknown }[] } | undefined)?.keys ?? [];
        const problems: string[] = [];
        const withSecret = listedKeys.filter((k) => k && typeof k === 'object' && 'secret' in k).length;
        if (withSecret) problems.push(`${withSecret} listed key(s) carry a 'secret' field`);
        if (key.secret && res.text.includes(key.secret)) problems.push("the new key's secret appears in the list");
        if (!listedKeys.some((k) => k?.id === key.id)) problems.push(`the new key ${key.id} is missing from the list`);
        return problems;
      },
    }),
  );
  if (key.secret) {
    const use = await http.send({
      method: 'GET',
      url: http.url(lc.list.path),
      headers: credentials.bearer(key.secret),
    });
    out.push(
      expectAnswer(run, {
        op,
        check: 'keys: a created key authenticates',
        level: op.provenance,
        exchange: use,
        status: lc.list.successStatus,
        against: lc.list,
      }),
    );
  }
  return out;
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
  if (!key)
    return skip(run.scope, {
      op,
      check,
      level: op.provenance,
      reason: `no key was created to revoke (${exchange.skipped ?? exchange.error ?? `${lc.create.method} ${lc.create.path} answered ${exchange.response?.status}`})`,
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
      reason: `no key was revoked (${revoked.skipped ?? revoked.error ?? `${op.method} ${op.path} answered ${revoked.response?.status}`})`,
    });
  }
  const use = await http.send({ method: 'GET', url: http.url(lc.list.path), headers: credentials.bearer(key.secret) });
  const listed = await http.send({
    method: 'GET',
    url: http.url(lc.list.path),
    headers: credentials.forOperation(lc.list),
  });
  return [
    expectAnswer(run, { op, check, level: op.provenance, exchange: use, status: 401, against: lc.list }),
    expectAnswer(run, {
      op,
      check: 'keys: a revoked key is gone from the list',
      level: op.provenance,
      exchange: listed,
      status: lc.list.successStatus,
      against: lc.list,
      extra: (res) =>
        ((res.json as { keys?: { id?: unknown }[] } | undefined)?.keys ?? []).some((k) => k?.id === key.id)
          ? [`revoked key ${key.id} is still listed`]
          : [],
    }),
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
