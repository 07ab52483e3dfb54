// The reference server's rate limits, its own reading of the API's: fixed windows per
// credential, the X-RateLimit-* headers on every answer, 429 with Retry-After over the
// limit. Its clock is given, so a test can share a fake one with the suite's pacing.
import type { Context } from 'hono';

/** The window of the metadata lookups' own limit. */
const GROUP_WINDOW_MS = 1_000;

/**
 * Fixed windows per credential (the metadata lookups apart, in windows of a second); the headers on every answer, 429 with Retry-After over
 * the limit. Without a limit to enforce, the headers say so (a limit no run reaches).
 */
export function rateLimiter(
  limit: { limit: number; windowMs: number } | undefined,
  { sendHeaders, now: clock }: { sendHeaders: boolean; now: () => number },
) {
  const windows = new Map<string, { start: number; count: number }>();
  return async (c: Context, next: () => Promise<void>) => {
    // The metadata lookups have a window of their own, a second long, counted apart.
    const group = c.req.path.includes('/metadata/') ? 'metadata' : '';
    const size = group ? Math.min(limit?.windowMs ?? GROUP_WINDOW_MS, GROUP_WINDOW_MS) : (limit?.windowMs ?? 60_000);
    const max = limit?.limit ?? 1_000_000;
    const now = clock();
    const start = now - (now % size);
    const who = `${group}:${c.req.header('authorization') ?? c.req.header('cookie') ?? 'anonymous'}`;
    const w = windows.get(who)?.start === start ? windows.get(who)! : { start, count: 0 };
    windows.set(who, w);
    w.count++;
    const reset = Math.ceil((start + size) / 1000);
    const headers = {
      'X-RateLimit-Limit': String(max),
      'X-RateLimit-Remaining': String(Math.max(0, max - w.count)),
      'X-RateLimit-Reset': String(reset),
    };
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
