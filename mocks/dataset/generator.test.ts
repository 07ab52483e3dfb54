import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../spec/load.ts';
import { SchemaValidator, describeErrors } from '../../spec/validator.ts';
import { FAVICONS } from './favicons.ts';
import { rowsOf } from './columns.ts';
import { generateDataset, generateServers } from './generator.ts';
import { loadModel } from '../../spec/model.ts';
import { ordersOf, sortOrders, sortRuleOf } from './sort-orders.ts';
import { isTcpShield, type StoredServer } from './server-row.ts';
import { NOW } from '../../testing/instants.ts';

const DAY = 86_400_000;
const validator = new SchemaValidator(loadSpec());
const validateServer = validator.compileRef('#/components/schemas/Server');

describe('generateServers', () => {
  let servers: StoredServer[];
  beforeAll(() => {
    servers = generateServers({ seed: 1337, count: 5000, now: new Date(NOW) });
  });

  it('is deterministic: same seed, count and now give identical JSON', () => {
    const a = JSON.stringify(generateServers({ seed: 42, count: 800, now: new Date(NOW) }));
    const b = JSON.stringify(generateServers({ seed: 42, count: 800, now: new Date(NOW) }));
    expect(a).toBe(b);
    expect(JSON.stringify(servers)).toBe(
      JSON.stringify(generateServers({ seed: 1337, count: 5000, now: new Date(NOW) })),
    );
  });

  it('differs with another seed or another now', () => {
    const a = JSON.stringify(generateServers({ seed: 1, count: 200, now: new Date(NOW) }));
    expect(JSON.stringify(generateServers({ seed: 2, count: 200, now: new Date(NOW) }))).not.toBe(a);
    expect(JSON.stringify(generateServers({ seed: 1, count: 200, now: new Date(NOW + 1000) }))).not.toBe(a);
  });

  it('gives exactly count servers, and none for 0', () => {
    expect(servers).toHaveLength(5000);
    expect(generateServers({ seed: 1, count: 0, now: new Date(NOW) })).toEqual([]);
  });

  it('rejects a bad count or date', () => {
    expect(() => generateServers({ seed: 1, count: -1, now: new Date(NOW) })).toThrow(/count/);
    expect(() => generateServers({ seed: 1, count: 1, now: new Date('nope') })).toThrow(/now/);
  });

  it('every record is valid against the spec Server schema', () => {
    for (const s of servers) {
      const where = `${s.address}:${s.port}`;
      if (!validateServer(s)) throw new Error(`${where}: ${describeErrors(validateServer.errors)}`);
    }
  });

  it('has the search-row fields in spec order, favicon after last_ping', () => {
    expect(Object.keys(servers[0]!)).toEqual([
      'address',
      'port',
      'version',
      'offline_mode',
      'players_online',
      'players_limit',
      'motd',
      'motd_stripped',
      'players',
      'plugins',
      'country',
      'country_code',
      'region',
      'city',
      'asn_number',
      'asn_name',
      'last_ping',
      'favicon',
      'detected_mod_pack',
      'detected_mod_pack_short',
    ]);
  });

  it('MOTDs carry § codes, HTML-escape < and >, and motd_stripped is motd without §x (both null together)', () => {
    for (const s of servers) {
      expect(s.motd_stripped).toBe(s.motd === null ? null : s.motd.replace(/§./g, ''));
      expect(s.motd ?? '').not.toMatch(/[<>]/);
    }
    const motds = servers.map((s) => s.motd).filter((m): m is string => m !== null);
    expect(motds.filter((m) => /§[0-9a-f]/.test(m)).length).toBeGreaterThan(servers.length / 2);
    expect(motds.some((m) => /§l/.test(m) && /§r/.test(m))).toBe(true);
    expect(motds.some((m) => m.includes('&lt;') || m.includes('&gt;'))).toBe(true);
  });

  it('players: online never above the limit, a sample of valid v4 uuids and Minecraft names', () => {
    for (const s of servers) {
      expect(s.players_online).toBeLessThanOrEqual(s.players_limit);
      expect(s.players.length).toBeLessThanOrEqual(Math.min(s.players_online, 12));
      const ids = s.players.map((p) => p.uuid).filter((u) => u !== 'NO-ID');
      expect(new Set(ids).size).toBe(ids.length);
      for (const p of s.players) {
        expect(p.uuid).toMatch(/^(?:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|NO-ID)$/);
        expect(p.name).toMatch(/^[A-Za-z0-9_]{3,16}$/);
      }
    }
    expect(servers.filter((s) => s.players_online === 0).length).toBeGreaterThan(500);
    expect(servers.some((s) => s.players_online > 100)).toBe(true);
    expect(servers.some((s) => s.players.length === 12)).toBe(true);
  });

  it('versions: a real-world spread of vanilla, Paper/Spigot/Purpur, Forge/Fabric, proxies and ranges', () => {
    const versions = new Set(servers.map((s) => s.version));
    for (const v of ['1.20.4', '1.21.1', '1.8.8', '1.12.2']) expect(versions).toContain(v);
    for (const prefix of [
      'Paper ',
      'Spigot ',
      'Purpur ',
      'Forge ',
      'Fabric ',
      'Velocity ',
      'BungeeCord ',
      'Waterfall ',
    ]) {
      expect([...versions].some((v) => v.startsWith(prefix))).toBe(true);
    }
    expect([...versions].some((v) => /^1\.\d+(\.\d+)?-1\.\d+/.test(v))).toBe(true);
  });

  it('plugins: real names on plugin servers, none on vanilla or modded', () => {
    const all = new Set(servers.flatMap((s) => s.plugins.flatMap((p) => p.split(';'))));
    for (const p of ['EssentialsX', 'LuckPerms', 'WorldEdit', 'Vault']) expect(all).toContain(p);
    for (const s of servers) {
      if (/^\d/.test(s.version) || /^(Forge|Fabric|NeoForge) /.test(s.version)) expect(s.plugins).toEqual([]);
      expect(new Set(s.plugins).size).toBe(s.plugins.length);
    }
  });

  it('geography is consistent: one name and region per country code, a realistic spread', () => {
    const byCode = new Map<string, string>();
    for (const s of servers) {
      if (s.country_code === null) continue;
      const key = `${s.country}|${s.region}`;
      expect(byCode.get(s.country_code) ?? key).toBe(key);
      byCode.set(s.country_code, key);
    }
    for (const c of ['US', 'DE', 'FR', 'GB', 'RU', 'BR', 'CA', 'PL', 'NL', 'FI', 'SG', 'JP', 'AU', 'ZA'])
      expect(byCode.has(c)).toBe(true);
    expect(byCode.get('US')).toBe('United States|NA');
    expect(byCode.get('DE')).toBe('Germany|EU');
    expect(byCode.get('AU')).toBe('Australia|OC');
    expect(new Set(servers.map((s) => s.region))).toEqual(new Set(['NA', 'EU', 'AS', 'SA', 'AF', 'OC', null]));
  });

  it('ASNs: digit strings, one organisation per number, the big hosters present', () => {
    const byNumber = new Map<string, string>();
    for (const s of servers) {
      expect(s.asn_number === null).toBe(s.asn_name === null);
      if (s.asn_number === null || s.asn_name === null) continue;
      expect(s.asn_number).toMatch(/^\d+$/);
      expect(byNumber.get(s.asn_number) ?? s.asn_name).toBe(s.asn_name);
      byNumber.set(s.asn_number, s.asn_name);
    }
    expect(byNumber.get('24940')).toBe('Hetzner Online GmbH');
    expect(byNumber.get('16276')).toBe('OVH SAS');
    expect(byNumber.get('16509')).toMatch(/Amazon/);
    expect(byNumber.get('14061')).toMatch(/DigitalOcean/);
    expect(byNumber.get('51167')).toMatch(/Contabo/);
  });

  it('about 5% of servers are behind TCPShield', () => {
    const share = servers.filter(isTcpShield).length / servers.length;
    expect(share).toBeGreaterThan(0.03);
    expect(share).toBeLessThan(0.08);
  });

  it('addresses: unique address:port, mostly IPv4, some hostnames, mostly port 25565', () => {
    const keys = new Set(servers.map((s) => `${s.address.toLowerCase()}:${s.port}`));
    expect(keys.size).toBe(servers.length);
    const ipv4 = servers.filter((s) => /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.test(s.address));
    for (const s of ipv4) for (const o of s.address.split('.')) expect(Number(o)).toBeLessThanOrEqual(255);
    expect(ipv4.length).toBeGreaterThan(servers.length * 0.6);
    const hosts = servers.filter((s) => /^[a-z]+\.[a-z0-9]+\.[a-z.]+$/.test(s.address));
    expect(hosts.length).toBeGreaterThan(servers.length * 0.05);
    expect(ipv4.length + hosts.length).toBe(servers.length);
    const std = servers.filter((s) => s.port === 25565).length;
    expect(std).toBeGreaterThan(servers.length * 0.7);
    expect(std).toBeLessThan(servers.length);
    expect(servers.every((s) => !/^(10|127)\./.test(s.address) && !/^192\.168\./.test(s.address))).toBe(true);
  });

  it('last_ping: ISO with ms and Z, within 60 days before now, a fair share in the last 30 minutes', () => {
    const now = NOW;
    let recent = 0;
    let old = 0;
    for (const s of servers) {
      expect(s.last_ping).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      const t = Date.parse(s.last_ping);
      expect(new Date(t).toISOString()).toBe(s.last_ping);
      expect(t).toBeLessThanOrEqual(now);
      expect(t).toBeGreaterThanOrEqual(now - 60 * DAY);
      if (now - t <= 30 * 60_000) recent++;
      if (now - t > 30 * DAY) old++;
    }
    expect(recent).toBeGreaterThan(servers.length * 0.25);
    expect(recent).toBeLessThan(servers.length * 0.6);
    expect(old).toBeGreaterThan(servers.length * 0.05);
  });

  it('offline_mode is an integer 0 or 1, some 1', () => {
    const offline = servers.filter((s) => s.offline_mode === 1).length;
    expect(servers.every((s) => s.offline_mode === 0 || s.offline_mode === 1)).toBe(true);
    expect(offline).toBeGreaterThan(0);
    expect(offline).toBeLessThan(servers.length / 3);
  });

  it('mod packs only on Forge/Fabric/NeoForge servers, name and short name together', () => {
    const packs = servers.filter((s) => s.detected_mod_pack !== null);
    expect(packs.length).toBeGreaterThan(0);
    for (const s of servers) {
      expect(s.detected_mod_pack === null).toBe(s.detected_mod_pack_short === null);
      if (s.detected_mod_pack !== null) expect(s.version).toMatch(/^(Forge|Fabric|NeoForge) /);
    }
    const names = new Set(packs.map((s) => `${s.detected_mod_pack}/${s.detected_mod_pack_short}`));
    expect(names).toContain('All the Mods 9/ATM9');
    expect(names).toContain('RLCraft/RLCraft');
  });

  it('favicons: one of FAVICONS, or null for some', () => {
    const withIcon = servers.filter((s) => s.favicon !== null);
    expect(withIcon.length).toBeGreaterThan(servers.length / 2);
    expect(withIcon.length).toBeLessThan(servers.length);
    for (const s of withIcon) expect(FAVICONS).toContain(s.favicon);
  });
});

// The generator's exact output, pinned: digests of the rows (as the API serializes them)
// and of every sort order, for a spread of seeds, sizes (pools grow with the dataset up
// to 4,096 entries; hostnames collide and get numbers at 20k) and both row kinds. The
// columnar generator is checked against what the row-by-row one produced (issue 24):
// any change here changes answers. A deliberate change to the generated data updates
// these digests (`npx vitest run mocks/dataset/generator.test.ts -u`) and says so in its commit.
describe('generated output is pinned', () => {
  const digest = (x: unknown): string =>
    createHash('sha256')
      .update(typeof x === 'string' ? x : JSON.stringify(x))
      .digest('hex')
      .slice(0, 16);
  const at = new Date(NOW);
  const cases: [seed: number, count: number, clean: boolean][] = [
    [1337, 1000, false],
    [1337, 1000, true],
    [42, 1000, false],
    [7, 64, false],
    [0, 1, false],
    [4294967295, 300, false],
    [99, 5000, false],
    [42, 20000, false],
    [5, 100000, true],
  ];
  it.each(cases)('seed %i, %i servers, clean %s: rows and orders as before', (seed, count, clean) => {
    const opts = { seed, count, now: at, clean };
    const ds = generateDataset(opts);
    const rows = rowsOf(ds);
    if (count <= 20000) expect(digest(generateServers(opts))).toBe(digest(rows));
    const rule = sortRuleOf(loadModel().byId.get('findServers'));
    const orders = sortOrders(ds, rule);
    expect({
      rows: digest(rows),
      orders: Object.fromEntries(
        [...ordersOf(rule)].map(([name, { key }]) => {
          const o = orders.get(key)!;
          return [name, digest(Buffer.from(o.buffer, o.byteOffset, o.byteLength).toString('hex'))];
        }),
      ),
    }).toMatchSnapshot();
  });
});
