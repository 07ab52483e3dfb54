// A sort order is what the spec says it is: a value added to findServers' `sort` in a
// copy of the spec, with its order in `x-meaning` (here `slots`: `players_limit`
// descending, a field no order read before), works in the mock started on that copy
// with `--spec`, with no code change: the rows come back over HTTP in that order, ties
// by the spec's tieBreak; a value the spec does not list is a 400, and the mock on the
// original spec refuses `slots` too. The contract suite replaying the same copy checks
// the new order, also with no code change: it passes against the mock that sorts, and
// fails against a server that ignores the order (a stub in front of that mock that
// drops `sort=slots`, so the rows come in the default order).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { specWithOrder, startMockProgram, stopMockPrograms } from './mock-program.ts';
import { expectAllPass, expectOneFails, findServersChecks } from './suite-on-a-spec-copy.ts';

const SLOTS = '{ field: players_limit, direction: desc }';
const stubs: Server[] = [];

afterAll(async () => {
  stopMockPrograms();
  await Promise.all(stubs.map((s) => new Promise((done) => s.close(done))));
});

interface Row {
  address: string;
  port: number;
  players_limit: number;
}

/** Every row of a search in `sort` order, page by page (TCPShield rows included, no age window). */
async function allRows(base: string, sort: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${base}/servers/find?noFilter=true&maxAge=3650&limit=20&page=${page}&sort=${sort}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    rows.push(...body.results);
    if (rows.length >= body.total || body.results.length === 0) return rows;
  }
}

/** The spec's order for `slots`: players_limit descending, ties by address, then port (code-unit order). */
const bySlots = (a: Row, b: Row): number =>
  b.players_limit - a.players_limit || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0) || a.port - b.port;

/** A server that ignores `sort=slots`: `upstream` with that parameter dropped from every request. */
async function ignoringSlots(upstream: string): Promise<string> {
  const origin = new URL(upstream).origin;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', origin);
    if (url.searchParams.get('sort') === 'slots') url.searchParams.delete('sort');
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k, v]) => typeof v === 'string' && k !== 'host' && k !== 'connection'),
    ) as Record<string, string>;
    const answer = await fetch(url, { method: req.method ?? 'GET', headers });
    const body = Buffer.from(await answer.arrayBuffer());
    const kept: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      if (!['content-length', 'content-encoding', 'connection'].includes(k)) kept[k] = v;
    });
    res.writeHead(answer.status, kept);
    res.end(body);
  });
  stubs.push(server);
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}${new URL(upstream).pathname}`;
}

describe('a sort order added to the spec', () => {
  it('sorts in the mock started on that spec with --spec, and only there', async () => {
    const spec = specWithOrder('slots', SLOTS);
    const [withIt, without] = await Promise.all([startMockProgram(['--spec', spec]), startMockProgram([])]);
    const rows = await allRows(withIt, 'slots');
    expect(rows.length).toBeGreaterThan(100);
    expect(new Set(rows.map((r) => r.players_limit)).size).toBeGreaterThan(3);
    expect(rows.map((r) => `${r.address}:${r.port}`)).toEqual(
      [...rows].sort(bySlots).map((r) => `${r.address}:${r.port}`),
    );
    // The same servers as any other order: an order, not a filter.
    const byAddress = await allRows(withIt, 'address');
    expect(rows.map((r) => `${r.address}:${r.port}`).sort()).toEqual(
      byAddress.map((r) => `${r.address}:${r.port}`).sort(),
    );
    // A value the spec does not list is refused, naming the parameter; an order's name is exact.
    for (const [base, value] of [
      [withIt, 'bogus'],
      [withIt, 'SLOTS'],
      [without, 'slots'],
    ] as const) {
      const res = await fetch(`${base}/servers/find?sort=${value}`);
      expect(res.status, `${base} sort=${value}`).toBe(400);
      expect((await res.json()).message).toMatch(/query parameter 'sort'/);
    }
  });
});

// A whole run of the suite on each of two targets: on a busy machine longer than one test should take.
describe('the contract suite on a copy of the spec with that order', { timeout: 90_000 }, () => {
  it('checks the order: passes against the mock that sorts by it, fails against a server that ignores it', async () => {
    const spec = specWithOrder('slots', SLOTS);
    const mock = await startMockProgram(['--spec', spec]);
    const ignoring = await ignoringSlots(mock);
    const slotsChecks = (baseUrl: string) =>
      findServersChecks(baseUrl, spec, 200, (r) => r.check.includes('rows in sort=slots'));
    expectAllPass(await slotsChecks(mock));
    expectOneFails(await slotsChecks(ignoring), (r) => /players_limit/.test(r.message ?? ''));
  });
});
