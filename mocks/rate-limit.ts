// The real service's rate limits (the spec's "Rate limits" section): per minute / hour / day by tier,
// and one request per second for /metadata/*. Windows are fixed and aligned to the
// clock, so a pinned clock gives the same headers every run. Counting always happens
// (every answer carries the headers); refusing with 429 only when enforcement is on.

export type Tier = 'anonymous' | 'session' | 'apiKey';

const LIMITS: Record<Tier, [perMinute: number, perHour: number, perDay: number]> = {
  anonymous: [20, 600, 5000],
  session: [60, 2000, 20000],
  apiKey: [100, 3000, 50000],
};
const WINDOWS = [60_000, 3_600_000, 86_400_000] as const;
const METADATA_LIMIT = 1;
const METADATA_WINDOW = 1000;

export interface RateDecision {
  limit: number;
  remaining: number;
  /** End of the reported window, Unix seconds. */
  reset: number;
  /** Seconds until the caller may retry; set when over any limit. */
  retryAfter?: number;
}

interface Counter {
  start: number;
  count: number;
}

export class RateLimiter {
  private readonly counters = new Map<string, Counter[]>();

  hit(key: string, tier: Tier, metadata: boolean, now: number): RateDecision {
    const limits = metadata ? [METADATA_LIMIT] : LIMITS[tier];
    const windows = metadata ? [METADATA_WINDOW] : WINDOWS;
    const bucket = metadata ? `${key}|metadata` : key;
    let counters = this.counters.get(bucket);
    if (!counters) {
      counters = windows.map(() => ({ start: 0, count: 0 }));
      this.counters.set(bucket, counters);
    }
    let retryAfter: number | undefined;
    windows.forEach((size, i) => {
      const c = counters![i]!;
      const start = now - (now % size);
      if (c.start !== start) {
        c.start = start;
        c.count = 0;
      }
      c.count++;
      if (c.count > limits[i]! && retryAfter === undefined) retryAfter = Math.max(1, Math.ceil((start + size - now) / 1000));
    });
    const first = counters[0]!;
    return {
      limit: limits[0]!,
      remaining: Math.max(0, limits[0]! - first.count),
      reset: Math.ceil((first.start + windows[0]!) / 1000),
      retryAfter,
    };
  }
}
