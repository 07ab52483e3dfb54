// The rate limiter on its own, with the spec's x-rate-limits: tiers, windows aligned
// to the clock, the /metadata/ group, and what the headers report.
import { describe, expect, it } from 'vitest';
import { loadModel } from '../../../spec/model.ts';
import { authHeaders, credential, json, useApp } from '../../testing/test-app.ts';
import { DEFAULT_MAX_BUCKETS, RateLimiter } from './rate-limit.ts';
import { NOW } from '../../../testing/instants.ts';

const rules = loadModel().limits.rateLimits;
const m = useApp();

function hits(limiter: RateLimiter, n: number, key: string, tier: string, path = '/servers/find', at = NOW) {
  return Array.from({ length: n }, () => limiter.hit(key, tier, path, at));
}

describe('RateLimiter', () => {
  it.each([
    ['anonymous', 20],
    ['session', 60],
    ['apiKey', 100],
  ])("gives the %s tier %i requests a minute, then a retry-after to the window's end", (tier, limit) => {
    const limiter = new RateLimiter(rules);
    const ok = hits(limiter, limit, 'k', tier, '/servers/find', NOW + 15_000);
    expect(ok.every((d) => d.retryAfter === undefined)).toBe(true);
    expect(ok.map((d) => d.remaining).slice(-2)).toEqual([1, 0]);
    const over = limiter.hit('k', tier, '/servers/find', NOW + 15_000);
    expect(over).toEqual({ limit, remaining: 0, reset: (NOW + 60_000) / 1000, retryAfter: 45 });
  });

  it('starts a fresh window at the next minute', () => {
    const limiter = new RateLimiter(rules);
    hits(limiter, 21, 'k', 'anonymous');
    expect(limiter.hit('k', 'anonymous', '/servers/find', NOW + 60_000)).toMatchObject({
      remaining: 19,
      retryAfter: undefined,
    });
  });

  it('counts the hour too: past 600 anonymous requests, even a new minute is refused', () => {
    const limiter = new RateLimiter(rules);
    for (let minute = 0; minute < 30; minute++)
      hits(limiter, 20, 'k', 'anonymous', '/servers/find', NOW + minute * 60_000);
    const next = limiter.hit('k', 'anonymous', '/servers/find', NOW + 30 * 60_000);
    expect(next.retryAfter).toBe(30 * 60);
  });

  it('keeps a bucket per key, and /metadata/ its own one-per-second bucket', () => {
    const limiter = new RateLimiter(rules);
    hits(limiter, 21, 'a', 'anonymous');
    expect(limiter.hit('b', 'anonymous', '/servers/find', NOW).retryAfter).toBeUndefined();
    expect(limiter.hit('a', 'anonymous', '/metadata/regions', NOW)).toEqual({
      limit: 1,
      remaining: 0,
      reset: NOW / 1000 + 1,
      retryAfter: undefined,
    });
    expect(limiter.hit('a', 'apiKey', '/metadata/versions', NOW + 500).retryAfter).toBe(1);
    expect(limiter.hit('a', 'anonymous', '/metadata/versions', NOW + 1000).retryAfter).toBeUndefined();
  });

  it('applies the tier of the credential in hand to the counters the account shares', () => {
    const limiter = new RateLimiter(rules);
    hits(limiter, 60, 'user:alice', 'session');
    // The 61st request of the account: over the session limit, within the key limit.
    expect(limiter.hit('user:alice', 'session', '/servers/find', NOW).retryAfter).toBe(60);
    expect(limiter.hit('user:alice', 'apiKey', '/servers/find', NOW)).toMatchObject({
      limit: 100,
      remaining: 38,
      retryAfter: undefined,
    });
  });

  it('forgets a caller once every window of theirs is over', () => {
    const limiter = new RateLimiter(rules);
    hits(limiter, 5, 'a', 'anonymous');
    limiter.hit('a', 'anonymous', '/metadata/regions', NOW);
    expect(limiter.size).toBe(2);
    // A day later (the longest window) only the new caller is left.
    limiter.hit('b', 'anonymous', '/servers/find', NOW + 86_400_000);
    limiter.hit('b', 'anonymous', '/metadata/regions', NOW + 86_400_000);
    expect(limiter.size).toBe(2);
    expect(limiter.hit('a', 'anonymous', '/servers/find', NOW + 86_400_000).remaining).toBe(19);
  });

  it('keeps a caller who is still within a window, even when later callers come and go', () => {
    const limiter = new RateLimiter(rules);
    hits(limiter, 600, 'steady', 'anonymous');
    for (let minute = 1; minute <= 58; minute++)
      limiter.hit(`passer-${minute}`, 'anonymous', '/servers/find', NOW + minute * 60_000);
    // A fresh minute, but the hour's 600 are spent: still refused until the hour is over.
    expect(limiter.hit('steady', 'anonymous', '/servers/find', NOW + 59 * 60_000)).toMatchObject({
      remaining: 19,
      retryAfter: 60,
    });
  });

  it('tracks at most maxBuckets callers per rule: the one seen least recently gives way', () => {
    const limiter = new RateLimiter(rules, 100);
    for (let i = 0; i < 10_000; i++) limiter.hit(`ip:${i}`, 'anonymous', '/servers/find', NOW + i);
    expect(limiter.size).toBe(100);
    // The latest callers are still counted, the earliest started afresh.
    expect(limiter.hit('ip:9999', 'anonymous', '/servers/find', NOW + 10_000).remaining).toBe(18);
    expect(limiter.hit('ip:0', 'anonymous', '/servers/find', NOW + 10_000).remaining).toBe(19);
    expect(DEFAULT_MAX_BUCKETS).toBeGreaterThanOrEqual(1000);
  });

  it('treats an unknown tier as anonymous', () => {
    expect(new RateLimiter(rules).hit('k', 'carrier-pigeon', '/servers/find', NOW).limit).toBe(20);
  });
});

// Through the app: the headers every answer carries, 429 with --rate-limit, who is counted.
describe('rate-limit headers', () => {
  it('are on every answer with the real tier numbers', async () => {
    const anon = await m.fetch(m.url('/servers/find?limit=1'));
    expect(anon.headers.get('x-ratelimit-limit')).toBe('20');
    const key = await m.fetch(m.url('/servers/find?limit=1'), { headers: authHeaders(credential('valid-key')) });
    expect(key.headers.get('x-ratelimit-limit')).toBe('100');
    const session = await m.fetch(m.url('/servers/find?limit=1'), {
      headers: authHeaders(credential('valid-session')),
    });
    expect(session.headers.get('x-ratelimit-limit')).toBe('60');
    const meta = await m.fetch(m.url('/metadata/regions'));
    expect(meta.headers.get('x-ratelimit-limit')).toBe('1');
    const missing = await m.fetch(m.url('/nope'));
    for (const res of [anon, key, session, meta, missing]) {
      expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
      // Unix seconds, within the next minute of the pinned clock.
      const reset = Number(res.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThan(NOW / 1000);
      expect(reset).toBeLessThanOrEqual((NOW + 60_000) / 1000);
    }
  });
});

describe('without --rate-limit (the default)', () => {
  it(
    'never tells a client to wait: every answer reports ' + 'the whole limit remaining, and nothing is refused',
    async () => {
      const app = useApp();
      const seen: { status: number; remaining: string | null; limit: string | null }[] = [];
      for (let i = 0; i < 30; i++) {
        const res = await app.fetch(app.url('/servers/find?limit=1'));
        seen.push({
          status: res.status,
          limit: res.headers.get('x-ratelimit-limit'),
          remaining: res.headers.get('x-ratelimit-remaining'),
        });
      }
      expect(seen.every((s) => s.status === 200 && s.limit === '20' && s.remaining === '20')).toBe(true);
      const meta = await app.fetch(app.url('/metadata/regions'));
      expect([meta.headers.get('x-ratelimit-limit'), meta.headers.get('x-ratelimit-remaining')]).toEqual(['1', '1']);
      expect(app.mock.state.rates.size).toBe(0);
    },
  );
});

describe("the mock's own routes", () => {
  it(
    "never draw on the API's limits: logging in 25 times leaves the anonymous minute whole, and carries no " +
      'limit headers',
    async () => {
      const app = useApp({ rateLimit: true });
      for (let i = 0; i < 25; i++) {
        const res = await app.fetch(`${app.origin()}/__mock/login`, { method: 'POST' });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-ratelimit-limit')).toBeNull();
      }
      expect((await app.fetch(`${app.origin()}/__mock/docs`)).headers.get('x-ratelimit-remaining')).toBeNull();
      expect((await app.fetch(app.url('/servers/find?limit=1'))).headers.get('x-ratelimit-remaining')).toBe('19');
    },
  );

  it('/__mock/reset answers when the caller is over its limit, and gives fresh limits', async () => {
    const app = useApp({ rateLimit: true });
    for (let i = 0; i < 21; i++) await app.fetch(app.url('/servers/find?limit=1'));
    expect((await app.fetch(app.url('/servers/find?limit=1'))).status).toBe(429);
    expect((await app.fetch(`${app.origin()}/__mock/reset`, { method: 'POST' })).status).toBe(200);
    const fresh = await app.fetch(app.url('/servers/find?limit=1'));
    expect([fresh.status, fresh.headers.get('x-ratelimit-remaining')]).toEqual([200, '19']);
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
    expect(await json(last!)).toEqual({
      success: false,
      message: `Rate limit exceeded. Try again in ${retry} seconds.`,
    });
    // Another tier has its own bucket.
    expect(
      (await limited.fetch(limited.url('/servers/find?limit=1'), { headers: authHeaders(credential('valid-key')) }))
        .status,
    ).toBe(200);
  });
});

describe('who the rate limits count', () => {
  const anonymousUntil429 = async (app: ReturnType<typeof useApp>, headers: (i: number) => Record<string, string>) => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++)
      statuses.push((await app.fetch(app.url('/servers/find?limit=1'), { headers: headers(i) })).status);
    return statuses;
  };

  it('counts every key and session of one account together: more keys buy no more requests', async () => {
    const app = useApp({ rateLimit: true });
    const session = authHeaders(credential('valid-session'));
    const created = await json(await app.fetch(app.url('/user/apikeys'), { method: 'POST', headers: session }));
    const second = { Authorization: `Bearer ${created.key.secret}` };
    const first = authHeaders(credential('valid-key'));
    for (let i = 0; i < 99; i++)
      expect((await app.fetch(app.url('/servers/find?limit=1'), { headers: first })).status).toBe(200);
    // 100 requests of the account so far: the key tier's minute is spent, whichever key asks.
    expect((await app.fetch(app.url('/servers/find?limit=1'), { headers: second })).status).toBe(429);
    expect((await app.fetch(app.url('/user/apikeys'), { headers: session })).status).toBe(429);
    // Another account is not affected.
    expect(
      (await app.fetch(app.url('/servers/find?limit=1'), { headers: authHeaders(credential('forbidden-key')) })).status,
    ).toBe(200);
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
