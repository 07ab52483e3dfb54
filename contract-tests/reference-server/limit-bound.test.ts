// The documented rate limits as the reference server enforces them (per account and tier,
// the metadata lookups apart), what it counts, and the lower bound counted requests set.
import { describe, expect, test } from 'vitest';
import { fixtureEnv, REFERENCE_BASE, referenceFetch } from './in-process.ts';
import { boundFrom, limitBounds } from './limit-bound.ts';
import { type Counted, DOCUMENTED } from './rate-limit.ts';

describe('the documented rate limits', () => {
  test('per account and tier, a key and a session of one user counting together; the metadata a second', async () => {
    const counted: Counted[] = [];
    let now = Date.UTC(2026, 0, 1, 0, 0, 5);
    const fetch = referenceFetch('none', {
      rateLimit: 'documented',
      now: () => now,
      observeLimits: (c) => counted.push(c),
    });
    const env = fixtureEnv();
    const ask = (path: string, headers: Record<string, string> = {}) =>
      fetch(new Request(`${REFERENCE_BASE}${path}`, { headers }));
    const statuses = async (n: number, path: string, headers?: Record<string, string>) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) out.push((await ask(path, headers)).status);
      return out;
    };
    const anonymous = await statuses(DOCUMENTED.perWindow.anonymous + 1, '/servers/find?limit=1');
    expect(anonymous.filter((s) => s === 429)).toHaveLength(1);
    expect(anonymous.at(-1)).toBe(429);
    // Alice's key takes 59 of the account's minute; her session (60) has one left, then 429; her key (100) goes on.
    const key = { Authorization: `Bearer ${env.CONTRACT_API_KEY}` };
    const session = { Cookie: `sls_session=${env.CONTRACT_SESSION_COOKIE}` };
    expect(new Set(await statuses(DOCUMENTED.perWindow.session - 1, '/servers/find?limit=1', key))).toEqual(
      new Set([200]),
    );
    expect(await statuses(2, '/servers/find?limit=1', session)).toEqual([200, 429]);
    expect(await statuses(1, '/servers/find?limit=1', key)).toEqual([200]);
    // The metadata lookups: one a second, on a counter of their own.
    expect(await statuses(2, '/metadata/regions', key)).toEqual([200, 429]);
    now += 1_000;
    expect(await statuses(1, '/metadata/regions', key)).toEqual([200]);
    const buckets = new Set(counted.map((c) => c.bucket));
    expect(buckets).toEqual(new Set([':anonymous', ':usr_test_alice', 'metadata:usr_test_alice']));
    expect(counted.filter((c) => c.refused)).toHaveLength(3);
  });

  test('the lower bound: (ceil(requests / limit) - 1) windows of the busiest counter, refused requests aside', () => {
    const c = (bucket: string, limit: number, windowMs: number, refused = false): Counted => ({
      bucket,
      limit,
      windowMs,
      refused,
    });
    const counted = [
      ...Array.from({ length: 45 }, () => c(':anonymous', 20, 60_000)),
      c(':anonymous', 20, 60_000, true),
      ...Array.from({ length: 30 }, () => c('metadata:alice', 1, 1_000)),
      ...Array.from({ length: 100 }, () => c(':alice', 100, 60_000)),
    ];
    const { buckets, boundMs } = limitBounds(counted);
    // 45 anonymous requests at 20 a minute span three windows: two whole minutes at least.
    expect(buckets[0]).toMatchObject({ bucket: ':anonymous', requests: 45, refused: 1, boundMs: 120_000 });
    expect(buckets.find((b) => b.bucket === 'metadata:alice')?.boundMs).toBe(29_000);
    expect(buckets.find((b) => b.bucket === ':alice')?.boundMs).toBe(0);
    expect(boundMs).toBe(120_000);
    // Started 50 s into a minute: the anonymous counter's third window opens 10 s + one minute later.
    expect(boundFrom(buckets, Date.UTC(2026, 0, 1, 0, 0, 50))).toBe(70_000);
    expect(boundFrom(buckets, Date.UTC(2026, 0, 1, 0, 0, 0))).toBe(120_000);
  });
});
