// What the whole mock knows about one stored server row: its type and the few rules
// the generator, the file loader, search and ping must apply the same way.
import type { Server } from '../../spec/openapi.gen.ts';

/** A full search row plus its favicon (null when the server has none). `last_ping` is ISO 8601 with ms and Z. */
export type StoredServer = Server & { favicon: string | null };

/** TCPShield-proxied servers are recognised by their ASN organisation. */
export function isTcpShield(s: Pick<Server, 'asn_name'>): boolean {
  return typeof s.asn_name === 'string' && /tcpshield/i.test(s.asn_name);
}

/** `motd` without `§x` colour/format codes. */
export function stripMotd(motd: string): string {
  return motd.replace(/\u00a7[\s\S]/g, '');
}

/** The key `findServer` and the uniqueness rule use. */
export const serverKey = (host: string, port: number): string => `${host.toLowerCase()}:${port}`;
