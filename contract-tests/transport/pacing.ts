// Keeps the suite within the target's rate limits, as its own headers state them: when
// an answer says `X-RateLimit-Remaining: 0`, the next request of that caller and path
// group waits until `X-RateLimit-Reset`; a `429` waits as `Retry-After` says and is
// asked again. The suite never hammers a deployment, and reports how long it waited.
// Work running at once (run/lanes.ts) takes turns on each counter the target keeps (a path
// group and an account: `counterOf`), one request at a time, so a counter is paced as it
// would be with one sender; and the pacer says when a sender starts to wait, which is when
// the run may start more work.
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
  /** The time the run had a sender pausing (pauses at once counted once). */
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
  /** Who goes first among senders waiting for a counter, lower first (run/lanes.ts: the work with the most left). */
  priorityOf?: () => number | undefined;
  /**
   * Whom the target counts a request against, by its credentials (default: the credential itself). The spec's limits
   * are per account, every key and session of one user drawing on the same counters, and a caller without a valid
   * credential anonymous: the run knows which credentials are its user's.
   */
  accountOf?: (headers: Record<string, string> | undefined) => string | undefined;
}

interface Queued {
  /** The limit of its caller's tier (X-RateLimit-Limit), if known: the tightest goes first. */
  limit: number;
  priority: number;
  asked: number;
  resolve: () => void;
}

/** Who goes first on a counter: the tightest limit, then the work's priority, then who asked first. */
const before = (a: Queued, b: Queued) => a.limit - b.limit || a.priority - b.priority || a.asked - b.asked;

interface Window {
  remaining: number;
  resetAtMs: number;
}

export class Pacer {
  readonly stats: PaceStats = { waits: 0, waitedMs: 0, tooMany: 0 };
  private readonly windows = new Map<string, Window>();
  /** The X-RateLimit-Limit each bucket's answers gave. */
  private readonly limits = new Map<string, number>();
  /** The buckets seen on each counter (`counterOf`), and the counter each was last seen on. */
  private readonly members = new Map<string, Set<string>>();
  private readonly counterOfBucket = new Map<string, string>();
  /** What each counter's last answer counted: requests used, of what limit, until when. */
  private readonly counted = new Map<string, { used: number; limit: number; resetAtMs: number }>();
  /** Each bucket's counter in use: by one sender, the others queued for their turn. */
  private readonly counters = new Map<string, { held: boolean; queue: Queued[] }>();
  private asked = 0;
  private waitingNow = 0;
  private pausing = 0;
  private pausedSince = 0;
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

  /**
   * The counter a request draws on as the target counts it: the path's rate-limit group and the account
   * (`accountOf`). Buckets of one account (its key, its session) share it: they take turns on it.
   */
  counterOf(relativePath: string, headers: Record<string, string> | undefined): string {
    const bucket = this.bucketOf(relativePath, headers);
    const account = this.options.accountOf?.(headers);
    return account === undefined ? bucket : `${bucket.split('\u0000')[0]}\u0000${account}`;
  }

  /**
   * When the bucket's window opens again, if it is known to be used up: its own answers said so, or (a credential not
   * yet answered, such as a key just revoked, now anonymous) its counter's last answer counted past the counter's
   * limit.
   */
  private usedUntil(bucket: string, counter: string | undefined): number | undefined {
    if (!this.options.honourRemaining) return undefined;
    const now = this.now();
    // What the bucket learnt on another counter (a key's window, now that it is revoked) says nothing of this one.
    const same = counter === undefined || this.counterOfBucket.get(bucket) === counter;
    const w = same ? this.windows.get(bucket) : undefined;
    if (w) return w.remaining <= 0 && now < w.resetAtMs ? w.resetAtMs : undefined;
    const c = counter === undefined ? undefined : this.counted.get(counter);
    const limit = (same ? this.limits.get(bucket) : undefined) ?? c?.limit;
    return c && limit !== undefined && now < c.resetAtMs && c.used >= limit ? c.resetAtMs : undefined;
  }

  /** Whether the bucket's window is known to be used up (then `beforeSend` waits). */
  usedUp(bucket: string, counter?: string): boolean {
    return this.usedUntil(bucket, counter) !== undefined;
  }

  /** Waits while the bucket's window is used up (every sender of the bucket waits for the same reset). */
  async beforeSend(bucket: string, counter?: string): Promise<void> {
    const until = this.usedUntil(bucket, counter);
    if (until !== undefined) await this.pause(until - this.now() + MARGIN_MS);
  }

  /**
   * Learns the bucket's window from an answer; for a 429, returns how long to wait before asking again. `counter`
   * (`counterOf`): an answer that shows the counter's count at or past another bucket's limit (a key's answer with 60
   * of the account's minute used, for its session) uses that bucket's window up too, until the same reset. A target
   * that counts each credential apart only makes such a bucket wait when it need not; it never gets a 429 for it.
   */
  afterAnswer(bucket: string, status: number, headers: Record<string, string>, counter?: string): number | undefined {
    const remaining = integerHeader(headers['x-ratelimit-remaining']);
    const reset = integerHeader(headers['x-ratelimit-reset']);
    const limit = integerHeader(headers['x-ratelimit-limit']);
    if (limit !== undefined) this.limits.set(bucket, limit);
    if (remaining !== undefined && reset !== undefined)
      this.windows.set(bucket, { remaining, resetAtMs: reset * 1000 });
    if (counter !== undefined && limit !== undefined && reset !== undefined) {
      // A bucket is on the counter of its last answer: a key revoked is anonymous from then on.
      const was = this.counterOfBucket.get(bucket);
      if (was !== counter) this.members.get(was ?? '')?.delete(bucket);
      this.counterOfBucket.set(bucket, counter);
      const members = this.members.get(counter) ?? new Set<string>();
      this.members.set(counter, members.add(bucket));
      const used = status === 429 ? limit : limit - (remaining ?? limit);
      this.counted.set(counter, { used, limit, resetAtMs: reset * 1000 });
      for (const other of members) {
        const otherLimit = this.limits.get(other);
        if (other !== bucket && otherLimit !== undefined && used >= otherLimit)
          this.windows.set(other, { remaining: 0, resetAtMs: reset * 1000 });
      }
    }
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
    // The time some sender was pausing: senders pausing at once (run/lanes.ts) count their common time once.
    if (this.pausing++ === 0) this.pausedSince = this.now();
    try {
      await this.waiting(this.sleep(wait));
    } finally {
      if (--this.pausing === 0) this.stats.waitedMs += Math.max(0, this.now() - this.pausedSince);
    }
  }

  /**
   * A turn on a counter (`counterOf`) for a request of `bucket`: resolves, with the function that ends it, when no
   * other sender holds the counter. Senders waiting for it go in turn: the tightest limit first (a counter shared by
   * tiers, a session's 60 within an account's 100, lets the lower tier through only while the count is under its
   * limit), then by `priorityOf` (run/lanes.ts), then as they asked. One sender never waits here.
   */
  async turn(counter: string, bucket: string): Promise<() => void> {
    const held = this.counters.get(counter) ?? { held: false, queue: [] };
    this.counters.set(counter, held);
    if (held.held) {
      const limit = this.limits.get(bucket) ?? Number.MAX_SAFE_INTEGER;
      const priority = this.options.priorityOf?.() ?? Number.MAX_SAFE_INTEGER;
      await this.waiting(
        new Promise<void>((resolve) => {
          held.queue.push({ limit, priority, asked: this.asked++, resolve });
        }),
      );
    }
    held.held = true;
    return () => {
      const next = held.queue.reduce<Queued | undefined>((a, b) => (!a || before(b, a) < 0 ? b : a), undefined);
      if (!next) return void this.counters.delete(counter);
      held.queue.splice(held.queue.indexOf(next), 1);
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
