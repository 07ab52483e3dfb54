// Development helpers outside the API (under /__mock): a frontend can log in as a
// fixture user without the real web site, log out, and put the mock back to its
// seeded state between test runs.
import type { Context, Hono } from 'hono';
import type { AppEnv } from './app.ts';
import { cookieValue } from './auth.ts';
import type { MockState } from './state.ts';

const SESSION_TTL_MS = 7 * 86_400_000;

interface DevRouteDeps {
  /** The spec's session cookie; without a cookie scheme there is no login to offer. */
  cookieName: string | undefined;
  reply: (c: Context, status: number, body: unknown, headers?: Record<string, string>) => Response;
  fail: (c: Context, status: number, detail?: string) => Response;
}

/**
 * A browser only sends a cookie on a cross-site fetch when it is `SameSite=None;
 * Secure` (browsers accept Secure on http://localhost and 127.0.0.1). Same-site
 * pages (localhost:5173 -> localhost:4010) get the safer `Lax`.
 */
function cookieAttributes(c: Context, maxAgeSeconds: number): string {
  const origin = c.req.header('origin');
  let crossSite = false;
  if (origin) {
    try {
      crossSite = new URL(origin).hostname !== new URL(c.req.url).hostname;
    } catch {
      crossSite = false;
    }
  }
  return `Path=/; HttpOnly; Max-Age=${maxAgeSeconds}; ${crossSite ? 'SameSite=None; Secure; Partitioned' : 'SameSite=Lax'}`;
}

async function jsonBody(c: Context): Promise<Record<string, unknown> | undefined | Error> {
  const text = await c.req.text();
  if (!text.trim()) return undefined;
  try {
    const parsed = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : new Error('the body must be a JSON object');
  } catch (err) {
    return new Error(`the request body is not valid JSON: ${(err as Error).message}`);
  }
}

export function mountDevRoutes(app: Hono<AppEnv>, state: MockState, deps: DevRouteDeps): void {
  const { cookieName, reply, fail } = deps;

  app.post('/__mock/reset', (c) => {
    state.reset();
    return reply(c, 200, { success: true, message: 'Mock state reset to the seeded fixtures' });
  });
  if (!cookieName) return;

  // Body: {"user": "<user id or email>"}; without one, the first fixture user.
  app.post('/__mock/login', async (c) => {
    const body = await jsonBody(c);
    if (body instanceof Error) return fail(c, 400, body.message);
    const wanted = body?.user ?? c.req.query('user');
    const users = state.fixtures.users;
    const user = wanted === undefined ? users[0] : users.find((u) => u.id === wanted || u.email === wanted);
    if (!user) {
      return fail(c, 400, `unknown fixture user ${JSON.stringify(wanted)}; use one of ${users.map((u) => `${u.id} (${u.email})`).join(', ')}`);
    }
    const { secret, expiresAt } = state.sessions.create(user.id, state.now(), SESSION_TTL_MS);
    return reply(
      c,
      200,
      { success: true, user, expires_at: new Date(expiresAt).toISOString() },
      { 'Set-Cookie': `${cookieName}=${secret}; ${cookieAttributes(c, SESSION_TTL_MS / 1000)}` },
    );
  });

  app.post('/__mock/logout', (c) => {
    const value = cookieValue(c.req.header('cookie'), cookieName);
    const ended = value ? state.sessions.end(value) : false;
    return reply(
      c,
      200,
      { success: true, message: ended ? 'Logged out' : 'No session to end' },
      { 'Set-Cookie': `${cookieName}=; ${cookieAttributes(c, 0)}` },
    );
  });
}
