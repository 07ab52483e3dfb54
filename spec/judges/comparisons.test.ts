// The comparisons of several answers: a witness over every page, the totals of a paged
// query, the rate-limit headers over a caller's answers; and why a lost row was lost.
import { describe, expect, it } from 'vitest';
import { loadModel } from '../model.ts';
import { type Counted, rateLimit, TOTAL_IS_PAGE, totalReached, totalSteady, witness } from './comparisons.ts';
import { findingsOf, JudgeContext } from './registry.ts';
import { exchange } from '../testing/exchanges.ts';
import { LOST, lostRow } from './rows.ts';
import { leakOf, pathOf, secretNames } from './secret-leak.ts';

const model = loadModel();
const ctx = JudgeContext.of(model);
const find = model.byId.get('findServers')!;
const param = (name: string) => find.parameters.find((p) => p.name === name)!;
const row = (address: string, fields: Record<string, unknown> = {}) => ({ address, port: 25565, ...fields });
const page = (total: number, ...rows: object[]) => ({ displayed: rows.length, total, filtered: 0, results: rows });
const NOW = Date.parse('2026-03-01T00:00:00Z');

describe('witness', () => {
  const asked = { op: find, param: param('minUsers'), value: '7' };
  const mine = row('10.0.0.7', { players_online: 7 });

  it('is found on any page, and judged only once every match was read', () => {
    expect(witness.compare(ctx, asked, mine, [page(3, row('a'), row('b')), page(3, mine)], NOW)).toEqual([]);
    // Two of three matches read: the row may be on the page not asked for.
    expect(witness.compare(ctx, asked, mine, [page(3, row('a'), row('b'))], NOW)).toEqual([]);
  });

  it('lost at the bound it was probed with: a bound read as strict, one defect whichever parameter', () => {
    const [f] = witness.compare(ctx, asked, mine, [page(2, row('a'), row('b')), page(2)], NOW);
    expect(f).toMatchObject({ judge: 'witness', defect: LOST.inclusive, acrossSubjects: true });
    expect(f!.why).toMatch(/^10\.0\.0\.7:25565 \(players_online 7\) satisfies minUsers=7 but is not among the 2 rows/);
  });
});

describe('why a row that matches is lost', () => {
  it('a * read literally, text compared case-sensitively, a bound read as strict', () => {
    const r = row('x', { version: 'Paper 1.20.4', players_online: 5, city: 'Frankfurt' });
    expect(lostRow(param('version'), 'Paper 1.2*', r, NOW)).toEqual({ defect: LOST.literalStar, acrossSubjects: true });
    expect(lostRow(param('version'), 'pAPER 1.20.4', r, NOW)).toEqual({
      defect: LOST.caseSensitive,
      acrossSubjects: true,
    });
    expect(lostRow(param('city'), 'FRANK', r, NOW).defect).toBe(LOST.caseSensitive);
    expect(lostRow(param('maxUsers'), '5', r, NOW).defect).toBe(LOST.inclusive);
    // Lost for no reason the value shows: the parameter's own defect.
    expect(lostRow(param('maxUsers'), '9', r, NOW)).toEqual({ defect: 'a row that matches maxUsers is not answered' });
  });

  it('two letters its code matches, lost: the code was not read as one', () => {
    const r = row('x', { country: 'South Africa', country_code: 'ZA' });
    expect(lostRow(param('country'), 'ZA', r, NOW).defect).toBe('country of two letters is not read as country_code');
  });

  it("a lookup's row, lost: told apart by the fields its filter reads (a lookup's rows have no identity)", () => {
    const za = { country: 'South Africa', country_code: 'ZA', num_servers: 3 };
    const answer = { success: true, countries: [{ country: 'South Korea', country_code: 'KR', num_servers: 2 }] };
    const lost = exchange('GET /api/v0.1/metadata/countries?country=South*', 200, answer, { known: { witness: za } });
    const [f] = findingsOf(lost, ctx).filter((x) => x.judge === 'filters' && x.expected);
    expect(f).toMatchObject({ expected: 'South Africa / ZA among the rows', defect: LOST.literalStar });
    const found = exchange(
      'GET /api/v0.1/metadata/countries?country=South*',
      200,
      { ...answer, countries: [za] },
      {
        known: { witness: za },
      },
    );
    expect(findingsOf(found, ctx).filter((x) => x.judge === 'filters')).toEqual([]);
  });

  it("a MOTD matched with its colour codes is motd's own defect, not case", () => {
    const r = row('x', { motd: '§aCreeperRealms §7| §bFactions', motd_stripped: 'CreeperRealms | Factions' });
    expect(lostRow(param('motd'), 'lms | Fa', r, NOW).defect).toBe(
      'motd does not match across the § colour codes of motd',
    );
  });
});

describe('totals', () => {
  const paged = (totals: { page: number; total: number; rows: number }[]) => ({
    op: find,
    param: param('page'),
    label: '(no parameters)',
    totals,
  });

  it('steady over pages, unless page 1 asked again moved too (a live count)', () => {
    const moved = paged([
      { page: 1, total: 10, rows: 5 },
      { page: 2, total: 11, rows: 5 },
    ]);
    expect(totalSteady.compare(ctx, moved, 10)[0]?.defect).toBe('total moves with the page');
    expect(totalSteady.compare(ctx, moved, 11)).toEqual([]);
    // Each page's total its own rows: the same defect total-reached names, whichever meets it.
    const own = paged([
      { page: 1, total: 5, rows: 5 },
      { page: 2, total: 3, rows: 3 },
    ]);
    expect(totalSteady.compare(ctx, own, 5)[0]).toMatchObject({ defect: TOTAL_IS_PAGE, acrossSubjects: true });
  });

  it("reached by paging; a total that is each page's own rows is one defect across queries", () => {
    const own = paged([
      { page: 1, total: 5, rows: 5 },
      { page: 2, total: 3, rows: 3 },
    ]);
    expect(totalReached.compare(ctx, own, 8, 5)[0]).toMatchObject({ defect: TOTAL_IS_PAGE, acrossSubjects: true });
    const off = paged([{ page: 1, total: 9, rows: 5 }]);
    expect(totalReached.compare(ctx, off, 5, 5)[0]?.defect).toBe('total is not the number of rows paging reaches');
    expect(totalReached.compare(ctx, paged([{ page: 1, total: 5, rows: 5 }]), 5, 5)).toEqual([]);
    // Ten rows over two pages but nine distinct: a row met twice, another never. Filed with what else failed on
    // those pages (no subject of its own), as the order that moved between requests.
    const repeated = paged([
      { page: 1, total: 10, rows: 5 },
      { page: 2, total: 10, rows: 5 },
    ]);
    const [f] = totalReached.compare(ctx, repeated, 9, 5);
    expect(f).toMatchObject({ defect: 'paging repeats rows and never reaches others' });
    expect(f!.subject).toBeUndefined();
  });
});

describe('rate-limit', () => {
  const at = Date.parse('2026-03-01T00:00:10Z');
  const reset = Date.parse('2026-03-01T00:01:00Z') / 1000;
  const answer = (remaining: number, status = 200, more: Partial<Counted> = {}): Counted => ({
    at,
    status,
    limit: 20,
    remaining,
    reset,
    request: `GET /servers/find?${remaining}`,
    ...more,
  });
  const defects = (answers: Counted[]) => rateLimit.compare(ctx, answers, 60, 'observed').map((f) => f.defect);

  it('counting down to a 429, or reporting the whole limit and refusing nothing, holds', () => {
    expect(defects([answer(19), answer(18), answer(0), answer(0, 429)])).toEqual([]);
    expect(defects([answer(20), answer(20), answer(20)])).toEqual([]);
  });

  it('a Remaining that stays below the limit, or goes up, within a window', () => {
    expect(defects([answer(19), answer(19)])).toEqual(['X-RateLimit-Remaining does not count down']);
    expect(defects([answer(17), answer(18)])).toEqual(['X-RateLimit-Remaining does not count down']);
  });

  it('a 429 the headers never announced: the whole limit reported, then refused', () => {
    expect(defects([answer(20), answer(20), answer(20, 429)])).toEqual([
      'a 429 comes though X-RateLimit-Remaining never counted down',
    ]);
  });

  it('a Reset that is no instant at the end of the window (milliseconds, or seconds to wait)', () => {
    const wrong = 'X-RateLimit-Reset is not the end of the current window in Unix seconds';
    expect(defects([answer(19, 200, { reset: reset * 1000 })])).toEqual([wrong]);
    expect(defects([answer(19, 200, { reset: 50 })])).toEqual([wrong]);
  });
});

describe('a leaked secret', () => {
  it('says what leaked and where', () => {
    expect([...secretNames(model)]).toEqual(['secret']);
    const body = { success: true, keys: [{ id: 'key_1', secret: 's3cr3t' }] };
    expect(pathOf(body, 's3cr3t')).toBe('keys.*.secret');
    expect(leakOf(model.byId.get('listApiKeys')!, 'keys.*.secret')).toBe(
      "a secret leaks: listApiKeys answers carry each key's secret (keys.*.secret), which no answer but the one that " +
        'creates it may hold',
    );
  });
});
