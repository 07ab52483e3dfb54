import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../../spec/load.ts';
import { loadModel } from '../../../spec/model.ts';
import { SchemaValidator, describeErrors } from '../../../spec/validator.ts';
import { FAVICONS } from '../../dataset/favicons.ts';
import { generateServers } from '../../dataset/generator.ts';
import { findServer, parseAddress, pingAnswer } from './ping.ts';
import { buildIndex } from '../../search/search.ts';
import type { StoredServer } from '../../dataset/server-row.ts';
import { type ServerFields, storedServer } from '../../dataset/server-builder.ts';
import { NOW } from '../../../testing/instants.ts';

const MIN = 60_000;
const { limits } = loadModel();
const validatePing = new SchemaValidator(loadSpec()).compileRef('#/components/schemas/PingResponse');

/** A stored server (the package's builder, server()): `ago` = ms before NOW of its last ping. */
function mk(over: ServerFields & { ago?: number } = {}): StoredServer {
  const { ago = 5 * MIN, ...rest } = over;
  return storedServer(
    {
      address: '94.19.15.232',
      version: 'Paper 1.21.1',
      players_online: 2,
      players_limit: 100,
      motd: '§aWelcome§r to My Server',
      players: [{ uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5', name: 'Notch' }],
      plugins: ['EssentialsX'],
      country: 'Russia',
      country_code: 'RU',
      asn_number: '35807',
      asn_name: 'SkyNet Ltd.',
      ...rest,
      pingedAgo: ago,
    },
    NOW,
  );
}

describe('parseAddress', () => {
  it('reads host and host:port, the port defaulting to 25565', () => {
    expect(limits.defaultPort).toBe(25565);
    expect(parseAddress('94.19.15.232:25566', limits.defaultPort)).toEqual({ host: '94.19.15.232', port: 25566 });
    expect(parseAddress('94.19.15.232', limits.defaultPort)).toEqual({ host: '94.19.15.232', port: 25565 });
    expect(parseAddress('Play.Example.NET', limits.defaultPort)).toEqual({ host: 'Play.Example.NET', port: 25565 });
    expect(parseAddress('play.example.net:1', limits.defaultPort)).toEqual({ host: 'play.example.net', port: 1 });
    expect(parseAddress('play.example.net:65535', limits.defaultPort)).toEqual({
      host: 'play.example.net',
      port: 65535,
    });
  });

  it('rejects a bad port or an empty host', () => {
    for (const bad of ['a:0', 'a:65536', 'a:', 'a:x', 'a:12.5', 'a:-1', 'a:123456', ':25565', '']) {
      expect(() => parseAddress(bad, limits.defaultPort), bad).toThrow();
    }
  });
});

describe('findServer', () => {
  const data = [mk(), mk({ port: 25566, version: '1.8.8' }), mk({ address: 'play.example.net', port: 25565 })];
  const ix = buildIndex(data);

  it('finds by host and port, host case-insensitive, port defaulting to 25565', () => {
    expect(findServer(ix, '94.19.15.232', 25565)).toEqual(data[0]);
    expect(findServer(ix, '94.19.15.232', 25566)).toEqual(data[1]);
    expect(findServer(ix, '94.19.15.232', limits.defaultPort)).toEqual(data[0]);
    expect(findServer(ix, 'PLAY.Example.Net', 25565)).toEqual(data[2]);
  });

  it('answers undefined for a server that is not indexed', () => {
    expect(findServer(ix, '94.19.15.232', 1)).toBeUndefined();
    expect(findServer(ix, 'nowhere.example', 25565)).toBeUndefined();
  });

  it('finds hosts stored in any case, non-ASCII ones too; of duplicates, the first row', () => {
    const odd = [
      mk({ address: 'Play.Example.NET' }),
      mk({ address: 'ÄRGER.example', port: 1 }),
      mk({ address: 'dup.example', version: 'first' }),
      mk({ address: 'DUP.example', version: 'second' }),
    ];
    const oix = buildIndex(odd);
    expect(findServer(oix, 'play.example.net', 25565)?.address).toBe('Play.Example.NET');
    expect(findServer(oix, 'ärger.EXAMPLE', 1)?.address).toBe('ÄRGER.example');
    expect(findServer(oix, 'ärger.example', 25565)).toBeUndefined();
    expect(findServer(oix, 'dup.example', 25565)?.version).toBe('first');
  });

  it('finds every row of a generated listing by its address, and nothing at a port it does not use', () => {
    const rows = generateServers({ seed: 4, count: 5000, now: new Date(NOW) });
    const gix = buildIndex(rows);
    for (const r of rows) {
      expect(findServer(gix, r.address.toUpperCase(), r.port)?.address).toBe(r.address);
      expect(findServer(gix, r.address, 7)).toBeUndefined();
    }
  });

  it('works with parseAddress for the host:port path form', () => {
    const { host, port } = parseAddress('94.19.15.232:25566', limits.defaultPort);
    expect(findServer(ix, host, port)?.version).toBe('1.8.8');
  });
});

describe('pingAnswer', () => {
  it('is online while the stored ping is at most 30 minutes old, refreshing after', () => {
    expect(limits.refreshAfterMs).toBe(30 * MIN);
    expect(pingAnswer(mk({ ago: 0 }), NOW, limits.refreshAfterMs)).toMatchObject({ status: 'online', refresh: false });
    expect(pingAnswer(mk({ ago: 30 * MIN }), NOW, limits.refreshAfterMs)).toMatchObject({
      status: 'online',
      refresh: false,
    });
    expect(pingAnswer(mk({ ago: 30 * MIN + 1000 }), NOW, limits.refreshAfterMs)).toMatchObject({
      status: 'refreshing',
      refresh: true,
    });
    expect(pingAnswer(mk({ ago: 40 * 86_400_000 }), NOW, limits.refreshAfterMs)).toMatchObject({
      status: 'refreshing',
      refresh: true,
    });
  });

  it(
    'answers the ServerCore fields in spec order, favicon always present, without players, plugins, ' + 'motd_stripped',
    () => {
      const a = pingAnswer(mk(), NOW, limits.refreshAfterMs);
      expect(Object.keys(a)).toEqual(['status', 'refresh', 'server']);
      expect(Object.keys(a.server)).toEqual([
        'address',
        'port',
        'version',
        'offline_mode',
        'players_online',
        'players_limit',
        'motd',
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
      expect(a.server.favicon).toBeNull();
      expect(pingAnswer(mk({ favicon: FAVICONS[2]! }), NOW, limits.refreshAfterMs).server.favicon).toBe(FAVICONS[2]);
      expect(a.server.last_ping).toBe(mk().last_ping);
    },
  );

  it('is valid against the PingResponse schema for every generated server', () => {
    const servers = generateServers({ seed: 5, count: 500, now: new Date(NOW) });
    let refreshing = 0;
    for (const s of servers) {
      const a = pingAnswer(s, NOW, limits.refreshAfterMs);
      if (!validatePing(a)) throw new Error(describeErrors(validatePing.errors, 'ping'));
      if (a.refresh) refreshing++;
    }
    expect(refreshing).toBeGreaterThan(0);
    expect(refreshing).toBeLessThan(servers.length);
  });
});
