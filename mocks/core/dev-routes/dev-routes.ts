// Development helpers outside the API (under /__mock): a frontend can log in as a
// fixture user without the real web site, log out, and put the mock back to its
// seeded state between test runs; and the mock says what it is (/__mock/info), so
// the contract suite knows its fixture credentials and writes are meant for it. The
// controls of overrides and the journal are in control-routes.ts.
import type { Context, Hono } from 'hono';
import { ownPackage } from '../../../cli/own-package.ts';
import type { AppEnv } from '../env.ts';
import { cookieValue } from '../auth/auth.ts';
import { planLoginCookie, type CookiePlan } from './cookie-policy.ts';
import { CORS_REFUSED, mockOrigin } from '../cors/cors-policy.ts';
import { jsonProblem, printable } from '../printable.ts';
import { metadataCacheStats } from '../handlers/metadata.ts';
import { searchCacheStats } from '../../search/search-index.ts';
import type { MockState } from '../state.ts';
import type { MockControl } from '../control.ts';
import { mountControlRoutes } from './control-routes.ts';

const SESSION_TTL_MS = 7 * 86_400_000;

interface DevRouteDeps {
  /** The spec's session cookie; without a cookie scheme there is no login to offer. */
  cookieName: string | undefined;
  reply: (c: Context, status: number, body: unknown, headers?: Record<string, string | string[]>) => Response;
  fail: (c: Context, status: number, detail?: string) => Response;
  /** Where warnings go (stderr in the CLI). */
  warn: (line: string) => void;
  /** Where the servers come from: the seed, or the `--data` file (then the seed means nothing). */
  dataset: { seed: number; data?: string };
  /** Overrides and the journal (mocks/core/control.ts). */
  control: MockControl;
  /** The V8 flags the serving process has set. */
  v8Flags: readonly string[];
}

/**
 * The cookie this request's page can keep
 * (mocks/core/dev-routes/cookie-policy.ts), from where the page and the
 * mock are.
 */
function cookiePlan(c: Context): CookiePlan {
  return planLoginCookie({
    pageOrigin: c.req.header('origin'),
    secFetchSite: c.req.header('sec-fetch-site'),
    mockOrigin: mockOrigin(c),
  });
}

async function jsonBody(c: Context<AppEnv>): Promise<Record<string, unknown> | undefined | Error> {
  const text = await c.req.text();
  c.set('bodyText', text);
  if (!text.trim()) return undefined;
  try {
    const parsed = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? parsed
      : new Error('the body must be a JSON object');
  } catch (err) {
    return new Error(`the request body is not valid JSON: ${jsonProblem(err)}`);
  }
}

export function mountDevRoutes(app: Hono<AppEnv>, state: MockState, deps: DevRouteDeps): void {
  const { cookieName, reply, fail, warn, dataset } = deps;

  // Who answers: the contract suite uses the fixture credentials and writes only on a
  // target that says it is this mock (any other server, even on 127.0.0.1, may be real).
  app.get('/__mock/info', (c) => {
    const { name, version } = ownPackage();
    return reply(c, 200, {
      success: true,
      name,
      version,
      seed: dataset.data ? null : dataset.seed,
      data: dataset.data ?? null,
      servers: state.index.size,
      rowCache: state.index.rowCache.stats(),
      // The caches of what clients ask (filter values and their combinations), each within its budget.
      caches: { ...searchCacheStats(state.index), versionQueries: metadataCacheStats(state.index) },
      basePath: state.model.basePath,
      v8Flags: deps.v8Flags,
    });
  });

  // These routes change the mock's state: a page whose origin CORS refuses must not
  // (its browser would still send a simple POST and store the cookie it gets).
  app.use('/__mock/*', async (c, next) => {
    const refused = c.get(CORS_REFUSED);
    if (refused && c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      c.set('refusedBy', 'cors');
      return fail(
        c,
        403,
        `Origin ${printable(refused)} is not allowed by --cors-origin; ` +
          `start the mock with --cors-origin +${printable(refused)} to allow it`,
      );
    }
    await next();
  });

  app.post('/__mock/reset', (c) => {
    deps.control.reset();
    return reply(c, 200, {
      success: true,
      message: 'Mock state reset to the seeded fixtures; no overrides, an empty journal',
    });
  });
  mountControlRoutes(app, deps.control, {
    reply,
    fail,
    operations: [...state.model.byId.keys()],
    basePath: state.model.basePath,
  });
  if (!cookieName) return;

  // Body: {"user": "<user id or email>"}; without one, the first fixture user.
  app.post('/__mock/login', async (c) => {
    // The body may take its time: a reset meanwhile leaves a clean state, without this login.
    const generation = state.generation;
    const body = await jsonBody(c);
    if (body instanceof Error) return fail(c, 400, body.message);
    if (state.generation !== generation)
      return fail(c, 409, 'the mock was reset while this login was being sent; no session was made: send it again');
    const wanted = body && 'user' in body ? body.user : c.req.query('user');
    const users = state.fixtures.users;
    const known = () => users.map((u) => `${u.id} (${u.email})`).join(', ');
    // Only a string names a user: anything else is refused by its type, never written out
    // (JSON.stringify of an array nested thousands deep overflows the stack).
    if (wanted !== undefined && typeof wanted !== 'string') {
      return fail(
        c,
        400,
        `"user" must be a string (a fixture user's id or email), not ` +
          `${Array.isArray(wanted) ? 'an array' : wanted === null ? 'null' : `a ${typeof wanted}`}; use one of ` +
          `${known()}`,
      );
    }
    const user = wanted === undefined ? users[0] : users.find((u) => u.id === wanted || u.email === wanted);
    if (!user) {
      return fail(c, 400, `unknown fixture user "${printable(wanted!)}"; use one of ${known()}`);
    }
    const { secret, expiresAt } = state.sessions.create(user.id, state.now(), SESSION_TTL_MS);
    const plan = cookiePlan(c);
    const cookie = {
      name: cookieName,
      attributes: plan.attributes,
      site: plan.relation,
      sticks: plan.sticks,
      ...(plan.problem ? { why: plan.problem.why, fixes: plan.problem.fixes } : {}),
    };
    if (plan.problem) {
      warn(
        `mock: dev login from ${printable(c.req.header('origin') ?? 'a page')}: the session cookie will not ` +
          `stick: ${plan.problem.why}.\n  Fixes:\n${plan.problem.fixes.map((f) => `  - ${f}`).join('\n')}`,
      );
    }
    return reply(
      c,
      200,
      {
        success: true,
        user,
        expires_at: new Date(expiresAt).toISOString(),
        cookie,
        ...(plan.problem
          ? { warning: `The browser will drop the session cookie: ${plan.problem.why}. See cookie.fixes.` }
          : {}),
      },
      { 'Set-Cookie': plan.attributes.map((a) => `${cookieName}=${secret}; ${a}; Max-Age=${SESSION_TTL_MS / 1000}`) },
    );
  });

  app.post('/__mock/logout', (c) => {
    const value = cookieValue(c.req.header('cookie'), cookieName);
    const ended = value ? state.sessions.end(value) : false;
    return reply(
      c,
      200,
      { success: true, message: ended ? 'Logged out' : 'No session to end' },
      { 'Set-Cookie': cookiePlan(c).attributes.map((a) => `${cookieName}=; ${a}; Max-Age=0`) },
    );
  });
}
