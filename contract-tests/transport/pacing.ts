// Keeps the suite within the target's rate limits, as its own headers state them: when
// an answer says `X-RateLimit-Remaining: 0`, the next request of that caller and path
// group waits until `X-RateLimit-Reset`; a `429` waits as `Retry-After` says and is
// asked again. The suite never hammers a deployment, and reports how long it waited.
// Work running at once (run/lanes.ts) takes turns on each counter, one request at a time
// in the order it asked, so a counter is paced as it would be with one sender; and the
// pacer says when every sender is waiting, which is when the run starts more work.
import type { RateLimits } from '../../spec/model.ts';

/** The longest single wait: a per-minute window, with a margin. A longer one is the 429 path's to handle. */
export const MAX_WAIT_MS = 65_000;
/** Asked again at most this often after a 429. */
export const MAX_429_RETRIES = 3;
/** Fixed windows end on the second: wait a little past it. */
const MARGIN_MS = 50;

export interface PaceStats {
  /** Times the suite paused for the target's limits. */
  waits: number;
  waitedMs: number;
  /** 429 answers received (each was waited out and asked again, up to MAX_429_RETRIES). */
  tooMany: number;
}

export interface PacerOptions {
  /** Wait on `X-RateLimit-Remaining: 0` (false: only on 429, for a target that reports limits it does not enforce). */
  honourRemaining: boolean;
  /** The spec's rate-limit groups: paths with a window of their own. */
  groups: RateLimits['groups'];
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** The place of the work sending now, in the order a sequential run sends (run/lanes.ts): who goes first on a counter. */
  placeOf?: () => number | undefined;
}

interface Queued {
  place: number;
  asked: number;
  resolve: () => void;
}

interface Window {
  remaining: number;
  resetAtMs: number;
}

export class Pacer {
  readonly stats: PaceStats = { waits: 0, waitedMs: 0, tooMany: 0 };
  private readonly windows = new Map<string, Window>();
  /** Each bucket's counter in use: by one sender, the others queued for their turn. */
  private readonly counters = new Map<string, { held: boolean; queue: Queued[] }>();
  private asked = 0;
  private waitingNow = 0;
  private readonly watchers = new Set<() => void>();
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: PacerOptions) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /**
   * Which of the target's counters a request draws on: the caller (its credential, or
   * none) and the path's rate-limit group. Invalid credentials count as themselves here;
   * if the target counts them as anonymous, its 429 still paces them.
   */
  bucketOf(relativePath: string, headers: Record<string, string> | undefined): string {
    const lower = Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    const caller = lower.authorization ?? lower.cookie ?? 'anonymous';
    const group = this.options.groups.find((g) => relativePath.startsWith(g.pathPrefix))?.pathPrefix ?? '';
    return `${group}\u0000${caller}`;
  }

  /** Waits while the bucket's window is used up. */
  async beforeSend(bucket: string): Promise<void> {
    const w = this.windows.get(bucket);
    if (!this.options.honourRemaining || !w || w.remaining > 0) return;
    this.windows.delete(bucket);
    await this.pause(w.resetAtMs - this.now() + MARGIN_MS);
  }

  /** Learns the bucket's window from an answer; for a 429, returns how long to wait before asking again. */
  afterAnswer(bucket: string, status: number, headers: Record<string, string>): number | undefined {
    const remaining = integerHeader(headers['x-ratelimit-remaining']);
    const reset = integerHeader(headers['x-ratelimit-reset']);
    if (remaining !== undefined && reset !== undefined)
      this.windows.set(bucket, { remaining, resetAtMs: reset * 1000 });
    if (status !== 429) return undefined;
    this.stats.tooMany++;
    this.windows.delete(bucket);
    const retryAfter = retryAfterMs(headers['retry-after'], this.now());
    return retryAfter ?? (reset !== undefined ? reset * 1000 - this.now() + MARGIN_MS : 1000);
  }

  /** Waits `ms` (capped at MAX_WAIT_MS), counted in the stats. */
  async pause(ms: number): Promise<void> {
    const wait = Math.min(Math.max(0, Math.round(ms)), MAX_WAIT_MS);
    if (wait === 0) return;
    this.stats.waits++;
    this.stats.waitedMs += wait;
    await this.waiting(this.sleep(wait));
  }

  /**
   * A turn on the bucket's counter: resolves, with the function that ends it, when no other sender holds the counter.
   * Senders waiting for it take their turns in the order a sequential run would have sent them (`placeOf`: the place
   * of the work asking, run/lanes.ts), then in the order they asked. One sender never waits here.
   */
  async turn(bucket: string): Promise<() => void> {
    const counter = this.counters.get(bucket) ?? { held: false, queue: [] };
    this.counters.set(bucket, counter);
    if (counter.held) {
      const place = this.options.placeOf?.() ?? Number.MAX_SAFE_INTEGER;
      await this.waiting(
        new Promise<void>((resolve) => {
          counter.queue.push({ place, asked: this.asked++, resolve });
        }),
      );
    }
    counter.held = true;
    return () => {
      const next = counter.queue.reduce<Queued | undefined>(
        (a, b) => (!a || b.place < a.place || (b.place === a.place && b.asked < a.asked) ? b : a),
        undefined,
      );
      if (!next) return void this.counters.delete(bucket);
      counter.queue.splice(counter.queue.indexOf(next), 1);
      // Handed over: the counter stays held, by the sender it wakes.
      next.resolve();
    };
  }

  /** Senders waiting now: for a window to open, a 429 to pass, or their turn on a counter. */
  get waiters(): number {
    return this.waitingNow;
  }

  /** Calls `watcher` whenever a sender starts to wait; returns what stops it. */
  onWait(watcher: () => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  private async waiting(until: Promise<void>): Promise<void> {
    this.waitingNow++;
    for (const w of this.watchers) w();
    try {
      await until;
    } finally {
      this.waitingNow--;
    }
  }
}

function integerHeader(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}

/** `Retry-After` is delay-seconds or an HTTP date (RFC 9110). */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
