// The service's rate limits, as the spec's `x-rate-limits` states them: limits per
// window by tier (the security scheme that authenticated the caller, or anonymous),
// and paths with a window of their own (`/metadata/*`: one request per second).
// Windows are fixed and aligned to the clock, so a pinned clock gives the same headers
// every run. Only the API counts: the mock's own routes (`/__mock/*`, the docs) draw on
// no limit. Every API answer carries the headers, and they never promise a wait the
// mock would not enforce (docs/decisions/0028-rate-limit-headers-tell-the-truth.md):
// with `--rate-limit` requests are counted and refused with 429 past the limit, as the
// real service does; without it nothing is counted, and each answer reports the
// caller's limit with the whole of it remaining.
//
// Counters are kept per account (every key and session of one user draw on the same
// counters; the limit applied is the tier of the credential in hand) and per address
// for anonymous callers. Who calls is up to the clients, so the counters must not grow
// with them: a caller's counters are dropped once all their windows are over, and at
// most `maxBuckets` callers are tracked per rule (past that, the one seen least
// recently starts afresh).
import type { MiddlewareHandler } from 'hono';
import { LRUCache } from 'lru-cache';
import { rateLimitedBody } from '../../../spec/messages.ts';
import type { RateLimits } from '../../../spec/model.ts';
import type { Answers } from '../answers.ts';
import type { AppEnv } from '../env.ts';
import { clientAddress } from './client-identity.ts';

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

/**
 * The callers counted under one set of windows (the tiers share one; each path group has
 * its own), in the order their windows last started afresh: the windows are aligned to
 * the clock and nested (minute, hour, day), so that is also the order in which their
 * counters run out, and expired callers are always at the front. The order is an
 * lru-cache's list (read with `peek`, moved by `set`), not a Map's insertion order:
 * finding a Map's first entry after many deletions walks them all (see
 * mocks/search/bounded-cache.ts), and callers come and go with every client.
 */
class Buckets {
  private known: LRUCache<string, Counter[]> | undefined;

  constructor(
    readonly windowsMs: number[],
    private readonly maxBuckets: number,
  ) {}

  /**
   * Made on first use: an LRU cache sizes its lists for `maxBuckets` at once, and a mock that
   * counts nothing (no --rate-limit, the default), or is reset before every test, needs none.
   */
  private get byCaller(): LRUCache<string, Counter[]> {
    // Past maxBuckets, the caller whose windows started longest ago starts afresh.
    return (this.known ??= new LRUCache<string, Counter[]>({ max: this.maxBuckets }));
  }

  get size(): number {
    return this.known?.size ?? 0;
  }

  private expired(counters: Counter[], now: number): boolean {
    return counters.every((c, i) => c.start + this.windowsMs[i]! <= now);
  }

  /** The caller's counters, current at `now`. */
  counters(key: string, now: number): Counter[] {
    const known = this.byCaller.peek(key);
    if (!known) {
      this.sweep(now);
      const counters = this.windowsMs.map((size) => ({ start: now - (now % size), count: 0 }));
      this.byCaller.set(key, counters);
      return counters;
    }
    let renewed = false;
    for (let i = 0; i < known.length; i++) {
      const size = this.windowsMs[i]!;
      const c = known[i]!;
      const start = now - (now % size);
      if (c.start !== start) {
        c.start = start;
        c.count = 0;
        renewed = true;
      }
    }
    if (renewed) {
      // To the back of the line: its counters now run out last.
      this.byCaller.set(key, known);
      this.sweep(now);
    }
    return known;
  }

  /** Drops the callers at the front whose every window is over (each is dropped once, so this is cheap). */
  private sweep(now: number): void {
    for (;;) {
      const oldest = this.byCaller.rkeys().next();
      if (oldest.done) return;
      const counters = this.byCaller.peek(oldest.value)!;
      if (!this.expired(counters, now)) return;
      this.byCaller.delete(oldest.value);
    }
  }
}

/** The most callers tracked per rule; an operator sharing the mock with a team never sees more. */
export const DEFAULT_MAX_BUCKETS = 10_000;

export class RateLimiter {
  // Worked out once from the spec's rules: hit() runs on every request.
  private readonly tierLimits = new Map<string, number[]>();
  private readonly tiers: Buckets;
  private readonly groups: { pathPrefix: string; limits: number[]; buckets: Buckets }[];

  constructor(rules: RateLimits, maxBuckets = DEFAULT_MAX_BUCKETS) {
    for (const [tier, limits] of Object.entries(rules.tiers)) this.tierLimits.set(tier, limits);
    this.tiers = new Buckets(
      rules.windowsSeconds.map((s) => s * 1000),
      maxBuckets,
    );
    this.groups = rules.groups.map((g) => ({
      pathPrefix: g.pathPrefix,
      limits: [g.limit],
      buckets: new Buckets([g.windowSeconds * 1000], maxBuckets),
    }));
  }

  /** How many callers are counted right now, over every rule. */
  get size(): number {
    return this.groups.reduce((n, g) => n + g.buckets.size, this.tiers.size);
  }

  /** The limits of one request's rule: the path's group, else the tier's. */
  private rule(tier: string, path: string): { limits: number[]; buckets: Buckets } {
    const group = this.groups.find((g) => path.startsWith(g.pathPrefix));
    return group ?? { limits: this.tierLimits.get(tier) ?? this.tierLimits.get('anonymous')!, buckets: this.tiers };
  }

  /**
   * What a request of `tier` to `path` is told when nothing is counted (no
   * `--rate-limit`): its limit, all of it remaining, the current window's end.
   */
  quote(tier: string, path: string, now: number): RateDecision {
    const { limits, buckets } = this.rule(tier, path);
    const size = buckets.windowsMs[0]!;
    return { limit: limits[0]!, remaining: limits[0]!, reset: Math.ceil((now - (now % size) + size) / 1000) };
  }

  /**
   * Counts one request of caller `key` (an account, or an anonymous address) in `tier`
   * to `path` (relative to the API base).
   */
  hit(key: string, tier: string, path: string, now: number): RateDecision {
    const { limits, buckets } = this.rule(tier, path);
    const counters = buckets.counters(key, now);
    let retryAfter: number | undefined;
    for (let i = 0; i < counters.length; i++) {
      const c = counters[i]!;
      c.count++;
      if (c.count > limits[i]! && retryAfter === undefined)
        retryAfter = Math.max(1, Math.ceil((c.start + buckets.windowsMs[i]! - now) / 1000));
    }
    const first = counters[0]!;
    return {
      limit: limits[0]!,
      remaining: Math.max(0, limits[0]! - first.count),
      reset: Math.ceil((first.start + buckets.windowsMs[0]!) / 1000),
      retryAfter,
    };
  }
}

export interface RateLimitSettings {
  /** The limiter, asked on every request (the state's `reset` replaces it). */
  limiter: () => RateLimiter;
  /** The API's base path: the spec's path groups (`/metadata`) are relative to it. */
  basePath: string;
  /** Count anonymous callers by the last X-Forwarded-For address (`--trust-proxy`). */
  trustProxy: boolean;
  /** Count, and refuse over the limit with 429 (`--rate-limit`); otherwise report the limits without counting. */
  enforce: boolean;
  answers: Answers;
}

/** The request's path under the API (`/servers/find`), or undefined for a path outside it. */
function apiPath(full: string, basePath: string): string | undefined {
  if (!full.startsWith(basePath) || (full.length > basePath.length && full[basePath.length] !== '/')) return undefined;
  return full.slice(basePath.length);
}

/**
 * The `X-RateLimit-*` headers of an API answer given before its caller is known, counted
 * against nothing (the host check's 403): the anonymous limit, quoted whole, as when
 * nothing is counted. None outside the API.
 */
export function uncountedLimitHeaders(
  limiter: RateLimiter,
  basePath: string,
  fullPath: string,
  now: number,
): Record<string, string> {
  const path = apiPath(fullPath, basePath);
  if (path === undefined) return {};
  const quote = limiter.quote('anonymous', path, now);
  return {
    'X-RateLimit-Limit': String(quote.limit),
    'X-RateLimit-Remaining': String(quote.remaining),
    'X-RateLimit-Reset': String(quote.reset),
  };
}

/**
 * For a request to the API: enforcing, counts it against its caller (the account
 * identifyCaller found, else the client's address), says how much is left in
 * `X-RateLimit-*` and past the limit answers 429 with `Retry-After`; not enforcing,
 * reports the caller's limit as a whole (RateLimiter.quote). Requests outside the API
 * (the mock's `/__mock/*` routes) are not limited and carry no such headers.
 */
export function rateLimit(settings: RateLimitSettings): MiddlewareHandler<AppEnv> {
  const { limiter, basePath, trustProxy, enforce, answers } = settings;
  return (c, next) => {
    const path = apiPath(c.req.path, basePath);
    if (path === undefined) return next();
    const principal = c.get('identity').values().next().value;
    const tier = principal?.scheme ?? 'anonymous';
    if (!enforce) {
      const quote = limiter().quote(tier, path, c.get('now'));
      c.header('X-RateLimit-Limit', String(quote.limit));
      c.header('X-RateLimit-Remaining', String(quote.remaining));
      c.header('X-RateLimit-Reset', String(quote.reset));
      return next();
    }
    const key = principal?.id ?? `ip:${clientAddress(c.env, c.req.header('x-forwarded-for'), trustProxy)}`;
    const decision = limiter().hit(key, tier, path, c.get('now'));
    c.header('X-RateLimit-Limit', String(decision.limit));
    c.header('X-RateLimit-Remaining', String(decision.remaining));
    c.header('X-RateLimit-Reset', String(decision.reset));
    if (decision.retryAfter !== undefined) {
      c.set('refusedBy', 'rate-limit');
      // The answer now, not only returned: the stages before the route run as one (app.ts's everyRequest).
      c.res = answers.reply(c, undefined, 429, rateLimitedBody(decision.retryAfter), {
        'Retry-After': String(decision.retryAfter),
      });
      return Promise.resolve(c.res);
    }
    return next();
  };
}
