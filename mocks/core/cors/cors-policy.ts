// Which page origins may call the mock from a browser, and what they are answered: the
// spec's CORS contract (`x-cors`, read in spec/model.ts) for the headers, the preflight and
// the default origins, the `--cors-origin` list (`+X` adds to the spec's origins) for whom
// to grant, and a middleware that answers allowed origins so, logs a refused one once with
// the fix, and marks the request so state-changing dev routes can refuse it.
import type { Context, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { printable } from '../printable.ts';
import { originMatcher, originPatternProblem } from '../../../spec/cors-origins.ts';
import { loadModel, type SpecModel } from '../../../spec/model.ts';

export { originMatcher };

/** The origins the spec's x-cors allows: `--cors-origin`'s defaults. */
export const SPEC_CORS_ORIGINS: readonly string[] = loadModel().cors.origins.allowed;

/** The mock's own request header a page may send besides the spec's (`Prefer`, prefer/). */
const MOCK_HEADERS = ['Prefer'];

/**
 * The origins of `--cors-origin LIST`: entries that all start with `+` add to the
 * defaults, entries without replace them. Throws (with the fix) on a mix, or on an
 * entry a browser's Origin can never equal (a path, a trailing slash, no scheme).
 */
export function parseCorsOrigins(raw: string, defaults: readonly string[]): string[] {
  const entries = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (entries.length === 0)
    throw new Error(
      `needs at least one origin, e.g. http://localhost:5173 (or +http://localhost:5173 to add it to ` +
        `${defaults.join(',')})`,
    );
  const adding = entries.filter((e) => e.startsWith('+'));
  if (adding.length > 0 && adding.length < entries.length) {
    throw new Error(
      `mixes added (+X) and replacing entries: '${raw}'. Put + before every origin to add them to the ` +
        `defaults, or before none to replace the defaults`,
    );
  }
  const origins = entries.map((e) => (e.startsWith('+') ? e.slice(1) : e));
  for (const o of origins) {
    const problem = originPatternProblem(o);
    if (problem) throw new Error(`entry ${problem}`);
  }
  return adding.length > 0 ? [...new Set([...defaults, ...origins])] : origins;
}

/** Set on a request whose Origin the list refuses (the origin), for routes that must not act on it. */
export const CORS_REFUSED = 'corsRefused';

/** The refused origins remembered so each is logged once: at most this many characters of them (clients pick them). */
const MAX_LOGGED_CHARS = 64 * 1024;

/**
 * What the spec's x-cors gives an allowed origin, as Hono's cors middleware answers it:
 * the origin echoed, credentials as x-cors says, `Vary: Origin`, the exposed headers; a
 * preflight x-cors's status, every method of the spec (each path's among them; GET's
 * HEAD too), x-cors's headers and the mock's own (`Prefer`), and the max age.
 */
function allowedAnswer(model: SpecModel): MiddlewareHandler {
  const contract = model.cors;
  const methods = [...new Set(model.operations.flatMap((o) => (o.method === 'GET' ? ['GET', 'HEAD'] : [o.method])))];
  const answer = cors({
    origin: (origin) => origin,
    credentials: contract.credentials,
    allowMethods: methods,
    allowHeaders: [...contract.preflight.allowHeaders, ...MOCK_HEADERS],
    exposeHeaders: contract.exposeHeaders.names,
    ...(contract.preflight.maxAgeSeconds === undefined ? {} : { maxAge: contract.preflight.maxAgeSeconds }),
  });
  const { status } = contract.preflight;
  return async (c, next) => {
    const res = await answer(c, next);
    if (!res) return res;
    // Hono answers every preflight 204; the spec says which 2xx. The answer is made the request's now,
    // not only returned: the stages before the route run as one (app.ts's everyRequest).
    c.res = res.status !== status ? new Response(null, { status, headers: res.headers }) : res;
    return c.res;
  };
}

/** CORS for an app whose environment has the refused-origin variable (env.ts's AppEnv does). */
export function corsMiddleware<E extends { Variables: { [CORS_REFUSED]: string } }>(
  model: SpecModel,
  origins: readonly string[],
  warn: (line: string) => void,
): MiddlewareHandler<E> {
  const allowed = originMatcher(origins);
  const allow = allowedAnswer(model);
  const logged = new Set<string>();
  let loggedChars = 0;
  // Not async: on the hot path (no Origin) it only hands over to `next`.
  return (c, next) => {
    // CORS only matters to browsers, which always send Origin on cross-origin calls;
    // skipping it otherwise keeps the server-to-server hot path lean.
    const origin = c.req.header('origin');
    if (origin === undefined) return next();
    if (allowed(origin)) return allow(c, next);
    // A same-origin request (a page the mock serves, or one behind a dev-server proxy
    // that keeps Host) carries Origin too, but CORS does not apply to it.
    if (c.req.header('sec-fetch-site') === 'same-origin' || origin === mockOrigin(c)) return next();
    c.set(CORS_REFUSED, origin);
    if (!logged.has(origin) && loggedChars + origin.length <= MAX_LOGGED_CHARS) {
      logged.add(origin);
      loggedChars += origin.length;
      warn(refusedOriginMessage(origin, origins));
    }
    return next();
  };
}

/**
 * The mock's origin as the browser reached it: the Host it sent, or what a proxy says
 * in X-Forwarded-Proto / X-Forwarded-Host.
 */
export function mockOrigin(c: Context): string {
  const url = new URL(c.req.url);
  const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim();
  const host = c.req.header('x-forwarded-host')?.split(',')[0]?.trim();
  if (!proto && !host) return url.origin;
  try {
    return new URL(`${proto ?? url.protocol.slice(0, -1)}://${host ?? url.host}`).origin;
  } catch {
    return url.origin;
  }
}

/** What the log says about a refused origin: what the browser will do, and the flag that fixes it. */
export function refusedOriginMessage(refused: string, origins: readonly string[]): string {
  const origin = printable(refused);
  const add = origin === 'null' ? '+null' : `+${origin}`;
  return (
    `mock: CORS: refused origin ${origin} (allowed: ${origins.join(', ')}). The browser will block every ` +
    `answer to that page, and the dev login refuses it (403). To allow it, start the mock with --cors-origin ` +
    `${add}`
  );
}
