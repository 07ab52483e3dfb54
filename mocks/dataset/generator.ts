// The mock's generated server listing: deterministic, realistic servers drawn from the
// tables in mocks/dataset/generator-tables.ts.
//
// Speed: faker is seeded once per seed to build pools (player names, server names,
// MOTDs, plugin sets); every per-server draw then comes from a fast seeded PRNG
// (sfc32). Pools are shared between records (strings, player objects, frozen
// plugin arrays), which keeps 1M servers within a few hundred MB.
import { createHash } from 'node:crypto';
import type { Faker } from '@faker-js/faker';
// The English locale alone: the main entry loads every locale (~150 ms, ~30 MB at start).
import { faker } from '@faker-js/faker/locale/en';
import type { Player } from '../../spec/openapi.gen.ts';
import { DatasetBuilder, type Dataset } from './columns.ts';
import { FAVICONS } from './favicons.ts';
import { applyGaps, decideGaps, GAP_RATES } from './real-world-gaps.ts';
import { createRng, int, pick, weighted, type Rng } from './rng.ts';
import { stripMotd, type StoredServer } from './server-row.ts';
import {
  BUKKIT_PLUGINS,
  CORE_PLUGINS,
  COUNTRIES,
  FAMOUS_PLAYERS,
  HOST_PREFIXES,
  HOST_TLDS,
  MOD_PACKS,
  MODES,
  ODD_PORTS,
  PLAYER_LIMITS,
  PROXY_LIMITS,
  PROXY_PLUGINS,
  SERVER_SUFFIXES,
  TAGLINES,
  TCPSHIELD,
  TCPSHIELD_COUNTRIES,
  VERSIONS,
  type Asn,
  type Country,
} from './generator-tables.ts';
import * as WORLD from './generator-tables.ts';

export interface GenerateOptions {
  seed: number;
  count: number;
  now: Date;
  /** Complete rows only: none of the real-world gaps of mocks/dataset/real-world-gaps.ts. */
  clean?: boolean;
  /** Called every PROGRESS_STEP rows with how many are done (for a progress line on big datasets). */
  onProgress?: (done: number) => void;
}

export const PROGRESS_STEP = 65_536;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// ---------------------------------------------------------------------------
// Pools, built with faker once per seed.

interface Motd { readonly motd: string; readonly stripped: string }
interface Pools {
  players: readonly Player[];
  motds: readonly Motd[];
  serverWords: readonly string[];
  bukkitPluginSets: readonly (readonly string[])[];
  proxyPluginSets: readonly (readonly string[])[];
}

const EMPTY: readonly string[] = Object.freeze([]);
const EMPTY_PLAYERS: readonly Player[] = Object.freeze([]);
const poolCache = new Map<string, Pools>();

const capitalise = (s: string): string => (s ? s[0]!.toUpperCase() + s.slice(1) : s);
const lettersOnly = (s: string): string => s.replace(/[^A-Za-z]/g, '');

function uuidV4(rng: Rng): string {
  const hex = '0123456789abcdef';
  let s = '';
  for (let i = 0; i < 32; i++) {
    let v = int(rng, 16);
    if (i === 12) v = 4;
    if (i === 16) v = 8 + (v & 3);
    s += hex[v];
    if (i === 7 || i === 11 || i === 15 || i === 19) s += '-';
  }
  return s;
}

function playerName(f: Faker, rng: Rng): string {
  let name: string;
  switch (int(rng, 7)) {
    case 0: name = f.internet.username(); break;
    case 1: name = `${f.person.firstName()}${int(rng, 1000)}`; break;
    case 2: name = `xX_${capitalise(lettersOnly(f.word.noun()))}_Xx`; break;
    case 3: name = `${capitalise(lettersOnly(f.word.adjective()))}${capitalise(lettersOnly(f.animal.type()))}`; break;
    case 4: name = `${lettersOnly(f.word.noun())}_${int(rng, 100)}`; break;
    case 5: name = `The${capitalise(lettersOnly(f.hacker.noun()))}`; break;
    default: name = `${lettersOnly(f.person.lastName())}${capitalise(lettersOnly(f.word.verb()))}`; break;
  }
  name = name.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 16);
  while (name.length < 3) name += '_';
  return name;
}

const COLORS = '0123456789abcdef';
const BRIGHT = '2356abcde';

function colour(rng: Rng): string {
  return `§${BRIGHT[int(rng, BRIGHT.length)]}`;
}

function makeMotd(rng: Rng, name: string, tagline: string): string {
  const c1 = colour(rng);
  const c2 = colour(rng);
  const mode = pick(rng, MODES);
  switch (int(rng, 9)) {
    case 0: return `${c1}§l${name}§r §7» ${c2}${mode}\n§${COLORS[int(rng, 16)]}${tagline}`;
    case 1: return `${c1}${name} §8| ${c2}${mode} §8| §7${pick(rng, ['1.8-1.21', '1.20+', '1.21', 'Java & Bedrock'])}`;
    case 2: return `${c1}&lt;&lt; ${c2}§l${name}§r ${c1}&gt;&gt;\n§7${tagline}`;
    case 3: return `${name} - ${mode} server`;
    case 4: return `${c1}Welcome to ${c2}§l${name}§r${c1}!`;
    case 5: return `${c1}[${mode}] ${c2}${name} §r- ${colour(rng)}${tagline}`;
    case 6: return `§6✦ ${c1}§l${name.toUpperCase()} §6✦\n§f${mode} §8• §7${tagline}`;
    case 7: return `${c1}§o${tagline}§r §8&gt; ${c2}${name}`;
    default: return `${c1}${name}§r\n§k||§r ${c2}${mode} §k||`;
  }
}

/**
 * Pools grow with the dataset up to their full size: a small dataset needs few
 * distinct names and MOTDs, and building them is most of a 1000-server start-up.
 */
function buildPools(seed: number, count: number): Pools {
  const size = Math.min(4096, 512 + count);
  const key = `${seed}:${size}`;
  const cached = poolCache.get(key);
  if (cached) return cached;
  const f = faker;
  f.seed(seed);
  const rng = createRng(seed ^ 0x5bd1e995);

  const players: Player[] = [...FAMOUS_PLAYERS];
  while (players.length < size) players.push(Object.freeze({ uuid: uuidV4(rng), name: playerName(f, rng) }));

  const serverWords: string[] = [];
  for (let i = 0; i < 400; i++) {
    const word = capitalise(lettersOnly(i % 2 ? f.word.noun() : f.word.adjective())).slice(0, 10);
    serverWords.push(word.length >= 3 ? word : 'Block');
  }
  const taglines = [...TAGLINES];
  for (let i = 0; i < 60; i++) taglines.push(i % 3 === 0 ? f.company.catchPhrase() : `${capitalise(f.word.adjective())} ${f.word.noun()} ${pick(rng, ['every day', 'for everyone', 'since 2015', 'reborn', 'awaits'])}`);

  const motds: Motd[] = [];
  for (let i = 0; i < size; i++) {
    const name = `${pick(rng, serverWords)}${pick(rng, SERVER_SUFFIXES)}`;
    const motd = makeMotd(rng, name, pick(rng, taglines));
    motds.push({ motd, stripped: stripMotd(motd) });
  }

  const pluginSet = (all: readonly string[], core: readonly string[], min: number, max: number): readonly string[] => {
    const set = new Set<string>();
    for (const p of core) if (rng() < 0.7) set.add(p);
    const n = min + int(rng, max - min + 1);
    while (set.size < n) set.add(pick(rng, all));
    return Object.freeze([...set]);
  };
  const bukkitPluginSets: (readonly string[])[] = [];
  for (let i = 0; i < 512; i++) bukkitPluginSets.push(pluginSet(BUKKIT_PLUGINS, CORE_PLUGINS, 1, 22));
  const proxyPluginSets: (readonly string[])[] = [];
  for (let i = 0; i < 64; i++) proxyPluginSets.push(pluginSet(PROXY_PLUGINS, ['LuckPerms'], 1, 8));

  const pools: Pools = { players, motds, serverWords, bukkitPluginSets, proxyPluginSets };
  if (poolCache.size > 16) poolCache.clear();
  poolCache.set(key, pools);
  return pools;
}

// ---------------------------------------------------------------------------
// Generation

const pickVersion = weighted(VERSIONS);
const pickCountry = weighted(COUNTRIES);
const pickLimit = weighted(PLAYER_LIMITS);
const COUNTRY_BY_CODE = new Map(COUNTRIES.map(([c]) => [c.code, c]));

/** A bijection on 32-bit integers (lowbias32), so distinct counters give distinct IPv4s. */
function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

function isPublicIpv4(x: number): boolean {
  const a = x >>> 24;
  const b = (x >>> 16) & 255;
  if (a === 0 || a === 10 || a === 127 || a >= 224) return false;
  if (a === 100 && b >= 64 && b < 128) return false;
  if (a === 169 && b === 254) return false;
  if (a === 172 && b >= 16 && b < 32) return false;
  if (a === 192 && b === 168) return false;
  if (a === 198 && (b === 18 || b === 19)) return false;
  return true;
}

// IPv4 text from two cached halves ("a.b." + "c.d"), so each address costs one small string.
const HIGH_HALVES: (string | undefined)[] = new Array(65536);
const LOW_HALVES: (string | undefined)[] = new Array(65536);
function ipv4(x: number): string {
  const hi = x >>> 16;
  const lo = x & 0xffff;
  const a = (HIGH_HALVES[hi] ??= `${hi >>> 8}.${hi & 255}.`);
  const b = (LOW_HALVES[lo] ??= `${lo >>> 8}.${lo & 255}`);
  return a + b;
}

const PAD2 = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const TIMES_OF_DAY: (string | undefined)[] = new Array(86400);

/** `Date#toISOString` for whole-second UTC times, several times faster: the date part is cached per day. */
function isoFormatter(): (ms: number) => string {
  const days = new Map<number, string>();
  return (ms) => {
    const day = Math.floor(ms / DAY);
    let prefix = days.get(day);
    if (prefix === undefined) {
      prefix = new Date(day * DAY).toISOString().slice(0, 11);
      days.set(day, prefix);
    }
    const sod = Math.floor((ms - day * DAY) / 1000);
    let time = TIMES_OF_DAY[sod];
    if (time === undefined) {
      const h = Math.floor(sod / 3600);
      const m = Math.floor(sod / 60) % 60;
      time = TIMES_OF_DAY[sod] = `${PAD2[h]}:${PAD2[m]}:${PAD2[sod % 60]}.000Z`;
    }
    return prefix + time;
  };
}

/** Deterministic, realistic servers: the same seed, count and now give byte-identical JSON. */
export function generateServers(opts: GenerateOptions): StoredServer[] {
  checkOptions(opts);
  const out: StoredServer[] = new Array(opts.count);
  eachServer(opts, true, (row, i) => (out[i] = row));
  return out;
}

/** The same servers as generateServers, as columns: no row object outlives its iteration. */
export function generateDataset(opts: GenerateOptions): Dataset {
  checkOptions(opts);
  const builder = new DatasetBuilder(opts.count);
  eachServer(opts, false, (row, _i, lastPing) => builder.add(row, lastPing));
  return builder.finish();
}

function checkOptions({ count, now }: GenerateOptions): void {
  if (!Number.isInteger(count) || count < 0) throw new Error(`count must be a non-negative integer, got ${count}`);
  if (!Number.isFinite(now.getTime())) throw new Error('now must be a valid Date');
}

/**
 * Draws the servers one by one and hands each to `emit`. `isoTimes` false leaves
 * `last_ping` empty (the caller stores the number it also gets).
 */
function eachServer(opts: GenerateOptions, isoTimes: boolean, emit: (row: StoredServer, i: number, lastPingMs: number) => void): void {
  const { seed, count } = opts;
  const now = opts.now.getTime();
  const pools = buildPools(seed, count);
  const rng = createRng(seed);
  // Gaps come from a stream of their own: --clean-data gives the same rows, only complete.
  const gapRng = opts.clean ? undefined : createRng(seed ^ 0x6a09e667);
  const ipKey = mix32(seed ^ 0xa5a5a5a5);
  let ipCounter = 0;
  const hostnames = new Map<string, number>();
  const { players: playerPool, motds, serverWords, bukkitPluginSets, proxyPluginSets } = pools;
  const defaultMotd: Motd = { motd: 'A Minecraft Server', stripped: 'A Minecraft Server' };
  const nowSec = Math.floor(now / 1000) * 1000;
  const iso = isoFormatter();

  let prevIp = -1;
  let prevPort = 0;
  // Player samples are slices of the pool: share each distinct slice (the columns intern them by identity).
  const slices = new Map<number, readonly Player[]>();
  for (let i = 0; i < count; i++) {
    if (opts.onProgress && i % PROGRESS_STEP === 0 && i > 0) opts.onProgress(i);
    // Version / kind / mod pack.
    let [version, kind] = pickVersion(rng);
    let modPack: string | null = null;
    let modPackShort: string | null = null;
    if (kind === 'modded' && rng() < 0.5) {
      const pack = pick(rng, MOD_PACKS);
      [modPack, modPackShort, version] = pack;
    }

    // Where it is.
    const tcp = rng() < 0.05;
    let country: Country;
    let org: Asn;
    if (tcp) {
      country = COUNTRY_BY_CODE.get(pick(rng, TCPSHIELD_COUNTRIES))!;
      org = TCPSHIELD;
    } else {
      country = pickCountry(rng);
      org = pick(rng, country.asns);
    }
    const city = pick(rng, country.cities);

    // Address and port: unique by construction (distinct IPv4s; a reused IPv4 gets a higher port).
    let address: string;
    let port: number;
    const r = rng();
    if (r < 0.08 && prevIp >= 0 && prevPort < 65000) {
      address = ipv4(prevIp);
      port = prevPort + 1 + int(rng, 3);
      prevPort = port;
    } else if (r < 0.2 || (tcp && r < 0.6)) {
      const prefix = pick(rng, HOST_PREFIXES);
      const name = `${pick(rng, serverWords)}${pick(rng, SERVER_SUFFIXES)}`.toLowerCase();
      const tld = pick(rng, HOST_TLDS);
      const base = `${prefix}.${name}.${tld}`;
      const seen = hostnames.get(base) ?? 0;
      hostnames.set(base, seen + 1);
      // A taken name gets a number (play.fooCraft2.net); numbered names never collide with plain ones (words have no digits).
      const host = seen === 0 ? base : `${prefix}.${name}${seen + 1}.${tld}`;
      address = host;
      port = rng() < 0.9 ? 25565 : pick(rng, ODD_PORTS);
    } else {
      let x: number;
      do x = mix32((ipCounter++ + ipKey) >>> 0);
      while (!isPublicIpv4(x));
      address = ipv4(x);
      port = rng() < 0.85 ? 25565 : pick(rng, ODD_PORTS);
      prevIp = x;
      prevPort = port;
    }

    // Last ping: a fair share within the last 30 minutes, the rest spread over 60 days.
    const b = rng();
    const ago = b < 0.4 ? rng() * 30 * MINUTE : b < 0.6 ? 30 * MINUTE + rng() * 23.5 * HOUR : b < 0.85 ? DAY + rng() * 29 * DAY : 30 * DAY + rng() * 30 * DAY;
    const lastPingMs = nowSec - Math.floor(ago / 1000) * 1000;
    const lastPing = isoTimes ? iso(lastPingMs) : '';

    // Players.
    const limit = kind === 'proxy' && rng() < 0.5 ? pick(rng, PROXY_LIMITS) : pickLimit(rng);
    const p = rng();
    let online = p < 0.42 ? 0 : p < 0.8 ? 1 + int(rng, 10) : p < 0.96 ? 10 + int(rng, 90) : 100 + int(rng, 3000);
    if (online > limit) online = int(rng, limit + 1);
    const sampleSize = online > 0 && rng() < 0.9 ? Math.min(online, 12) : 0;
    let players: Player[];
    if (sampleSize === 0) players = EMPTY_PLAYERS as Player[];
    else {
      const off = int(rng, playerPool.length - sampleSize + 1);
      const key = off * 16 + sampleSize;
      let slice = slices.get(key);
      if (!slice) slices.set(key, (slice = Object.freeze(playerPool.slice(off, off + sampleSize))));
      players = slice as Player[];
    }

    // Software details.
    let plugins = EMPTY as string[];
    if (kind === 'bukkit' && rng() < 0.65) plugins = pick(rng, bukkitPluginSets) as string[];
    else if (kind === 'proxy' && rng() < 0.5) plugins = pick(rng, proxyPluginSets) as string[];
    const m = rng() < (kind === 'vanilla' ? 0.15 : 0.04) ? defaultMotd : pick(rng, motds);
    const offline = rng() < (version.includes('1.8') ? 0.25 : 0.08) ? 1 : 0;
    const favicon = rng() < 0.72 ? pick(rng, FAVICONS) : null;

    const row: StoredServer = {
      address,
      port,
      version,
      offline_mode: offline,
      players_online: online,
      players_limit: limit,
      motd: m.motd,
      motd_stripped: m.stripped,
      players,
      plugins,
      country: country.name,
      country_code: country.code,
      region: country.region,
      city,
      asn_number: org.number,
      asn_name: org.name,
      last_ping: lastPing,
      favicon,
      detected_mod_pack: modPack,
      detected_mod_pack_short: modPackShort,
    };
    emit(gapRng ? applyGaps(row, decideGaps(gapRng, { tcpShield: tcp, players: players.length, plugins: plugins.length }), true) : row, i, lastPingMs);
  }
}

/**
 * What identifies this generator's output, for caching datasets on disk (mocks/dataset/snapshot.ts):
 * a hash of its tables and of a small generated sample, so a change to either makes old
 * snapshots misses. (A change that shows in neither would need GENERATOR_REVISION bumped.)
 */
export const GENERATOR_REVISION = 1;
let fingerprint: string | undefined;
export function generatorFingerprint(): string {
  if (fingerprint === undefined) {
    const sample = generateServers({ seed: 7, count: 64, now: new Date(Date.UTC(2026, 0, 1)) });
    const tables = JSON.stringify({ world: WORLD, favicons: FAVICONS, gaps: GAP_RATES, revision: GENERATOR_REVISION });
    fingerprint = createHash('sha256').update(tables).update(JSON.stringify(sample)).digest('hex').slice(0, 16);
  }
  return fingerprint;
}
