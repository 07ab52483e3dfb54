// The service's rate limits, as the spec's `x-rate-limits` states them: limits per
// window by tier (the security scheme that authenticated the caller, or anonymous),
// and paths with a window of their own (`/metadata/*`: one request per second).
// Windows are fixed and aligned to the clock, so a pinned clock gives the same headers
// every run. Counting always happens (every answer carries the headers); refusing with
// 429 is the caller's choice (`--rate-limit`).
import type { RateLimits } from '../spec/model.ts';

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

  constructor(private readonly rules: RateLimits) {}

  /** Counts one request of `key` in `tier` to `path` (relative to the API base). */
  hit(key: string, tier: string, path: string, now: number): RateDecision {
    const group = this.rules.groups.find((g) => path.startsWith(g.pathPrefix));
    const limits = group ? [group.limit] : (this.rules.tiers[tier] ?? this.rules.tiers.anonymous!);
    const windows = (group ? [group.windowSeconds] : this.rules.windowsSeconds).map((s) => s * 1000);
    const bucket = group ? `${key}|${group.pathPrefix}` : key;
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
