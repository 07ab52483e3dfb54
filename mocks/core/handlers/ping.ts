// `/status/ping/...`: find one indexed server and answer its stored state.
import type { PingResponse, PingServer } from '../../../spec/openapi.gen.ts';
import type { StoredServer } from '../../dataset/server-row.ts';
import { addressAt, serverAt, type Dataset } from '../../dataset/columns.ts';
import type { ServerIndex } from '../../search/search-index.ts';

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
  if (!(port >= 1 && port <= 65535))
    throw new Error(`port must be an integer from 1 to 65535, got ${JSON.stringify(text)}`);
  return { host, port };
}

/**
 * `host:port` (host case-insensitive) -> row: an open-addressing hash table of row
 * numbers in one Int32Array, built on the first lookup of an index. A Map of a million
 * `host:port` strings took 1.4 s and 125 MB on the first ping; this takes one pass over
 * the address bytes and 4 bytes per slot.
 */
const tables = new WeakMap<ServerIndex, Int32Array>();

/** FNV-1a over the lower-cased host's UTF-16 code units, then the port. */
function hashOf(lowerHost: string, port: number): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < lowerHost.length; k++) h = Math.imul(h ^ lowerHost.charCodeAt(k), 0x01000193);
  return Math.imul(h ^ port, 0x01000193) >>> 0;
}

/** The same hash straight from a row's UTF-8 bytes when they are ASCII (A-Z lowered), without making a string. */
function hashOfRow(ds: Dataset, i: number): number {
  const bytes = ds.addressBytes;
  const end = ds.addressStart[i + 1] as number;
  let h = 0x811c9dc5;
  for (let k = ds.addressStart[i] as number; k < end; k++) {
    let c = bytes[k] as number;
    if (c >= 0x80) return hashOf(addressAt(ds, i).toLowerCase(), ds.port[i] as number);
    if (c >= 65 && c <= 90) c += 32;
    h = Math.imul(h ^ c, 0x01000193);
  }
  return Math.imul(h ^ (ds.port[i] as number), 0x01000193) >>> 0;
}

function table(index: ServerIndex): Int32Array {
  let t = tables.get(index);
  if (!t) {
    const ds = index.dataset;
    let size = 16;
    while (size < 2 * ds.size) size *= 2;
    t = new Int32Array(size);
    const mask = size - 1;
    // Rows in order, linear probing: of duplicates, the first row is met first
    // (loadDataset rejects them; the generator makes none).
    for (let i = 0; i < ds.size; i++) {
      let slot = hashOfRow(ds, i) & mask;
      while (t[slot] !== 0) slot = (slot + 1) & mask;
      t[slot] = i + 1;
    }
    tables.set(index, t);
  }
  return t;
}

/** The indexed server at host:port (host case-insensitive), or undefined. TCPShield servers are found too. */
export function findServer(index: ServerIndex, host: string, port: number): StoredServer | undefined {
  const t = table(index);
  const ds = index.dataset;
  const lower = host.toLowerCase();
  const mask = t.length - 1;
  for (let slot = hashOf(lower, port) & mask; t[slot] !== 0; slot = (slot + 1) & mask) {
    const i = (t[slot] as number) - 1;
    if (ds.port[i] === port && addressAt(ds, i).toLowerCase() === lower) return serverAt(ds, i);
  }
  return undefined;
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
