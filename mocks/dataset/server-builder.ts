// Servers written in code, for a test that needs exactly these rows: `server({ motd: 'A' })`
// fills every field it is not given with a value the spec allows (a complete, plain row:
// an address of its own, a version, no players, a German Hetzner address, no favicon), and
// its time is relative to the mock's clock (`pingedAgo: '5m'`), so a fixture never goes
// stale and a row is never hidden by the default `maxAge` without the test saying so.
// createMock({ servers: [...] }) takes these (or the same fields without the builder) and
// checks each as a `--data` row is checked.
import type { Server } from '../../spec/openapi.gen.ts';
import { stripMotd, type StoredServer } from './server-row.ts';

/** How long before the mock's clock: milliseconds, or a number with `s`, `m`, `h` or `d` (`'90s'`, `'2h'`, `'40d'`). */
export type Ago = number | `${number}${'s' | 'm' | 'h' | 'd'}`;

/** A server's fields, each optional; `last_ping` absolute, or `pingedAgo` relative to the mock's clock. */
export type ServerFields = Partial<Server> & {
  favicon?: string | null;
  /** When it was last pinged, before the mock's clock (default 5 minutes); or give `last_ping`. */
  pingedAgo?: Ago;
};

/** A whole server as `server()` builds it: every field of a search row, its time still relative. */
export type ServerFixture = Omit<StoredServer, 'last_ping'> & { last_ping?: string; pingedAgo?: Ago };

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `ago` in milliseconds; throws on a form it cannot read. */
export function agoMs(ago: Ago): number {
  if (typeof ago === 'number' && Number.isFinite(ago) && ago >= 0) return ago;
  const m = typeof ago === 'string' ? /^(\d+(?:\.\d+)?)([smhd])$/.exec(ago) : null;
  if (!m)
    throw new Error(`pingedAgo must be milliseconds or a number with s, m, h or d ('5m'), got ${JSON.stringify(ago)}`);
  return Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
}

let sequence = 0;

/**
 * A complete server: `fields` over values the spec allows. Each call without an `address`
 * gets one of its own (`server-1.example.test`, `server-2...`: unique in the process).
 */
export function server(fields: ServerFields = {}): ServerFixture {
  const { pingedAgo, ...given } = fields;
  const motd = given.motd === undefined ? 'A Minecraft Server' : given.motd;
  const limit = given.players_limit ?? Math.max(20, given.players_online ?? 0);
  return {
    address: `server-${++sequence}.example.test`,
    port: 25565,
    version: '1.21.1',
    offline_mode: 0,
    players_online: 0,
    players_limit: limit,
    motd,
    motd_stripped: motd === null ? null : stripMotd(motd),
    players: [],
    plugins: [],
    country: 'Germany',
    country_code: 'DE',
    region: 'EU',
    city: null,
    asn_number: '24940',
    asn_name: 'Hetzner Online GmbH',
    favicon: null,
    detected_mod_pack: null,
    detected_mod_pack_short: null,
    ...given,
    ...(given.last_ping === undefined ? { pingedAgo: pingedAgo ?? '5m' } : {}),
  };
}

/** One row as the mock serves it: filled by `server()`, its time fixed against `now` (ms). */
export function storedServer(fields: ServerFields, now: number): StoredServer {
  const { pingedAgo, ...row } = server(fields);
  return (
    pingedAgo === undefined ? row : { ...row, last_ping: new Date(now - agoMs(pingedAgo)).toISOString() }
  ) as StoredServer;
}

/** The rows as the mock serves them: each filled by `server()`, its time fixed against `now` (ms). */
export function rowsAt(fields: readonly ServerFields[], now: number): Record<string, unknown>[] {
  return fields.map((f) => storedServer(f, now) as unknown as Record<string, unknown>);
}
