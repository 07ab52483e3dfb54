// Who an anonymous caller is, for the rate limits: the address of the socket the
// request came in on. A header the client writes itself (X-Forwarded-For) says nothing
// about who it is: keyed by it, every new value was a fresh client with a fresh limit
// and one more bucket in memory. Only behind a reverse proxy the operator runs
// (`--trust-proxy`) does the header name the client: then its last entry, the one
// that proxy added, is taken, and the socket address is the proxy's.
import { isIP } from 'node:net';
import type { RuntimeBindings } from '../env.ts';

/** The client behind `app.request()`, which has no socket: one local caller. */
export const LOCAL_CLIENT = 'local';

/** `::ffff:10.0.0.1` is the IPv4 client 10.0.0.1 on a dual-stack socket. */
function normalize(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/** The last well-formed address in an X-Forwarded-For value (`client, proxy1, proxy2`), or undefined. */
export function lastForwardedFor(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const last = header.slice(header.lastIndexOf(',') + 1).trim();
  return isIP(last) ? normalize(last) : undefined;
}

/**
 * The address a caller is counted by: the socket's peer, or with `trustProxy` the
 * address the proxy put last in X-Forwarded-For (falling back to the socket's peer
 * when that is missing or not an address).
 */
export function clientAddress(
  env: RuntimeBindings | undefined,
  forwardedFor: string | undefined,
  trustProxy: boolean,
): string {
  if (trustProxy) {
    const forwarded = lastForwardedFor(forwardedFor);
    if (forwarded) return forwarded;
  }
  const peer = env?.incoming?.socket?.remoteAddress;
  return peer ? normalize(peer) : LOCAL_CLIENT;
}
