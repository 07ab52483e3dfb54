// The one table from each x-meaning rule to its check, the row rules' probes and
// predicates (null-aware), one search exchange judged by its query alone, the sort
// orders, and how answers are compared.
import { describe, expect, test } from 'vitest';
import { loadModel, type Parameter } from '../../../spec/model.ts';
import { RULES } from '../../../spec/meaning.ts';
import { combinations, scopeOf } from './combinations.ts';
import { shapeOf } from '../../../spec/judges/comparisons.ts';
import { orderProblem, rowsBreaking } from '../../../spec/judges/rows.ts';
import { MEANINGS, neutralValue } from './rule-checks.ts';
import { ROW_RULES, type RowMeaning, type RowRule } from './row-rules.ts';
import type { Row, SeenRow } from './answer-rows.ts';
import { acrossCodes } from './text-match.ts';
import { holds } from '../../../spec/rules.ts';

const model = loadModel();
const find = model.byId.get('findServers')!;
const param = (name: string) => find.parameters.find((p) => p.name === name)!;
const rule = (p: Parameter) => ({
  m: p.meaning as RowMeaning,
  r: ROW_RULES[(p.meaning as RowMeaning).rule] as RowRule,
});
const seen = (rows: Row[]): SeenRow[] => rows.map((row) => ({ row, query: {} }));
const DAY = 86_400_000;

test('every rule the spec can name has a check', () => {
  expect(Object.keys(MEANINGS).sort()).toEqual([...RULES].sort());
});

describe('row rules: which rows a value lets through', () => {
  test('a row whose field is null satisfies nothing', () => {
    const row = {
      country: null,
      country_code: null,
      city: null,
      motd_stripped: null,
      players_online: null,
      detected_mod_pack: null,
      detected_mod_pack_short: null,
      last_ping: null,
    };
    for (const [name, value] of [
      ['country', 'Germany'],
      ['country', 'de'],
      ['country_code', 'DE'],
      ['city', 'a'],
      ['motd', 'x'],
      ['minUsers', '0'],
      ['maxUsers', '9'],
      ['modpack', 'ATM9'],
      ['minAge', '0'],
    ]) {
      expect(holds(param(name!).meaning!, row, value!, Date.now()), `${name}=${value}`).toBe(false);
    }
  });

  test('bounds, ages, wildcards over the whole value or within it, codes, case', () => {
    const now = Date.parse('2026-03-01T00:00:00Z');
    const row = {
      players_online: 12,
      version: 'Paper 1.21.1',
      country: 'Germany',
      country_code: 'DE',
      city: 'Frankfurt am Main',
      last_ping: new Date(now - 3 * DAY).toISOString(),
      offline_mode: 1,
    };
    const holdsFor = (name: string, value: string) => holds(param(name).meaning!, row, value, now);
    expect([
      holdsFor('minUsers', '12'),
      holdsFor('minUsers', '13'),
      holdsFor('maxUsers', '12'),
      holdsFor('maxUsers', '11'),
    ]).toEqual([true, false, true, false]);
    expect([
      holdsFor('version', 'paper 1.21.1'),
      holdsFor('version', 'Paper*'),
      holdsFor('version', '1.21'),
      holdsFor('version', '*1.21*'),
    ]).toEqual([true, true, false, true]);
    expect([
      holdsFor('country', 'germany'),
      holdsFor('country', 'Ger*'),
      holdsFor('country', 'de'),
      holdsFor('country', 'at'),
    ]).toEqual([true, true, true, false]);
    expect([holdsFor('city', 'furt'), holdsFor('city', 'frank*main'), holdsFor('city', 'Berlin')]).toEqual([
      true,
      true,
      false,
    ]);
    // A day either side of the boundary is tolerated; more is not.
    expect([
      holdsFor('minAge', '3'),
      holdsFor('minAge', '4'),
      holdsFor('minAge', '5'),
      holdsFor('maxAge', '2'),
      holdsFor('maxAge', '1'),
    ]).toEqual([true, true, false, true, false]);
    expect([holdsFor('offlineOnly', 'on')]).toEqual([true]);
  });

  test('probes take values from seen rows, so each matches a known row, in the other case', () => {
    const rows = seen([
      { players_online: 0, version: '1.20.4', region: 'EU', country: 'Germany', country_code: 'DE' },
      { players_online: 5, version: 'Paper 1.21.1', region: 'NA', country: 'United States', country_code: 'US' },
      { players_online: 50, version: 'Velocity 3.3.0', region: 'AS', country: 'Japan', country_code: 'JP' },
    ]);
    const probe = (name: string) =>
      rule(param(name))
        .r.probes(rule(param(name)).m, rows, param(name))
        .map((p) => p.value);
    expect(probe('minUsers')).toEqual(['5']);
    // The whole value in another case, a * wildcard, and a part of it (which must match no row: no implicit wildcards).
    expect(probe('version')).toEqual(['pAPER 1.21.1', 'Paper*', 'aper 1.21.']);
    // An enum a text rule compares takes any case of its values: `na` must find the NA row.
    expect(probe('region')).toEqual(['na']);
    expect(probe('country')).toEqual(['uNITED sTATES', 'United*', 'nited State', 'US']);
    expect(probe('modpack')).toEqual([]); // no row has one: the check is skipped, not vacuous
  });

  test(
    "the motd probe spans a colour code in the text's own case: only a server matching the raw MOTD misses " + 'it',
    () => {
      expect(acrossCodes('CreeperRealms | Factions', '§aCreeperRealms §7| §bFactions')).toBe('lms | Fa');
      expect(acrossCodes('plain text', 'plain text')).toBeUndefined();
      expect(acrossCodes('other text', '§aCreeper')).toBeUndefined();
      const { m, r } = rule(param('motd'));
      const [across] = r.probes(
        m,
        seen([{ motd: '§aCreeperRealms §7| §bFactions', motd_stripped: 'CreeperRealms | Factions' }]),
        param('motd'),
      );
      expect(across!.value).toBe('lms | Fa');
      expect('§aCreeperRealms §7| §bFactions'.toLowerCase()).not.toContain(across!.value.toLowerCase());
    },
  );

  test('one search exchange, judged by the x-meaning of every filter it sent (what a validation proxy sees)', () => {
    const now = Date.parse('2026-03-01T00:00:00Z');
    const rows = [
      {
        address: 'a',
        port: 1,
        players_online: 12,
        country: 'Germany',
        country_code: 'DE',
        last_ping: new Date(now).toISOString(),
      },
      {
        address: 'b',
        port: 2,
        players_online: 3,
        country: 'France',
        country_code: 'FR',
        last_ping: new Date(now).toISOString(),
      },
    ];
    expect(
      rowsBreaking(find, { minUsers: '10', country: 'de', limit: '5', sort: 'users' }, rows, now).map(
        (b) => `${b.parameter}=${b.value} ${b.row.address}: ${b.says}`,
      ),
    ).toEqual([
      'minUsers=10 b: players_online >= 10',
      "country=de b: country_code 'de' (a 2-letter value is an ISO code)",
    ]);
    expect(rowsBreaking(find, { minUsers: '1' }, rows, now)).toEqual([]);
  });

  test('wildcards are literal but for *', () => {
    const whole = { rule: 'wholeWildcard', field: 'v' } as const;
    const part = { rule: 'substringWildcard', field: 'v' } as const;
    expect(holds(whole, { v: 'a.bc' }, 'a.b*', 0)).toBe(true);
    expect(holds(whole, { v: 'axbc' }, 'a.b*', 0)).toBe(false);
    expect(holds(part, { v: 'a(x)b' }, '(x)', 0)).toBe(true);
  });
});

describe('sort orders', () => {
  const m = param('sort').meaning!;
  if (m.rule !== 'sort') throw new Error('sort has no sort meaning');
  test('direction, numeric-aware versions, timestamps, ties by address then port', () => {
    expect(orderProblem(m.orders.users!, m.tieBreak, { players_online: 5 }, { players_online: 9 })).toMatch(
      /players_online 9 comes after players_online 5 \(descending expected\)/,
    );
    expect(orderProblem(m.orders.version!, m.tieBreak, { version: '1.20.4' }, { version: '1.9' })).toBeUndefined();
    expect(orderProblem(m.orders.version!, m.tieBreak, { version: '1.9' }, { version: '1.20.4' })).toMatch(
      /comes after/,
    );
    expect(
      orderProblem(
        m.orders.updated!,
        m.tieBreak,
        { last_ping: '2026-01-01T00:00:00.000Z' },
        { last_ping: '2026-01-02T00:00:00.000Z' },
      ),
    ).toMatch(/comes after/);
    expect(
      orderProblem(
        m.orders.users!,
        m.tieBreak,
        { players_online: 1, address: 'b', port: 1 },
        { players_online: 1, address: 'a', port: 1 },
      ),
    ).toMatch(/on equal players_online, address "a" comes after address "b"/);
    expect(
      orderProblem(
        m.orders.users!,
        m.tieBreak,
        { players_online: 1, address: 'a', port: 2 },
        { players_online: 1, address: 'a', port: 1 },
      ),
    ).toMatch(/port 1 comes after port 2/);
    // A null is the schema check's to report.
    expect(orderProblem(m.orders.port!, m.tieBreak, { port: 1 }, { port: null })).toBeUndefined();
  });
});

describe('answers compared without their data', () => {
  test('a default answers like the parameter left out: false for a boolean, else the schema default', () => {
    expect(['noFilter', 'sort', 'maxAge', 'minUsers'].map((n) => neutralValue(param(n)))).toEqual([
      'false',
      'updated',
      '30',
      undefined,
    ]);
  });
  test('the shape of an answer: its keys, the kind of each row field, its counts, who its rows are in order', () => {
    const row = { address: '10.0.0.1', port: 25565, last_ping: '2026-01-01T00:00:00Z', city: null };
    const a = shapeOf(find, { total: 2, filtered: 1, results: [row] });
    const b = shapeOf(find, { total: 3, results: [{ last_ping: '2 hours ago', city: 'X', favicon: null }] });
    expect(a).toEqual({
      keys: new Set(['total', 'filtered', 'results']),
      fields: new Set(['address:string', 'port:number', 'last_ping:timestamp', 'city:null']),
      counts: new Map([
        ['total', 2],
        ['filtered', 1],
      ]),
      rows: 1,
      order: ['10.0.0.1:25565'],
    });
    expect(b.fields).toEqual(new Set(['last_ping:string', 'city:string', 'favicon:null']));
  });
  test('a probe keeps the scope of the query its row came from, without the paging', () => {
    expect(scopeOf(find, { noFilter: 'true', maxAge: '3650', limit: '500', page: '2', sort: 'users' })).toEqual({
      noFilter: 'true',
      maxAge: '3650',
    });
  });
  test('combinations pair filters a seen row satisfies', () => {
    const rows = seen(
      Array.from({ length: 8 }, (_, i) => ({
        address: `10.0.0.${i}`,
        port: 25565,
        version: '1.20.4',
        players_online: i,
        region: 'EU',
        last_ping: new Date().toISOString(),
      })),
    );
    const combos = combinations(find, rows);
    expect(combos.length).toBeGreaterThan(0);
    for (const c of combos) {
      expect(c.predicates).toHaveLength(2);
      expect(Object.keys(c.query)).toEqual(expect.arrayContaining(c.predicates.map((p) => p.param.name)));
    }
  });
});
