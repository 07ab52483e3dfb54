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

/** One rule the counters run by: a limit per window (ms). */
interface Rule {
  limits: number[];
  windowsMs: number[];
}

export class RateLimiter {
  private readonly counters = new Map<string, Counter[]>();
  // Worked out once from the spec's rules: hit() runs on every request.
  private readonly tiers = new Map<string, Rule>();
  private readonly groups: (Rule & { pathPrefix: string })[];

  constructor(rules: RateLimits) {
    const windowsMs = rules.windowsSeconds.map((s) => s * 1000);
    for (const [tier, limits] of Object.entries(rules.tiers)) this.tiers.set(tier, { limits, windowsMs });
    this.groups = rules.groups.map((g) => ({ pathPrefix: g.pathPrefix, limits: [g.limit], windowsMs: [g.windowSeconds * 1000] }));
  }

  /** Counts one request of `key` in `tier` to `path` (relative to the API base). */
  hit(key: string, tier: string, path: string, now: number): RateDecision {
    const group = this.groups.find((g) => path.startsWith(g.pathPrefix));
    const { limits, windowsMs } = group ?? this.tiers.get(tier) ?? this.tiers.get('anonymous')!;
    const bucket = group ? `${key}|${group.pathPrefix}` : key;
    let counters = this.counters.get(bucket);
    if (!counters) {
      counters = windowsMs.map(() => ({ start: 0, count: 0 }));
      this.counters.set(bucket, counters);
    }
    let retryAfter: number | undefined;
    for (let i = 0; i < windowsMs.length; i++) {
      const size = windowsMs[i]!;
      const c = counters[i]!;
      const start = now - (now % size);
      if (c.start !== start) {
        c.start = start;
        c.count = 0;
      }
      c.count++;
      if (c.count > limits[i]! && retryAfter === undefined) retryAfter = Math.max(1, Math.ceil((start + size - now) / 1000));
    }
    const first = counters[0]!;
    return {
      limit: limits[0]!,
      remaining: Math.max(0, limits[0]! - first.count),
      reset: Math.ceil((first.start + windowsMs[0]!) / 1000),
      retryAfter,
    };
  }
}
