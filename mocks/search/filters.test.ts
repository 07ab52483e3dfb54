// Each filter rule, applied by the mock's index as its descriptor (spec/rules.ts) asks,
// against a brute-force reading of the same rule, on fields the spec filters today and
// on fields it does not (address, port, players, last ping, player slots): a parameter
// the spec adds with a known rule needs no code. And the filters over HTTP stay quick
// on wildcard patterns built to make a regex backtrack.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../../spec/model.ts';
import type { FilterMeaning } from '../../spec/rules.ts';
import { generateServers } from '../dataset/generator.ts';
import type { StoredServer } from '../dataset/server-row.ts';
import { json, useApp } from '../testing/test-app.ts';
import { NOW } from '../../testing/instants.ts';
import { filterOf, filtersOf, type Filter } from './filters.ts';
import { buildIndex, FIND_SEARCH, findQuery, runQuery } from './search.ts';

const DAY = 86_400_000;
const rows = generateServers({ seed: 11, count: 600, now: new Date(NOW) });
const ix = buildIndex(rows);

/** The rows a lone filter lets through, TCPShield ones included, as `address:port`. */
/** The search of the spec with these filters alone. */
const withFilters = (filters: Filter[]) => ({ ...FIND_SEARCH, filters });

function matched(meaning: FilterMeaning, value: string | number): string[] {
  const q = findQuery({ noFilter: true, limit: 500 });
  const out: string[] = [];
  for (let page = 1; ; page++) {
    const search = withFilters([filterOf('probe', meaning)]);
    const { total, page: ids } = runQuery(ix, { ...q, page, ...{ probe: value } }, NOW, search);
    for (const i of Array.from(ids)) out.push(`${rows[i]!.address}:${rows[i]!.port}`);
    if (out.length >= total || ids.length === 0) return out.sort();
  }
}
const expected = (keep: (r: StoredServer) => boolean): string[] =>
  rows
    .filter(keep)
    .map((r) => `${r.address}:${r.port}`)
    .sort();

const wild = (pattern: string, whole: boolean) => {
  const body = pattern
    .split('*')
    .map((p) => p.replace(/[\\^$.|?+()[\]{}]/g, '\\$&'))
    .join('.*');
  return new RegExp(whole ? `^${body}$` : body, 'is');
};
const text = (v: unknown): v is string => typeof v === 'string';

describe('filters by x-meaning rule', () => {
  it('substringWildcard on a field no filter had: address (a column built on first use)', () => {
    const some = rows[7]!.address.slice(2, 6).toUpperCase();
    expect(matched({ rule: 'substringWildcard', field: 'address' }, some)).toEqual(
      expected((r) => wild(some, false).test(r.address)),
    );
    expect(matched({ rule: 'substringWildcard', field: 'address' }, 'mc*net')).toEqual(
      expected((r) => wild('mc*net', false).test(r.address)),
    );
    expect(matched({ rule: 'substringWildcard', field: 'address' }, 'mc*net').length).toBeGreaterThan(0);
  });

  it('wholeWildcard: the whole value, any case; stars alone keep every row with text', () => {
    expect(matched({ rule: 'wholeWildcard', field: 'version' }, 'PAPER 1.2*')).toEqual(
      expected((r) => wild('paper 1.2*', true).test(r.version)),
    );
    expect(matched({ rule: 'wholeWildcard', field: 'city' }, '*')).toEqual(expected((r) => text(r.city)));
    expect(matched({ rule: 'wholeWildcard', field: 'version' }, '**')).toHaveLength(rows.length);
  });

  it('nameOrCode: two letters are a code, anything else the name', () => {
    const m = { rule: 'nameOrCode', field: 'country', codeField: 'country_code' } as const;
    expect(matched(m, 'de')).toEqual(expected((r) => r.country_code === 'DE'));
    expect(matched(m, 'united*')).toEqual(expected((r) => text(r.country) && wild('united*', true).test(r.country)));
  });

  it('equals: text ignoring case, a number also as digits, one of several fields; null never', () => {
    const asn = rows.find((r) => r.asn_number)!.asn_number!;
    expect(matched({ rule: 'equals', fields: ['asn_number'] }, Number(asn))).toEqual(
      expected((r) => r.asn_number === asn),
    );
    expect(matched({ rule: 'equals', fields: ['port'] }, rows[3]!.port)).toEqual(
      expected((r) => r.port === rows[3]!.port),
    );
    const pack = rows.find((r) => r.detected_mod_pack)!;
    const m: FilterMeaning = { rule: 'equals', fields: ['detected_mod_pack', 'detected_mod_pack_short'] };
    expect(matched(m, pack.detected_mod_pack_short!.toLowerCase())).toEqual(
      expected((r) => r.detected_mod_pack_short === pack.detected_mod_pack_short),
    );
    expect(matched({ rule: 'equals', fields: ['city'] }, 'null')).toEqual([]);
  });

  it('flag: any value but off keeps the rows holding its value', () => {
    const m = { rule: 'flag', field: 'offline_mode', value: 1, off: 'off' } as const;
    expect(matched(m, 'on')).toEqual(expected((r) => r.offline_mode === 1));
    expect(matched(m, 'off')).toHaveLength(rows.length);
  });

  it('atLeast / atMost: over a sorted field (a run of its order) and over one without (a value set)', () => {
    expect(matched({ rule: 'atLeast', field: 'players_online' }, 40)).toEqual(expected((r) => r.players_online >= 40));
    expect(matched({ rule: 'atMost', field: 'port' }, 25565)).toEqual(expected((r) => r.port <= 25565));
    expect(matched({ rule: 'atLeast', field: 'players_limit' }, 500)).toEqual(expected((r) => r.players_limit >= 500));
    // A timestamp is no number (the suite reads it the same way).
    expect(matched({ rule: 'atLeast', field: 'last_ping' }, 1)).toEqual([]);
  });

  it('ageAtLeastDays / ageAtMostDays over the last ping', () => {
    const age = (r: StoredServer) => NOW - Date.parse(r.last_ping);
    expect(matched({ rule: 'ageAtMostDays', field: 'last_ping' }, 3)).toEqual(expected((r) => age(r) <= 3 * DAY));
    expect(matched({ rule: 'ageAtLeastDays', field: 'last_ping' }, 10)).toEqual(expected((r) => age(r) >= 10 * DAY));
  });

  it('two bounds on one field are one range; filters intersect', () => {
    const filters: Filter[] = [
      filterOf('lo', { rule: 'atLeast', field: 'players_online' }),
      filterOf('hi', { rule: 'atMost', field: 'players_online' }),
      filterOf('v', { rule: 'wholeWildcard', field: 'version' }),
    ];
    const q = { ...findQuery({ noFilter: true }), ...{ lo: 3, hi: 30, v: '1.2*' } };
    const { total } = runQuery(ix, q, NOW, withFilters(filters));
    expect(total).toBe(
      expected((r) => r.players_online >= 3 && r.players_online <= 30 && wild('1.2*', true).test(r.version)).length,
    );
  });
});

describe("findServers' filters", () => {
  it('are every parameter of the spec whose rule picks rows', () => {
    const op = loadModel().byId.get('findServers')!;
    expect(filtersOf(op).map((f) => f.name)).toEqual([
      'version',
      'minUsers',
      'maxUsers',
      'minAge',
      'maxAge',
      'region',
      'country',
      'country_code',
      'city',
      'motd',
      'org',
      'asn',
      'modpack',
      'offlineOnly',
    ]);
  });
});

describe('the filters over HTTP, with patterns that froze the regex matcher', () => {
  // One server whose text fields are long: a backtracking regex tries every split of them.
  const servers = generateServers({ seed: 3, count: 20, now: new Date(NOW) });
  const long = 'a'.repeat(3000);
  servers[0] = {
    ...servers[0]!,
    motd: long,
    motd_stripped: long,
    asn_name: long,
    city: long,
    version: long,
    country: long,
  };
  const file = join(mkdtempSync(join(tmpdir(), 'slm-wild-')), 'db.json');
  writeFileSync(file, JSON.stringify({ servers }));
  const m = useApp({ data: file });

  it.each(['motd', 'org', 'city', 'version', 'country'])('%s=********zq answers 200 with no match', async (name) => {
    const res = await m.fetch(
      m.url(`/servers/find?${name}=${encodeURIComponent('********zq')}&noFilter=true&maxAge=3650`),
    );
    expect(res.status).toBe(200);
    expect((await json(res)).total).toBe(0);
  });

  it('the metadata lookups too', async () => {
    const pattern = encodeURIComponent(`${'*a'.repeat(30)}*zq`);
    expect((await json(await m.fetch(m.url(`/metadata/versions?version=${pattern}`)))).unique_versions).toBe(0);
    expect((await json(await m.fetch(m.url(`/metadata/countries?country=${pattern}`)))).unique_countries).toBe(0);
  });
});
