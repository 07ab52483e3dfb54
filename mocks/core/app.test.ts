// The HTTP pipeline as a whole, through app.request(): unknown routes and methods,
// hostile input, latency. Each stage's own behaviour is tested beside it (auth/,
// rate-limit/, cors/, prefer/, parameters/, ...).
import { describe, expect, it } from 'vitest';
import { expectError, json, useApp } from '../testing/test-app.ts';

const m = useApp();

describe('requests that reach no operation, and hostile ones', () => {
  it('an unknown path is a JSON 404 and a wrong method a 405 with Allow', async () => {
    await expectError(await m.fetch(m.url('/nope')), 404, /^Not Found: no route for GET \/api\/v0\.1\/nope/);
    await expectError(await m.fetch(`${m.origin()}/`), 404, /^Not Found/);
    const res = await m.fetch(m.url('/servers/find'), { method: 'DELETE' });
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    await expectError(res, 405, /^Method Not Allowed: DELETE is not allowed on \/api\/v0\.1\/servers\/find/);
    const keys = await m.fetch(m.url('/user/apikeys'), { method: 'PUT' });
    expect(keys.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(keys.status).toBe(405);
  });

  it('hostile input never makes the process answer 5xx', async () => {
    const paths = [
      '/servers/find?version=((((&motd=[a&city=\\&org=*.*',
      '/servers/find?limit=99999999999999999999',
      '/servers/find?page=1e400',
      '/servers/find?limit=%ZZ',
      '/status/ping/%E0%A4%A',
      `/status/ping/${'a'.repeat(5000)}`,
      '/metadata/versions?limit=-5',
      '/user/apikeys/..%2F..%2Fetc',
    ];
    for (const path of paths) {
      const res = await m.fetch(m.url(path));
      expect(res.status, path).toBeLessThan(500);
      const body = await json(res);
      // Either a real answer or the error body, never anything else.
      if (res.status === 200) expect(Array.isArray(body.results), path).toBe(true);
      else expect(body, path).toEqual({ success: false, message: expect.any(String) });
    }
    expect((await m.fetch(m.url('/servers/find?limit=1'))).status).toBe(200);
  });
});

describe('--latency', () => {
  const slow = useApp({ latency: { min: 150, max: 200 } });
  it('delays answers', async () => {
    const start = Date.now();
    const res = await slow.fetch(slow.url('/metadata/regions'));
    expect(res.status).toBe(200);
    expect(Date.now() - start).toBeGreaterThanOrEqual(140);
  });
});
