// Authentication and authorization: the Authenticator's rules as tables (OpenAPI's
// OR-of-AND security requirements, `x-credentials`, `x-permission`, how credentials
// are read), then over HTTP every fixture credential and the public/protected split.
import { beforeEach, describe, expect, it } from 'vitest';
import type { FixtureUser } from '../../../fixtures/load.ts';
import { FORBIDDEN_MESSAGE, UNAUTHORIZED_MESSAGE } from '../../../spec/messages.ts';
import type { Operation, SecurityRequirement } from '../../../spec/model.ts';
import { Authenticator, cookieValue, schemeReaders, type Principal } from './auth.ts';
import { KeyStore, SessionStore } from './credentials.ts';
import { authHeaders, credential, fixtures, json, model, useApp } from '../../testing/test-app.ts';
import { NOW } from '../../../testing/instants.ts';

const m = useApp();
const UNAUTHORIZED = { success: false, message: UNAUTHORIZED_MESSAGE };
/** The promised 403 sentence, then what is missing. */
const FORBIDDEN = { success: false, message: `${FORBIDDEN_MESSAGE}. This account lacks the 'apikeys' permission.` };
const SESSION_NEEDED = {
  success: false,
  message:
    `${FORBIDDEN_MESSAGE}. This operation takes a logged-in session (the sls_session cookie), not an API ` +
    `key; log in first (on this mock: POST /__mock/login).`,
};

beforeEach(async () => {
  await m.fetch(`${m.origin()}/__mock/reset`, { method: 'POST' });
});

describe('every fixture credential on GET /user/apikeys', () => {
  it.each(fixtures.credentials.map((c) => [c.name, c] as const))(
    '%s answers its expected status and body',
    async (_name, c) => {
      const res = await m.fetch(m.url('/user/apikeys'), { headers: authHeaders(c) });
      expect(res.status).toBe(c.expect);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const body = await json(res);
      if (c.expect === 401) expect(body).toEqual(UNAUTHORIZED);
      if (c.expect === 403) expect(body).toEqual(FORBIDDEN);
      if (c.expect === 200) {
        expect(body.success).toBe(true);
        expect(body.keys.map((k: { id: string }) => k.id)).toContain('key_testvalid01');
      }
    },
  );
});

describe('protected endpoints', () => {
  it('answer 401 with the exact body without credentials', async () => {
    for (const [method, path] of [
      ['GET', '/user/apikeys'],
      ['POST', '/user/apikeys'],
      ['DELETE', '/user/apikeys/key_testvalid01'],
    ] as const) {
      const res = await m.fetch(m.url(path), { method });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(await json(res)).toEqual(UNAUTHORIZED);
    }
  });

  it('answer 401 to a malformed Authorization header', async () => {
    for (const value of ['Basic dGVzdDp0ZXN0', 'Bearer', 'Bearer  ', credential('valid-key').value]) {
      const res = await m.fetch(m.url('/user/apikeys'), { headers: { Authorization: value } });
      expect(res.status, value.slice(0, 12)).toBe(401);
      expect(await json(res)).toEqual(UNAUTHORIZED);
    }
  });

  it('accept a valid session even beside an invalid key (security requirements are OR)', async () => {
    const res = await m.fetch(m.url('/user/apikeys'), {
      headers: { Authorization: 'Bearer sls_test_nope', ...authHeaders(credential('valid-session')) },
    });
    expect(res.status).toBe(200);
  });

  it('answer 403 to the forbidden user on every operation, key or session', async () => {
    for (const name of ['forbidden-key', 'forbidden-session']) {
      const headers = authHeaders(credential(name));
      const list = await m.fetch(m.url('/user/apikeys'), { headers });
      const create = await m.fetch(m.url('/user/apikeys'), { method: 'POST', headers });
      const revoke = await m.fetch(m.url('/user/apikeys/key_testforbid01'), { method: 'DELETE', headers });
      for (const res of [list, revoke]) {
        expect(res.status, name).toBe(403);
        expect(await json(res)).toEqual(FORBIDDEN);
      }
      // Creating a key with a key: both things missing are said.
      expect(create.status, name).toBe(403);
      expect((await json(create)).message).toMatch(
        name === 'forbidden-key'
          ? /takes a logged-in session .* This account lacks the 'apikeys' permission\.$/
          : /resource\. This account lacks the 'apikeys' permission\.$/,
      );
    }
  });

  it('answer 403 to creating a key with an API key, saying a logged-in session is needed (x-credentials)', async () => {
    const res = await m.fetch(m.url('/user/apikeys'), {
      method: 'POST',
      headers: authHeaders(credential('valid-key')),
    });
    expect(res.status).toBe(403);
    expect(await json(res)).toEqual(SESSION_NEEDED);
  });
});

describe('public endpoints', () => {
  const paths = [
    '/servers/find?limit=1',
    '/metadata/versions',
    '/metadata/countries',
    '/metadata/regions',
    '/status/ping/unknown.example',
  ];
  it.each(fixtures.credentials.map((c) => [c.name, c] as const))(
    'answer as usual with the %s credential',
    async (_n, c) => {
      for (const path of paths) {
        const anonymous = await m.fetch(m.url(path));
        const withCredential = await m.fetch(m.url(path), { headers: authHeaders(c) });
        expect(withCredential.status, path).toBe(anonymous.status);
        expect(withCredential.status, path).toBeLessThan(500);
        expect(withCredential.status === 401 || withCredential.status === 403).toBe(false);
      }
    },
  );
});

describe('authorize: security requirements as a table', () => {
  const user = (id: string, permissions: string[]): FixtureUser => ({
    id,
    name: id,
    email: `${id}@example.test`,
    plan: 'free',
    permissions,
  });
  const alice = user('alice', ['apikeys']);
  const bob = user('bob', []);
  const as = (scheme: string, who: FixtureUser): [string, Principal] => [
    scheme,
    { user: who, scheme, kind: scheme === 'session' ? 'cookie' : 'bearer', id: `${scheme}:${who.id}`, credential: {} },
  ];
  const op = (security: SecurityRequirement[], extra: Partial<Operation> = {}): Operation => {
    const isPublic = security.length === 0 || security.some((r) => Object.keys(r).length === 0);
    const schemes = isPublic ? [] : [...new Set(security.flatMap((r) => Object.keys(r)))];
    return {
      operationId: 'op',
      method: 'GET',
      path: '/x',
      provenance: 'assumed',
      parameters: [],
      security,
      isPublic,
      schemes,
      allowedSchemes: schemes,
      responses: new Map(),
      successStatus: 200,
      isWrite: false,
      raw: {},
      ...extra,
    };
  };
  const auth = new Authenticator([], () => {
    throw new Error('authorize reads no store');
  });
  const OR: SecurityRequirement[] = [{ apiKey: [] }, { session: [] }];
  const AND: SecurityRequirement[] = [{ apiKey: [], session: [] }];

  it.each([
    ['public, no credentials', op([]), [], { ok: true }],
    [
      'public (empty requirement), any credential',
      op([{}, { apiKey: [] }]),
      [as('apiKey', bob)],
      { ok: true, principal: 'apiKey:bob' },
    ],
    ['OR: no credentials', op(OR), [], { ok: false, status: 401 }],
    ['OR: the key alone', op(OR), [as('apiKey', alice)], { ok: true, principal: 'apiKey:alice' }],
    ['OR: the session alone', op(OR), [as('session', alice)], { ok: true, principal: 'session:alice' }],
    ['AND: one of two', op(AND), [as('apiKey', alice)], { ok: false, status: 401 }],
    ['AND: both', op(AND), [as('apiKey', alice), as('session', alice)], { ok: true, principal: 'apiKey:alice' }],
    [
      'AND or session: the session',
      op([{ apiKey: [], session: [] }, { session: [] }]),
      [as('session', alice)],
      { ok: true, principal: 'session:alice' },
    ],
    [
      'x-credentials [session]: a valid key',
      op(OR, { allowedSchemes: ['session'] }),
      [as('apiKey', alice)],
      { ok: false, status: 403, why: 'This operation takes session, not apiKey.' },
    ],
    [
      'x-credentials [session]: key and session',
      op(OR, { allowedSchemes: ['session'] }),
      [as('apiKey', alice), as('session', alice)],
      { ok: true, principal: 'session:alice' },
    ],
    [
      'x-permission: a user without it',
      op(OR, { permission: 'apikeys' }),
      [as('apiKey', bob)],
      { ok: false, status: 403, why: "This account lacks the 'apikeys' permission." },
    ],
    [
      'x-permission: a user with it',
      op(OR, { permission: 'apikeys' }),
      [as('session', alice)],
      { ok: true, principal: 'session:alice' },
    ],
    [
      'x-credentials allowed, permission missing',
      op(OR, { allowedSchemes: ['session'], permission: 'apikeys' }),
      [as('session', bob)],
      { ok: false, status: 403, why: "This account lacks the 'apikeys' permission." },
    ],
  ] as const)('%s', (_name, operation, valid, expected) => {
    const decision = auth.authorize(operation, new Map(valid as readonly [string, Principal][]));
    const seen = decision.ok
      ? { ok: true, ...(decision.principal ? { principal: decision.principal.id } : {}) }
      : decision;
    expect(seen).toEqual(expected);
  });
});

describe("identify: reading credentials the way the spec's schemes say", () => {
  const ofKind = (kind: string) => fixtures.credentials.filter((c) => model.schemes.get(c.type)?.kind === kind);
  const stores = {
    keys: new KeyStore(ofKind('bearer')),
    sessions: new SessionStore(ofKind('cookie')),
    users: new Map(fixtures.users.map((u) => [u.id, u])),
  };
  const auth = new Authenticator(schemeReaders(model), () => stores);
  const key = credential('valid-key').value;
  const session = credential('valid-session').value;
  const cookie = model.cookieName!;

  it.each([
    ['Bearer <key>', { Authorization: `Bearer ${key}` }, ['apiKey']],
    ['bearer <key> (scheme is case-insensitive)', { Authorization: `bearer ${key}` }, ['apiKey']],
    ['the key without Bearer', { Authorization: key }, []],
    ['Basic credentials', { Authorization: 'Basic dGVzdDp0ZXN0' }, []],
    ['an unknown key', { Authorization: 'Bearer sls_test_unknown0000000000000000000000000000000' }, []],
    ['an expired key', { Authorization: `Bearer ${credential('expired-key').value}` }, []],
    ['the session cookie', { Cookie: `${cookie}=${session}` }, ['session']],
    ['the session among other cookies', { Cookie: `theme=dark; ${cookie}=${session}; lang=en` }, ['session']],
    ['a cookie whose name only ends like it', { Cookie: `x${cookie}=${session}` }, []],
    ['an expired session', { Cookie: `${cookie}=${credential('expired-session').value}` }, []],
    ['key and session', { Authorization: `Bearer ${key}`, Cookie: `${cookie}=${session}` }, ['apiKey', 'session']],
  ] as const)('%s', (_name, headers, schemes) => {
    expect([...auth.identify(new Headers(headers), NOW).keys()]).toEqual(schemes);
  });

  it('cookieValue finds a cookie by its exact name and decodes it', () => {
    expect(cookieValue('a=1; sls_session=x%20y; b=2', 'sls_session')).toBe('x y');
    expect(cookieValue('sls_session_old=1', 'sls_session')).toBeUndefined();
    expect(cookieValue(undefined, 'sls_session')).toBeUndefined();
    expect(cookieValue('sls_session="abc"', 'sls_session')).toBe('abc');
  });

  it.each(['%', '%zz', '%E0%A4%A', 'abc%', '%%41'])(
    'cookieValue treats the broken encoding %s as no cookie',
    (value) => {
      expect(cookieValue(`a=1; sls_session=${value}; b=2`, 'sls_session')).toBeUndefined();
    },
  );
});

describe('a session cookie with a broken encoding', () => {
  const cookie = `${model.cookieName}=%`;
  it(
    'counts as no credential: public routes answer as ' + 'usual, protected ones 401, logout has nothing to end',
    async () => {
      for (const path of [
        '/servers/find?limit=1',
        '/metadata/regions',
        '/metadata/versions',
        '/metadata/countries',
        '/status/ping/unknown.example',
      ]) {
        const res = await m.fetch(m.url(path), { headers: { Cookie: cookie } });
        expect(res.status, path).toBe(path.startsWith('/status') ? 404 : 200);
      }
      for (const [method, path] of [
        ['GET', '/user/apikeys'],
        ['POST', '/user/apikeys'],
        ['DELETE', '/user/apikeys/key_testvalid01'],
      ] as const) {
        const res = await m.fetch(m.url(path), { method, headers: { Cookie: cookie } });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(await json(res)).toEqual(UNAUTHORIZED);
      }
      const logout = await m.fetch(`${m.origin()}/__mock/logout`, { method: 'POST', headers: { Cookie: cookie } });
      expect(await json(logout)).toEqual({ success: true, message: 'No session to end' });
    },
  );
});
