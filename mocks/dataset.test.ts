import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, inflateSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../spec/load.ts';
import { SchemaValidator, describeErrors } from '../spec/validator.ts';
import { generateServers, loadDataset } from './dataset.ts';
import { FAVICONS } from './favicons.ts';
import { isTcpShield, stripMotd, type StoredServer } from './server-row.ts';

const NOW = new Date('2025-01-15T12:00:00.000Z');
const DAY = 86_400_000;
const validator = new SchemaValidator(loadSpec());
const validateServer = validator.compileRef('#/components/schemas/Server');

/** Decodes a data URI and checks it is a structurally valid PNG (signature, chunk CRCs, IHDR, inflatable IDAT). */
function checkPng(uri: string): void {
  expect(uri).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
  const buf = Buffer.from(uri.slice('data:image/png;base64,'.length), 'base64');
  expect([...buf.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let off = 8;
  const types: string[] = [];
  const idat: Buffer[] = [];
  let width = 0;
  let height = 0;
  while (off < buf.length) {
    const len = buf.readUInt32BE(off);
    const type = buf.toString('latin1', off + 4, off + 8);
    const data = buf.subarray(off + 8, off + 8 + len);
    expect(buf.readUInt32BE(off + 8 + len)).toBe(crc32(buf.subarray(off + 4, off + 8 + len)));
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect(data[8]).toBe(8);
      expect(data[9]).toBe(2);
    }
    if (type === 'IDAT') idat.push(data);
    types.push(type);
    off += 12 + len;
  }
  expect(types[0]).toBe('IHDR');
  expect(types.at(-1)).toBe('IEND');
  expect(inflateSync(Buffer.concat(idat)).length).toBe(height * (1 + width * 3));
}

describe('generateServers', () => {
  let servers: StoredServer[];
  beforeAll(() => {
    servers = generateServers({ seed: 1337, count: 5000, now: NOW });
  });

  it('is deterministic: same seed, count and now give identical JSON', () => {
    const a = JSON.stringify(generateServers({ seed: 42, count: 800, now: NOW }));
    const b = JSON.stringify(generateServers({ seed: 42, count: 800, now: NOW }));
    expect(a).toBe(b);
    expect(JSON.stringify(servers)).toBe(JSON.stringify(generateServers({ seed: 1337, count: 5000, now: NOW })));
  });

  it('differs with another seed or another now', () => {
    const a = JSON.stringify(generateServers({ seed: 1, count: 200, now: NOW }));
    expect(JSON.stringify(generateServers({ seed: 2, count: 200, now: NOW }))).not.toBe(a);
    expect(JSON.stringify(generateServers({ seed: 1, count: 200, now: new Date(NOW.getTime() + 1000) }))).not.toBe(a);
  });

  it('gives exactly count servers, and none for 0', () => {
    expect(servers).toHaveLength(5000);
    expect(generateServers({ seed: 1, count: 0, now: NOW })).toEqual([]);
  });

  it('rejects a bad count or date', () => {
    expect(() => generateServers({ seed: 1, count: -1, now: NOW })).toThrow(/count/);
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
      'address', 'port', 'version', 'offline_mode', 'players_online', 'players_limit', 'motd', 'motd_stripped',
      'players', 'plugins', 'country', 'country_code', 'region', 'city', 'asn_number', 'asn_name', 'last_ping',
      'favicon', 'detected_mod_pack', 'detected_mod_pack_short',
    ]);
  });

  it('MOTDs carry § codes, HTML-escape < and >, and motd_stripped is motd without §x', () => {
    for (const s of servers) {
      expect(s.motd_stripped).toBe(s.motd.replace(/§./g, ''));
      expect(s.motd).not.toMatch(/[<>]/);
    }
    expect(servers.filter((s) => /§[0-9a-f]/.test(s.motd)).length).toBeGreaterThan(servers.length / 2);
    expect(servers.some((s) => /§l/.test(s.motd) && /§r/.test(s.motd))).toBe(true);
    expect(servers.some((s) => s.motd.includes('&lt;') || s.motd.includes('&gt;'))).toBe(true);
    expect(stripMotd('§aHi§r §lthere')).toBe('Hi there');
  });

  it('players: online never above the limit, a sample of valid v4 uuids and Minecraft names', () => {
    for (const s of servers) {
      expect(s.players_online).toBeLessThanOrEqual(s.players_limit);
      expect(s.players.length).toBeLessThanOrEqual(Math.min(s.players_online, 12));
      expect(new Set(s.players.map((p) => p.uuid)).size).toBe(s.players.length);
      for (const p of s.players) {
        expect(p.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
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
    for (const prefix of ['Paper ', 'Spigot ', 'Purpur ', 'Forge ', 'Fabric ', 'Velocity ', 'BungeeCord ', 'Waterfall ']) {
      expect([...versions].some((v) => v.startsWith(prefix))).toBe(true);
    }
    expect([...versions].some((v) => /^1\.\d+(\.\d+)?-1\.\d+/.test(v))).toBe(true);
  });

  it('plugins: real names on plugin servers, none on vanilla or modded', () => {
    const all = new Set(servers.flatMap((s) => s.plugins));
    for (const p of ['EssentialsX', 'LuckPerms', 'WorldEdit', 'Vault']) expect(all).toContain(p);
    for (const s of servers) {
      if (/^\d/.test(s.version) || /^(Forge|Fabric|NeoForge) /.test(s.version)) expect(s.plugins).toEqual([]);
      expect(new Set(s.plugins).size).toBe(s.plugins.length);
    }
  });

  it('geography is consistent: one name and region per country code, a realistic spread', () => {
    const byCode = new Map<string, string>();
    for (const s of servers) {
      const key = `${s.country}|${s.region}`;
      expect(byCode.get(s.country_code) ?? key).toBe(key);
      byCode.set(s.country_code, key);
    }
    for (const c of ['US', 'DE', 'FR', 'GB', 'RU', 'BR', 'CA', 'PL', 'NL', 'FI', 'SG', 'JP', 'AU', 'ZA']) expect(byCode.has(c)).toBe(true);
    expect(byCode.get('US')).toBe('United States|NA');
    expect(byCode.get('DE')).toBe('Germany|EU');
    expect(byCode.get('AU')).toBe('Australia|OC');
    expect(new Set(servers.map((s) => s.region))).toEqual(new Set(['NA', 'EU', 'AS', 'SA', 'AF', 'OC']));
    const nullCity = servers.filter((s) => s.city === null).length;
    expect(nullCity).toBeGreaterThan(0);
    expect(nullCity).toBeLessThan(servers.length / 3);
  });

  it('ASNs: digit strings, one organisation per number, the big hosters present', () => {
    const byNumber = new Map<string, string>();
    for (const s of servers) {
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
    expect(isTcpShield({ asn_name: 'TCPShield Inc.' })).toBe(true);
    expect(isTcpShield({ asn_name: 'OVH SAS' })).toBe(false);
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
    const now = NOW.getTime();
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

  it('favicons are valid tiny PNG data URIs, or null for some', () => {
    for (const f of FAVICONS) checkPng(f);
    const withIcon = servers.filter((s) => s.favicon !== null);
    expect(withIcon.length).toBeGreaterThan(servers.length / 2);
    expect(withIcon.length).toBeLessThan(servers.length);
    for (const s of withIcon) expect(FAVICONS).toContain(s.favicon);
  });
});

describe('loadDataset', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sls-dataset-'));
  let n = 0;
  const write = (content: unknown): string => {
    const file = join(dir, `db${n++}.json`);
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    return file;
  };
  const sample = (): StoredServer[] => JSON.parse(JSON.stringify(generateServers({ seed: 7, count: 6, now: NOW })));

  it('loads what the generator writes, unchanged', () => {
    const servers = generateServers({ seed: 7, count: 300, now: NOW });
    expect(JSON.stringify(loadDataset(write({ servers })))).toBe(JSON.stringify(servers));
  });

  it('accepts an empty list and normalises last_ping to ISO with ms', () => {
    expect(loadDataset(write({ servers: [] }))).toEqual([]);
    const [s] = sample();
    const loaded = loadDataset(write({ servers: [{ ...s, last_ping: '2024-08-26T07:30:29+02:00' }] }));
    expect(loaded[0]!.last_ping).toBe('2024-08-26T05:30:29.000Z');
  });

  const broken = (i: number, patch: (s: Record<string, unknown>) => void): string => {
    const servers = sample() as unknown as Record<string, unknown>[];
    servers[i]!.address = '1.2.3.4';
    servers[i]!.port = 25565;
    patch(servers[i]!);
    const file = write({ servers });
    try {
      loadDataset(file);
    } catch (err) {
      const msg = (err as Error).message;
      expect(msg.startsWith(`${file}: servers[${i}] (`)).toBe(true);
      return msg;
    }
    throw new Error('loadDataset did not throw');
  };

  it('names the file, record, address:port and rule for a schema violation', () => {
    const msg = broken(3, (s) => (s.port = '25565'));
    expect(msg).toMatch(/servers\[3\] \(1\.2\.3\.4:25565\): port must be integer/);
    expect(broken(2, (s) => (s.offline_mode = true))).toMatch(/servers\[2\] \(1\.2\.3\.4:25565\): offline_mode must be/);
    expect(broken(1, (s) => delete s.motd)).toMatch(/must have property 'motd'/);
    expect(broken(0, (s) => (s.asn_number = 24940))).toMatch(/asn_number must be string/);
    expect(broken(4, (s) => (s.region = 'XX'))).toMatch(/region must be one of/);
  });

  it('checks favicon, players_online <= players_limit and last_ping', () => {
    expect(broken(1, (s) => delete s.favicon)).toMatch(/favicon/);
    expect(broken(1, (s) => (s.favicon = 'http://example.com/x.png'))).toMatch(/favicon/);
    expect(broken(2, (s) => ((s.players_online = 50), (s.players_limit = 20)))).toMatch(/players_online \(50\).*players_limit \(20\)/);
    expect(broken(3, (s) => (s.last_ping = 'yesterday'))).toMatch(/last_ping must be an ISO 8601/);
    expect(broken(3, (s) => (s.last_ping = '2024-13-45T99:00:00Z'))).toMatch(/last_ping/);
  });

  it('rejects a duplicate address:port (host case-insensitive)', () => {
    const servers = sample();
    servers[4] = { ...servers[4]!, address: servers[1]!.address.toUpperCase(), port: servers[1]!.port };
    expect(() => loadDataset(write({ servers }))).toThrow(/servers\[4\] .*duplicates servers\[1\]/);
  });

  it('reports malformed JSON, a missing servers array and a missing file clearly', () => {
    const bad = write('{"servers": [');
    expect(() => loadDataset(bad)).toThrow(new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid JSON`));
    expect(() => loadDataset(write({ server: [] }))).toThrow(/"servers" array/);
    expect(() => loadDataset(write([1, 2]))).toThrow(/"servers" array/);
    expect(() => loadDataset(write({ servers: [42] }))).toThrow(/servers\[0\] \(\?\): must be an object/);
    expect(() => loadDataset(join(dir, 'missing.json'))).toThrow(/missing\.json: cannot read/);
  });
});
