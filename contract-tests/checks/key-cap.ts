// `errors:` the key cap: creates keys up to `x-max-keys-per-user`, then one more, which
// the `key-cap` judge holds to 409 (the family says the caller is at the cap); then
// removes every key it made. Costs about twice the keys it has to make, so it asks the
// budget first.
import { STATUS_JUDGES } from '../../spec/judges/registry.ts';
import type { Operation } from '../../spec/model.ts';
import type { CheckResult } from '../shared/recorder.ts';
import { skip } from './skip.ts';
import type { Given } from './run-parts.ts';

export async function keyCap(
  op: Operation,
  run: Given<'spec' | 'scope' | 'judging' | 'credentials' | 'http' | 'keys'>,
  access: { headers?: Record<string, string>; blocked?: string },
): Promise<CheckResult[]> {
  const { http, keys, scope } = run;
  const cap = run.spec.limits.maxKeysPerUser;
  const check = `errors: a key beyond x-max-keys-per-user (${cap}) -> 409 with the error body`;
  const level = op.provenance;
  if (!scope.wants(level)) return [];
  const list = keys.lifecycle?.create === op ? keys.lifecycle.list : undefined;
  if (access.blocked || !list || !access.headers)
    return skip(scope, {
      op,
      check,
      level,
      reason: access.blocked ?? 'no operation lists the keys (no link from the create answer to a list)',
    });
  const headers = access.headers;
  const listed = await http.send({
    method: 'GET',
    url: http.url(list.path),
    headers: run.credentials.forOperation(list),
  });
  const existing = (listed.response?.json as { keys?: unknown[] } | undefined)?.keys;
  if (!Array.isArray(existing))
    return skip(scope, {
      op,
      check,
      level,
      reason:
        `could not count the keys (` +
        `${listed.skipped ?? listed.error ?? `GET ${list.path} answered ${listed.response?.status}`})`,
    });
  const need = Math.max(0, cap - existing.length);
  if (http.budget.left() < need + 1)
    return skip(scope, {
      op,
      check,
      level,
      reason:
        `needs ${need + 1} creates and as many removals; ${http.budget.left()} requests of the budget are ` +
        `left (raise --budget)`,
    });
  const before = new Set(keys.open().map((k) => k.id));
  try {
    for (let i = 0; i < need; i++) {
      const exchange = await http.send({ method: op.method, url: http.url(op.path), headers, body: keys.newKeyBody() });
      const key = exchange.response?.status === op.successStatus ? keys.keyIn(exchange.response.json) : undefined;
      if (!key && exchange.response?.status === op.successStatus) {
        return skip(scope, {
          op,
          check,
          level,
          reason: 'a create answer held no key the suite could read (see the schema check)',
        });
      }
      if (!key) {
        const early =
          exchange.response?.status === 409
            ? ` after ${i} new keys (${existing.length} were listed; the cap is ${cap})`
            : '';
        const expected = `${op.successStatus} for key ${existing.length + i + 1} of ${cap}${early}`;
        const known = { credential: 'valid' } as const;
        return [run.judging.case({ op, check, level, about: STATUS_JUDGES, known, expected }, exchange)];
      }
    }
    const over = await http.send({ method: op.method, url: http.url(op.path), headers, body: keys.newKeyBody() });
    const known = { credential: 'valid', atKeyCap: true } as const;
    return [run.judging.case({ op, check, level, about: STATUS_JUDGES, known }, over)];
  } finally {
    // The ledger saw every key made here (the one over the cap too, if the
    // target made it): remove them now, not at the end.
    for (const key of keys.open().filter((k) => !before.has(k.id))) await keys.remove(key);
  }
}
