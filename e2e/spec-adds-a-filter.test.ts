// A filter is what the spec says it is: a query parameter added to a copy of the spec
// with a rule the mock knows (here `substringWildcard` on `address`, which no filter
// read before) works in the mock started on that copy with `--spec`, with no code
// change: only matching rows come back over HTTP, and the mock on the original spec
// ignores the parameter (an unknown one). The contract suite replaying the same copy
// of the spec checks the new parameter by its rule, also with no code change: its
// meaning check passes against the mock that filters, and fails against the one that
// ignores the parameter.
import { afterAll, describe, expect, it } from 'vitest';
import { ADDRESS_FILTER, specWith, startMockProgram, stopMockPrograms } from './mock-program.ts';
import { expectAllPass, expectOneFails, findServersChecks } from './suite-on-a-spec-copy.ts';

afterAll(stopMockPrograms);

/** Every row of a search, page by page (TCPShield rows included, no age window). */
async function allRows(base: string, query: string): Promise<{ address: string; port: number }[]> {
  const rows: { address: string; port: number }[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${base}/servers/find?noFilter=true&maxAge=3650&limit=20&page=${page}${query}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    rows.push(...body.results);
    if (rows.length >= body.total || body.results.length === 0) return rows;
  }
}

describe('a parameter added to the spec with a known rule', () => {
  it('filters in the mock started on that spec with --spec, and only there', async () => {
    const [withIt, without] = await Promise.all([
      startMockProgram(['--spec', specWith(ADDRESS_FILTER)]),
      startMockProgram([]),
    ]);
    const every = await allRows(without, '');
    const want = (text: string) =>
      every
        .filter((r) => r.address.toLowerCase().includes(text))
        .map((r) => `${r.address}:${r.port}`)
        .sort();
    const piece = every[0]!.address.slice(1, 4);
    const got = (await allRows(withIt, `&address=${encodeURIComponent(piece.toUpperCase())}`))
      .map((r) => `${r.address}:${r.port}`)
      .sort();
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThan(every.length);
    expect(got).toEqual(want(piece.toLowerCase()));
    // A wildcard across the address, as the rule says.
    const starred = await allRows(withIt, `&address=${encodeURIComponent(`${piece}*.`)}`);
    expect(starred.every((r) => new RegExp(`${piece.replace(/[.]/g, '\\.')}.*\\.`, 'i').test(r.address))).toBe(true);
    // The spec's own rules about the new parameter hold too: too long is 400, naming it.
    const tooLong = await fetch(`${withIt}/servers/find?address=${'x'.repeat(101)}`);
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json()).message).toMatch(/query parameter 'address'/);
    // On the original spec the parameter is unknown, so ignored: every row.
    expect(await allRows(without, `&address=${piece}`)).toHaveLength(every.length);
  });
});

describe('the contract suite on a copy of the spec with that parameter', () => {
  it(
    'checks the parameter by its rule: passes against the mock that filters by it, fails against one that ' +
      'ignores it',
    async () => {
      const spec = specWith(ADDRESS_FILTER);
      const [withIt, without] = await Promise.all([startMockProgram(['--spec', spec]), startMockProgram([])]);
      const meaningOf = (baseUrl: string) =>
        findServersChecks(baseUrl, spec, 150, (r) => r.check.startsWith('meaning: address '));
      expectAllPass(await meaningOf(withIt));
      expectOneFails(await meaningOf(without));
    },
  );
});
