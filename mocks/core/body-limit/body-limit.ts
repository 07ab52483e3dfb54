// The spec's `x-max-body-bytes`, and what a 413 does to the connection. A client that
// sent a body too big still has a connection to think of: the answer either says
// `Connection: close` and the server closes it, or the server reads the rest of the
// body so the next request on that connection works. Which one is honest depends on
// what is left to read:
//  - a declared Content-Length up to DRAIN_MAX_BYTES: the body is left unread, and
//    node reads it to its end after the answer; the connection stays usable;
//  - a bigger one, or a chunked body (whose end nobody knows): `Connection: close`.
// On GET and HEAD there is no body to limit, and touching one would make the node
// adapter build a full Request, a cost the hot path does not need.
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

/** The most a 413'd body is read to keep its connection open (64 times the spec's 16 KiB). */
export const DRAIN_MAX_BYTES = 2 ** 20;

export function limitBody(
  maxBytes: number,
  refuse: (c: Context, headers?: Record<string, string>) => Response,
): MiddlewareHandler {
  const closing = { Connection: 'close' };
  const chunked = bodyLimit({ maxSize: maxBytes, onError: (c) => refuse(c, closing) });
  return (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    const declared = c.req.header('content-length');
    if (declared === undefined || c.req.header('transfer-encoding') !== undefined) return chunked(c, next);
    // Over a socket, node's parser refuses a Content-Length that is no number; app.request() does not.
    if (!/^\d+$/.test(declared)) return chunked(c, next);
    const length = Number(declared);
    if (length <= maxBytes) return next();
    return Promise.resolve(refuse(c, length > DRAIN_MAX_BYTES ? closing : undefined));
  };
}
