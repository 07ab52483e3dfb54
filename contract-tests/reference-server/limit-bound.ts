// How long rate limits force a run to take, at the least: each counter (a path group and an
// account) allows `limit` requests per fixed window, so `n` requests on it span at least
// ceil(n / limit) windows, the first and the last of them partly: (ceil(n / limit) - 1)
// windows. Counters count at once, so the run's lower bound is the largest of theirs. The
// windows are fixed and aligned to the clock, so a run that starts inside a window has that
// window's rest before the next: `boundFrom` is the bound for a run started at a given time.
import type { Counted } from './rate-limit.ts';

export interface BucketBound {
  bucket: string;
  /** Requests the counter took (a 429 is asked again, and counted as the request it repeats). */
  requests: number;
  refused: number;
  limit: number;
  windowMs: number;
  /** (ceil(requests / limit) - 1) windows. */
  boundMs: number;
}

export function limitBounds(counted: readonly Counted[]): { buckets: BucketBound[]; boundMs: number } {
  const by = new Map<string, BucketBound>();
  for (const c of counted) {
    const b = by.get(c.bucket) ?? {
      bucket: c.bucket,
      requests: 0,
      refused: 0,
      limit: 0,
      windowMs: c.windowMs,
      boundMs: 0,
    };
    if (c.refused) b.refused++;
    else b.requests++;
    // A counter whose requests carry several tiers: the most permissive limit bounds it from below.
    b.limit = Math.max(b.limit, c.limit);
    by.set(c.bucket, b);
  }
  const buckets = [...by.values()].map((b) => ({
    ...b,
    boundMs: Math.max(0, Math.ceil(b.requests / b.limit) - 1) * b.windowMs,
  }));
  buckets.sort((a, b) => b.boundMs - a.boundMs || b.requests - a.requests);
  return { buckets, boundMs: Math.max(0, ...buckets.map((b) => b.boundMs)) };
}

/**
 * The bound for a run started at `startMs`: the busiest counter's last request goes no sooner than the start of its
 * (ceil(requests / limit))th window, the first being the one the run starts in (windows aligned to the clock).
 */
export function boundFrom(buckets: readonly BucketBound[], startMs: number): number {
  const ends = buckets.map((b) => {
    const first = startMs - (startMs % b.windowMs);
    return first + Math.max(0, Math.ceil(b.requests / b.limit) - 1) * b.windowMs - startMs;
  });
  return Math.max(0, ...ends);
}
