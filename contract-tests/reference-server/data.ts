// The reference server's listing: a few hundred servers as the real stored rows look,
// from its own tiny seeded generator (the oracle shares no code with the mock). Nulls
// come at the rates the real data has them, wherever the spec allows a null.

/** A stored row as the generator makes it (search rows and pings are cut from it). */
export type ReferenceRow = ReturnType<typeof referenceRows>[number];

/** mulberry32: small, seeded, good enough for test data. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * How often a field is null in the stored rows, as the spec allows (observed): `city` in
 * most rows (the city lookup usually yields nothing); country, code, region and city
 * together when an address has no GeoIP record; the ASN fields without an ASN record;
 * the MOTD (and its stripped text) when a server's description has no plain text.
 * A player without an id is stored as `NO-ID`.
 */
const NULL_RATES = {
  city: 0.7,
  geo: 0.03,
  asn: 0.02,
  motd: 0.03,
  favicon: 0.4,
  detected_mod_pack: 0.92,
  noIdPlayer: 0.05,
};

const VERSIONS: [string, number][] = [
  ['1.20.4', 14],
  ['1.21.1', 12],
  ['Paper 1.21.1', 12],
  ['Paper 1.20.4', 8],
  ['1.8.9', 9],
  ['Velocity 3.3.0', 5],
  ['1.20-1.20.4', 4],
  ['Spigot 1.19.4', 5],
  ['Forge 1.20.1', 4],
  ['Purpur 1.21', 4],
  ['1.12.2', 5],
  ['BungeeCord 1.21', 3],
];
const COUNTRIES: { country: string; code: string; region: string; cities: string[]; asns: [string, string][] }[] = [
  {
    country: 'Germany',
    code: 'DE',
    region: 'EU',
    cities: ['Frankfurt am Main', 'Nuremberg', 'Falkenstein'],
    asns: [
      ['24940', 'Hetzner Online GmbH'],
      ['51167', 'Contabo GmbH'],
    ],
  },
  {
    country: 'United States',
    code: 'US',
    region: 'NA',
    cities: ['Ashburn', 'Dallas', 'Los Angeles'],
    asns: [
      ['16509', 'Amazon.com, Inc.'],
      ['14061', 'DigitalOcean, LLC'],
    ],
  },
  { country: 'France', code: 'FR', region: 'EU', cities: ['Roubaix', 'Gravelines'], asns: [['16276', 'OVH SAS']] },
  {
    country: 'Brazil',
    code: 'BR',
    region: 'SA',
    cities: ['São Paulo'],
    asns: [['28573', 'Claro NXT Telecomunicacoes Ltda']],
  },
  { country: 'Russia', code: 'RU', region: 'EU', cities: ['Moscow'], asns: [['35807', 'SkyNet Ltd.']] },
  { country: 'Japan', code: 'JP', region: 'AS', cities: ['Tokyo'], asns: [['2516', 'KDDI Corporation']] },
  { country: 'Australia', code: 'AU', region: 'OC', cities: ['Sydney'], asns: [['1221', 'Telstra Limited']] },
  { country: 'United Kingdom', code: 'GB', region: 'EU', cities: ['London'], asns: [['5089', 'Virgin Media Limited']] },
  {
    country: 'South Africa',
    code: 'ZA',
    region: 'AF',
    cities: ['Johannesburg'],
    asns: [['37611', 'Afrihost (Pty) Ltd']],
  },
];
const TCPSHIELD: [string, string] = ['209242', 'TCPShield Inc.'];
const NAMES = [
  'Emerald',
  'Block',
  'Creeper',
  'Nether',
  'Sky',
  'Pixel',
  'Void',
  'Frost',
  'Iron',
  'Obsidian',
  'Lunar',
  'Ender',
];
const SUFFIXES = ['Craft', 'MC', 'Realms', 'Network', 'Land', 'Isles'];
const MODES = ['Survival', 'Skyblock', 'Factions', 'Prison', 'Creative', 'Minigames', 'Lifesteal'];
const PLUGINS = [
  'EssentialsX',
  'LuckPerms',
  'WorldEdit',
  'WorldGuard',
  'Vault',
  'CoreProtect',
  'ViaVersion',
  'Geyser-Spigot',
  'PlaceholderAPI',
];
const PACKS = [
  ['All the Mods 9', 'ATM9'],
  ['RLCraft', 'RLC'],
  ['FTB StoneBlock 3', 'SB3'],
  ['Create: Above and Beyond', 'CABIN'],
];
const PLAYERS = [
  'Notch',
  'jeb_',
  'Dinnerbone',
  'Grumm',
  'xX_Steve_Xx',
  'AlexTheGreat',
  'Miner49er',
  'RedstoneRita',
  'Builder_Bob',
  'PixelPam',
];
const FAVICON =
  'data:image/png;base64,' +
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PORTS = [25566, 25567, 19132, 25575, 30000];

export function referenceRows(count = 320, seed = 20260301, now = Date.now()) {
  const r = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const weighted = (xs: [string, number][]): string => {
    let n = r() * xs.reduce((s, [, w]) => s + w, 0);
    for (const [v, w] of xs) if ((n -= w) < 0) return v;
    return xs[0]![0];
  };
  const uuid = () => 'xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx'.replace(/x/g, () => Math.floor(r() * 16).toString(16));
  const taken = new Set<string>();
  /** One server, at an address and port no other has. */
  const draw = () => {
    let name: string;
    let address: string;
    let port: number;
    do {
      name = `${pick(NAMES)}${pick(SUFFIXES)}`;
      address =
        r() < 0.3
          ? `play.${name.toLowerCase()}${Math.floor(r() * 90) + 10}.net`
          : `${1 + Math.floor(r() * 222)}.${Math.floor(r() * 256)}.${Math.floor(r() * 256)}.` +
            `${1 + Math.floor(r() * 254)}`;
      port = r() < 0.85 ? 25565 : pick(PORTS);
    } while (taken.has(`${address}:${port}`));
    taken.add(`${address}:${port}`);
    const place = pick(COUNTRIES);
    const tcp = r() < 0.06;
    const [asn_number, asn_name] = tcp ? TCPSHIELD : r() < NULL_RATES.asn ? [null, null] : pick(place.asns);
    const noGeo = !tcp && r() < NULL_RATES.geo;
    const players_limit = pick([20, 50, 100, 200, 500, 1000]);
    const players_online = r() < 0.4 ? 0 : Math.floor(r() * (players_limit + 1));
    const mode = pick(MODES);
    const motd =
      r() < NULL_RATES.motd
        ? null
        : pick([
            `§a${name} §7| §b${mode}`,
            `§6§l${name}§r §8» §e${mode} server`,
            `Welcome to ${name}! ${mode}`,
            `§c${mode}§r on §d${name}`,
          ]);
    const pack = r() >= NULL_RATES.detected_mod_pack ? pick(PACKS) : null;
    const plugins =
      r() < 0.6 ? [] : Array.from(new Set(Array.from({ length: 1 + Math.floor(r() * 5) }, () => pick(PLUGINS))));
    // The real ping worker joins plugin names with ';' where the search splits on ','.
    if (plugins.length > 1 && r() < 0.1) plugins.splice(0, 2, `${plugins[0]};${plugins[1]}`);
    const b = r();
    const agoMs =
      (b < 0.4
        ? r() * 30 * 60
        : b < 0.6
          ? 1800 + r() * 84_600
          : b < 0.85
            ? 86_400 + r() * 29 * 86_400
            : 30 * 86_400 + r() * 30 * 86_400) * 1000;
    return {
      address,
      port,
      version: pack ? 'Forge 1.20.1' : weighted(VERSIONS),
      offline_mode: r() < 0.1 ? 1 : 0,
      players_online,
      players_limit,
      motd,
      motd_stripped: motd === null ? null : motd.replace(/§./g, ''),
      players: players_online
        ? Array.from({ length: Math.min(players_online, 1 + Math.floor(r() * 4)) }, () => ({
            uuid: r() < NULL_RATES.noIdPlayer ? 'NO-ID' : uuid(),
            name: pick(PLAYERS),
          }))
        : [],
      plugins,
      country: noGeo ? null : place.country,
      country_code: noGeo ? null : place.code,
      region: noGeo ? null : place.region,
      city: noGeo || r() < NULL_RATES.city ? null : pick(place.cities),
      asn_number,
      asn_name,
      last_ping: new Date(Math.floor((now - agoMs) / 1000) * 1000).toISOString(),
      favicon: r() < NULL_RATES.favicon ? null : FAVICON,
      detected_mod_pack: pack?.[0] ?? null,
      detected_mod_pack_short: pack?.[1] ?? null,
    };
  };
  return Array.from({ length: count }, draw);
}
