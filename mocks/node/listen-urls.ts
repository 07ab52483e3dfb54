// Where a browser can reach the mock. A wildcard bind (`--host 0.0.0.0` or `::`) is not
// an address a browser may open, so list the machine's own addresses, loopback first.
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

const WILDCARD_V4 = new Set(['0.0.0.0']);
const WILDCARD_V6 = new Set(['::', '[::]', '::0']);

const hostPart = (address: string): string => (address.includes(':') ? `[${address}]` : address);

/**
 * `http://host:port` for every address that reaches a mock bound to `host`: the host
 * itself, or for a wildcard the machine's IPv4 addresses (and IPv6 for `::`), loopback
 * first. Link-local IPv6 addresses are left out: a browser needs a zone id for them.
 */
export function listenOrigins(
  host: string,
  port: number,
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): string[] {
  const v4 = WILDCARD_V4.has(host);
  const v6 = WILDCARD_V6.has(host);
  if (!v4 && !v6) return [`http://${hostPart(host)}:${port}`];
  const all = Object.values(interfaces).flatMap((list) => list ?? []);
  const usable = all.filter(
    (a) => a.family === 'IPv4' || (v6 && a.family === 'IPv6' && !a.address.toLowerCase().startsWith('fe80')),
  );
  // Loopback first, then IPv4 before IPv6; the loopback entries are there even if no interface lists them.
  const ranked = [
    '127.0.0.1',
    ...(v6 ? ['::1'] : []),
    ...usable.filter((a) => !a.internal && a.family === 'IPv4').map((a) => a.address),
    ...usable.filter((a) => !a.internal && a.family === 'IPv6').map((a) => a.address),
  ];
  return [...new Set(ranked)].map((a) => `http://${hostPart(a)}:${port}`);
}
