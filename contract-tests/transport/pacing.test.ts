// The suite keeps within the target's rate limits: it waits when the target says its
// window is used up, waits out a 429 as Retry-After says, and reports the time waited.
// The clock is a fake here (no timed assertions); the real-socket run below uses a
// reference server with a one-second window.
import { afterAll, describe, expect, test } from 'vitest';
import { startReferenceServer, type RunningServer } from '../broken/reference-server.ts';
import { Pacer, retryAfterMs } from '../lib/pacing.ts';
import { fixtureEnv, runContract } from './helpers.ts';

function fakeClock(start = 1_000_000) {
  let now = start;
  const slept: number[] = [];
  return { now: () => now, sleep: async (ms: number) => void (slept.push(ms), (now += ms)), slept };
}

const headers = (remaining: number, resetS: number) => ({ 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(resetS) });

describe('Pacer', () => {
  test('waits until the reset once the window is used up, and only then', async () => {
    const clock = fakeClock();
    const pacer = new Pacer({ honourRemaining: true, groups: [], ...clock });
    const bucket = pacer.bucketOf('/servers/find', { Authorization: 'Bearer k' });
    pacer.afterAnswer(bucket, 200, headers(1, 1_001));
    await pacer.beforeSend(bucket);
    expect(clock.slept).toEqual([]);
    pacer.afterAnswer(bucket, 200, headers(0, 1_001));
    await pacer.beforeSend(bucket);
    expect(clock.slept).toEqual([1_000 + 50]);
    expect(pacer.stats).toEqual({ waits: 1, waitedMs: 1_050, tooMany: 0 });
    // The window is unknown again until the next answer: no second wait.
    await pacer.beforeSend(bucket);
    expect(clock.slept).toHaveLength(1);
  });

  test('keeps callers and path groups apart, as the target counts them', async () => {
    const clock = fakeClock();
    const pacer = new Pacer({ honourRemaining: true, groups: [{ pathPrefix: '/metadata/', windowSeconds: 1, limit: 1 }], ...clock });
    const key = pacer.bucketOf('/servers/find', { Authorization: 'Bearer k' });
    const meta = pacer.bucketOf('/metadata/versions', { Authorization: 'Bearer k' });
    const anonymous = pacer.bucketOf('/servers/find', {});
    expect(new Set([key, meta, anonymous]).size).toBe(3);
    pacer.afterAnswer(meta, 200, headers(0, 1_001));
    await pacer.beforeSend(key);
    await pacer.beforeSend(anonymous);
    expect(clock.slept).toEqual([]);
    await pacer.beforeSend(meta);
    expect(clock.slept).toEqual([1_050]);
  });

  test('with --pace off, waits only on a 429, as long as Retry-After says', async () => {
    const clock = fakeClock();
    const pacer = new Pacer({ honourRemaining: false, groups: [], ...clock });
    const bucket = pacer.bucketOf('/x', undefined);
    pacer.afterAnswer(bucket, 200, headers(0, 2_000));
    await pacer.beforeSend(bucket);
    expect(clock.slept).toEqual([]);
    expect(pacer.afterAnswer(bucket, 429, { ...headers(0, 1_030), 'retry-after': '7' })).toBe(7_000);
    expect(pacer.afterAnswer(bucket, 429, headers(0, 1_030))).toBe(30_050);
    expect(pacer.stats.tooMany).toBe(2);
  });

  test('caps a single wait at a minute and a bit, and reads Retry-After as seconds or a date', async () => {
    const clock = fakeClock();
    const pacer = new Pacer({ honourRemaining: true, groups: [], ...clock });
    await pacer.pause(3_600_000);
    expect(clock.slept).toEqual([65_000]);
    expect(retryAfterMs('12', 0)).toBe(12_000);
    expect(retryAfterMs(new Date(90_000).toUTCString(), 30_000)).toBe(60_000);
    expect(retryAfterMs('soon', 0)).toBeUndefined();
  });
});

describe('a run against a target that enforces a tiny rate limit', () => {
  let server: RunningServer;
  afterAll(() => server?.close());

  test('finishes without a 429-caused failure and reports how long it waited', async () => {
    server = await startReferenceServer('none', { rateLimit: { limit: 15, windowMs: 1_000 } });
    const run = await runContract(['--base-url', server.baseUrl, '--budget', '80', '--allow-writes'], fixtureEnv());
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(/^FAIL/m);
    const [, seconds, pauses, tooMany] = /^Rate limits: waited ([\d.]+) s in (\d+) pause\(s\); (\d+) answer\(s\) were 429/m.exec(run.stdout) ?? [];
    expect(Number(pauses), run.stdout).toBeGreaterThan(0);
    expect(Number(seconds)).toBeGreaterThan(0);
    expect(Number(tooMany)).toBe(0);
    // The budget bounds the run: what it could not afford is skipped and says so.
    expect(run.stdout).toMatch(/^Requests: 80 sent by the suite \(budget 80, \d+ more refused\), \d+ to clean up, \d+ by Dredd and \d+ by the pre-flight$/m);
    expect(run.stdout).toMatch(/skipped: .*\(the request budget is used up \(--budget 80\)\)/);
  }, 120_000);
});
