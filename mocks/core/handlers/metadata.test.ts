import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../../spec/load.ts';
import { loadModel } from '../../../spec/model.ts';
import { SchemaValidator, describeErrors } from '../../../spec/validator.ts';
import { generateServers } from '../../dataset/generator.ts';
import { countries, regions, versions } from './metadata.ts';
import { buildIndex } from '../../search/search.ts';
import type { StoredServer } from '../../dataset/server-row.ts';
import { type ServerFields, storedServer } from '../../dataset/server-builder.ts';
import { NOW } from '../../../testing/instants.ts';

const DAY = 86_400_000;
/** The spec's x-window-days on the countries lookup. */
const WINDOW = loadModel().limits.countryWindowMs;
const validator = new SchemaValidator(loadSpec());
const schemas = {
  versions: validator.compileRef('#/components/schemas/VersionsResponse'),
  countries: validator.compileRef('#/components/schemas/CountriesResponse'),
  regions: validator.compileRef('#/components/schemas/RegionsResponse'),
};
function valid<T>(kind: keyof typeof schemas, body: T): T {
  const v = schemas[kind];
  if (!v(body)) throw new Error(`${kind}: ${describeErrors(v.errors, 'body')}`);
  return body;
}

let n = 0;
/**
 * A stored server (the package's builder, server()), each at an address of
 * its own; `ago` = ms before NOW of its last ping.
 */
function mk(over: ServerFields & { ago?: number } = {}): StoredServer {
  const { ago = 60_000, ...rest } = over;
  n++;
  return storedServer({ address: `10.0.${n >> 8}.${n & 255}`, version: '1.20.4', ...rest, pingedAgo: ago }, NOW);
}
const US = { country: 'United States', country_code: 'US', region: 'NA' } as const;
const GB = { country: 'United Kingdom', country_code: 'GB', region: 'EU' } as const;
const JP = { country: 'Japan', country_code: 'JP', region: 'AS' } as const;
const TCP = { asn_name: 'TCPShield Inc.', asn_number: '209242' } as const;

describe('versions', () => {
  const data = [
    mk({ version: '1.20.4' }),
    mk({ version: '1.20.4' }),
    mk({ version: '1.20.4', ...TCP }),
    mk({ version: 'Paper 1.21.1' }),
    mk({ version: 'Paper 1.21.1' }),
    mk({ version: '1.8.8' }),
    mk({ version: '1.20.1' }),
    mk({ version: '1.20-1.20.4', ago: 90 * DAY }),
  ];
  const ix = buildIndex(data);

  it('lists every version, most servers first, ties by version ascending (TCPShield and old pings count)', () => {
    expect(valid('versions', versions(ix))).toEqual({
      unique_versions: 5,
      versions: [
        { version: '1.20.4', num_servers: 3 },
        { version: 'Paper 1.21.1', num_servers: 2 },
        { version: '1.20-1.20.4', num_servers: 1 },
        { version: '1.20.1', num_servers: 1 },
        { version: '1.8.8', num_servers: 1 },
      ],
    });
  });

  it('filters by whole-value wildcard, case-insensitive; limit caps the list, not unique_versions', () => {
    expect(versions(ix, { version: '1.20*' }).versions.map((v) => v.version)).toEqual([
      '1.20.4',
      '1.20-1.20.4',
      '1.20.1',
    ]);
    expect(versions(ix, { version: '1.20' }).unique_versions).toBe(0);
    expect(versions(ix, { version: 'paper*' }).versions).toEqual([{ version: 'Paper 1.21.1', num_servers: 2 }]);
    expect(versions(ix, { version: '*1.21.1' }).unique_versions).toBe(1);
    expect(versions(ix, { version: '' }).unique_versions).toBe(5);
    expect(versions(ix, { version: '*' }).unique_versions).toBe(5);
    expect(versions(ix, { version: '(' }).unique_versions).toBe(0);
    expect(valid('versions', versions(ix, { version: '1.20*', limit: 2 }))).toEqual({
      unique_versions: 3,
      versions: [
        { version: '1.20.4', num_servers: 3 },
        { version: '1.20-1.20.4', num_servers: 1 },
      ],
    });
    expect(versions(ix, { limit: 1 }).versions).toHaveLength(1);
    // cached answers are not shared mutable state
    versions(ix, { version: '1.20*', limit: 1 }).versions.pop();
    expect(versions(ix, { version: '1.20*' }).versions).toHaveLength(3);
  });
});

describe('countries', () => {
  const data = [
    mk({ ...US }),
    mk({ ...US }),
    mk({ ...US, ...TCP }),
    mk({ ...US, ago: 31 * DAY }),
    mk({ ...GB }),
    mk({ ...GB }),
    mk({ ...GB, ago: 29 * DAY }),
    mk({}),
    mk({ ago: 29 * DAY }),
    mk({ ago: 45 * DAY }),
    mk({ ...JP, ago: 40 * DAY }),
  ];
  const ix = buildIndex(data);

  it('counts servers pinged in the last 30 days, most first, ties by country name', () => {
    expect(WINDOW).toBe(30 * DAY);
    expect(valid('countries', countries(ix, {}, NOW, WINDOW))).toEqual({
      unique_countries: 3,
      countries: [
        { country: 'United Kingdom', country_code: 'GB', num_servers: 3 },
        { country: 'United States', country_code: 'US', num_servers: 3 },
        { country: 'Germany', country_code: 'DE', num_servers: 2 },
      ],
    });
  });

  it('depends on now', () => {
    const later = countries(ix, {}, NOW + 2 * DAY, WINDOW);
    expect(later.countries.find((c) => c.country_code === 'GB')?.num_servers).toBe(2);
    expect(countries(ix, {}, NOW + 365 * DAY, WINDOW)).toEqual({ unique_countries: 0, countries: [] });
  });

  it('filters by two-letter code or whole name with wildcard, case-insensitive', () => {
    expect(countries(ix, { country: 'us' }, NOW, WINDOW).countries.map((c) => c.country_code)).toEqual(['US']);
    expect(countries(ix, { country: 'United*' }, NOW, WINDOW).countries.map((c) => c.country_code)).toEqual([
      'GB',
      'US',
    ]);
    expect(countries(ix, { country: 'germany' }, NOW, WINDOW).unique_countries).toBe(1);
    expect(countries(ix, { country: 'United' }, NOW, WINDOW).unique_countries).toBe(0);
    expect(countries(ix, { country: 'JP' }, NOW, WINDOW).unique_countries).toBe(0);
    expect(countries(ix, { country: '' }, NOW, WINDOW).unique_countries).toBe(3);
    expect(countries(ix, { country: '[x' }, NOW, WINDOW).unique_countries).toBe(0);
  });
});

describe('regions', () => {
  const data = [mk({ ...US }), mk({ ...US, ...TCP }), mk({ ...GB }), mk({}), mk({ ...JP, ago: 400 * DAY }), mk({})];
  const ix = buildIndex(data);

  it('sorted by region code, with the total (every indexed server, TCPShield included)', () => {
    expect(valid('regions', regions(ix))).toEqual({
      unique_regions: 3,
      total_servers: 6,
      regions: [
        { region: 'AS', num_servers: 1 },
        { region: 'EU', num_servers: 3 },
        { region: 'NA', num_servers: 2 },
      ],
    });
  });

  it('filters by region', () => {
    expect(regions(ix, { region: 'EU' })).toEqual({
      unique_regions: 1,
      total_servers: 3,
      regions: [{ region: 'EU', num_servers: 3 }],
    });
    expect(regions(ix, { region: 'eu' }).total_servers).toBe(3);
    expect(regions(ix, { region: 'AN' })).toEqual({ unique_regions: 0, total_servers: 0, regions: [] });
    expect(regions(ix, { region: '' }).unique_regions).toBe(3);
  });
});

describe('rows without a GeoIP record', () => {
  it('are in no country or region bucket, and filters never match them', () => {
    const ix = buildIndex([mk(), mk({ country: null, country_code: null, region: null }), mk({ ...US })]);
    expect(valid('regions', regions(ix))).toEqual({
      unique_regions: 2,
      total_servers: 2,
      regions: [
        { region: 'EU', num_servers: 1 },
        { region: 'NA', num_servers: 1 },
      ],
    });
    expect(valid('countries', countries(ix, {}, NOW, WINDOW)).countries.map((x) => x.country_code)).toEqual([
      'DE',
      'US',
    ]);
    expect(countries(ix, { country: '*' }, NOW, WINDOW).unique_countries).toBe(2);
  });
});

describe('metadata on a generated dataset', () => {
  const servers = generateServers({ seed: 11, count: 4000, now: new Date(NOW) });
  const ix = buildIndex(servers);

  it('answers valid bodies whose counts add up', () => {
    const v = valid('versions', versions(ix));
    expect(v.versions.reduce((s, r) => s + r.num_servers, 0)).toBe(servers.length);
    // Servers without a GeoIP record are in no bucket (the spec's RegionsResponse, CountriesResponse).
    const located = servers.filter((s) => s.region !== null);
    expect(located.length).toBeLessThan(servers.length);
    const r = valid('regions', regions(ix));
    expect(r.total_servers).toBe(located.length);
    expect(r.regions.map((x) => x.region)).not.toContain(null);
    const c = valid('countries', countries(ix, {}, NOW, WINDOW));
    expect(c.countries.map((x) => x.country)).not.toContain(null);
    const recent = located.filter((s) => NOW - Date.parse(s.last_ping) <= 30 * DAY).length;
    expect(c.countries.reduce((s, x) => s + x.num_servers, 0)).toBe(recent);
    for (let i = 1; i < c.countries.length; i++)
      expect(c.countries[i - 1]!.num_servers).toBeGreaterThanOrEqual(c.countries[i]!.num_servers);
    expect(c.countries[0]!.country_code).toBe('US');
  });
});
