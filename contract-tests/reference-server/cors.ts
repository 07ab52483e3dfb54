// The reference server's CORS layer, its own reading of the spec's x-cors (an oracle
// restates what it implements, so a mistake in the spec's model cannot hide in both): the
// pages a developer serves on localhost and 127.0.0.1 are granted, echoed with credentials
// and `Vary: Origin`, the rate-limit headers exposed; their preflights answered 204 with
// every method and the two headers the API takes; any other origin granted nothing. Its
// defects are what real CORS layers get wrong.
import type { Context, MiddlewareHandler } from 'hono';
import type { Defect } from './defects.ts';

const ALLOWED = [/^http:\/\/localhost(:\d{1,5})?$/, /^http:\/\/127\.0\.0\.1(:\d{1,5})?$/];
const METHODS = ['GET', 'HEAD', 'POST', 'DELETE'];
const ALLOW_HEADERS = 'Authorization, Content-Type';
const EXPOSED = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Allow';
const MAX_AGE = '600';

export function corsLayer(has: (d: Defect) => boolean): MiddlewareHandler {
  // A misconfiguration met often: `*` with credentials, to everyone.
  const wildcard = has('cors-wildcard-with-credentials');
  // Another: the Origin reflected whatever it is.
  const anyOrigin = has('cors-any-origin');
  const methods = (has('cors-preflight-missing-method') ? METHODS.filter((m) => m !== 'DELETE') : METHODS).join(', ');
  const grant = (c: Context, origin: string) => {
    c.header('Access-Control-Allow-Origin', wildcard ? '*' : origin);
    c.header('Access-Control-Allow-Credentials', 'true');
    c.header('Vary', 'Origin', { append: true });
  };
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (origin === undefined || !(wildcard || anyOrigin || ALLOWED.some((re) => re.test(origin)))) return next();
    if (c.req.method === 'OPTIONS' && c.req.header('access-control-request-method') !== undefined) {
      grant(c, origin);
      c.header('Access-Control-Allow-Methods', methods);
      c.header('Access-Control-Allow-Headers', ALLOW_HEADERS);
      c.header('Access-Control-Max-Age', MAX_AGE);
      return c.body(null, 204);
    }
    await next();
    grant(c, origin);
    if (!has('cors-no-expose-headers')) c.header('Access-Control-Expose-Headers', EXPOSED);
  };
}
