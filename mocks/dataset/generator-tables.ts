// The world the generated servers live in: versions, mod packs, plugins, hosters,
// countries and the names and numbers servers use; weights are rough real-world shares.
// Data only; mocks/dataset/generator.ts draws from it.
import type { Player, Region } from '../../spec/openapi.gen.ts';

export type Kind = 'vanilla' | 'bukkit' | 'modded' | 'proxy';

/** Version strings as servers report them, with a rough real-world share. */
export const VERSIONS: readonly (readonly [readonly [string, Kind], number])[] = [
  [['1.20.4', 'vanilla'], 40],
  [['1.21.1', 'vanilla'], 45],
  [['1.21.4', 'vanilla'], 30],
  [['1.21', 'vanilla'], 10],
  [['1.20.1', 'vanilla'], 30],
  [['1.19.4', 'vanilla'], 12],
  [['1.18.2', 'vanilla'], 12],
  [['1.16.5', 'vanilla'], 14],
  [['1.12.2', 'vanilla'], 14],
  [['1.8.8', 'vanilla'], 20],
  [['1.8.9', 'vanilla'], 6],
  [['1.7.10', 'vanilla'], 4],
  [['1.20-1.20.4', 'vanilla'], 4],
  [['1.8-1.21.4', 'vanilla'], 5],
  [['1.7.2-1.21.1', 'vanilla'], 3],
  [['1.21.5', 'vanilla'], 6],
  [['Paper 1.21.1', 'bukkit'], 40],
  [['Paper 1.20.4', 'bukkit'], 32],
  [['Paper 1.21.4', 'bukkit'], 25],
  [['Paper 1.20.1', 'bukkit'], 14],
  [['Paper 1.19.4', 'bukkit'], 6],
  [['Paper 1.16.5', 'bukkit'], 7],
  [['Paper 1.12.2', 'bukkit'], 5],
  [['Paper 1.8.8', 'bukkit'], 8],
  [['Spigot 1.8.8', 'bukkit'], 14],
  [['Spigot 1.20.4', 'bukkit'], 10],
  [['Spigot 1.21.1', 'bukkit'], 9],
  [['Spigot 1.12.2', 'bukkit'], 6],
  [['CraftBukkit 1.20.1', 'bukkit'], 3],
  [['Purpur 1.21.1', 'bukkit'], 8],
  [['Purpur 1.20.4', 'bukkit'], 6],
  [['Folia 1.20.4', 'bukkit'], 1],
  [['Forge 1.20.1', 'modded'], 14],
  [['Forge 1.12.2', 'modded'], 8],
  [['Forge 1.16.5', 'modded'], 6],
  [['Forge 1.18.2', 'modded'], 5],
  [['Forge 1.7.10', 'modded'], 2],
  [['NeoForge 1.21.1', 'modded'], 5],
  [['Fabric 1.21.1', 'modded'], 8],
  [['Fabric 1.20.1', 'modded'], 6],
  [['Fabric 1.21.4', 'modded'], 4],
  [['Velocity 3.3.0', 'proxy'], 10],
  [['Velocity 3.4.0', 'proxy'], 6],
  [['BungeeCord 1.8.x-1.21.x', 'proxy'], 9],
  [['Waterfall 1.20', 'proxy'], 5],
  [['Waterfall 1.21', 'proxy'], 3],
];

/** Mod packs: [name, short name, the version string servers running it report]. */
export const MOD_PACKS: readonly (readonly [string, string, string])[] = [
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

export const BUKKIT_PLUGINS = [
  'EssentialsX',
  'EssentialsXChat',
  'EssentialsXSpawn',
  'LuckPerms',
  'Vault',
  'WorldEdit',
  'WorldGuard',
  'CoreProtect',
  'Multiverse-Core',
  'ViaVersion',
  'ViaBackwards',
  'PlaceholderAPI',
  'ProtocolLib',
  'GriefPrevention',
  'Citizens',
  'mcMMO',
  'DiscordSRV',
  'dynmap',
  'Geyser-Spigot',
  'floodgate',
  'TAB',
  'ChestShop',
  'Towny',
  'SkinsRestorer',
  'AuthMe',
  'Shopkeepers',
  'Jobs',
  'ClearLag',
  'Chunky',
  'spark',
  'DecentHolograms',
  'HolographicDisplays',
  'MythicMobs',
  'SilkSpawners',
  'CMI',
  'Quests',
  'AdvancedBan',
  'LiteBans',
  'voicechat',
  'BlueMap',
  'FastAsyncWorldEdit',
  'ItemsAdder',
  'Essentials',
];
export const PROXY_PLUGINS = [
  'LuckPerms',
  'ViaVersion',
  'Geyser-Velocity',
  'floodgate',
  'LiteBans',
  'Maintenance',
  'SkinsRestorer',
  'TAB',
  'PremiumVanish',
  'LibertyBans',
  'spark',
  'AdvancedBan',
  'BungeeGuard',
  'Plan',
];
/** Always-first plugins: the ones nearly every Bukkit server runs. */
export const CORE_PLUGINS = ['EssentialsX', 'LuckPerms', 'Vault', 'WorldEdit'];

export interface Asn {
  readonly number: string;
  readonly name: string;
}
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
export const TCPSHIELD = asn(209242, 'TCPShield Inc.');

export interface Country {
  readonly name: string;
  readonly code: string;
  readonly region: Region;
  readonly cities: readonly string[];
  readonly asns: readonly Asn[];
}
export const COUNTRIES: readonly (readonly [Country, number])[] = [
  [
    {
      name: 'United States',
      code: 'US',
      region: 'NA',
      cities: [
        'Ashburn',
        'New York',
        'Los Angeles',
        'Chicago',
        'Dallas',
        'Seattle',
        'Miami',
        'Atlanta',
        'San Jose',
        'Phoenix',
        'Hillsboro',
        'Vint Hill',
      ],
      asns: [
        AMAZON,
        OVH,
        DIGITALOCEAN,
        GOOGLE,
        VULTR,
        LINODE,
        asn(7922, 'Comcast Cable Communications, LLC'),
        asn(20115, 'Charter Communications Inc'),
        HETZNER,
      ],
    },
    24,
  ],
  [
    {
      name: 'Germany',
      code: 'DE',
      region: 'EU',
      cities: ['Frankfurt am Main', 'Nuremberg', 'Falkenstein', 'Berlin', 'Munich', 'Hamburg', 'Cologne', 'Düsseldorf'],
      asns: [
        HETZNER,
        CONTABO,
        asn(197540, 'netcup GmbH'),
        asn(3320, 'Deutsche Telekom AG'),
        OVH,
        asn(8560, 'IONOS SE'),
      ],
    },
    15,
  ],
  [
    {
      name: 'France',
      code: 'FR',
      region: 'EU',
      cities: ['Paris', 'Roubaix', 'Gravelines', 'Strasbourg', 'Lyon', 'Marseille'],
      asns: [OVH, asn(12322, 'Free SAS'), asn(3215, 'Orange S.A.'), asn(12876, 'SCALEWAY S.A.S.')],
    },
    7,
  ],
  [
    {
      name: 'United Kingdom',
      code: 'GB',
      region: 'EU',
      cities: ['London', 'Manchester', 'Birmingham', 'Edinburgh', 'Leeds', 'Coventry'],
      asns: [OVH, asn(2856, 'British Telecommunications PLC'), asn(5089, 'Virgin Media Limited'), AMAZON, DIGITALOCEAN],
    },
    6,
  ],
  [
    {
      name: 'Russia',
      code: 'RU',
      region: 'EU',
      cities: ['Moscow', 'Saint Petersburg', 'Novosibirsk', 'Yekaterinburg', 'Kazan'],
      asns: [
        asn(12389, 'PJSC Rostelecom'),
        asn(49505, 'JSC Selectel'),
        asn(9049, 'JSC ER-Telecom Holding'),
        asn(35807, 'SkyNet Ltd.'),
      ],
    },
    6,
  ],
  [
    {
      name: 'Brazil',
      code: 'BR',
      region: 'SA',
      cities: ['São Paulo', 'Rio de Janeiro', 'Belo Horizonte', 'Curitiba', 'Porto Alegre'],
      asns: [asn(28573, 'Claro NXT Telecomunicacoes Ltda'), asn(26599, 'TELEFONICA BRASIL S.A'), AMAZON, OVH],
    },
    5,
  ],
  [
    {
      name: 'Canada',
      code: 'CA',
      region: 'NA',
      cities: ['Montreal', 'Toronto', 'Vancouver', 'Beauharnois', 'Calgary'],
      asns: [OVH, asn(812, 'Rogers Communications Canada Inc.'), asn(577, 'Bell Canada'), DIGITALOCEAN],
    },
    5,
  ],
  [
    {
      name: 'Poland',
      code: 'PL',
      region: 'EU',
      cities: ['Warsaw', 'Kraków', 'Wrocław', 'Gdańsk', 'Poznań'],
      asns: [
        OVH,
        asn(5617, 'Orange Polska Spolka Akcyjna'),
        asn(12741, 'Netia SA'),
        asn(29522, 'Krakowskie e-Centrum Informatyczne JUMP Dziedzic, Pytel Sp. j.'),
      ],
    },
    4,
  ],
  [
    {
      name: 'Netherlands',
      code: 'NL',
      region: 'EU',
      cities: ['Amsterdam', 'Rotterdam', 'Dronten', 'Naaldwijk'],
      asns: [DIGITALOCEAN, asn(60781, 'Leaseweb Netherlands B.V.'), asn(1136, 'KPN B.V.'), GOOGLE],
    },
    3,
  ],
  [
    {
      name: 'Finland',
      code: 'FI',
      region: 'EU',
      cities: ['Helsinki', 'Tuusula', 'Espoo'],
      asns: [HETZNER, asn(719, 'Elisa Oyj')],
    },
    2,
  ],
  [
    {
      name: 'Singapore',
      code: 'SG',
      region: 'AS',
      cities: ['Singapore'],
      asns: [DIGITALOCEAN, AMAZON, OVH, asn(7473, 'Singapore Telecommunications Ltd')],
    },
    2,
  ],
  [
    {
      name: 'Japan',
      code: 'JP',
      region: 'AS',
      cities: ['Tokyo', 'Osaka'],
      asns: [asn(4713, 'NTT Communications Corporation'), AMAZON, asn(9371, 'SAKURA Internet Inc.')],
    },
    2,
  ],
  [
    {
      name: 'Australia',
      code: 'AU',
      region: 'OC',
      cities: ['Sydney', 'Melbourne', 'Brisbane', 'Perth'],
      asns: [asn(1221, 'Telstra Corporation Ltd'), AMAZON, asn(7545, 'TPG Telecom Limited'), OVH],
    },
    2,
  ],
  [
    {
      name: 'South Africa',
      code: 'ZA',
      region: 'AF',
      cities: ['Johannesburg', 'Cape Town', 'Durban'],
      asns: [asn(16637, 'MTN SA'), asn(37153, 'Xneelo (Pty) Ltd'), AMAZON],
    },
    1,
  ],
  [
    {
      name: 'Spain',
      code: 'ES',
      region: 'EU',
      cities: ['Madrid', 'Barcelona', 'Valencia'],
      asns: [asn(3352, 'TELEFONICA DE ESPANA S.A.U.'), OVH],
    },
    2,
  ],
  [
    {
      name: 'Italy',
      code: 'IT',
      region: 'EU',
      cities: ['Milan', 'Rome', 'Turin'],
      asns: [asn(3269, 'Telecom Italia S.p.A.'), asn(31034, 'Aruba S.p.A.')],
    },
    1.5,
  ],
  [
    {
      name: 'Sweden',
      code: 'SE',
      region: 'EU',
      cities: ['Stockholm', 'Gothenburg'],
      asns: [asn(3301, 'Telia Company AB'), asn(8473, 'Bahnhof AB')],
    },
    1,
  ],
  [
    {
      name: 'Czechia',
      code: 'CZ',
      region: 'EU',
      cities: ['Prague', 'Brno'],
      asns: [asn(5588, 'T-Mobile Czech Republic a.s.'), asn(24971, 'Master Internet s.r.o')],
    },
    1,
  ],
  [
    {
      name: 'Ukraine',
      code: 'UA',
      region: 'EU',
      cities: ['Kyiv', 'Kharkiv', 'Lviv'],
      asns: [asn(15895, 'Kyivstar PJSC'), asn(3326, 'Datagroup PJSC')],
    },
    1,
  ],
  [
    {
      name: 'Turkey',
      code: 'TR',
      region: 'AS',
      cities: ['Istanbul', 'Ankara', 'Izmir'],
      asns: [asn(9121, 'Turk Telekomunikasyon Anonim Sirketi'), asn(47331, 'TTNet A.S.')],
    },
    1.5,
  ],
  [
    {
      name: 'India',
      code: 'IN',
      region: 'AS',
      cities: ['Mumbai', 'Bengaluru', 'New Delhi'],
      asns: [asn(55836, 'Reliance Jio Infocomm Limited'), AMAZON, DIGITALOCEAN],
    },
    1,
  ],
  [
    {
      name: 'South Korea',
      code: 'KR',
      region: 'AS',
      cities: ['Seoul', 'Busan'],
      asns: [asn(4766, 'Korea Telecom'), asn(9318, 'SK Broadband Co Ltd')],
    },
    1,
  ],
  [
    {
      name: 'Vietnam',
      code: 'VN',
      region: 'AS',
      cities: ['Hanoi', 'Ho Chi Minh City'],
      asns: [asn(7552, 'Viettel Group'), asn(45899, 'VNPT Corp')],
    },
    1,
  ],
  [
    {
      name: 'Indonesia',
      code: 'ID',
      region: 'AS',
      cities: ['Jakarta', 'Surabaya'],
      asns: [asn(7713, 'PT Telekomunikasi Indonesia')],
    },
    0.8,
  ],
  [
    {
      name: 'Argentina',
      code: 'AR',
      region: 'SA',
      cities: ['Buenos Aires', 'Córdoba'],
      asns: [asn(7303, 'Telecom Argentina S.A.')],
    },
    0.8,
  ],
  [{ name: 'Chile', code: 'CL', region: 'SA', cities: ['Santiago'], asns: [asn(27651, 'Entel Chile S.A.')] }, 0.5],
  [
    {
      name: 'Mexico',
      code: 'MX',
      region: 'NA',
      cities: ['Mexico City', 'Guadalajara', 'Monterrey'],
      asns: [asn(8151, 'UNINET'), AMAZON],
    },
    1,
  ],
  [
    {
      name: 'New Zealand',
      code: 'NZ',
      region: 'OC',
      cities: ['Auckland', 'Wellington'],
      asns: [asn(9500, 'One New Zealand Group Limited')],
    },
    0.4,
  ],
  [{ name: 'Egypt', code: 'EG', region: 'AF', cities: ['Cairo'], asns: [asn(8452, 'TE Data')] }, 0.2],
];
/** Where TCPShield's proxies geolocate. */
export const TCPSHIELD_COUNTRIES = ['US', 'DE', 'FR', 'SG', 'GB', 'CA'];

export const MODES = [
  'Survival',
  'SMP',
  'Skyblock',
  'Factions',
  'Prison',
  'Creative',
  'Minigames',
  'BedWars',
  'SkyWars',
  'KitPvP',
  'Anarchy',
  'Towny',
  'Lifesteal SMP',
  'Earth',
  'Roleplay',
  'Hardcore',
  'Parkour',
  'OneBlock',
  'Modded Survival',
  'Economy',
  'Hunger Games',
  'Practice PvP',
  'Vanilla+',
  'Cobblemon',
  'Pixelmon',
];
export const TAGLINES = [
  'New season out now!',
  'Join our Discord!',
  'Now with 1.21 support',
  'Economy | McMMO | Jobs',
  'No pay to win',
  'Whitelist off - come play',
  'Est. 2013',
  'Updated to 1.21!',
  'Friendly community, active staff',
  'Vote daily for rewards',
  'Server restarting soon',
  'Grand opening this weekend!',
  'Beta testing - expect bugs',
  'Java & Bedrock',
  'Cracked & premium welcome',
  'Custom enchants, crates & more',
  'Map reset every month',
  '24/7 uptime',
  'Voice chat enabled',
  'Claim land, build, trade',
];
export const SERVER_SUFFIXES = [
  'Craft',
  'MC',
  'Network',
  'SMP',
  'Realms',
  'Land',
  'Mine',
  'Blocks',
  'PvP',
  'Games',
  'Nation',
  'World',
];
export const HOST_TLDS = ['net', 'com', 'org', 'gg', 'me', 'xyz', 'eu', 'de', 'co.uk', 'fun'];
export const HOST_PREFIXES = ['play', 'mc', 'play', 'join', 'hub', 'smp'];
export const ODD_PORTS = [
  25566, 25567, 25568, 25570, 25575, 25580, 25590, 25600, 25555, 25500, 19132, 25665, 30000, 30066, 27015, 40000,
];
/** players_limit values, with a rough share. */
export const PLAYER_LIMITS: readonly (readonly [number, number])[] = [
  [20, 30],
  [10, 5],
  [8, 2],
  [50, 15],
  [100, 20],
  [200, 8],
  [500, 7],
  [1000, 5],
  [2000, 3],
  [1, 1],
  [69, 1],
  [420, 1],
  [2024, 1],
  [5000, 1],
];
export const PROXY_LIMITS = [500, 1000, 2000, 5000, 10000];
export const FAMOUS_PLAYERS: readonly Player[] = [
  { uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5', name: 'Notch' },
  { uuid: '853c80ef-3c37-49fd-aa49-938b674adae6', name: 'jeb_' },
  { uuid: '61699b2e-d327-4a01-9f1e-0ea8c3f06bc6', name: 'Dinnerbone' },
];
