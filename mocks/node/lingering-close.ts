// Closing a connection while the client is still sending. A 413 that says
// `Connection: close` goes out while the client may be halfway through a large body.
// Node would end the socket and destroy it at once; the client's next write then
// meets a reset, and many clients (Node's own, curl, fetch) report that reset instead
// of the 413 they were sent. So, as web servers do: send the answer, half-close, read
// and drop whatever the client still sends until it closes its side, and only then
// (or after LINGER_MS) let the socket go.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How long a closing connection keeps reading what the client still sends. */
export const LINGER_MS = 2000;

/**
 * Replaces the socket's destroySoon (what node calls after a `Connection: close` answer)
 * with a lingering close; and however the server ends its side (that, a 408, a refusal),
 * the socket is destroyed LINGER_MS later if the client has not closed it by then: a
 * client that never closes must not keep its descriptor.
 */
export function lingerOnClose(socket: Socket): void {
  socket.destroySoon = function lingeringClose(this: Socket) {
    if (this.writable) this.end();
  };
  socket.once('finish', () => {
    if (socket.destroyed) return;
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  });
}

/**
 * After the answer, drops what is left of a request body the app stopped reading
 * (a 413 on a chunked body), so the data keeps flowing while the connection lingers
 * instead of piling up behind a paused stream.
 */
export function dropUnreadBodyAfter(req: IncomingMessage, res: ServerResponse): void {
  res.once('finish', () => {
    if (req.complete) return;
    req.removeAllListeners('data');
    req.resume();
  });
}
