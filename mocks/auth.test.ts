// Authentication and authorization over HTTP: every fixture credential, the
// public/protected split, and the API-key lifecycle (create, use, revoke).
import { beforeEach, describe, expect, it } from 'vitest';
import { FORBIDDEN_MESSAGE, UNAUTHORIZED_MESSAGE } from '../spec/checks.ts';
import { authHeaders, credential, fixtures, json, useMock } from './test-helpers.ts';

const m = useMock();
const UNAUTHORIZED = { success: false, message: UNAUTHORIZED_MESSAGE };
const FORBIDDEN = { success: false, message: FORBIDDEN_MESSAGE };

beforeEach(async () => {
  await fetch(`${m.origin()}/__mock/reset`, { method: 'POST' });
});

describe('every fixture credential on GET /user/apikeys', () => {
  it.each(fixtures.credentials.map((c) => [c.name, c] as const))('%s answers its expected status and body', async (_name, c) => {
    const res = await fetch(m.url('/user/apikeys'), { headers: authHeaders(c) });
    expect(res.status).toBe(c.expect);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await json(res);
    if (c.expect === 401) expect(body).toEqual(UNAUTHORIZED);
    if (c.expect === 403) expect(body).toEqual(FORBIDDEN);
    if (c.expect === 200) {
      expect(body.success).toBe(true);
      expect(body.keys.map((k: { id: string }) => k.id)).toContain('key_testvalid01');
    }
  });
});

describe('protected endpoints', () => {
  it('answer 401 with the exact body without credentials', async () => {
    for (const [method, path] of [['GET', '/user/apikeys'], ['POST', '/user/apikeys'], ['DELETE', '/user/apikeys/key_testvalid01']] as const) {
      const res = await fetch(m.url(path), { method });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(await json(res)).toEqual(UNAUTHORIZED);
    }
  });

  it('answer 401 to a malformed Authorization header', async () => {
    for (const value of ['Basic dGVzdDp0ZXN0', 'Bearer', 'Bearer  ', credential('valid-key').value]) {
      const res = await fetch(m.url('/user/apikeys'), { headers: { Authorization: value } });
      expect(res.status, value.slice(0, 12)).toBe(401);
      expect(await json(res)).toEqual(UNAUTHORIZED);
    }
  });

  it('accept a valid session even beside an invalid key (security requirements are OR)', async () => {
    const res = await fetch(m.url('/user/apikeys'), {
      headers: { Authorization: 'Bearer sls_test_nope', ...authHeaders(credential('valid-session')) },
    });
    expect(res.status).toBe(200);
  });

  it('answer 403 to the forbidden user on every operation, key or session', async () => {
    for (const name of ['forbidden-key', 'forbidden-session']) {
      const headers = authHeaders(credential(name));
      const list = await fetch(m.url('/user/apikeys'), { headers });
      const create = await fetch(m.url('/user/apikeys'), { method: 'POST', headers });
      const revoke = await fetch(m.url('/user/apikeys/key_testforbid01'), { method: 'DELETE', headers });
      for (const res of [list, create, revoke]) {
        expect(res.status, name).toBe(403);
        expect(await json(res)).toEqual(FORBIDDEN);
      }
    }
  });

  it('answer 403 to creating a key with an API key: only a logged-in user creates keys', async () => {
    const res = await fetch(m.url('/user/apikeys'), { method: 'POST', headers: authHeaders(credential('valid-key')) });
    expect(res.status).toBe(403);
    expect(await json(res)).toEqual(FORBIDDEN);
  });
});

describe('public endpoints', () => {
  const paths = ['/servers/find?limit=1', '/metadata/versions', '/metadata/countries', '/metadata/regions', '/status/ping/unknown.example'];
  it.each(fixtures.credentials.map((c) => [c.name, c] as const))('answer as usual with the %s credential', async (_n, c) => {
    for (const path of paths) {
      const anonymous = await fetch(m.url(path));
      const withCredential = await fetch(m.url(path), { headers: authHeaders(c) });
      expect(withCredential.status, path).toBe(anonymous.status);
      expect(withCredential.status, path).toBeLessThan(500);
      expect(withCredential.status === 401 || withCredential.status === 403).toBe(false);
    }
  });
});

describe('API key lifecycle', () => {
  const session = () => authHeaders(credential('valid-session'));

  it('creates a key whose secret is shown once, works at once, and stops working when revoked', async () => {
    const created = await fetch(m.url('/user/apikeys'), {
      method: 'POST',
      headers: { ...session(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'ci-pipeline', expires_in_days: 30 }),
    });
    expect(created.status).toBe(201);
    const { key } = await json(created);
    expect(key.secret).toMatch(/^sls_test_[0-9a-f]{40}$/);
    expect(key.secret.startsWith(key.prefix)).toBe(true);
    expect(key.name).toBe('ci-pipeline');
    expect(Date.parse(key.expires_at) - Date.parse(key.created_at)).toBe(30 * 86_400_000);

    const bearer = { Authorization: `Bearer ${key.secret}` };
    const listed = await fetch(m.url('/user/apikeys'), { headers: bearer });
    expect(listed.status).toBe(200);
    const listText = await listed.text();
    expect(listText).not.toContain(key.secret);
    const mine = JSON.parse(listText).keys.find((k: { id: string }) => k.id === key.id);
    expect(mine).toMatchObject({ id: key.id, name: 'ci-pipeline', prefix: key.prefix });
    expect(mine.last_used_at).not.toBeNull();
    expect(mine).not.toHaveProperty('secret');

    const revoked = await fetch(m.url(`/user/apikeys/${key.id}`), { method: 'DELETE', headers: session() });
    expect(revoked.status).toBe(200);
    expect(await json(revoked)).toEqual({ success: true, id: key.id, message: 'API key revoked' });

    const after = await fetch(m.url('/user/apikeys'), { headers: bearer });
    expect(after.status).toBe(401);
    expect(await json(after)).toEqual(UNAUTHORIZED);
    const list = await json(await fetch(m.url('/user/apikeys'), { headers: session() }));
    expect(list.keys.map((k: { id: string }) => k.id)).not.toContain(key.id);
  });

  it('creates an unnamed key without expiry from an empty body', async () => {
    const res = await fetch(m.url('/user/apikeys'), { method: 'POST', headers: session() });
    expect(res.status).toBe(201);
    expect((await json(res)).key).toMatchObject({ name: null, expires_at: null, last_used_at: null });
  });

  it('lets a key revoke itself', async () => {
    const res = await fetch(m.url('/user/apikeys/key_testvalid01'), { method: 'DELETE', headers: authHeaders(credential('valid-key')) });
    expect(res.status).toBe(200);
    const again = await fetch(m.url('/user/apikeys'), { headers: authHeaders(credential('valid-key')) });
    expect(again.status).toBe(401);
  });

  it("answers 404 for another user's key and for an unknown id, without telling which", async () => {
    const other = await fetch(m.url('/user/apikeys/key_testforbid01'), { method: 'DELETE', headers: session() });
    const unknown = await fetch(m.url('/user/apikeys/key_doesnotexist'), { method: 'DELETE', headers: session() });
    for (const [res, id] of [[other, 'key_testforbid01'], [unknown, 'key_doesnotexist']] as const) {
      expect(res.status).toBe(404);
      expect(await json(res)).toEqual({ success: false, message: `Not Found: no API key with id '${id}'` });
    }
  });

  it('refuses a 26th key with 409 and keeps the existing ones', async () => {
    const headers = session();
    const before = (await json(await fetch(m.url('/user/apikeys'), { headers }))).keys.length;
    for (let i = before; i < 25; i++) {
      expect((await fetch(m.url('/user/apikeys'), { method: 'POST', headers })).status).toBe(201);
    }
    const res = await fetch(m.url('/user/apikeys'), { method: 'POST', headers });
    expect(res.status).toBe(409);
    expect((await json(res)).message).toMatch(/^Conflict: at most 25 API keys/);
    expect((await json(await fetch(m.url('/user/apikeys'), { headers }))).keys).toHaveLength(25);
  });

  it('reset restores the seeded keys', async () => {
    await fetch(m.url('/user/apikeys'), { method: 'POST', headers: session() });
    await fetch(`${m.origin()}/__mock/reset`, { method: 'POST' });
    const list = await json(await fetch(m.url('/user/apikeys'), { headers: session() }));
    expect(list.keys.map((k: { id: string }) => k.id).sort()).toEqual(['key_testexpired01', 'key_testvalid01']);
  });
});
