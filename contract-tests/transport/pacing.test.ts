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

describe('Pacer, work at once on one account (run/lanes.ts)', () => {
  const withLimit = (limit: number, remaining: number, resetS: number) => ({
    ...headers(remaining, resetS),
    'x-ratelimit-limit': String(limit),
  });
  const accountOf = (h: Record<string, string> | undefined) =>
    h?.Authorization === 'Bearer k' || h?.Cookie === 's=1' ? 'alice' : 'anonymous';

  test("a key's answer counting the account past the session's limit makes the session wait the reset", async () => {
    const clock = fakeClock(1_000_000);
    const pacer = new Pacer({ honourRemaining: true, groups: [], ...clock, accountOf });
    const key = { Authorization: 'Bearer k' };
    const session = { Cookie: 's=1' };
    const [kb, sb] = [pacer.bucketOf('/x', key), pacer.bucketOf('/x', session)];
    const counter = pacer.counterOf('/x', key);
    expect(pacer.counterOf('/x', session)).toBe(counter);
    pacer.afterAnswer(sb, 200, withLimit(60, 50, 1_060), counter);
    // The key's answer: 60 of the account's 100 used. The session's 60 are gone; the key has 40 left.
    pacer.afterAnswer(kb, 200, withLimit(100, 40, 1_060), counter);
    await pacer.beforeSend(kb, counter);
    expect(clock.slept).toEqual([]);
    await pacer.beforeSend(sb, counter);
    expect(clock.slept).toEqual([60_050]);
  });

  test('a credential new to a counter counted past its limit waits (a key revoked counts as anonymous)', async () => {
    const clock = fakeClock(1_000_000);
    const pacer = new Pacer({ honourRemaining: true, groups: [], ...clock, accountOf });
    const anonymous = pacer.bucketOf('/x', {});
    const revoked = { Authorization: 'Bearer revoked' };
    pacer.afterAnswer(anonymous, 200, withLimit(20, 0, 1_030), pacer.counterOf('/x', {}));
    await pacer.beforeSend(pacer.bucketOf('/x', revoked), pacer.counterOf('/x', revoked));
    expect(clock.slept).toEqual([30_050]);
  });

  test('senders of one counter take turns: the tightest limit first, then the higher priority', async () => {
    const clock = fakeClock();
    let priority = 0;
    const pacer = new Pacer({ honourRemaining: true, groups: [], ...clock, accountOf, priorityOf: () => priority });
    const [kb, sb] = [pacer.bucketOf('/x', { Authorization: 'Bearer k' }), pacer.bucketOf('/x', { Cookie: 's=1' })];
    const counter = pacer.counterOf('/x', {});
    pacer.afterAnswer(kb, 200, withLimit(100, 90, 2_000), counter);
    pacer.afterAnswer(sb, 200, withLimit(60, 50, 2_000), counter);
    const order: string[] = [];
    const endFirst = await pacer.turn(counter, kb);
    const asking = (name: string, bucket: string, p: number) => {
      priority = p;
      return pacer.turn(counter, bucket).then((end) => {
        order.push(name);
        end();
      });
    };
    const all = Promise.all([
      asking('key, priority 5', kb, 5),
      asking('key, priority 1', kb, 1),
      asking('session', sb, 9),
    ]);
    expect(pacer.waiters).toBe(3);
    endFirst();
    await all;
    expect(order).toEqual(['session', 'key, priority 1', 'key, priority 5']);
    expect(pacer.waiters).toBe(0);
  });

  test('pauses at once count their common time once', async () => {
    let now = 0;
    const wakes: (() => void)[] = [];
    const pacer = new Pacer({
      honourRemaining: true,
      groups: [],
      now: () => now,
      sleep: () => new Promise<void>((wake) => wakes.push(wake)),
    });
    const both = Promise.all([pacer.pause(10_000), pacer.pause(4_000)]);
    now = 4_000;
    wakes[1]!();
    await new Promise((r) => setImmediate(r));
    now = 10_000;
    wakes[0]!();
    await both;
    expect(pacer.stats).toEqual({ waits: 2, waitedMs: 10_000, tooMany: 0 });
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
