// The suite keeps within the target's rate limits: it waits when the target says its
// window is used up, waits out a 429 as Retry-After says, and reports the time waited.
// The clock is a fake (no real second is slept, no timed assertion): in the run below
// the reference server and the suite's pacing share it.
import { describe, expect, test } from 'vitest';
import { runAgainstReference } from '../reference-server/in-process.ts';
import { summary } from '../reports/outcome.ts';
import { Pacer, retryAfterMs } from './pacing.ts';

function fakeClock(start = 1_000_000) {
  let now = start;
  const slept: number[] = [];
  return {
    now: () => now,
    sleep: async (ms: number) => {
      slept.push(ms);
      now += ms;
    },
    slept,
  };
}

const headers = (remaining: number, resetS: number) => ({
  'x-ratelimit-remaining': String(remaining),
  'x-ratelimit-reset': String(resetS),
});

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
    const pacer = new Pacer({
      honourRemaining: true,
      groups: [{ pathPrefix: '/metadata/', windowSeconds: 1, limit: 1 }],
      ...clock,
    });
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
  test('finishes without a 429-caused failure and reports how long it waited', async () => {
    const clock = fakeClock(Date.now());
    const { outcome } = await runAgainstReference('none', {
      reference: { rateLimit: { limit: 15, windowMs: 1_000 }, now: clock.now },
      clock,
      budget: 80,
      pace: true,
    });
    const text = [summary(outcome), ...outcome.figures].join('\n');
    expect(outcome.exitCode, text).toBe(0);
    expect(text).not.toMatch(/^FAIL/m);
    const [, seconds, pauses, tooMany] =
      /^Rate limits: waited ([\d.]+) s in (\d+) pause\(s\); (\d+) answer\(s\) were 429$/m.exec(text) ?? [];
    expect(Number(pauses), text).toBeGreaterThan(0);
    expect(Number(seconds)).toBeGreaterThan(0);
    expect(Number(tooMany)).toBe(0);
    expect(clock.slept.length).toBe(Number(pauses));
    // The budget bounds the run: what it could not afford is skipped and says so.
    expect(text).toMatch(
      new RegExp(
        String.raw`^Requests: 80 sent by the suite \(budget 80, \d+ more refused\), \d+ to clean up, ` +
          String.raw`0 by Dredd \(--dredd off\) and \d+ by the pre-flight$`,
        'm',
      ),
    );
    expect(text).toMatch(/skipped: .*\(the request budget is used up \(--budget 80\)\)/);
  });

  test('without pacing against the same target, 429s are waited out as Retry-After says and asked again', async () => {
    const clock = fakeClock(Date.now());
    // Five a second: the run's first 60 requests spread over many credentials (the auth matrix) still meet 429s.
    const { outcome } = await runAgainstReference('none', {
      reference: { rateLimit: { limit: 5, windowMs: 1_000 }, now: clock.now },
      clock,
      budget: 60,
      pace: false,
    });
    const text = [summary(outcome), ...outcome.figures].join('\n');
    expect(outcome.exitCode, text).toBe(0);
    expect(Number(/(\d+) answer\(s\) were 429/.exec(text)?.[1])).toBeGreaterThan(0);
  });
});
