// The reference server's rate limits, its own reading of the API's: fixed windows per
// credential, the X-RateLimit-* headers on every answer, 429 with Retry-After over the
// limit. Its clock is given, so a test can share a fake one with the suite's pacing. With
// `documented`, the limits of the facts as it reads them: per minute, 20 anonymous, 60 a
// session, 100 an API key, counted per account (a user's keys and sessions together);
// the metadata lookups one a second.
import type { Context } from 'hono';

/** The window of the metadata lookups' own limit. */
const GROUP_WINDOW_MS = 1_000;

/** The documented per-minute limits, by what the request carries (the facts file's tiers). */
export const DOCUMENTED = {
  windowMs: 60_000,
  perWindow: { anonymous: 20, session: 60, apiKey: 100 },
  metadata: { windowMs: 1_000, limit: 1 },
} as const;

/** One request as the limits count it: its counter (path group and account), its window and its limit. */
export interface Counted {
  bucket: string;
  windowMs: number;
  limit: number;
  /** It was over the limit (429). */
  refused: boolean;
}

/** Who a request counts against: the account and the tier of its credential (an invalid one is anonymous). */
export type Caller = (c: Context) => { account: string; tier: keyof typeof DOCUMENTED.perWindow };

/**
 * Fixed windows per credential, or per account with `documented` limits (the metadata
 * lookups apart, in windows of a second); the headers on every answer, 429 with
 * Retry-After over the limit. Without a limit to enforce, the headers say so (a limit no
 * run reaches).
 */
export function rateLimiter(
  limit: { limit: number; windowMs: number } | 'documented' | undefined,
  {
    sendHeaders,
    now: clock,
    caller,
    observe,
  }: { sendHeaders: boolean; now: () => number; caller: Caller; observe?: (counted: Counted) => void },
) {
  const windows = new Map<string, { start: number; count: number }>();
  return async (c: Context, next: () => Promise<void>) => {
    // The metadata lookups have a window of their own, a second long, counted apart.
    const group = c.req.path.includes('/metadata/') ? 'metadata' : '';
    const documented = limit === 'documented' ? caller(c) : undefined;
    const given = limit === 'documented' ? undefined : limit;
    const size = documented
      ? group
        ? DOCUMENTED.metadata.windowMs
        : DOCUMENTED.windowMs
      : group
        ? Math.min(given?.windowMs ?? GROUP_WINDOW_MS, GROUP_WINDOW_MS)
        : (given?.windowMs ?? 60_000);
    const max = documented
      ? group
        ? DOCUMENTED.metadata.limit
        : DOCUMENTED.perWindow[documented.tier]
      : (given?.limit ?? 1_000_000);
    const now = clock();
    const start = now - (now % size);
    const credential = c.req.header('authorization') ?? c.req.header('cookie') ?? 'anonymous';
    const who = `${group}:${documented ? documented.account : credential}`;
    const w = windows.get(who)?.start === start ? windows.get(who)! : { start, count: 0 };
    windows.set(who, w);
    w.count++;
    const reset = Math.ceil((start + size) / 1000);
    const headers = {
      'X-RateLimit-Limit': String(max),
      'X-RateLimit-Remaining': String(Math.max(0, max - w.count)),
      'X-RateLimit-Reset': String(reset),
    };
    observe?.({ bucket: who, windowMs: size, limit: max, refused: Boolean(limit) && w.count > max });
    if (limit && w.count > max) {
      const wait = Math.max(1, Math.ceil((start + size - now) / 1000));
      return c.json({ success: false, message: `Rate limit exceeded. Try again in ${wait} seconds.` }, 429, {
        ...headers,
        'Retry-After': String(wait),
      });
    }
    await next();
    if (sendHeaders) for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  };
}
