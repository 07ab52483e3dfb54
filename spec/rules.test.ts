// The descriptor of each x-meaning rule: every rule has one, each filter's predicate and
// words, a null field, the judge's slack at an age's day boundary, and the one any-case
// reading of a parameter's words.
import { describe, expect, it } from 'vitest';
import { RULES } from './meaning.ts';
import { loadModel } from './model.ts';
import {
  anyCaseWords,
  descriptorOf,
  holds,
  isOn,
  isRowRule,
  parameterWith,
  passes,
  RULE_DESCRIPTORS,
  says,
  specWord,
} from './rules.ts';

const find = loadModel().byId.get('findServers')!;
const meaning = (name: string) => find.parameters.find((p) => p.name === name)!.meaning!;
const DAY = 86_400_000;

describe('the rule descriptors', () => {
  it('describe every rule the spec can name: filters pick rows, shapes shape the answer', () => {
    expect(Object.keys(RULE_DESCRIPTORS).sort()).toEqual([...RULES].sort());
    const of = (role: string) => RULES.filter((r) => RULE_DESCRIPTORS[r].role === role).sort();
    expect(of('filter')).toEqual(
      [
        'ageAtLeastDays',
        'ageAtMostDays',
        'atLeast',
        'atMost',
        'equals',
        'flag',
        'nameOrCode',
        'substringWildcard',
        'wholeWildcard',
      ].sort(),
    );
    expect(RULES.filter((r) => RULE_DESCRIPTORS[r].letterCase === 'any').sort()).toEqual(
      ['equals', 'nameOrCode', 'substringWildcard', 'wholeWildcard'].sort(),
    );
    expect(descriptorOf(meaning('minAge')).kind).toBe('range');
    expect(descriptorOf(meaning('offlineOnly')).kind).toBe('flag');
    expect(descriptorOf(meaning('sort')).kind).toBe('order');
    expect(isRowRule(meaning('favicon'))).toBe(true);
    expect(isRowRule(meaning('noFilter'))).toBe(false);
  });

  it('a row whose field is null (or missing) satisfies no filter', () => {
    const row = { country: null, country_code: null, players_online: null, last_ping: null, offline_mode: null };
    for (const [name, value] of [
      ['country', 'Germany'],
      ['country', 'de'],
      ['country_code', 'DE'],
      ['city', '*'],
      ['minUsers', '0'],
      ['maxAge', '3650'],
      ['offlineOnly', 'on'],
    ] as const) {
      expect(holds(meaning(name), row, value, Date.now()), `${name}=${value}`).toBe(false);
    }
  });

  it('equals: any case, a number also as its digits (typed by the schema, or as sent)', () => {
    expect(holds(meaning('asn'), { asn_number: '24940' }, 24940, 0)).toBe(true);
    expect(holds(meaning('asn'), { asn_number: '24940' }, '24940', 0)).toBe(true);
    expect(holds(meaning('modpack'), { detected_mod_pack: null, detected_mod_pack_short: 'ATM9' }, 'atm9', 0)).toBe(
      true,
    );
    expect(says(meaning('modpack'), 'atm9')).toBe(
      "detected_mod_pack or detected_mod_pack_short 'atm9' (case-insensitive)",
    );
  });

  it('a flag at its off value asks nothing; any other value asks for its constant', () => {
    const m = meaning('offlineOnly');
    expect(holds(m, { offline_mode: 0 }, 'off', 0)).toBe(true);
    expect(holds(m, { offline_mode: 0 }, 'yes', 0)).toBe(false);
    expect(holds(m, { offline_mode: 1 }, 'yes', 0)).toBe(true);
  });

  it("an age's day boundary: the mock cuts exactly, a judge tolerates a day either side", () => {
    const now = Date.parse('2026-03-01T00:00:00Z');
    const row = { last_ping: new Date(now - 3 * DAY - 1000).toISOString() };
    const d = descriptorOf(meaning('maxAge'));
    if (d.role !== 'filter') throw new Error('maxAge picks rows');
    const ask = d.ask(meaning('maxAge'), 3, now)!;
    expect(passes(ask, row)).toBe(false);
    expect(passes(ask, row, true)).toBe(true);
    expect(holds(meaning('maxAge'), row, '3', now)).toBe(true);
    expect(holds(meaning('maxAge'), row, '1', now)).toBe(false);
    expect(says(meaning('maxAge'), '3')).toBe('last_ping at most 3 days ago');
  });

  it('switches: on only for true; a switch that marks rows holds when the row carries the mark', () => {
    expect([isOn(true), isOn('true'), isOn('false'), isOn('1'), isOn(undefined)]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(holds(meaning('favicon'), { favicon: null }, 'true', 0)).toBe(true);
    expect(holds(meaning('favicon'), {}, 'true', 0)).toBe(false);
    expect(holds(meaning('relativeTime'), { last_ping: '2 hours ago' }, 'true', 0)).toBe(true);
    expect(holds(meaning('relativeTime'), { last_ping: '2026-01-01T00:00:00Z' }, 'true', 0)).toBe(false);
    expect(says(meaning('favicon'), 'true')).toBe("a 'favicon' field");
  });
});

describe('the one any-case reading', () => {
  const param = (name: string) => find.parameters.find((p) => p.name === name)!;

  it("a text rule's enum takes any case of a word, read as the spec writes it", () => {
    expect(anyCaseWords(param('region'))?.get('eu')).toBe('EU');
    expect(specWord(param('region'), 'eU')).toBe('EU');
  });

  it("a sort's enum is exact, and a parameter without words is read as sent", () => {
    expect(anyCaseWords(param('sort'))).toBeUndefined();
    expect(specWord(param('sort'), 'USERS')).toBe('USERS');
    expect(specWord(param('country'), 'de')).toBe('de');
  });

  it('finds the parameter that carries a rule, whatever its name', () => {
    expect(parameterWith(find, 'limitsRows')?.name).toBe('limit');
    expect(parameterWith(find, 'revealsHidden')?.name).toBe('noFilter');
    expect(parameterWith(loadModel().byId.get('listRegions')!, 'sort')).toBeUndefined();
  });
});
