import { describe, expect, it } from 'vitest';
import type { FindResponse } from '../../spec/openapi.gen.ts';
import { loadSpec } from '../../spec/load.ts';
import { SchemaValidator, describeErrors } from '../../spec/validator.ts';
import { FAVICONS } from '../dataset/favicons.ts';
import { generateServers } from '../dataset/generator.ts';
import { loadModel } from '../../spec/model.ts';
import { compareVersions } from '../../spec/sort-compare.ts';
import { JudgeContext } from '../../spec/judges/registry.ts';
import { formatsReplaced } from '../../spec/rules.ts';
import {
  buildIndex,
  findQuery,
  relativeTime,
  search,
  searchBuffer,
  searchJson,
  searchOperation,
  type FindQuery,
} from './search.ts';
import type { StoredServer } from '../dataset/server-row.ts';
import { type ServerFields, storedServer } from '../dataset/server-builder.ts';
import { NOW } from '../../testing/instants.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const validateFind = new SchemaValidator(loadSpec()).compileRef('#/components/schemas/FindResponse');
const findOp = loadModel().byId.get('findServers')!;
const judging = JudgeContext.of(loadModel());

/** A stored server (the package's builder, server()): `ago` = ms before NOW of its last ping. */
function mk(over: ServerFields & { ago?: number } = {}): StoredServer {
  const { ago = 5 * MIN, ...rest } = over;
  return storedServer(
    {
      address: '10.0.0.1',
      version: '1.20.4',
      motd: '§aA §lMinecraft§r Server',
      city: 'Berlin',
      ...rest,
      pingedAgo: ago,
    },
    NOW,
  );
}

const TCP = { asn_name: 'TCPShield Inc.', asn_number: '209242' } as const;

/** Addresses of a search, in order. */
function find(servers: StoredServer[], q: Partial<FindQuery> = {}): FindResponse {
  return valid(search(buildIndex(servers), findQuery(q), NOW), q);
}

/** The answer, after checking it is a FindResponse for the query. */
function valid(res: FindResponse, q: Record<string, unknown>): FindResponse {
  // A switch of the query may replace a field's format (`relativeTime=true`: relative text), as the spec says.
  const unformatted = formatsReplaced(findOp, (name) => (q[name] === undefined ? undefined : String(q[name])));
  if (unformatted.length) {
    const problems = judging.schemas.body(findOp, 200, { status: 200, headers: {}, body: '', json: res }, unformatted);
    if (problems.problems.length) throw new Error(`${JSON.stringify(q)}: ${problems.problems.join('; ')}`);
  } else if (!validateFind(res))
    throw new Error(`${JSON.stringify(q)}: ${describeErrors(validateFind.errors, 'response')}`);
  return res;
}
const addrs = (servers: StoredServer[], q: Partial<FindQuery> = {}): string[] =>
  find(servers, q).results.map((r) => `${r.address}:${r.port}`);
const hosts = (servers: StoredServer[], q: Partial<FindQuery> = {}): string[] =>
  find(servers, q).results.map((r) => r.address);

describe('search: filters', () => {
  it('version: whole value, * wildcard, case-insensitive, no implicit wildcards', () => {
    const data = [
      mk({ address: 'a', version: '1.20.4' }),
      mk({ address: 'b', version: '1.20-1.20.4' }),
      mk({ address: 'c', version: 'Paper 1.20.4' }),
      mk({ address: 'd', version: '1.8.8' }),
      mk({ address: 'e', version: '1x20.4' }),
    ];
    expect(hosts(data, { version: '1.20*', sort: 'address' })).toEqual(['a', 'b']);
    expect(hosts(data, { version: '1.20', sort: 'address' })).toEqual([]);
    expect(hosts(data, { version: '1.20.4', sort: 'address' })).toEqual(['a']);
    expect(hosts(data, { version: 'paper*', sort: 'address' })).toEqual(['c']);
    expect(hosts(data, { version: '*1.20.4', sort: 'address' })).toEqual(['a', 'b', 'c']);
    expect(hosts(data, { version: '*', sort: 'address' })).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(hosts(data, { version: '', sort: 'address' })).toEqual(['a', 'b', 'c', 'd', 'e']);
    // "." is literal, not "any character"
    expect(hosts(data, { version: '1.2*', sort: 'address' })).toEqual(['a', 'b']);
    expect(hosts(data, { version: '1?20.4', sort: 'address' })).toEqual([]);
  });

  it('regex metacharacters in any text filter never throw and match literally', () => {
    const data = [mk({ address: 'a', motd: 'Join (now) [EU] $5 a+b', city: 'St. (Test)' }), mk({ address: 'b' })];
    for (const v of ['(', '[a', '\\', '+', '?', '^$', '*(*', '{2}', '|']) {
      for (const key of ['version', 'country', 'city', 'motd', 'org', 'modpack'] as const) {
        expect(() => find(data, { [key]: v })).not.toThrow();
      }
    }
    expect(hosts(data, { motd: '(now) [eu]' })).toEqual(['a']);
    expect(hosts(data, { motd: '$5 a+b' })).toEqual(['a']);
    expect(hosts(data, { city: 'st. (' })).toEqual(['a']);
    expect(hosts(data, { motd: 'a.b' })).toEqual([]);
  });

  it('minUsers / maxUsers bound players_online, inclusively', () => {
    const data = [0, 5, 10, 50].map((n, i) => mk({ address: `s${i}`, players_online: n, players_limit: 100 }));
    expect(hosts(data, { minUsers: 5, sort: 'address' })).toEqual(['s1', 's2', 's3']);
    expect(hosts(data, { maxUsers: 10, sort: 'address' })).toEqual(['s0', 's1', 's2']);
    expect(hosts(data, { minUsers: 5, maxUsers: 10, sort: 'address' })).toEqual(['s1', 's2']);
    expect(hosts(data, { minUsers: 11, maxUsers: 10 })).toEqual([]);
    expect(hosts(data, { minUsers: 0, sort: 'address' })).toHaveLength(4);
  });

  it('minAge / maxAge in days since the last ping; maxAge defaults to 30', () => {
    const data = [
      mk({ address: 'fresh', ago: 10 * MIN }),
      mk({ address: 'day1', ago: 1 * DAY + HOUR }),
      mk({ address: 'day5', ago: 5 * DAY }),
      mk({ address: 'day29', ago: 29 * DAY }),
      mk({ address: 'day30', ago: 30 * DAY }),
      mk({ address: 'day45', ago: 45 * DAY }),
    ];
    expect(hosts(data)).toEqual(['fresh', 'day1', 'day5', 'day29', 'day30']);
    expect(hosts(data, { maxAge: 1 })).toEqual(['fresh']);
    expect(hosts(data, { maxAge: 5 })).toEqual(['fresh', 'day1', 'day5']);
    expect(hosts(data, { minAge: 1 })).toEqual(['day1', 'day5', 'day29', 'day30']);
    expect(hosts(data, { minAge: 2, maxAge: 29 })).toEqual(['day5', 'day29']);
    expect(hosts(data, { maxAge: 3650 })).toHaveLength(6);
    expect(hosts(data, { maxAge: undefined })).toHaveLength(5);
    // the same windows on another sort (not the presorted-by-ping path)
    expect(hosts(data, { minAge: 2, maxAge: 29, sort: 'address' })).toEqual(['day29', 'day5']);
    expect(hosts(data, { maxAge: 0, sort: 'users' })).toEqual([]);
  });

  it('region, country (code or whole name with wildcard), country_code', () => {
    const data = [
      mk({ address: 'us', country: 'United States', country_code: 'US', region: 'NA' }),
      mk({ address: 'gb', country: 'United Kingdom', country_code: 'GB', region: 'EU' }),
      mk({ address: 'de', country: 'Germany', country_code: 'DE', region: 'EU' }),
      mk({ address: 'jp', country: 'Japan', country_code: 'JP', region: 'AS' }),
    ];
    const q = (o: Partial<FindQuery>): string[] => hosts(data, { ...o, sort: 'address' });
    expect(q({ region: 'EU' })).toEqual(['de', 'gb']);
    // equals ignores case (and HTTP reads any case of an enum value as the enum writes it)
    expect(q({ region: 'eu' as FindQuery['region'] })).toEqual(['de', 'gb']);
    expect(q({ region: 'AN' })).toEqual([]);
    expect(q({ country: 'de' })).toEqual(['de']);
    expect(q({ country: 'GB' })).toEqual(['gb']);
    expect(q({ country: 'germany' })).toEqual(['de']);
    expect(q({ country: 'United*' })).toEqual(['gb', 'us']);
    expect(q({ country: 'United' })).toEqual([]);
    expect(q({ country: '*an' })).toEqual(['jp']);
    expect(q({ country_code: 'us' })).toEqual(['us']);
    expect(q({ country_code: 'US', region: 'EU' })).toEqual([]);
  });

  it(
    'city, motd and org: case-insensitive substrings with * wildcard; motd matches motd_stripped; null city ' +
      'never matches',
    () => {
      const data = [
        mk({
          address: 'a',
          city: 'Frankfurt am Main',
          motd: '§aWelcome§r to §lSurvival',
          asn_name: 'Hetzner Online GmbH',
        }),
        mk({ address: 'b', city: null, motd: '§6Skyblock §7| §ePrison', asn_name: 'OVH SAS', asn_number: '16276' }),
        mk({
          address: 'c',
          city: 'New York',
          motd: 'plain survival games',
          asn_name: 'Amazon.com, Inc.',
          asn_number: '16509',
        }),
      ];
      const q = (o: Partial<FindQuery>): string[] => hosts(data, { ...o, sort: 'address' });
      expect(q({ city: 'furt' })).toEqual(['a']);
      expect(q({ city: 'NEW' })).toEqual(['c']);
      expect(q({ city: 'f*main' })).toEqual(['a']);
      expect(q({ city: '*' })).toEqual(['a', 'c']);
      expect(q({ motd: 'welcome to' })).toEqual(['a']);
      expect(q({ motd: 'survival' })).toEqual(['a', 'c']);
      expect(q({ motd: '§a' })).toEqual([]);
      expect(q({ motd: 'sky*prison' })).toEqual(['b']);
      expect(q({ org: 'hetzner' })).toEqual(['a']);
      expect(q({ org: 'o*h' })).toEqual(['a', 'b']);
      expect(q({ org: 'amazon.com' })).toEqual(['c']);
    },
  );

  it('asn matches the asn_number string as an integer', () => {
    const data = [mk({ address: 'a' }), mk({ address: 'b', asn_number: '16276', asn_name: 'OVH SAS' })];
    expect(hosts(data, { asn: 16276 })).toEqual(['b']);
    expect(hosts(data, { asn: 24940 })).toEqual(['a']);
    expect(hosts(data, { asn: 1 })).toEqual([]);
  });

  it('modpack: name or short name, whole value, case-insensitive', () => {
    const data = [
      mk({
        address: 'a',
        version: 'Forge 1.20.1',
        detected_mod_pack: 'All the Mods 9',
        detected_mod_pack_short: 'ATM9',
      }),
      mk({ address: 'b', version: 'Forge 1.12.2', detected_mod_pack: 'RLCraft', detected_mod_pack_short: 'RLCraft' }),
      mk({ address: 'c' }),
    ];
    expect(hosts(data, { modpack: 'atm9' })).toEqual(['a']);
    expect(hosts(data, { modpack: 'all the mods 9' })).toEqual(['a']);
    expect(hosts(data, { modpack: 'All the Mods' })).toEqual([]);
    expect(hosts(data, { modpack: 'RLCRAFT' })).toEqual(['b']);
  });

  it("offlineOnly: 'off' is every server, any other value only offline-mode ones", () => {
    const data = [mk({ address: 'a' }), mk({ address: 'b', offline_mode: 1 })];
    expect(hosts(data, { offlineOnly: 'off', sort: 'address' })).toEqual(['a', 'b']);
    expect(hosts(data, { offlineOnly: '', sort: 'address' })).toEqual(['a', 'b']);
    for (const v of ['on', 'true', '1', 'yes']) expect(hosts(data, { offlineOnly: v })).toEqual(['b']);
  });

  it('TCPShield servers are hidden and counted in filtered, unless noFilter (then filtered is absent)', () => {
    const data = [
      mk({ address: 'a', players_online: 3 }),
      mk({ address: 'b', ...TCP, players_online: 3 }),
      mk({ address: 'c', ...TCP, players_online: 0 }),
      mk({ address: 'd', ...TCP, ago: 40 * DAY }),
    ];
    const def = find(data, { sort: 'address' });
    expect(def.results.map((r) => r.address)).toEqual(['a']);
    expect(def.total).toBe(1);
    expect(def.filtered).toBe(2);
    const filtered = find(data, { minUsers: 1 });
    expect([filtered.total, filtered.filtered]).toEqual([1, 1]);
    const all = find(data, { noFilter: true, sort: 'address' });
    expect(all.results.map((r) => r.address)).toEqual(['a', 'b', 'c']);
    expect(all.total).toBe(3);
    expect('filtered' in all).toBe(false);
    expect(find(data, { noFilter: true, maxAge: 100 }).total).toBe(4);
    expect(find(data, { maxAge: 100, sort: 'users' }).filtered).toBe(3);
  });

  it('filters combine with AND', () => {
    const data = [
      mk({
        address: 'a',
        version: '1.20.4',
        players_online: 10,
        players_limit: 20,
        country_code: 'US',
        country: 'United States',
        region: 'NA',
      }),
      mk({
        address: 'b',
        version: '1.20.4',
        players_online: 1,
        country_code: 'US',
        country: 'United States',
        region: 'NA',
      }),
      mk({
        address: 'c',
        version: '1.8.8',
        players_online: 10,
        players_limit: 20,
        country_code: 'US',
        country: 'United States',
        region: 'NA',
      }),
      mk({ address: 'd', version: '1.20.4', players_online: 10, players_limit: 20 }),
    ];
    expect(hosts(data, { version: '1.20*', minUsers: 5, country: 'US' })).toEqual(['a']);
  });
});

describe('search: sorting and paging', () => {
  const data = [
    mk({ address: '5.5.5.5', port: 25566, version: '1.9', players_online: 3, players_limit: 20, ago: 3 * MIN }),
    mk({ address: '5.5.5.5', port: 25565, version: '1.20.4', players_online: 3, players_limit: 20, ago: 3 * MIN }),
    mk({
      address: '1.1.1.1',
      port: 30000,
      version: 'Paper 1.21.1',
      players_online: 50,
      players_limit: 100,
      ago: 1 * MIN,
    }),
    mk({ address: '9.9.9.9', port: 25565, version: '1.20.4', players_online: 0, ago: 2 * HOUR }),
    mk({
      address: 'play.example.net',
      port: 19132,
      version: '1.20-1.20.4',
      players_online: 3,
      players_limit: 20,
      ago: 10 * MIN,
    }),
  ];

  it('updated (the default): newest ping first, ties by address then port', () => {
    expect(addrs(data)).toEqual([
      '1.1.1.1:30000',
      '5.5.5.5:25565',
      '5.5.5.5:25566',
      'play.example.net:19132',
      '9.9.9.9:25565',
    ]);
    expect(addrs(data, { sort: 'updated' })).toEqual(addrs(data));
  });

  it('users: players online descending, ties by address then port', () => {
    expect(addrs(data, { sort: 'users' })).toEqual([
      '1.1.1.1:30000',
      '5.5.5.5:25565',
      '5.5.5.5:25566',
      'play.example.net:19132',
      '9.9.9.9:25565',
    ]);
  });

  it('version: descending, numeric-aware (1.20.4 above 1.9), ties by address then port', () => {
    expect(addrs(data, { sort: 'version' })).toEqual([
      '1.1.1.1:30000',
      '5.5.5.5:25565',
      '9.9.9.9:25565',
      'play.example.net:19132',
      '5.5.5.5:25566',
    ]);
  });

  it('address and port: ascending, each broken by the other', () => {
    expect(addrs(data, { sort: 'address' })).toEqual([
      '1.1.1.1:30000',
      '5.5.5.5:25565',
      '5.5.5.5:25566',
      '9.9.9.9:25565',
      'play.example.net:19132',
    ]);
    expect(addrs(data, { sort: 'port' })).toEqual([
      'play.example.net:19132',
      '5.5.5.5:25565',
      '9.9.9.9:25565',
      '5.5.5.5:25566',
      '1.1.1.1:30000',
    ]);
  });

  it('an unknown sort falls back to updated', () => {
    expect(addrs(data, { sort: 'bogus' as FindQuery['sort'] })).toEqual(addrs(data));
  });

  it('reads the parameters that shape the answer by their rule, whatever the spec names them', () => {
    // findServers with its page size, page, order and hidden-rows switch under other names.
    const op = loadModel().byId.get('findServers')!;
    const renamed = { limit: 'size', page: 'p', sort: 'orderBy', noFilter: 'all' } as Record<string, string>;
    const other = searchOperation({
      ...op,
      parameters: op.parameters.map((p) => (renamed[p.name] ? { ...p, name: renamed[p.name]! } : p)),
    });
    const ix = buildIndex(data);
    const q = { maxAge: 30, size: 2, p: 2, orderBy: 'port', all: true } as unknown as FindQuery;
    const got = search(ix, q, NOW, other);
    const want = addrs(data, { sort: 'port', noFilter: true }).slice(2, 4);
    expect(got.results.map((r) => `${r.address}:${r.port}`)).toEqual(want);
    expect(got).not.toHaveProperty('filtered');
    // The old names mean nothing to it: the spec's defaults (50 rows, page 1, updated, hidden rows hidden).
    const byName = search(ix, findQuery({ limit: 2, page: 2, sort: 'port', noFilter: true }), NOW, other);
    expect(byName.results.map((r) => `${r.address}:${r.port}`)).toEqual(addrs(data));
  });

  it('pages: 1-based, displayed === results.length, total over all pages, past the end empty', () => {
    const many = Array.from({ length: 23 }, (_, i) => mk({ address: `10.0.${Math.floor(i / 10)}.${i}`, ago: i * MIN }));
    const all = addrs(many, { limit: 100 });
    expect(all).toHaveLength(23);
    const pages = [1, 2, 3].map((page) => find(many, { limit: 10, page }));
    expect(pages.map((p) => p.displayed)).toEqual([10, 10, 3]);
    expect(pages.every((p) => p.total === 23 && p.displayed === p.results.length)).toBe(true);
    expect(pages.flatMap((p) => p.results.map((r) => `${r.address}:${r.port}`))).toEqual(all);
    const past = find(many, { limit: 10, page: 4 });
    expect(past).toEqual({ displayed: 0, total: 23, filtered: 0, results: [] });
    expect(find(many, { limit: 10, page: 1_000_000 }).results).toEqual([]);
    // the same with a row filter and another sort
    const f = [1, 2, 3].map((page) => find(many, { limit: 5, page, minUsers: 0, sort: 'address' }));
    expect(f.map((p) => p.displayed)).toEqual([5, 5, 5]);
    expect(new Set(f.flatMap((p) => p.results.map((r) => r.address))).size).toBe(15);
  });

  it('an empty dataset answers an empty page', () => {
    expect(find([], {})).toEqual({ displayed: 0, total: 0, filtered: 0, results: [] });
    expect(find([], { noFilter: true })).toEqual({ displayed: 0, total: 0, results: [] });
  });
});

describe('search: rows', () => {
  it('has the Server fields in spec order; favicon only with favicon=true', () => {
    const data = [mk({ address: 'a', favicon: FAVICONS[0]! }), mk({ address: 'b', favicon: null })];
    const plain = find(data, { sort: 'address' }).results;
    expect(Object.keys(plain[0]!)).toEqual([
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
      'detected_mod_pack',
      'detected_mod_pack_short',
    ]);
    expect(plain.every((r) => !('favicon' in r))).toBe(true);
    const withIcon = find(data, { sort: 'address', favicon: true }).results;
    expect(Object.keys(withIcon[0]!).indexOf('favicon')).toBe(Object.keys(withIcon[0]!).indexOf('last_ping') + 1);
    expect(withIcon.map((r) => r.favicon)).toEqual([FAVICONS[0], null]);
  });

  it('relativeTime gives last_ping as English relative text', () => {
    const data = [
      mk({ address: 'a', ago: 10_000 }),
      mk({ address: 'b', ago: 5 * MIN + 10_000 }),
      mk({ address: 'c', ago: 2 * HOUR }),
      mk({ address: 'd', ago: 1 * DAY + 1000 }),
      mk({ address: 'e', ago: 3 * DAY }),
    ];
    const rows = find(data, { relativeTime: true, sort: 'address' }).results;
    expect(rows.map((r) => r.last_ping)).toEqual([
      'just now',
      '5 minutes ago',
      '2 hours ago',
      '1 day ago',
      '3 days ago',
    ]);
    expect(find(data, { sort: 'address' }).results[0]!.last_ping).toBe(new Date(NOW - 10_000).toISOString());
  });

  it('relativeTime text covers every unit', () => {
    expect(relativeTime(NOW, NOW)).toBe('just now');
    expect(relativeTime(NOW + 5000, NOW)).toBe('just now');
    expect(relativeTime(NOW - MIN, NOW)).toBe('1 minute ago');
    expect(relativeTime(NOW - 59 * MIN, NOW)).toBe('59 minutes ago');
    expect(relativeTime(NOW - HOUR, NOW)).toBe('1 hour ago');
    expect(relativeTime(NOW - 23 * HOUR, NOW)).toBe('23 hours ago');
    expect(relativeTime(NOW - 29 * DAY, NOW)).toBe('29 days ago');
    expect(relativeTime(NOW - 45 * DAY, NOW)).toBe('1 month ago');
    expect(relativeTime(NOW - 400 * DAY, NOW)).toBe('1 year ago');
    expect(relativeTime(NOW - 1000 * DAY, NOW)).toBe('2 years ago');
  });

  it('does not change the dataset it searches', () => {
    const data = [mk({ address: 'a', favicon: FAVICONS[1]! }), mk({ address: 'b', ...TCP })];
    const before = JSON.stringify(data);
    find(data, { favicon: true, relativeTime: true, noFilter: true });
    find(data, {});
    expect(JSON.stringify(data)).toBe(before);
  });
});

describe('search on a generated dataset', () => {
  const servers = generateServers({ seed: 99, count: 3000, now: new Date(NOW) });
  const ix = buildIndex(servers);
  const queries: Partial<FindQuery>[] = [
    {},
    { limit: 20, page: 2 },
    { sort: 'users', favicon: true },
    { sort: 'version', relativeTime: true },
    { sort: 'port', noFilter: true, maxAge: 60 },
    { version: '1.20*', country: 'United*' },
    { motd: 'survival', minUsers: 1, sort: 'users' },
    { org: 'hetzner', region: 'EU', relativeTime: true, favicon: true },
    { modpack: 'ATM9', noFilter: true },
    { offlineOnly: 'true', minAge: 1 },
    { asn: 16276, sort: 'address', limit: 500 },
    { page: 1000 },
  ];

  it('answers are valid FindResponses, consistent with a brute-force count', () => {
    for (const q of queries) {
      const res = valid(search(ix, findQuery(q), NOW), q);
      expect(res.displayed).toBe(res.results.length);
      expect(res.results.length).toBeLessThanOrEqual(findQuery(q).limit);
      expect('filtered' in res).toBe(!q.noFilter);
    }
    // brute force for the default query
    const visible = servers.filter(
      (s) => !/tcpshield/i.test(s.asn_name ?? '') && NOW - Date.parse(s.last_ping) <= 30 * DAY,
    );
    const hidden = servers.filter(
      (s) => /tcpshield/i.test(s.asn_name ?? '') && NOW - Date.parse(s.last_ping) <= 30 * DAY,
    );
    const def = search(ix, findQuery(), NOW);
    expect(def.total).toBe(visible.length);
    expect(def.filtered).toBe(hidden.length);
    expect(def.filtered).toBeGreaterThan(0);
    const withHidden = search(ix, findQuery({ noFilter: true }), NOW);
    expect(withHidden.total).toBe(visible.length + hidden.length);
  });

  it(
    'searchJson and searchBuffer are exactly JSON.stringify(search) for every query, also on repeat (cached ' + 'rows)',
    () => {
      for (let round = 0; round < 2; round++) {
        for (const q of queries) {
          const fq = findQuery(q);
          expect(searchJson(ix, fq, NOW)).toBe(JSON.stringify(search(ix, fq, NOW)));
          expect(searchBuffer(ix, fq, NOW).toString('utf8')).toBe(JSON.stringify(search(ix, fq, NOW)));
        }
      }
    },
  );

  it('matches a brute-force reference on filtered queries, every sort, several pages', () => {
    const tcp = (s: StoredServer): boolean => /tcpshield/i.test(s.asn_name ?? '');
    const cmpAddr = (a: StoredServer, b: StoredServer): number =>
      a.address < b.address ? -1 : a.address > b.address ? 1 : a.port - b.port;
    const sorts: Record<FindQuery['sort'], (a: StoredServer, b: StoredServer) => number> = {
      users: (a, b) => b.players_online - a.players_online || cmpAddr(a, b),
      version: (a, b) => compareVersions(b.version, a.version) || cmpAddr(a, b),
      address: cmpAddr,
      port: (a, b) => a.port - b.port || cmpAddr(a, b),
      updated: (a, b) => Date.parse(b.last_ping) - Date.parse(a.last_ping) || cmpAddr(a, b),
    };
    const cases: [Partial<FindQuery>, (s: StoredServer) => boolean][] = [
      [{ country: 'DE' }, (s) => s.country_code === 'DE'],
      [{ version: '1.20*', minUsers: 1 }, (s) => s.version.startsWith('1.20') && s.players_online >= 1],
      [{ motd: 'survival' }, (s) => (s.motd_stripped ?? '').toLowerCase().includes('survival')],
      [{ region: 'EU', maxUsers: 5 }, (s) => s.region === 'EU' && s.players_online <= 5],
      [
        { org: 'ovh', offlineOnly: 'yes' },
        (s) => (s.asn_name ?? '').toLowerCase().includes('ovh') && s.offline_mode === 1,
      ],
      // Rows without a GeoIP or ASN record (null) never match a filter on that field.
      [{ country: 'Germany' }, (s) => s.country === 'Germany'],
      [{ country_code: 'us', city: 'a' }, (s) => s.country_code === 'US' && (s.city ?? '').toLowerCase().includes('a')],
      [{ asn: 24940 }, (s) => s.asn_number === '24940'],
      [{ org: '*' }, (s) => s.asn_name !== null],
      [{ motd: '*' }, (s) => s.motd_stripped !== null],
      [{ minUsers: 0 }, () => true],
    ];
    for (const [filters, pred] of cases) {
      for (const sort of Object.keys(sorts) as FindQuery['sort'][]) {
        for (const noFilter of [false, true]) {
          const inAge = servers.filter((s) => NOW - Date.parse(s.last_ping) <= 30 * DAY && pred(s));
          const expected = inAge.filter((s) => noFilter || !tcp(s)).sort(sorts[sort]);
          for (const [limit, page] of [
            [50, 1],
            [7, 3],
            [500, 1],
          ] as const) {
            const res = search(ix, findQuery({ ...filters, sort, noFilter, limit, page }), NOW);
            const label = JSON.stringify({ ...filters, sort, noFilter, limit, page });
            expect(res.total, label).toBe(expected.length);
            expect(res.filtered, label).toBe(noFilter ? undefined : inAge.filter(tcp).length);
            expect(
              res.results.map((r) => `${r.address}:${r.port}`),
              label,
            ).toEqual(expected.slice((page - 1) * limit, page * limit).map((s) => `${s.address}:${s.port}`));
          }
        }
      }
    }
  });

  it('counts remembered per filter combination (big listings) answer like a fresh count, and stay bounded', () => {
    const big = generateServers({ seed: 7, count: 70_000, now: new Date(NOW) });
    const own = buildIndex(big);
    const brute = (pred: (s: StoredServer) => boolean, noFilter: boolean) =>
      big.filter(
        (s) =>
          NOW - Date.parse(s.last_ping) <= 30 * DAY && pred(s) && (noFilter || !/tcpshield/i.test(s.asn_name ?? '')),
      ).length;
    const cases: [Partial<FindQuery>, (s: StoredServer) => boolean][] = [
      [{ region: 'EU', minUsers: 2 }, (s) => s.region === 'EU' && s.players_online >= 2],
      [{ version: '1.20*' }, (s) => s.version.startsWith('1.20')],
      [
        { motd: 'survival', maxUsers: 10 },
        (s) => (s.motd_stripped ?? '').toLowerCase().includes('survival') && s.players_online <= 10,
      ],
    ];
    for (const [q, pred] of cases) {
      for (const noFilter of [false, true]) {
        // First a fresh count, then remembered ones, on other pages and sorts.
        for (const [sort, page] of [
          ['updated', 1],
          ['users', 3],
          ['address', 2],
        ] as const) {
          const res = search(own, findQuery({ ...q, noFilter, sort, page }), NOW);
          expect(res.total, JSON.stringify({ ...q, noFilter, sort })).toBe(brute(pred, noFilter));
        }
      }
    }
    expect(own.lazy.counts.size).toBeGreaterThan(0);
    // Each asked twice: a count is kept on its second request.
    for (let k = 0; k < 1200; k++) search(own, findQuery({ motd: `zz${k >> 1}`, minUsers: (k >> 1) % 7 }), NOW);
    const counts = own.lazy.counts.stats();
    expect(counts.entries).toBeGreaterThan(100);
    expect(counts.bytes).toBeLessThanOrEqual(counts.maxBytes);
    // ...and a remembered count is still right after the churn.
    expect(search(own, findQuery(cases[0]![0]), NOW).total).toBe(brute(cases[0]![1], false));
  });

  it('paging over everything visits every matching server once, in order', () => {
    const q = findQuery({ sort: 'users', limit: 500, noFilter: true, maxAge: 3650 });
    const seen: string[] = [];
    for (let page = 1; ; page++) {
      const res = search(ix, { ...q, page }, NOW);
      if (!res.results.length) break;
      seen.push(...res.results.map((r) => `${r.address}:${r.port}`));
    }
    expect(seen).toHaveLength(servers.length);
    expect(new Set(seen).size).toBe(servers.length);
  });
});
