// The development helpers under /__mock: log in as a fixture user (the cookie a
// browser on another origin keeps), log out, reset.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_SESSIONS_PER_USER } from '../auth/credentials.ts';
import { expectError, json, model, useApp } from '../../testing/test-app.ts';

const m = useApp();

describe('development login', () => {
  it('sets a session cookie that works on protected endpoints, and logout ends it', async () => {
    const login = await m.fetch(`${m.origin()}/__mock/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'http://localhost:5173' },
      body: JSON.stringify({ user: 'alice@example.test' }),
    });
    expect(login.status).toBe(200);
    expect((await json(login)).user.id).toBe('usr_test_alice');
    const [setCookie, laxCopy] = login.headers.getSetCookie();
    expect(setCookie).toMatch(new RegExp(`^${model.cookieName}=sess_test_[0-9a-f]+; Path=/; HttpOnly`));
    // localhost page -> 127.0.0.1 API is cross-site: only a partitioned SameSite=None; Secure cookie is sent
    // (and, without Sec-Fetch-Site to say so for sure, a Lax copy for a page behind a same-origin proxy).
    expect(setCookie).toContain('SameSite=None; Secure; Partitioned');
    expect(laxCopy).toContain('SameSite=Lax');
    expect(login.headers.get('access-control-allow-credentials')).toBe('true');
    const cookie = setCookie!.split(';')[0]!;

    const keys = await m.fetch(m.url('/user/apikeys'), { headers: { Cookie: cookie } });
    expect(keys.status).toBe(200);
    const created = await m.fetch(m.url('/user/apikeys'), { method: 'POST', headers: { Cookie: cookie } });
    expect(created.status).toBe(201);

    const logout = await m.fetch(`${m.origin()}/__mock/logout`, { method: 'POST', headers: { Cookie: cookie } });
    expect(logout.headers.get('set-cookie')).toContain('Max-Age=0');
    expect((await m.fetch(m.url('/user/apikeys'), { headers: { Cookie: cookie } })).status).toBe(401);
  });

  it('logs in the user without the permission, who then gets 403', async () => {
    const login = await m.fetch(`${m.origin()}/__mock/login`, {
      method: 'POST',
      body: JSON.stringify({ user: 'usr_test_bob' }),
    });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    expect(login.headers.get('set-cookie')).toContain('SameSite=Lax');
    expect((await m.fetch(m.url('/user/apikeys'), { headers: { Cookie: cookie } })).status).toBe(403);
  });

  it('names the known users when asked for an unknown one', async () => {
    const res = await m.fetch(`${m.origin()}/__mock/login`, { method: 'POST', body: '{"user":"mallory"}' });
    await expectError(res, 400, /^Bad Request: unknown fixture user "mallory"; use one of usr_test_alice/);
  });
});

describe('logins in a loop', () => {
  it('keep at most MAX_SESSIONS_PER_USER sessions per user; the newest work', async () => {
    const app = useApp();
    const login = () =>
      app.fetch(`${app.origin()}/__mock/login`, { method: 'POST', body: JSON.stringify({ user: 'usr_test_bob' }) });
    const seeded = app.mock.state.sessions.size;
    let last = '';
    for (let i = 0; i < MAX_SESSIONS_PER_USER + 100; i++)
      last = (await login()).headers.get('set-cookie')!.split(';')[0]!;
    expect(app.mock.state.sessions.size).toBeLessThanOrEqual(seeded + MAX_SESSIONS_PER_USER);
    expect((await app.fetch(app.url('/user/apikeys'), { headers: { Cookie: last } })).status).toBe(403);
  });
});

describe('self-identification', () => {
  it('GET /__mock/info names the mock, its version, seed and dataset size', async () => {
    const res = await m.fetch(`${m.origin()}/__mock/info`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
    expect(await json(res)).toEqual({
      success: true,
      name: 'server-listing-mock',
      version: pkg.version,
      seed: 1337,
      data: null,
      servers: 300,
      basePath: '/api/v0.1',
      // The V8 flags the serving process set (the CLI's; none for an app built in a test).
      v8Flags: [],
      // What the bench reads for its hit rate.
      rowCache: {
        hits: expect.any(Number),
        misses: expect.any(Number),
        evictions: 0,
        bytes: expect.any(Number),
        entries: expect.any(Number),
        maxBytes: 64 * 2 ** 20,
      },
      // What the soak's distinct-filters flood reads: each cache of client-chosen filters within its budget.
      caches: Object.fromEntries(
        ['rowSets', 'counts', 'filterValues', 'versionQueries'].map((k) => [
          k,
          { entries: expect.any(Number), bytes: expect.any(Number), maxBytes: expect.any(Number) },
        ]),
      ),
    });
  });

  it('says which file it serves instead of a seed with --data', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mock-info-')), 'db.json');
    writeFileSync(file, JSON.stringify({ servers: [] }));
    const other = useApp({ data: file, seed: 7 });
    expect(await json(await other.fetch(`${other.origin()}/__mock/info`))).toMatchObject({
      seed: null,
      data: file,
      servers: 0,
    });
  });
});
