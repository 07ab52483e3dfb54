// The mock's server listing: a deterministic, realistic generator and a loader for
// hand-edited json-server style files (`{"servers": [...]}`).
//
// Speed: faker is seeded once per seed to build pools (player names, server names,
// MOTDs, plugin sets); every per-server draw then comes from a fast seeded PRNG
// (sfc32). Pools are shared between records (strings, player objects, frozen
// plugin arrays), which keeps 1M servers within a few hundred MB.
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
// The English locale alone: the main entry loads every locale (~150 ms, ~30 MB at start).
import type { Faker } from '@faker-js/faker';
import { faker } from '@faker-js/faker/locale/en';
import type { Player, Region } from '../spec/openapi.gen.ts';
import { loadSpec } from '../spec/load.ts';
import { SchemaValidator, describeErrors } from '../spec/validator.ts';
import { createRng, int, pick, weighted, type Rng } from './rng.ts';
import { serverKey, stripMotd, type StoredServer } from './server-row.ts';

export interface GenerateOptions {
  seed: number;
  count: number;
  now: Date;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// ---------------------------------------------------------------------------
// Static world data

type Kind = 'vanilla' | 'bukkit' | 'modded' | 'proxy';

/** Version strings as servers report them, with a rough real-world share. */
const VERSIONS: readonly (readonly [readonly [string, Kind], number])[] = [
  [['1.20.4', 'vanilla'], 40], [['1.21.1', 'vanilla'], 45], [['1.21.4', 'vanilla'], 30], [['1.21', 'vanilla'], 10],
  [['1.20.1', 'vanilla'], 30], [['1.19.4', 'vanilla'], 12], [['1.18.2', 'vanilla'], 12], [['1.16.5', 'vanilla'], 14],
  [['1.12.2', 'vanilla'], 14], [['1.8.8', 'vanilla'], 20], [['1.8.9', 'vanilla'], 6], [['1.7.10', 'vanilla'], 4],
  [['1.20-1.20.4', 'vanilla'], 4], [['1.8-1.21.4', 'vanilla'], 5], [['1.7.2-1.21.1', 'vanilla'], 3], [['1.21.5', 'vanilla'], 6],
  [['Paper 1.21.1', 'bukkit'], 40], [['Paper 1.20.4', 'bukkit'], 32], [['Paper 1.21.4', 'bukkit'], 25], [['Paper 1.20.1', 'bukkit'], 14],
  [['Paper 1.19.4', 'bukkit'], 6], [['Paper 1.16.5', 'bukkit'], 7], [['Paper 1.12.2', 'bukkit'], 5], [['Paper 1.8.8', 'bukkit'], 8],
  [['Spigot 1.8.8', 'bukkit'], 14], [['Spigot 1.20.4', 'bukkit'], 10], [['Spigot 1.21.1', 'bukkit'], 9], [['Spigot 1.12.2', 'bukkit'], 6],
  [['CraftBukkit 1.20.1', 'bukkit'], 3], [['Purpur 1.21.1', 'bukkit'], 8], [['Purpur 1.20.4', 'bukkit'], 6], [['Folia 1.20.4', 'bukkit'], 1],
  [['Forge 1.20.1', 'modded'], 14], [['Forge 1.12.2', 'modded'], 8], [['Forge 1.16.5', 'modded'], 6], [['Forge 1.18.2', 'modded'], 5],
  [['Forge 1.7.10', 'modded'], 2], [['NeoForge 1.21.1', 'modded'], 5], [['Fabric 1.21.1', 'modded'], 8], [['Fabric 1.20.1', 'modded'], 6],
  [['Fabric 1.21.4', 'modded'], 4],
  [['Velocity 3.3.0', 'proxy'], 10], [['Velocity 3.4.0', 'proxy'], 6], [['BungeeCord 1.8.x-1.21.x', 'proxy'], 9],
  [['Waterfall 1.20', 'proxy'], 5], [['Waterfall 1.21', 'proxy'], 3],
];

/** Mod packs: [name, short name, the version string servers running it report]. */
const MOD_PACKS: readonly (readonly [string, string, string])[] = [
  ['All the Mods 9', 'ATM9', 'Forge 1.20.1'],
  ['All the Mods 10', 'ATM10', 'NeoForge 1.21.1'],
  ['RLCraft', 'RLCraft', 'Forge 1.12.2'],
  ['Better MC', 'BMC', 'Forge 1.20.1'],
  ['Better MC', 'BMC', 'Fabric 1.20.1'],
  ['SkyFactory 4', 'SF4', 'Forge 1.12.2'],
  ['Vault Hunters', 'VH', 'Forge 1.18.2'],
  ['Pixelmon', 'Pixelmon', 'Forge 1.16.5'],
  ['Create: Above and Beyond', 'CAB', 'Forge 1.16.5'],
  ['Prominence II', 'PII', 'Fabric 1.20.1'],
  ['FTB StoneBlock 3', 'SB3', 'Forge 1.18.2'],
  ['Fabulously Optimized', 'FO', 'Fabric 1.21.1'],
  ['Enigmatica 6', 'E6', 'Forge 1.16.5'],
  ['DawnCraft', 'DC', 'Forge 1.18.2'],
];

const BUKKIT_PLUGINS = [
  'EssentialsX', 'EssentialsXChat', 'EssentialsXSpawn', 'LuckPerms', 'Vault', 'WorldEdit', 'WorldGuard', 'CoreProtect',
  'Multiverse-Core', 'ViaVersion', 'ViaBackwards', 'PlaceholderAPI', 'ProtocolLib', 'GriefPrevention', 'Citizens', 'mcMMO',
  'DiscordSRV', 'dynmap', 'Geyser-Spigot', 'floodgate', 'TAB', 'ChestShop', 'Towny', 'SkinsRestorer', 'AuthMe', 'Shopkeepers',
  'Jobs', 'ClearLag', 'Chunky', 'spark', 'DecentHolograms', 'HolographicDisplays', 'MythicMobs', 'SilkSpawners', 'CMI',
  'Quests', 'AdvancedBan', 'LiteBans', 'voicechat', 'BlueMap', 'FastAsyncWorldEdit', 'ItemsAdder', 'Essentials',
];
const PROXY_PLUGINS = [
  'LuckPerms', 'ViaVersion', 'Geyser-Velocity', 'floodgate', 'LiteBans', 'Maintenance', 'SkinsRestorer', 'TAB',
  'PremiumVanish', 'LibertyBans', 'spark', 'AdvancedBan', 'BungeeGuard', 'Plan',
];
/** Always-first plugins: the ones nearly every Bukkit server runs. */
const CORE_PLUGINS = ['EssentialsX', 'LuckPerms', 'Vault', 'WorldEdit'];

interface Asn { readonly number: string; readonly name: string }
const asn = (number: number, name: string): Asn => ({ number: String(number), name });
const AMAZON = asn(16509, 'Amazon.com, Inc.');
const OVH = asn(16276, 'OVH SAS');
const HETZNER = asn(24940, 'Hetzner Online GmbH');
const DIGITALOCEAN = asn(14061, 'DigitalOcean, LLC');
const CONTABO = asn(51167, 'Contabo GmbH');
const GOOGLE = asn(15169, 'Google LLC');
const VULTR = asn(20473, 'The Constant Company, LLC');
const LINODE = asn(63949, 'Akamai Connected Cloud');
/** TCPShield (a DDoS-protection proxy); the number is this project's placeholder. */
const TCPSHIELD = asn(209242, 'TCPShield Inc.');

interface Country {
  readonly name: string;
  readonly code: string;
  readonly region: Region;
  readonly cities: readonly string[];
  readonly asns: readonly Asn[];
}
const COUNTRIES: readonly (readonly [Country, number])[] = [
  [{ name: 'United States', code: 'US', region: 'NA', cities: ['Ashburn', 'New York', 'Los Angeles', 'Chicago', 'Dallas', 'Seattle', 'Miami', 'Atlanta', 'San Jose', 'Phoenix', 'Hillsboro', 'Vint Hill'],
    asns: [AMAZON, OVH, DIGITALOCEAN, GOOGLE, VULTR, LINODE, asn(7922, 'Comcast Cable Communications, LLC'), asn(20115, 'Charter Communications Inc'), HETZNER] }, 24],
  [{ name: 'Germany', code: 'DE', region: 'EU', cities: ['Frankfurt am Main', 'Nuremberg', 'Falkenstein', 'Berlin', 'Munich', 'Hamburg', 'Cologne', 'Düsseldorf'],
    asns: [HETZNER, CONTABO, asn(197540, 'netcup GmbH'), asn(3320, 'Deutsche Telekom AG'), OVH, asn(8560, 'IONOS SE')] }, 15],
  [{ name: 'France', code: 'FR', region: 'EU', cities: ['Paris', 'Roubaix', 'Gravelines', 'Strasbourg', 'Lyon', 'Marseille'],
    asns: [OVH, asn(12322, 'Free SAS'), asn(3215, 'Orange S.A.'), asn(12876, 'SCALEWAY S.A.S.')] }, 7],
  [{ name: 'United Kingdom', code: 'GB', region: 'EU', cities: ['London', 'Manchester', 'Birmingham', 'Edinburgh', 'Leeds', 'Coventry'],
    asns: [OVH, asn(2856, 'British Telecommunications PLC'), asn(5089, 'Virgin Media Limited'), AMAZON, DIGITALOCEAN] }, 6],
  [{ name: 'Russia', code: 'RU', region: 'EU', cities: ['Moscow', 'Saint Petersburg', 'Novosibirsk', 'Yekaterinburg', 'Kazan'],
    asns: [asn(12389, 'PJSC Rostelecom'), asn(49505, 'JSC Selectel'), asn(9049, 'JSC ER-Telecom Holding'), asn(35807, 'SkyNet Ltd.')] }, 6],
  [{ name: 'Brazil', code: 'BR', region: 'SA', cities: ['São Paulo', 'Rio de Janeiro', 'Belo Horizonte', 'Curitiba', 'Porto Alegre'],
    asns: [asn(28573, 'Claro NXT Telecomunicacoes Ltda'), asn(26599, 'TELEFONICA BRASIL S.A'), AMAZON, OVH] }, 5],
  [{ name: 'Canada', code: 'CA', region: 'NA', cities: ['Montreal', 'Toronto', 'Vancouver', 'Beauharnois', 'Calgary'],
    asns: [OVH, asn(812, 'Rogers Communications Canada Inc.'), asn(577, 'Bell Canada'), DIGITALOCEAN] }, 5],
  [{ name: 'Poland', code: 'PL', region: 'EU', cities: ['Warsaw', 'Kraków', 'Wrocław', 'Gdańsk', 'Poznań'],
    asns: [OVH, asn(5617, 'Orange Polska Spolka Akcyjna'), asn(12741, 'Netia SA'), asn(29522, 'Krakowskie e-Centrum Informatyczne JUMP Dziedzic, Pytel Sp. j.')] }, 4],
  [{ name: 'Netherlands', code: 'NL', region: 'EU', cities: ['Amsterdam', 'Rotterdam', 'Dronten', 'Naaldwijk'],
    asns: [DIGITALOCEAN, asn(60781, 'Leaseweb Netherlands B.V.'), asn(1136, 'KPN B.V.'), GOOGLE] }, 3],
  [{ name: 'Finland', code: 'FI', region: 'EU', cities: ['Helsinki', 'Tuusula', 'Espoo'], asns: [HETZNER, asn(719, 'Elisa Oyj')] }, 2],
  [{ name: 'Singapore', code: 'SG', region: 'AS', cities: ['Singapore'], asns: [DIGITALOCEAN, AMAZON, OVH, asn(7473, 'Singapore Telecommunications Ltd')] }, 2],
  [{ name: 'Japan', code: 'JP', region: 'AS', cities: ['Tokyo', 'Osaka'], asns: [asn(4713, 'NTT Communications Corporation'), AMAZON, asn(9371, 'SAKURA Internet Inc.')] }, 2],
  [{ name: 'Australia', code: 'AU', region: 'OC', cities: ['Sydney', 'Melbourne', 'Brisbane', 'Perth'], asns: [asn(1221, 'Telstra Corporation Ltd'), AMAZON, asn(7545, 'TPG Telecom Limited'), OVH] }, 2],
  [{ name: 'South Africa', code: 'ZA', region: 'AF', cities: ['Johannesburg', 'Cape Town', 'Durban'], asns: [asn(16637, 'MTN SA'), asn(37153, 'Xneelo (Pty) Ltd'), AMAZON] }, 1],
  [{ name: 'Spain', code: 'ES', region: 'EU', cities: ['Madrid', 'Barcelona', 'Valencia'], asns: [asn(3352, 'TELEFONICA DE ESPANA S.A.U.'), OVH] }, 2],
  [{ name: 'Italy', code: 'IT', region: 'EU', cities: ['Milan', 'Rome', 'Turin'], asns: [asn(3269, 'Telecom Italia S.p.A.'), asn(31034, 'Aruba S.p.A.')] }, 1.5],
  [{ name: 'Sweden', code: 'SE', region: 'EU', cities: ['Stockholm', 'Gothenburg'], asns: [asn(3301, 'Telia Company AB'), asn(8473, 'Bahnhof AB')] }, 1],
  [{ name: 'Czechia', code: 'CZ', region: 'EU', cities: ['Prague', 'Brno'], asns: [asn(5588, 'T-Mobile Czech Republic a.s.'), asn(24971, 'Master Internet s.r.o')] }, 1],
  [{ name: 'Ukraine', code: 'UA', region: 'EU', cities: ['Kyiv', 'Kharkiv', 'Lviv'], asns: [asn(15895, 'Kyivstar PJSC'), asn(3326, 'Datagroup PJSC')] }, 1],
  [{ name: 'Turkey', code: 'TR', region: 'AS', cities: ['Istanbul', 'Ankara', 'Izmir'], asns: [asn(9121, 'Turk Telekomunikasyon Anonim Sirketi'), asn(47331, 'TTNet A.S.')] }, 1.5],
  [{ name: 'India', code: 'IN', region: 'AS', cities: ['Mumbai', 'Bengaluru', 'New Delhi'], asns: [asn(55836, 'Reliance Jio Infocomm Limited'), AMAZON, DIGITALOCEAN] }, 1],
  [{ name: 'South Korea', code: 'KR', region: 'AS', cities: ['Seoul', 'Busan'], asns: [asn(4766, 'Korea Telecom'), asn(9318, 'SK Broadband Co Ltd')] }, 1],
  [{ name: 'Vietnam', code: 'VN', region: 'AS', cities: ['Hanoi', 'Ho Chi Minh City'], asns: [asn(7552, 'Viettel Group'), asn(45899, 'VNPT Corp')] }, 1],
  [{ name: 'Indonesia', code: 'ID', region: 'AS', cities: ['Jakarta', 'Surabaya'], asns: [asn(7713, 'PT Telekomunikasi Indonesia')] }, 0.8],
  [{ name: 'Argentina', code: 'AR', region: 'SA', cities: ['Buenos Aires', 'Córdoba'], asns: [asn(7303, 'Telecom Argentina S.A.')] }, 0.8],
  [{ name: 'Chile', code: 'CL', region: 'SA', cities: ['Santiago'], asns: [asn(27651, 'Entel Chile S.A.')] }, 0.5],
  [{ name: 'Mexico', code: 'MX', region: 'NA', cities: ['Mexico City', 'Guadalajara', 'Monterrey'], asns: [asn(8151, 'UNINET'), AMAZON] }, 1],
  [{ name: 'New Zealand', code: 'NZ', region: 'OC', cities: ['Auckland', 'Wellington'], asns: [asn(9500, 'One New Zealand Group Limited')] }, 0.4],
  [{ name: 'Egypt', code: 'EG', region: 'AF', cities: ['Cairo'], asns: [asn(8452, 'TE Data')] }, 0.2],
];
/** Where TCPShield's proxies geolocate. */
const TCPSHIELD_COUNTRIES = ['US', 'DE', 'FR', 'SG', 'GB', 'CA'];

const MODES = [
  'Survival', 'SMP', 'Skyblock', 'Factions', 'Prison', 'Creative', 'Minigames', 'BedWars', 'SkyWars', 'KitPvP', 'Anarchy',
  'Towny', 'Lifesteal SMP', 'Earth', 'Roleplay', 'Hardcore', 'Parkour', 'OneBlock', 'Modded Survival', 'Economy',
  'Hunger Games', 'Practice PvP', 'Vanilla+', 'Cobblemon', 'Pixelmon',
];
const TAGLINES = [
  'New season out now!', 'Join our Discord!', 'Now with 1.21 support', 'Economy | McMMO | Jobs', 'No pay to win',
  'Whitelist off - come play', 'Est. 2013', 'Updated to 1.21!', 'Friendly community, active staff', 'Vote daily for rewards',
  'Server restarting soon', 'Grand opening this weekend!', 'Beta testing - expect bugs', 'Java & Bedrock', 'Cracked & premium welcome',
  'Custom enchants, crates & more', 'Map reset every month', '24/7 uptime', 'Voice chat enabled', 'Claim land, build, trade',
];
const SERVER_SUFFIXES = ['Craft', 'MC', 'Network', 'SMP', 'Realms', 'Land', 'Mine', 'Blocks', 'PvP', 'Games', 'Nation', 'World'];
const HOST_TLDS = ['net', 'com', 'org', 'gg', 'me', 'xyz', 'eu', 'de', 'co.uk', 'fun'];
const HOST_PREFIXES = ['play', 'mc', 'play', 'join', 'hub', 'smp'];
const ODD_PORTS = [25566, 25567, 25568, 25570, 25575, 25580, 25590, 25600, 25555, 25500, 19132, 25665, 30000, 30066, 27015, 40000];
const LIMITS = weighted<number>([
  [20, 30], [10, 5], [8, 2], [50, 15], [100, 20], [200, 8], [500, 7], [1000, 5], [2000, 3], [1, 1], [69, 1], [420, 1], [2024, 1], [5000, 1],
]);
const PROXY_LIMITS = [500, 1000, 2000, 5000, 10000];
const COLORS = '0123456789abcdef';
const BRIGHT = '2356abcde';
const FAMOUS_PLAYERS: readonly Player[] = [
  { uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5', name: 'Notch' },
  { uuid: '853c80ef-3c37-49fd-aa49-938b674adae6', name: 'jeb_' },
  { uuid: '61699b2e-d327-4a01-9f1e-0ea8c3f06bc6', name: 'Dinnerbone' },
];

// ---------------------------------------------------------------------------
// Favicons: a handful of genuinely valid tiny PNGs, built once.

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = (CRC_TABLE[(c ^ (buf[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A 16x16 RGB PNG with a two-colour pattern. */
export function makePng(size: number, a: readonly [number, number, number], b: readonly [number, number, number], pattern: number): Buffer {
  const raw = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y++) {
    const row = y * (1 + size * 3);
    raw[row] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const on = pattern === 0 ? ((x >> 2) + (y >> 2)) % 2 === 0 : pattern === 1 ? x < y : pattern === 2 ? (x - 8) ** 2 + (y - 8) ** 2 < 30 : y > size / 2;
      const c = on ? a : b;
      raw.set(c, row + 1 + x * 3);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The favicons generated servers use (data URIs). */
export const FAVICONS: readonly string[] = (() => {
  const palette: [number, number, number][] = [
    [46, 139, 87], [139, 69, 19], [70, 130, 180], [220, 20, 60], [255, 215, 0], [138, 43, 226], [30, 30, 30], [240, 240, 240],
  ];
  const out: string[] = [];
  for (let i = 0; i < 8; i++) {
    const png = makePng(16, palette[i] as [number, number, number], palette[(i + 3) % 8] as [number, number, number], i % 4);
    out.push(`data:image/png;base64,${png.toString('base64')}`);
  }
  return out;
})();

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
  const { seed, count } = opts;
  const now = opts.now.getTime();
  if (!Number.isInteger(count) || count < 0) throw new Error(`count must be a non-negative integer, got ${count}`);
  if (!Number.isFinite(now)) throw new Error('now must be a valid Date');
  const pools = buildPools(seed, count);
  const rng = createRng(seed);
  const ipKey = mix32(seed ^ 0xa5a5a5a5);
  let ipCounter = 0;
  const hostnames = new Map<string, number>();
  const { players: playerPool, motds, serverWords, bukkitPluginSets, proxyPluginSets } = pools;
  const defaultMotd: Motd = { motd: 'A Minecraft Server', stripped: 'A Minecraft Server' };
  const nowSec = Math.floor(now / 1000) * 1000;
  const iso = isoFormatter();

  let prevIp = -1;
  let prevPort = 0;
  const out: StoredServer[] = new Array(count);
  for (let i = 0; i < count; i++) {
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
    const city = rng() < 0.85 ? pick(rng, country.cities) : null;

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
    const lastPing = iso(nowSec - Math.floor(ago / 1000) * 1000);

    // Players.
    const limit = kind === 'proxy' && rng() < 0.5 ? pick(rng, PROXY_LIMITS) : LIMITS(rng);
    const p = rng();
    let online = p < 0.42 ? 0 : p < 0.8 ? 1 + int(rng, 10) : p < 0.96 ? 10 + int(rng, 90) : 100 + int(rng, 3000);
    if (online > limit) online = int(rng, limit + 1);
    const sampleSize = online > 0 && rng() < 0.9 ? Math.min(online, 12) : 0;
    let players: Player[];
    if (sampleSize === 0) players = EMPTY_PLAYERS as Player[];
    else {
      const off = int(rng, playerPool.length - sampleSize + 1);
      players = playerPool.slice(off, off + sampleSize);
    }

    // Software details.
    let plugins = EMPTY as string[];
    if (kind === 'bukkit' && rng() < 0.65) plugins = pick(rng, bukkitPluginSets) as string[];
    else if (kind === 'proxy' && rng() < 0.5) plugins = pick(rng, proxyPluginSets) as string[];
    const m = rng() < (kind === 'vanilla' ? 0.15 : 0.04) ? defaultMotd : pick(rng, motds);
    const offline = rng() < (version.includes('1.8') ? 0.25 : 0.08) ? 1 : 0;
    const favicon = rng() < 0.72 ? pick(rng, FAVICONS) : null;

    out[i] = {
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
  }
  return out;
}

// ---------------------------------------------------------------------------
// Loading a hand-edited file

let serverValidator: ReturnType<SchemaValidator['compileRef']> | undefined;
function validateServer(): ReturnType<SchemaValidator['compileRef']> {
  serverValidator ??= new SchemaValidator(loadSpec()).compileRef('#/components/schemas/Server');
  return serverValidator;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;
const FAVICON = /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/;

/**
 * Reads `{"servers": [...]}` (json-server db.json layout), checks every record and
 * returns the servers. `last_ping` is normalised to `toISOString()` form.
 * Throws an Error naming the file, the record and the broken rule.
 */
export function loadDataset(path: string): StoredServer[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`${path}: cannot read the file: ${(err as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`${path}: not valid JSON: ${(err as Error).message}`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc) || !Array.isArray((doc as { servers?: unknown }).servers)) {
    throw new Error(`${path}: expected an object with a "servers" array ({"servers": [...]})`);
  }
  const records = (doc as { servers: unknown[] }).servers;
  const validate = validateServer();
  const seen = new Map<string, number>();
  const out: StoredServer[] = [];
  records.forEach((rec, i) => {
    const r = rec as Record<string, unknown>;
    const where =
      r && typeof r === 'object' && !Array.isArray(r)
        ? `${typeof r.address === 'string' ? r.address : '?'}:${typeof r.port === 'number' || typeof r.port === 'string' ? r.port : '?'}`
        : '?';
    const fail = (rule: string): never => {
      throw new Error(`${path}: servers[${i}] (${where}): ${rule}`);
    };
    if (!r || typeof r !== 'object' || Array.isArray(r)) fail('must be an object');
    if (!validate(r)) {
      const msg = describeErrors(validate.errors, 'record')
        .split('; ')
        .map((m) => m.replace(/^record\./, ''))
        .filter((m, k, all) => all.indexOf(m) === k)
        .join('; ');
      fail(msg);
    }
    if (!('favicon' in r)) fail(`must have property 'favicon' (a data:image/png;base64 URI or null)`);
    if (r.favicon !== null && (typeof r.favicon !== 'string' || !FAVICON.test(r.favicon))) fail('favicon must be a data:image/png;base64 URI or null');
    const s = r as unknown as StoredServer;
    if (s.players_online > s.players_limit) fail(`players_online (${s.players_online}) must not be above players_limit (${s.players_limit})`);
    const t = Date.parse(s.last_ping);
    if (!ISO_DATE.test(s.last_ping) || Number.isNaN(t)) fail(`last_ping must be an ISO 8601 date-time, got ${JSON.stringify(s.last_ping)}`);
    const key = serverKey(s.address, s.port);
    const dup = seen.get(key);
    if (dup !== undefined) fail(`address:port duplicates servers[${dup}]`);
    seen.set(key, i);
    out.push({ ...s, last_ping: new Date(t).toISOString() });
  });
  return out;
}
