// The statuses a request is owed, each rule's judge on its own: what the request says
// (no credentials, a refused value, a wrong method, a body too big), what the sender
// knows (a revoked key, a path naming nothing), and several rules at once.
import { describe, expect, it } from 'vitest';
import { UNAUTHORIZED_MESSAGE } from '../messages.ts';
import { loadModel } from '../model.ts';
import type { Exchange } from './exchange.ts';
import { findingsOf, JudgeContext } from './registry.ts';
import { exchange } from '../testing/exchanges.ts';

const ctx = JudgeContext.of(loadModel());
const of = (ex: Exchange, judge: string) => findingsOf(ex, ctx).filter((f) => f.judge === judge);
const unauthorized = { success: false, message: UNAUTHORIZED_MESSAGE };
const keys = { success: true, keys: [] };
const bearer = { Authorization: 'Bearer sls_test_0123456789abcdef0123456789abcdef01234567' };

describe('auth', () => {
  it('owes 401 to a protected operation asked without credentials, or with what only looks like one', () => {
    expect(of(exchange('GET /api/v0.1/user/apikeys', 401, unauthorized), 'auth')).toEqual([]);
    const tries: Record<string, string>[] = [
      {},
      { Authorization: 'Bearer undefined' },
      { Authorization: 'Basic dTpw' },
      { Cookie: 'sls_session=' },
    ];
    for (const request of tries) {
      const [f] = of(exchange('GET /api/v0.1/user/apikeys', 200, keys, { request }), 'auth');
      expect(f, JSON.stringify(request)).toMatchObject({ level: 'assumed', evidence: { expectedStatus: 401 } });
      expect(f!.why).toMatch(/^status 200, expected 401: it carries no credential/);
    }
  });

  it(
    'owes 401 to a credential the sender knows is bad, 403 to one without the permission, nothing to one it cannot ' +
      'tell',
    () => {
      const revoked = exchange('GET /api/v0.1/user/apikeys', 200, keys, {
        request: bearer,
        known: { credential: 'revoked' },
      });
      expect(of(revoked, 'auth')[0]?.why).toBe('status 200, expected 401: its credential is revoked');
      const forbidden = exchange('GET /api/v0.1/user/apikeys', 200, keys, {
        request: bearer,
        known: { credential: 'forbidden' },
      });
      expect(of(forbidden, 'auth')[0]?.evidence?.expectedStatus).toBe(403);
      // A proxy cannot tell a key's standing: whatever the answer, auth has nothing to say.
      expect(of(exchange('GET /api/v0.1/user/apikeys', 401, unauthorized, { request: bearer }), 'auth')).toEqual([]);
      expect(of(exchange('GET /api/v0.1/user/apikeys', 200, keys, { request: bearer }), 'auth')).toEqual([]);
    },
  );

  it(
    'an invalid credential taken is one defect on every operation; a 403 is taking it only where a valid one gets ' +
      '403',
    () => {
      const expired = { request: bearer, known: { credential: 'expired' as const } };
      const list = of(exchange('GET /api/v0.1/user/apikeys', 200, keys, expired), 'auth')[0]!;
      const forbidden = { success: false, message: 'Forbidden' };
      // An API key creating a key gets 403 when valid (x-credentials): an expired one answered so was taken.
      const create = of(exchange('POST /api/v0.1/user/apikeys', 403, forbidden, expired), 'auth')[0]!;
      for (const f of [list, create])
        expect(f).toMatchObject({
          defect: 'an expired credential is taken, not refused with 401',
          acrossSubjects: true,
        });
      // Listing with a valid key succeeds: a 403 there is a 401 spelled otherwise, the status's defect.
      const spelled = of(exchange('GET /api/v0.1/user/apikeys', 403, forbidden, expired), 'auth')[0]!;
      expect(spelled.defect).toMatch(/^answers 403 where the spec says 401/);
      expect(spelled.acrossSubjects).toBeUndefined();
    },
  );

  it('owes 403 to a valid key where x-credentials allows only a session', () => {
    const create = exchange(
      'POST /api/v0.1/user/apikeys',
      201,
      {},
      { request: bearer, known: { credential: 'valid' } },
    );
    expect(of(create, 'auth')[0]?.why).toMatch(/expected 403: x-credentials allows only session/);
  });

  it('a public operation refuses no request for its credentials', () => {
    const found = { displayed: 0, total: 0, results: [] };
    expect(of(exchange('GET /api/v0.1/servers/find', 200, found, { request: bearer }), 'public-credentials')).toEqual(
      [],
    );
    const refused = exchange('GET /api/v0.1/servers/find', 401, unauthorized, { request: bearer });
    expect(of(refused, 'public-credentials')[0]?.defect).toBe(
      'a public operation refuses requests that carry credentials',
    );
  });
});

describe('refused-values', () => {
  const bad = { success: false, message: "Bad Request: query parameter 'limit' must be integer" };

  it('owes 400 naming the parameter to a value its schema refuses', () => {
    expect(of(exchange('GET /api/v0.1/servers/find?limit=abc', 400, bad), 'refused-values')).toEqual([]);
    const unnamed = of(
      exchange('GET /api/v0.1/servers/find?limit=abc', 400, { success: false, message: 'Bad Request' }),
      'refused-values',
    );
    expect(unnamed[0]).toMatchObject({
      defect: 'error messages do not name the parameter or property they refuse',
      acrossSubjects: true,
    });
    const accepted = of(exchange('GET /api/v0.1/servers/find?limit=501', 200, {}), 'refused-values');
    expect(accepted[0]).toMatchObject({ defect: 'the target accepts values the spec refuses', level: 'interface' });
  });

  it(
    'takes an empty value as left out, any case of a text rule enum, and leaves repeated parameters to the ' + 'server',
    () => {
      const found = { displayed: 0, total: 0, results: [] };
      for (const q of ['limit=', 'region=eu', 'limit=abc&limit=3']) {
        expect(of(exchange(`GET /api/v0.1/servers/find?${q}`, 200, found), 'refused-values'), q).toEqual([]);
      }
      // A sort enum picks an order, exactly as written.
      expect(of(exchange('GET /api/v0.1/servers/find?sort=Users', 200, found), 'refused-values')).toHaveLength(1);
    },
  );

  it('refuses a body property its schema does not allow', () => {
    const sent = JSON.stringify({ name: 7 });
    const created = exchange(
      'POST /api/v0.1/user/apikeys',
      201,
      {},
      { request: { Cookie: 'sls_session=abcdefghijklmnop', 'Content-Type': 'application/json' }, sent },
    );
    expect(of(created, 'refused-values')[0]?.why).toMatch(/expected 400: the spec refuses name=7/);
  });
});

describe('routing, limits and what the sender knows', () => {
  it('owes 404 to a path the API does not have and 405 with Allow to a method a path does not declare', () => {
    expect(of(exchange('GET /api/v0.1/nope', 200, {}), 'routing')[0]?.evidence?.expectedStatus).toBe(404);
    const wrong = { success: false, message: 'Method Not Allowed: use GET' };
    expect(of(exchange('PUT /api/v0.1/servers/find', 405, wrong, { headers: { allow: 'GET' } }), 'routing')).toEqual(
      [],
    );
    expect(of(exchange('PUT /api/v0.1/servers/find', 405, wrong, { headers: {} }), 'routing')[0]?.why).toBe(
      'no Allow header',
    );
    const listsIt = of(
      exchange('PUT /api/v0.1/servers/find', 405, wrong, { headers: { allow: 'GET, PUT' } }),
      'routing',
    );
    expect(listsIt[0]?.why).toBe("Allow 'GET, PUT' lists PUT, which was refused");
    expect(of(exchange('PUT /api/v0.1/servers/find', 404, {}), 'routing')[0]?.why).toMatch(/^status 404, expected 405/);
  });

  it('owes 413 to a body over x-max-body-bytes and takes it whatever else the request breaks', () => {
    const big = 'x'.repeat(20_000);
    const tooBig = { success: false, message: 'Payload Too Large: over' };
    const ex = exchange('POST /api/v0.1/user/apikeys', 413, tooBig, { sent: big });
    expect(findingsOf(ex, ctx).filter((f) => ['body-limit', 'auth', 'media-type'].includes(f.judge))).toEqual([]);
    // 401 is owed too (no credentials): either status is the spec's; another is filed under the first rule.
    expect(of(exchange('POST /api/v0.1/user/apikeys', 401, unauthorized, { sent: big }), 'body-limit')).toEqual([]);
    expect(
      of(
        exchange('POST /api/v0.1/user/apikeys', 400, { success: false, message: 'Bad Request: x' }, { sent: big }),
        'body-limit',
      ),
    ).toHaveLength(1);
  });

  it(
    'owes 404 to a path the sender knows names nothing, 409 at the key cap, the success where nothing is ' + 'refused',
    () => {
      const ping = 'GET /api/v0.1/status/ping/nothing.invalid';
      expect(
        of(exchange(ping, 200, {}, { known: { namesNothing: true } }), 'not-found')[0]?.evidence?.expectedStatus,
      ).toBe(404);
      const session = { Cookie: 'sls_session=abcdefghijklmnop', 'Content-Type': 'application/json' };
      const capped = exchange(
        'POST /api/v0.1/user/apikeys',
        201,
        {},
        { request: session, sent: '{}', known: { credential: 'valid', atKeyCap: true } },
      );
      expect(of(capped, 'key-cap')[0]?.evidence?.expectedStatus).toBe(409);
      const found = exchange(
        'GET /api/v0.1/servers/find',
        404,
        { success: false, message: 'Not Found: x' },
        { request: bearer, known: { credential: 'valid' } },
      );
      expect(of(found, 'success')[0]?.why).toBe('status 404, expected 200: nothing about it is refused');
    },
  );
});
