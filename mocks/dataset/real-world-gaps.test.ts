import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rowsOf } from './columns.ts';
import { generateServers } from './generator.ts';
import { GAP_RATES, gapRatesMarkdown } from './real-world-gaps.ts';
import { isTcpShield, type StoredServer } from './server-row.ts';
import { json, useApp, type TestApp } from '../testing/test-app.ts';
import { NOW } from '../../testing/instants.ts';

const COUNT = 20_000;
const real = generateServers({ seed: 7, count: COUNT, now: new Date(NOW) });
const clean = generateServers({ seed: 7, count: COUNT, now: new Date(NOW), clean: true });

/** Which rows each gap can apply to, and whether a row has it: read from the rows, not from the generator. */
const OBSERVED: Record<
  (typeof GAP_RATES)[number]['gap'],
  { among: (c: StoredServer) => boolean; has: (r: StoredServer, c: StoredServer) => boolean }
> = {
  noGeo: { among: () => true, has: (r) => r.country === null },
  noCity: { among: (c) => c.country !== null, has: (r) => r.country !== null && r.city === null },
  noAsn: { among: (c) => !isTcpShield(c), has: (r) => r.asn_number === null },
  noMotd: { among: () => true, has: (r) => r.motd === null },
  noIdPlayers: { among: (c) => c.players.length > 0, has: (r) => r.players.some((p) => p.uuid === 'NO-ID') },
  joinedPlugins: { among: (c) => c.plugins.length > 1, has: (r) => r.plugins.some((p) => p.includes(';')) },
};

describe('real-world rows', () => {
  it('each gap appears at its documented rate (within sampling error) among the rows it can apply to', () => {
    for (const { gap, rate } of GAP_RATES) {
      const { among, has } = OBSERVED[gap];
      let n = 0;
      let hits = 0;
      real.forEach((r, i) => {
        const c = clean[i]!;
        // noCity is decided only for rows that kept their GeoIP record.
        if (!among(c) || (gap === 'noCity' && r.country === null)) return;
        n++;
        if (has(r, c)) hits++;
      });
      const sd = Math.sqrt((rate * (1 - rate)) / n);
      expect(n, gap).toBeGreaterThan(500);
      expect(Math.abs(hits / n - rate), `${gap}: ${hits}/${n}`).toBeLessThan(4 * sd + 0.005);
    }
  });

  it(
    'the gaps are consistent: no GeoIP means no country, code, region or city; no ASN means neither field; no ' +
      'MOTD means no stripped MOTD',
    () => {
      for (const r of real) {
        if (r.country === null) expect([r.country_code, r.region, r.city]).toEqual([null, null, null]);
        else expect([r.country_code, r.region].includes(null)).toBe(false);
        expect(r.asn_number === null).toBe(r.asn_name === null);
        expect(r.motd === null).toBe(r.motd_stripped === null);
      }
    },
  );

  it('--clean-data gives the same rows, complete: only the gap fields differ', () => {
    for (const c of clean) {
      expect(
        [c.country, c.country_code, c.region, c.city, c.asn_number, c.asn_name, c.motd, c.motd_stripped].includes(null),
      ).toBe(false);
      expect(c.players.some((p) => p.uuid === 'NO-ID')).toBe(false);
      expect(c.plugins.some((p) => p.includes(';'))).toBe(false);
    }
    const fixed = [
      'address',
      'port',
      'version',
      'offline_mode',
      'players_online',
      'players_limit',
      'last_ping',
      'favicon',
      'detected_mod_pack',
    ] as const;
    real.forEach((r, i) => {
      for (const k of fixed) expect(r[k]).toEqual(clean[i]![k]);
      expect(r.players.map((p) => p.name)).toEqual(clean[i]!.players.map((p) => p.name));
      expect(r.plugins.join(';')).toBe(clean[i]!.plugins.join(';'));
    });
  });

  it('is seeded: the same seed gives the same gaps, another seed other ones', () => {
    const again = generateServers({ seed: 7, count: 2000, now: new Date(NOW) });
    expect(JSON.stringify(again)).toBe(JSON.stringify(generateServers({ seed: 7, count: 2000, now: new Date(NOW) })));
    const other = generateServers({ seed: 8, count: 2000, now: new Date(NOW) });
    const gapsOf = (rows: StoredServer[]) =>
      rows.map((r) => `${r.country === null}${r.motd === null}${r.asn_name === null}`).join();
    expect(gapsOf(other)).not.toBe(gapsOf(again));
  });

  it('mocks/README.md states the rates the generator uses', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const table = /<!-- gaps:start -->\n([\s\S]*?)\n<!-- gaps:end -->/.exec(readme)?.[1];
    expect(table, 'run npm run docs:flags to write the gaps table').toBe(gapRatesMarkdown());
  });
});

describe('over HTTP', () => {
  /** Every row the mock serves, page by page as a client would read them. */
  async function allRows(t: TestApp): Promise<any[]> {
    const rows: any[] = [];
    for (let page = 1; ; page++) {
      const res = await t.fetch(t.url(`/servers/find?noFilter=true&maxAge=3650&limit=20&page=${page}`));
      expect(res.status).toBe(200);
      const body = await json(res);
      rows.push(...body.results);
      if (body.results.length < 20) return rows;
    }
  }

  it(
    'the mock serves rows with nulls by default (valid against the spec: every answer is self-checked), none ' +
      'with --clean-data',
    async () => {
      const real = await allRows(useApp());
      const nulls = (rows: any[]) => rows.filter((r) => [r.country, r.city, r.asn_name, r.motd].includes(null)).length;
      expect(nulls(real)).toBeGreaterThan(real.length / 2);
      expect(real.some((r) => r.region === null)).toBe(true);
      const clean = await allRows(useApp({ cleanData: true }));
      expect(clean).toHaveLength(real.length);
      expect(nulls(clean)).toBe(0);
    },
  );

  it("Prefer: example=gaps answers the spec's row with every gap at once", async () => {
    const t = useApp();
    const res = await t.fetch(t.url('/servers/find'), { headers: { Prefer: 'code=200, example=gaps' } });
    expect(res.status).toBe(200);
    const row = (await json(res)).results[0];
    expect(row).toMatchObject({ country: null, region: null, asn_number: null, motd: null, motd_stripped: null });
    expect(row.players.map((p: any) => p.uuid)).toContain('NO-ID');
    expect(row.plugins[0]).toContain(';');
  });

  it('a ping of a row without GeoIP, ASN or MOTD answers its nulls', async () => {
    const t = useApp();
    const row = rowsOf(t.mock.state.index.dataset).find((s) => s.country === null)!;
    const res = await t.fetch(t.url(`/status/ping/${row.address}:${row.port}`));
    expect(res.status).toBe(200);
    expect((await json(res)).server).toMatchObject({ country: null, country_code: null, region: null, city: null });
  });
});
