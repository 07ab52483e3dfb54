// `/status/ping/...`: find one indexed server and answer its stored state.
import type { PingResponse, PingServer } from '../spec/openapi.gen.ts';
import { serverKey, type StoredServer } from './server-row.ts';
import { addressAt, serverAt } from './dataset.ts';
import type { ServerIndex } from './search-index.ts';

/**
 * Splits the `/status/ping/{address}` form: `host` or `host:port` (the port defaults
 * to the spec's `x-default-port`). Throws on an empty host or a port that is not an
 * integer in 1-65535.
 */
export function parseAddress(address: string, defaultPort: number): { host: string; port: number } {
  const colon = address.lastIndexOf(':');
  const host = colon === -1 ? address : address.slice(0, colon);
  if (host === '') throw new Error(`address ${JSON.stringify(address)} has no host`);
  if (colon === -1) return { host, port: defaultPort };
  const text = address.slice(colon + 1);
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= 1 && port <= 65535)) throw new Error(`port must be an integer from 1 to 65535, got ${JSON.stringify(text)}`);
  return { host, port };
}

/** `host:port` (host lower-cased) -> server, built on the first lookup of an index. */
const lookups = new WeakMap<ServerIndex, Map<string, number>>();
function lookup(index: ServerIndex): Map<string, number> {
  let map = lookups.get(index);
  if (!map) {
    map = new Map();
    // The first of duplicates wins (loadDataset rejects duplicates; the generator makes none).
    const ds = index.dataset;
    for (let i = 0; i < ds.size; i++) {
      const key = serverKey(addressAt(ds, i), ds.port[i] as number);
      if (!map.has(key)) map.set(key, i);
    }
    lookups.set(index, map);
  }
  return map;
}

/** The indexed server at host:port (host case-insensitive), or undefined. TCPShield servers are found too. */
export function findServer(index: ServerIndex, host: string, port: number): StoredServer | undefined {
  const i = lookup(index).get(serverKey(host, port));
  return i === undefined ? undefined : serverAt(index.dataset, i);
}

/**
 * The ping answer for a stored server: ServerCore fields in spec order, favicon always
 * present; `refreshing` when the stored ping is older than `refreshAfterMs` (the spec's
 * `x-refresh-after-minutes`).
 */
export function pingAnswer(server: StoredServer, now: number, refreshAfterMs: number): PingResponse {
  const stale = now - Date.parse(server.last_ping) > refreshAfterMs;
  const row: PingServer = {
    address: server.address,
    port: server.port,
    version: server.version,
    offline_mode: server.offline_mode,
    players_online: server.players_online,
    players_limit: server.players_limit,
    motd: server.motd,
    country: server.country,
    country_code: server.country_code,
    region: server.region,
    city: server.city,
    asn_number: server.asn_number,
    asn_name: server.asn_name,
    last_ping: server.last_ping,
    favicon: server.favicon ?? null,
    detected_mod_pack: server.detected_mod_pack,
    detected_mod_pack_short: server.detected_mod_pack_short,
  } as PingServer;
  return { status: stale ? 'refreshing' : 'online', refresh: stale, server: row };
}
