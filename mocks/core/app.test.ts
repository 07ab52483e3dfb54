// The HTTP pipeline every client meets regardless of endpoint, through app.request():
// bad input, unknown routes and methods, Prefer, rate limits, CORS from a browser on
// another origin, latency.
import { describe, expect, it } from 'vitest';
import { authHeaders, credential, expectError, json, useApp } from '../testing/test-app.ts';

const m = useApp();

describe('bad input gets a clear answer', () => {
  it.each([
    ['limit=abc', /^Bad Request: query parameter 'limit' must be integer$/],
    ['limit=0', /^Bad Request: query parameter 'limit' must be >= 1$/],
    ['limit=501', /^Bad Request: query parameter 'limit' must be <= 500$/],
    ['page=-1', /^Bad Request: query parameter 'page' must be >= 1$/],
    ['region=XX', /^Bad Request: query parameter 'region' must be one of "NA", "EU"/],
    ['sort=random', /^Bad Request: query parameter 'sort' must be one of "users", "version"/],
    ['favicon=maybe', /^Bad Request: query parameter 'favicon' must be boolean$/],
    ['country_code=USA', /^Bad Request: query parameter 'country_code' is not valid: "USA" is not ISO 3166-1 alpha-2/],
    ['minUsers=1.5', /^Bad Request: query parameter 'minUsers' must be integer$/],
    ['version=' + 'x'.repeat(65), /^Bad Request: query parameter 'version' must NOT have more than 64 characters$/],
  ])('/servers/find?%s is 400 naming the parameter and the rule', async (query, message) => {
    await expectError(await m.fetch(m.url(`/servers/find?${query}`)), 400, message);
  });

  it('an address that cannot be one is 400, naming the parameter', async () => {
    await expectError(await m.fetch(m.url('/status/ping/not_a*host')), 400, /^Bad Request: path parameter 'address' is not valid: "not_a\*host" is not A hostname or IPv4 address/);
    await expectError(await m.fetch(m.url('/status/ping/example.org:70000')), 400, /path parameter 'address'/);
    await expectError(await m.fetch(m.url('/status/ping/example.org/0')), 400, /^Bad Request: path parameter 'port' must be >= 1$/);
  });

  it('empty values mean no filter and unknown parameters are ignored', async () => {
    const plain = await json(await m.fetch(m.url('/servers/find?limit=5')));
    const empties = await json(await m.fetch(m.url('/servers/find?limit=5&motd=&version=&region=&page=&sort%3Dupdated=1&whatever=x')));
    expect(empties).toEqual(plain);
  });

  it('malformed JSON, a wrong body, a non-JSON body and an oversized body are refused clearly', async () => {
    const headers = { ...authHeaders(credential('valid-session')), 'Content-Type': 'application/json' };
    const post = (body: string, h: Record<string, string> = headers) => m.fetch(m.url('/user/apikeys'), { method: 'POST', headers: h, body });
    await expectError(await post('{"name": '), 400, /^Bad Request: the request body is not valid JSON/);
    await expectError(await post('{"expires_in_days": 9999}'), 400, /^Bad Request: body\.expires_in_days must be <= 365$/);
    await expectError(await post('{"colour": "red"}'), 400, /^Bad Request: body has unknown property 'colour'$/);
    await expectError(await post('[1,2]'), 400, /^Bad Request: body must be object$/);
    await expectError(await post('name=x', { ...headers, 'Content-Type': 'text/plain' }), 415, /^Unsupported Media Type: send the body as application\/json/);
    await expectError(await post(JSON.stringify({ name: 'x'.repeat(20_000) })), 413, /^Payload Too Large: the request body is over 16384 bytes$/);
  });

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
      '/status/ping/' + 'a'.repeat(5000),
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

  it('never lets a request past authentication', async () => {
    const res = await m.fetch(m.url('/user/apikeys'), { headers: { Prefer: 'code=200' } });
    expect(res.status).toBe(401);
    const forbidden = await m.fetch(m.url('/user/apikeys'), { headers: { Prefer: 'code=200', ...authHeaders(credential('forbidden-key')) } });
    expect(forbidden.status).toBe(403);
    const allowed = await m.fetch(m.url('/user/apikeys'), { headers: { Prefer: 'code=403', ...authHeaders(credential('valid-key')) } });
    expect(allowed.status).toBe(403);
  });

  it('says so when the status is not declared', async () => {
    await expectError(await m.fetch(m.url('/metadata/regions'), { headers: { Prefer: 'code=418' } }), 400, /^Bad Request: Prefer code=418 is not a declared response of listRegions \(declared: 200, 400, 429, 500\)$/);
  });
});

describe('rate-limit headers', () => {
  it('are on every answer with the real tier numbers', async () => {
    const anon = await m.fetch(m.url('/servers/find?limit=1'));
    expect(anon.headers.get('x-ratelimit-limit')).toBe('20');
    const key = await m.fetch(m.url('/servers/find?limit=1'), { headers: authHeaders(credential('valid-key')) });
    expect(key.headers.get('x-ratelimit-limit')).toBe('100');
    const session = await m.fetch(m.url('/servers/find?limit=1'), { headers: authHeaders(credential('valid-session')) });
    expect(session.headers.get('x-ratelimit-limit')).toBe('60');
    const meta = await m.fetch(m.url('/metadata/regions'));
    expect(meta.headers.get('x-ratelimit-limit')).toBe('1');
    const missing = await m.fetch(m.url('/nope'));
    for (const res of [anon, key, session, meta, missing]) {
      expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
      // Unix seconds, within the next minute of the pinned clock.
      const reset = Number(res.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThan(Date.parse('2026-06-01T12:00:00Z') / 1000);
      expect(reset).toBeLessThanOrEqual(Date.parse('2026-06-01T12:01:00Z') / 1000);
    }
  });
});

describe('with --rate-limit', () => {
  const limited = useApp({ rateLimit: true });
  it('answers 429 with Retry-After and the real message past the tier limit', async () => {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 21; i++) {
      last = await limited.fetch(limited.url('/servers/find?limit=1'));
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(last!.status).toBe(429);
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
    const retry = Number(last!.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(await json(last!)).toEqual({ success: false, message: `Rate limit exceeded. Try again in ${retry} seconds.` });
    // Another tier has its own bucket.
    expect((await limited.fetch(limited.url('/servers/find?limit=1'), { headers: authHeaders(credential('valid-key')) })).status).toBe(200);
  });
});

describe('who the rate limits count', () => {
  const anonymousUntil429 = async (app: ReturnType<typeof useApp>, headers: (i: number) => Record<string, string>) => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await app.fetch(app.url('/servers/find?limit=1'), { headers: headers(i) })).status);
    return statuses;
  };

  it('counts every key and session of one account together: more keys buy no more requests', async () => {
    const app = useApp({ rateLimit: true });
    const session = authHeaders(credential('valid-session'));
    const created = await json(await app.fetch(app.url('/user/apikeys'), { method: 'POST', headers: session }));
    const second = { Authorization: `Bearer ${created.key.secret}` };
    const first = authHeaders(credential('valid-key'));
    for (let i = 0; i < 99; i++) expect((await app.fetch(app.url('/servers/find?limit=1'), { headers: first })).status).toBe(200);
    // 100 requests of the account so far: the key tier's minute is spent, whichever key asks.
    expect((await app.fetch(app.url('/servers/find?limit=1'), { headers: second })).status).toBe(429);
    expect((await app.fetch(app.url('/user/apikeys'), { headers: session })).status).toBe(429);
    // Another account is not affected.
    expect((await app.fetch(app.url('/servers/find?limit=1'), { headers: authHeaders(credential('forbidden-key')) })).status).toBe(200);
  });

  it('ignores X-Forwarded-For without --trust-proxy: a new value is no new client', async () => {
    const app = useApp({ rateLimit: true });
    const statuses = await anonymousUntil429(app, (i) => ({ 'X-Forwarded-For': `203.0.113.${i}` }));
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
    expect(app.mock.state.rates.size).toBe(1);
  });

  it('with --trust-proxy counts the address the proxy put last in X-Forwarded-For', async () => {
    const app = useApp({ rateLimit: true, trustProxy: true });
    // Each a different client: the client-written first entry does not matter, the proxy's last one does.
    const distinct = await anonymousUntil429(app, (i) => ({ 'X-Forwarded-For': `198.51.100.7, 203.0.113.${i}` }));
    expect(distinct.every((s) => s === 200)).toBe(true);
    const same = await anonymousUntil429(app, (i) => ({ 'X-Forwarded-For': `10.9.8.${i}, 203.0.113.99` }));
    expect(same.slice(0, 19).every((s) => s === 200)).toBe(true);
    expect(same[20]).toBe(429);
    // Not an address: counted as the socket's peer (here the one local client), not as a new caller.
    const before = app.mock.state.rates.size;
    await app.fetch(app.url('/servers/find?limit=1'), { headers: { 'X-Forwarded-For': 'not-an-ip' } });
    await app.fetch(app.url('/servers/find?limit=1'), { headers: { 'X-Forwarded-For': 'also garbage' } });
    expect(app.mock.state.rates.size).toBe(before + 1);
  });
});

describe('CORS for browser apps on another origin', () => {
  const origin = 'http://localhost:5173';

  it('answers a preflight for a credentialed request', async () => {
    const res = await m.fetch(m.url('/user/apikeys'), {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('echoes the origin (never *) with credentials on real answers, errors included', async () => {
    for (const path of ['/servers/find?limit=1', '/user/apikeys']) {
      const res = await m.fetch(m.url(path), { headers: { Origin: 'http://127.0.0.1:3000' } });
      expect(res.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3000');
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
      expect(res.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining');
      expect(res.headers.get('vary')).toContain('Origin');
    }
  });

  it('gives a foreign origin no allow-origin header', async () => {
    const res = await m.fetch(m.url('/servers/find?limit=1'), { headers: { Origin: 'https://evil.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  describe('with --cors-origin', () => {
    const custom = useApp({ corsOrigins: ['https://app.example.test'] });
    it('allows only the listed origins', async () => {
      const ok = await custom.fetch(custom.url('/servers/find?limit=1'), { headers: { Origin: 'https://app.example.test' } });
      expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example.test');
      const other = await custom.fetch(custom.url('/servers/find?limit=1'), { headers: { Origin: origin } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    });
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
