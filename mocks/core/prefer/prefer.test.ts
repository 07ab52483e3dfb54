// Prefer: code=, example= through the app: a declared example instead of the handler's
// answer, never past authentication, and a clear 400 for what is not declared.
import { describe, expect, it } from 'vitest';
import { parsePrefer } from './prefer.ts';
import { authHeaders, credential, expectError, json, useApp } from '../../testing/test-app.ts';

const m = useApp();

describe('parsePrefer', () => {
  it('reads code and example, in any order, quoted or not; nothing else is a preference', () => {
    expect(parsePrefer('code=404')).toEqual({ code: 404 });
    expect(parsePrefer('example="empty", code=200')).toEqual({ code: 200, example: 'empty' });
    expect(parsePrefer('respond-async; wait=5')).toBeUndefined();
    expect(parsePrefer(undefined)).toBeUndefined();
  });
});

describe('Prefer: code=<status>', () => {
  it("returns the operation's declared example for that status", async () => {
    const res = await m.fetch(m.url('/servers/find'), { headers: { Prefer: 'code=429' } });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await json(res)).toEqual({ success: false, message: 'Rate limit exceeded. Try again in 45 seconds.' });
    const named = await m.fetch(m.url('/servers/find'), { headers: { Prefer: 'code=200, example=empty' } });
    expect((await json(named)).results).toEqual([]);
    const internal = await m.fetch(m.url('/metadata/regions'), { headers: { Prefer: 'code=500' } });
    expect(internal.status).toBe(500);
    expect((await json(internal)).success).toBe(false);
  });

  it('serves every example consistent with itself: an empty listing counts 0, a page of one row counts 1', async () => {
    for (const query of ['', '?region=EU', '?page=999', '?limit=20']) {
      const res = await m.fetch(m.url(`/servers/find${query}`), { headers: { Prefer: 'example=empty' } });
      expect(res.status).toBe(200);
      expect(await json(res), query).toEqual({ displayed: 0, total: 0, filtered: 0, results: [] });
    }
    // With noFilter the hidden count is absent, as the operation answers then.
    const revealed = await json(
      await m.fetch(m.url('/servers/find?noFilter=true'), { headers: { Prefer: 'example=empty' } }),
    );
    expect(revealed).toEqual({ displayed: 0, total: 0, results: [] });
    const page = await json(await m.fetch(m.url('/servers/find'), { headers: { Prefer: 'example=page' } }));
    expect(page).toMatchObject({ displayed: 1, total: 1, filtered: 0 });
    expect(page.results).toHaveLength(1);
    const versions = await json(await m.fetch(m.url('/metadata/versions'), { headers: { Prefer: 'code=200' } }));
    expect(versions.unique_versions).toBe(versions.versions.length);
  });

  it('never lets a request past a bad parameter', async () => {
    await expectError(
      await m.fetch(m.url('/servers/find?limit=abc'), { headers: { Prefer: 'code=200' } }),
      400,
      /query parameter 'limit'/,
    );
  });

  it('never lets a request past authentication', async () => {
    const res = await m.fetch(m.url('/user/apikeys'), { headers: { Prefer: 'code=200' } });
    expect(res.status).toBe(401);
    const forbidden = await m.fetch(m.url('/user/apikeys'), {
      headers: { Prefer: 'code=200', ...authHeaders(credential('forbidden-key')) },
    });
    expect(forbidden.status).toBe(403);
    const allowed = await m.fetch(m.url('/user/apikeys'), {
      headers: { Prefer: 'code=403', ...authHeaders(credential('valid-key')) },
    });
    expect(allowed.status).toBe(403);
  });

  it('says so when the status is not declared', async () => {
    await expectError(
      await m.fetch(m.url('/metadata/regions'), { headers: { Prefer: 'code=418' } }),
      400,
      /^Bad Request: Prefer code=418 is not a declared response of listRegions \(declared: 200, 400, 429, 500\)$/,
    );
  });
});
