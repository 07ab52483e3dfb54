// The mock's generated server listing: deterministic, realistic servers drawn from the
// tables in mocks/dataset/generator-tables.ts.
//
// Speed: faker is seeded once per seed to build pools (player names, server names,
// MOTDs, plugin sets); every per-server draw then comes from a fast seeded PRNG
// (sfc32) and is written straight into the dataset's columns (see generateDataset).
// Faker is loaded only when something is generated: a mock whose servers come from
// a snapshot (mocks/dataset/snapshot.ts) never loads it.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Faker } from '@faker-js/faker';
import type { Player } from '../../spec/openapi.gen.ts';
import { BUILT_DATASETS } from './built.ts';
import { AddressColumn, DICT_FIELDS, KeyedColumn, rowsOf, type Dataset } from './columns.ts';
import { FAVICONS } from './favicons.ts';
import { decideGaps, GAP, GAP_RATES } from './real-world-gaps.ts';
import { createRng, int, pick, weightedIndex, type Rng } from './rng.ts';
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
  type Kind,
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

interface Motd {
  readonly motd: string;
  readonly stripped: string;
}
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

// The English locale alone: the main entry loads every locale (~150 ms, ~30 MB at start).
let fakerEn: Faker | undefined;
const englishFaker = (): Faker =>
  (fakerEn ??= (createRequire(import.meta.url)('@faker-js/faker/locale/en') as { faker: Faker }).faker);

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
    case 0:
      name = f.internet.username();
      break;
    case 1:
      name = `${f.person.firstName()}${int(rng, 1000)}`;
      break;
    case 2:
      name = `xX_${capitalise(lettersOnly(f.word.noun()))}_Xx`;
      break;
    case 3:
      name = `${capitalise(lettersOnly(f.word.adjective()))}${capitalise(lettersOnly(f.animal.type()))}`;
      break;
    case 4:
      name = `${lettersOnly(f.word.noun())}_${int(rng, 100)}`;
      break;
    case 5:
      name = `The${capitalise(lettersOnly(f.hacker.noun()))}`;
      break;
    default:
      name = `${lettersOnly(f.person.lastName())}${capitalise(lettersOnly(f.word.verb()))}`;
      break;
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
    case 0:
      return `${c1}§l${name}§r §7» ${c2}${mode}\n§${COLORS[int(rng, 16)]}${tagline}`;
    case 1:
      return `${c1}${name} §8| ${c2}${mode} §8| §7${pick(rng, ['1.8-1.21', '1.20+', '1.21', 'Java & Bedrock'])}`;
    case 2:
      return `${c1}&lt;&lt; ${c2}§l${name}§r ${c1}&gt;&gt;\n§7${tagline}`;
    case 3:
      return `${name} - ${mode} server`;
    case 4:
      return `${c1}Welcome to ${c2}§l${name}§r${c1}!`;
    case 5:
      return `${c1}[${mode}] ${c2}${name} §r- ${colour(rng)}${tagline}`;
    case 6:
      return `§6✦ ${c1}§l${name.toUpperCase()} §6✦\n§f${mode} §8• §7${tagline}`;
    case 7:
      return `${c1}§o${tagline}§r §8&gt; ${c2}${name}`;
    default:
      return `${c1}${name}§r\n§k||§r ${c2}${mode} §k||`;
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
  const f = englishFaker();
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
  for (let i = 0; i < 60; i++)
    taglines.push(
      i % 3 === 0
        ? f.company.catchPhrase()
        : `${capitalise(f.word.adjective())} ${f.word.noun()} ` +
            `${pick(rng, ['every day', 'for everyone', 'since 2015', 'reborn', 'awaits'])}`,
    );

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
// Generation, straight into columns
//
// Each row draws from the tables above; every dictionary field is written as the key of
// what it drew (a version's index, a country's, a pool slot, a player slice) into a
// KeyedColumn, which numbers the distinct values as interning the finished rows would.
// No row object, string or list is made per row: a million servers are a few typed
// arrays and one buffer of address bytes.

/** The world's tables as keys: what generateDataset draws, independent of the seed (built once). */
interface World {
  pickVersion: (rng: Rng) => number;
  pickCountry: (rng: Rng) => number;
  pickLimit: (rng: Rng) => number;
  /** Version keys: VERSIONS' indexes, then MOD_PACKS' (a pack's version string). */
  versionOf: string[];
  kindOf: Kind[];
  /** The version string holds "1.8" (those servers run offline mode more often). */
  old18: boolean[];
  /** TCPShield's countries as COUNTRIES indexes. */
  tcpCountries: number[];
  /** Cities: COUNTRIES[c].cities[j] is key cityBase[c] + j; the last key is null. */
  cityBase: number[];
  cities: (string | null)[];
  /** Organisations: one key per distinct Asn (the last is null); asnKeys[c][j] is COUNTRIES[c].asns[j]'s. */
  asns: (Asn | null)[];
  asnKeys: number[][];
  tcpShieldAsn: number;
  /** players_limit keys: PLAYER_LIMITS' indexes, then PROXY_LIMITS'. */
  limits: number[];
  prefixes: string[];
  prefixKey: number[];
  tlds: string[];
}

let world: World | undefined;
function theWorld(): World {
  if (world) return world;
  const keyOf = <T>(list: T[], value: T): number => {
    const k = list.indexOf(value);
    return k >= 0 ? k : list.push(value) - 1;
  };
  const asns: (Asn | null)[] = [];
  const cities: (string | null)[] = [];
  const cityBase: number[] = [];
  const asnKeys = COUNTRIES.map(([c]) => {
    cityBase.push(cities.length);
    cities.push(...c.cities);
    return c.asns.map((a) => keyOf(asns, a));
  });
  const tcpShieldAsn = keyOf(asns, TCPSHIELD);
  cities.push(null);
  asns.push(null);
  const prefixes: string[] = [];
  const versionOf = [...VERSIONS.map(([[v]]) => v), ...MOD_PACKS.map((p) => p[2])];
  world = {
    pickVersion: weightedIndex(VERSIONS),
    pickCountry: weightedIndex(COUNTRIES),
    pickLimit: weightedIndex(PLAYER_LIMITS),
    versionOf,
    kindOf: VERSIONS.map(([[, kind]]) => kind),
    old18: versionOf.map((v) => v.includes('1.8')),
    tcpCountries: TCPSHIELD_COUNTRIES.map((code) => COUNTRIES.findIndex(([c]) => c.code === code)),
    cityBase,
    cities,
    asns,
    asnKeys,
    tcpShieldAsn,
    limits: [...PLAYER_LIMITS.map(([n]) => n), ...PROXY_LIMITS],
    // HOST_PREFIXES repeats 'play' (drawn twice as often): equal prefixes count as one name.
    prefixKey: HOST_PREFIXES.map((p) => keyOf(prefixes, p)),
    prefixes,
    tlds: [...HOST_TLDS],
  };
  return world;
}

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

/** Writes `v` (0-255) in decimal at `at`; returns the next position. */
function writeOctet(b: Buffer, at: number, v: number): number {
  if (v >= 100) {
    b[at++] = 48 + ((v / 100) | 0);
    b[at++] = 48 + (((v / 10) | 0) % 10);
  } else if (v >= 10) b[at++] = 48 + ((v / 10) | 0);
  b[at++] = 48 + (v % 10);
  return at;
}

function writeIpv4(b: Buffer, at: number, x: number): number {
  at = writeOctet(b, at, x >>> 24);
  b[at++] = 46;
  at = writeOctet(b, at, (x >>> 16) & 255);
  b[at++] = 46;
  at = writeOctet(b, at, (x >>> 8) & 255);
  b[at++] = 46;
  return writeOctet(b, at, x & 255);
}

/** Deterministic, realistic servers as columns: the same seed, count and now give byte-identical answers. */
export function generateDataset(opts: GenerateOptions): Dataset {
  checkOptions(opts);
  const { seed, count } = opts;
  const w = theWorld();
  const { players: playerPool, motds, serverWords, bukkitPluginSets, proxyPluginSets } = buildPools(seed, count);
  const rng = createRng(seed);
  // Gaps come from a stream of their own: --clean-data gives the same rows, only complete.
  const gapRng = opts.clean ? undefined : createRng(seed ^ 0x6a09e667);
  const ipKey = mix32(seed ^ 0xa5a5a5a5);
  const nowSec = Math.floor(opts.now.getTime() / 1000) * 1000;

  // Keys of this generation's pools: a MOTD slot (then the default MOTD, then none), a
  // player slice (offset, size, how many lost their id), a plugin set (joined or not).
  const defaultMotd = motds.length;
  const noMotd = motds.length + 1;
  const SIZES = 13;
  const playersKey = (off: number, size: number, noId: number): number => (off * SIZES + size) * 4 + noId;
  const slice = (key: number): Player[] => {
    const noId = key & 3;
    const size = (key >> 2) % SIZES;
    const off = Math.floor((key >> 2) / SIZES);
    // The first 1 + (port % 3) sampled players lost their id (GAP.noIdPlayers).
    return playerPool.slice(off, off + size).map((p, k) => (k < noId ? { uuid: 'NO-ID', name: p.name } : p));
  };
  const sets = [EMPTY, ...bukkitPluginSets, ...proxyPluginSets];
  const joinedPlugins = sets.length;
  const NULL_COUNTRY = COUNTRIES.length;
  const country =
    <T>(f: (c: Country) => T) =>
    (key: number): T | null =>
      key === NULL_COUNTRY ? null : f(COUNTRIES[key]![0]);
  const pack =
    <T>(f: (p: (typeof MOD_PACKS)[number]) => T) =>
    (key: number): T | null =>
      key === MOD_PACKS.length ? null : f(MOD_PACKS[key]!);
  const motd =
    (f: (m: Motd) => string) =>
    (key: number): string | null =>
      key === noMotd ? null : key === defaultMotd ? 'A Minecraft Server' : f(motds[key]!);
  const col = <T>(keys: number, valueAt: (key: number) => T, unique?: (key: number) => boolean) =>
    new KeyedColumn<T>(count, keys, valueAt, unique);
  const c = {
    version: col(w.versionOf.length, (k) => w.versionOf[k]!),
    offline_mode: col(2, (k) => k),
    players_limit: col(w.limits.length, (k) => w.limits[k]!),
    motd: col(
      motds.length + 2,
      motd((m) => m.motd),
    ),
    motd_stripped: col(
      motds.length + 2,
      motd((m) => m.stripped),
    ),
    // A slice with a player who keeps their id is like no other (every pool player has a
    // uuid of their own); only all-"NO-ID" slices can repeat (names repeat), and are compared.
    players: col(
      playersKey(playerPool.length, 0, 0),
      (k) => (k === 0 ? EMPTY_PLAYERS : slice(k)),
      (k) => (k & 3) < (k >> 2) % SIZES || k === 0,
    ),
    plugins: col(2 * sets.length, (k) =>
      k < joinedPlugins ? sets[k]! : Object.freeze([sets[k - joinedPlugins]!.join(';')]),
    ),
    country: col(
      NULL_COUNTRY + 1,
      country((x) => x.name),
    ),
    country_code: col(
      NULL_COUNTRY + 1,
      country((x) => x.code),
    ),
    region: col(
      NULL_COUNTRY + 1,
      country((x) => x.region),
    ),
    city: col(w.cities.length, (k) => w.cities[k]!),
    asn_number: col(w.asns.length, (k) => w.asns[k]?.number ?? null),
    asn_name: col(w.asns.length, (k) => w.asns[k]?.name ?? null),
    favicon: col(FAVICONS.length + 1, (k) => FAVICONS[k] ?? null),
    detected_mod_pack: col(
      MOD_PACKS.length + 1,
      pack((p) => p[0]),
    ),
    detected_mod_pack_short: col(
      MOD_PACKS.length + 1,
      pack((p) => p[1]),
    ),
  };
  // Ports (at most 65003) and player counts (at most 10000) fit 16 bits.
  const port = new Uint16Array(count);
  const playersOnline = new Uint16Array(count);
  const lastPing = new Float64Array(count);
  const addresses = new AddressColumn(count);

  // Hostnames: prefix.name.tld, a taken one numbered (play.fooCraft2.net). Equal names
  // (a word can repeat in the pool) share one count: a name is the text, not the draw.
  const names: string[] = [];
  const nameIndex = new Map<string, number>();
  const nameOfDraw = new Int32Array(serverWords.length * SERVER_SUFFIXES.length);
  for (let word = 0; word < serverWords.length; word++) {
    for (let sfx = 0; sfx < SERVER_SUFFIXES.length; sfx++) {
      const name = `${serverWords[word]}${SERVER_SUFFIXES[sfx]}`.toLowerCase();
      let k = nameIndex.get(name);
      if (k === undefined) nameIndex.set(name, (k = names.push(name) - 1));
      nameOfDraw[word * SERVER_SUFFIXES.length + sfx] = k;
    }
  }
  const ascii = (s: string): Buffer => Buffer.from(s, 'utf8');
  const prefixBytes = w.prefixes.map((p) => ascii(`${p}.`));
  const nameBytes = names.map(ascii);
  const tldBytes = w.tlds.map((t) => ascii(`.${t}`));
  const taken = new Uint32Array(w.prefixes.length * names.length * w.tlds.length);

  let ipCounter = 0;
  let prevIp = -1;
  let prevPort = 0;
  for (let i = 0; i < count; i++) {
    if (opts.onProgress && i % PROGRESS_STEP === 0 && i > 0) opts.onProgress(i);
    // Version / kind / mod pack.
    let versionKey = w.pickVersion(rng);
    const kind = w.kindOf[versionKey]!;
    let packKey = MOD_PACKS.length;
    if (kind === 'modded' && rng() < 0.5) {
      packKey = int(rng, MOD_PACKS.length);
      versionKey = VERSIONS.length + packKey;
    }

    // Where it is.
    const tcp = rng() < 0.05;
    let countryKey: number;
    let asnKey: number;
    if (tcp) {
      countryKey = w.tcpCountries[int(rng, w.tcpCountries.length)]!;
      asnKey = w.tcpShieldAsn;
    } else {
      countryKey = w.pickCountry(rng);
      const orgs = w.asnKeys[countryKey]!;
      asnKey = orgs[int(rng, orgs.length)]!;
    }
    let cityKey = w.cityBase[countryKey]! + int(rng, COUNTRIES[countryKey]![0].cities.length);

    // Address and port: unique by construction (distinct IPv4s; a reused IPv4 gets a higher port).
    addresses.reserve(i, 64);
    const bytes = addresses.bytes;
    let at = addresses.length;
    let p: number;
    const r = rng();
    if (r < 0.08 && prevIp >= 0 && prevPort < 65000) {
      at = writeIpv4(bytes, at, prevIp);
      p = prevPort + 1 + int(rng, 3);
      prevPort = p;
    } else if (r < 0.2 || (tcp && r < 0.6)) {
      const prefix = w.prefixKey[int(rng, HOST_PREFIXES.length)]!;
      const word = int(rng, serverWords.length);
      const name = nameOfDraw[word * SERVER_SUFFIXES.length + int(rng, SERVER_SUFFIXES.length)]!;
      const tld = int(rng, w.tlds.length);
      const k = (prefix * names.length + name) * w.tlds.length + tld;
      const seen = taken[k]!;
      taken[k] = seen + 1;
      at += prefixBytes[prefix]!.copy(bytes, at);
      at += nameBytes[name]!.copy(bytes, at);
      // A taken name gets a number; numbered names never collide with plain ones (words have no digits).
      if (seen > 0) at += bytes.write(String(seen + 1), at, 'latin1');
      at += tldBytes[tld]!.copy(bytes, at);
      p = rng() < 0.9 ? 25565 : pick(rng, ODD_PORTS);
    } else {
      let x: number;
      do x = mix32((ipCounter++ + ipKey) >>> 0);
      while (!isPublicIpv4(x));
      at = writeIpv4(bytes, at, x);
      p = rng() < 0.85 ? 25565 : pick(rng, ODD_PORTS);
      prevIp = x;
      prevPort = p;
    }
    addresses.length = at;
    port[i] = p;

    // Last ping: a fair share within the last 30 minutes, the rest spread over 60 days.
    const b = rng();
    const ago =
      b < 0.4
        ? rng() * 30 * MINUTE
        : b < 0.6
          ? 30 * MINUTE + rng() * 23.5 * HOUR
          : b < 0.85
            ? DAY + rng() * 29 * DAY
            : 30 * DAY + rng() * 30 * DAY;
    lastPing[i] = nowSec - Math.floor(ago / 1000) * 1000;

    // Players.
    let limitKey: number;
    if (kind === 'proxy' && rng() < 0.5) limitKey = PLAYER_LIMITS.length + int(rng, PROXY_LIMITS.length);
    else limitKey = w.pickLimit(rng);
    const limit = w.limits[limitKey]!;
    const pr = rng();
    let online = pr < 0.42 ? 0 : pr < 0.8 ? 1 + int(rng, 10) : pr < 0.96 ? 10 + int(rng, 90) : 100 + int(rng, 3000);
    if (online > limit) online = int(rng, limit + 1);
    playersOnline[i] = online;
    const sampleSize = online > 0 && rng() < 0.9 ? Math.min(online, 12) : 0;
    const off = sampleSize > 0 ? int(rng, playerPool.length - sampleSize + 1) : 0;

    // Software details.
    let pluginKey = 0;
    if (kind === 'bukkit' && rng() < 0.65) pluginKey = 1 + int(rng, bukkitPluginSets.length);
    else if (kind === 'proxy' && rng() < 0.5)
      pluginKey = 1 + bukkitPluginSets.length + int(rng, proxyPluginSets.length);
    let motdKey = rng() < (kind === 'vanilla' ? 0.15 : 0.04) ? defaultMotd : int(rng, motds.length);
    const offline = rng() < (w.old18[versionKey] ? 0.25 : 0.08) ? 1 : 0;
    const faviconKey = rng() < 0.72 ? int(rng, FAVICONS.length) : FAVICONS.length;

    // The real-world gaps (GAP in mocks/dataset/real-world-gaps.ts).
    let noId = 0;
    if (gapRng) {
      const mask = decideGaps(gapRng, tcp, sampleSize, sets[pluginKey]!.length);
      if (mask & GAP.noGeo) {
        countryKey = NULL_COUNTRY;
        cityKey = w.cities.length - 1;
      }
      if (mask & GAP.noCity) cityKey = w.cities.length - 1;
      if (mask & GAP.noAsn) asnKey = w.asns.length - 1;
      if (mask & GAP.noMotd) motdKey = noMotd;
      if (mask & GAP.noIdPlayers) noId = 1 + (p % 3);
      if (mask & GAP.joinedPlugins) pluginKey += joinedPlugins;
    }

    c.version.set(i, versionKey);
    c.offline_mode.set(i, offline);
    c.players_limit.set(i, limitKey);
    c.motd.set(i, motdKey);
    c.motd_stripped.set(i, motdKey);
    c.players.set(i, playersKey(off, sampleSize, noId));
    c.plugins.set(i, pluginKey);
    c.country.set(i, countryKey);
    c.country_code.set(i, countryKey);
    c.region.set(i, countryKey);
    c.city.set(i, cityKey);
    c.asn_number.set(i, asnKey);
    c.asn_name.set(i, asnKey);
    c.favicon.set(i, faviconKey);
    c.detected_mod_pack.set(i, packKey);
    c.detected_mod_pack_short.set(i, packKey);
  }
  return {
    size: count,
    ...addresses.finish(count),
    port,
    playersOnline,
    lastPing,
    dict: Object.fromEntries(DICT_FIELDS.map((f) => [f, c[f].column(count)])) as Dataset['dict'],
  };
}

/** The same servers as generateDataset, as row objects (small datasets: tests, exports). */
export function generateServers(opts: GenerateOptions): StoredServer[] {
  return rowsOf(generateDataset(opts));
}

function checkOptions({ count, now }: GenerateOptions): void {
  if (!Number.isInteger(count) || count < 0) throw new Error(`count must be a non-negative integer, got ${count}`);
  if (!Number.isFinite(now.getTime())) throw new Error('now must be a valid Date');
}

/**
 * What identifies this generator's output, for caching datasets on disk (mocks/dataset/snapshot.ts):
 * a hash of its tables and of a small generated sample, so a change to either makes old
 * snapshots misses. (A change that shows in neither would need GENERATOR_REVISION bumped.)
 * A bundle knows it from its build (mocks/dataset/built.ts), so a start that reads a
 * snapshot never loads faker.
 */
export const GENERATOR_REVISION = 1;
let fingerprint: string | undefined = BUILT_DATASETS?.generator;
export function generatorFingerprint(): string {
  if (fingerprint === undefined) {
    const sample = generateServers({ seed: 7, count: 64, now: new Date(Date.UTC(2026, 0, 1)) });
    const tables = JSON.stringify({ world: WORLD, favicons: FAVICONS, gaps: GAP_RATES, revision: GENERATOR_REVISION });
    fingerprint = createHash('sha256').update(tables).update(JSON.stringify(sample)).digest('hex').slice(0, 16);
  }
  return fingerprint;
}
