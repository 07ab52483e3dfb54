// `/metadata/versions`, `/metadata/countries`, `/metadata/regions`, computed from the index.
// Their filters are applied by their `x-meaning` rules, as the search's are
// (mocks/search/filters.ts), to the rows they answer.
//
// Decision: metadata counts EVERY indexed server, TCPShield-proxied ones included.
// The TCPShield filter is a property of search results (`noFilter`); the metadata
// endpoints have no such switch and describe the whole listing. So the numbers here
// can be higher than a default `/servers/find` total (which also applies maxAge=30).
import { loadModel } from '../../../spec/model.ts';
import type { CountriesResponse, Region, RegionsResponse, VersionsResponse } from '../../../spec/openapi.gen.ts';
import { filtersOf, rowFilter, type Filter } from '../../search/filters.ts';
import { BoundedCache, type CacheStats } from '../../search/bounded-cache.ts';
import { postings } from '../../search/row-sets.ts';
import type { ServerIndex } from '../../search/search-index.ts';

type VersionRow = VersionsResponse['versions'][number];
type CountryRow = CountriesResponse['countries'][number];
type RegionRow = RegionsResponse['regions'][number];

interface CountryBucket {
  country: string;
  country_code: string;
  /** last_ping epoch ms of its servers, ascending. */
  pings: Float64Array;
}

interface Cache {
  versions?: VersionRow[];
  countries?: CountryBucket[];
  regions?: RegionRow[];
  /** Filtered version lists by filter (clients pick it: bounded in bytes, each row a pointer). */
  versionQueries: BoundedCache<VersionRow[]>;
}

/** The memory the filtered version lists may take per index. */
const VERSION_QUERY_BYTES = 2 ** 20;

const caches = new WeakMap<ServerIndex, Cache>();
function cache(ix: ServerIndex): Cache {
  let c = caches.get(ix);
  if (!c) {
    c = { versionQueries: new BoundedCache<VersionRow[]>(VERSION_QUERY_BYTES, (rows) => 16 + 8 * rows.length) };
    caches.set(ix, c);
  }
  return c;
}

/** What the filtered version lists of this index hold now (for /__mock/info). */
export function metadataCacheStats(ix: ServerIndex): CacheStats {
  return cache(ix).versionQueries.stats();
}

/** How many rows hold each value id. */
function countIds(ids: ArrayLike<number>, distinct: number): Uint32Array {
  const counts = new Uint32Array(distinct);
  for (let i = 0; i < ids.length; i++) counts[ids[i] as number] = (counts[ids[i] as number] as number) + 1;
  return counts;
}

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The filters of each lookup in spec/openapi.yaml (a mock serving another copy of the spec passes its own). */
const model = loadModel();
export const METADATA_FILTERS = {
  versions: filtersOf(model.byId.get('listVersions')!),
  countries: filtersOf(model.byId.get('listCountries')!),
  regions: filtersOf(model.byId.get('listRegions')!),
};

type Query = Record<string, unknown>;
type Row = Record<string, unknown>;

function allVersions(ix: ServerIndex): VersionRow[] {
  const c = cache(ix);
  if (!c.versions) {
    const col = ix.dataset.dict.version;
    const counts = countIds(col.ids, col.values.length);
    c.versions = col.values
      .map((version, id) => ({ version, num_servers: counts[id] as number }))
      .filter((v) => v.num_servers > 0)
      .sort((a, b) => b.num_servers - a.num_servers || byName(a.version, b.version));
  }
  return c.versions;
}

/** Versions with server counts: most servers first, ties by version ascending; `limit` rows at most. */
export function versions(
  ix: ServerIndex,
  q: Query & { limit?: number | undefined } = {},
  filters: readonly Filter[] = METADATA_FILTERS.versions,
): VersionsResponse {
  const all = allVersions(ix);
  let matching = all;
  const filter = rowFilter(filters, q, 0);
  if (filter) {
    const c = cache(ix);
    matching = c.versionQueries.getOrBuild(filter.key, () => all.filter((v) => filter.passes(v as unknown as Row)));
  }
  const limit = typeof q.limit === 'number' && q.limit >= 0 ? Math.floor(q.limit) : matching.length;
  return { unique_versions: matching.length, versions: matching.slice(0, limit) };
}

function countryBuckets(ix: ServerIndex): CountryBucket[] {
  const c = cache(ix);
  if (!c.countries) {
    // One bucket per distinct (country, code) pair of ids, the rows grouped by bucket with
    // the index's counting sort (a million pushes into arrays took 0.4 s).
    const { country, country_code: code } = ix.dataset.dict;
    const codes = code.values.length;
    const bucketOf = new Int32Array(country.values.length * codes).fill(-1);
    // No GeoIP record (a null country or code): a bucket of its own that no answer lists,
    // as the spec's CountriesResponse counts located servers only.
    const buckets: ({ country: string; country_code: string } | null)[] = [];
    const rowBucket = new Uint32Array(ix.size);
    for (let i = 0; i < ix.size; i++) {
      const pair = (country.ids[i] as number) * codes + (code.ids[i] as number);
      let b = bucketOf[pair] as number;
      if (b === -1) {
        const name = country.values[country.ids[i] as number] as string | null;
        const cc = code.values[code.ids[i] as number] as string | null;
        b = bucketOf[pair] =
          buckets.push(name === null || cc === null ? null : { country: name, country_code: cc }) - 1;
      }
      rowBucket[i] = b;
    }
    const { rows, start } = postings(rowBucket, buckets.length);
    const pings = new Float64Array(rows.length);
    for (let k = 0; k < rows.length; k++) pings[k] = ix.lastPing[rows[k] as number] as number;
    c.countries = [];
    buckets.forEach((b, k) => {
      if (b) c.countries!.push({ ...b, pings: pings.subarray(start[k], start[k + 1]).sort() });
    });
  }
  return c.countries;
}

/**
 * Countries of servers pinged within `windowMs` before `now` (the spec's `x-window-days`):
 * most servers first, ties by name (then code).
 */
export function countries(
  ix: ServerIndex,
  q: Query,
  now: number,
  windowMs: number,
  filters: readonly Filter[] = METADATA_FILTERS.countries,
): CountriesResponse {
  const filter = rowFilter(filters, q, now);
  const test = filter ? (b: CountryBucket) => filter.passes(b as unknown as Row) : () => true;
  const from = now - windowMs;
  const rows: CountryRow[] = [];
  for (const b of countryBuckets(ix)) {
    if (!test(b)) continue;
    // pings ascending: count those >= from
    let lo = 0;
    let hi = b.pings.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((b.pings[mid] as number) < from) lo = mid + 1;
      else hi = mid;
    }
    // pings after `now` (clock skew in a hand-edited file) still count: they are recent.
    const n = b.pings.length - lo;
    if (n > 0) rows.push({ country: b.country, country_code: b.country_code, num_servers: n });
  }
  rows.sort(
    (a, b) => b.num_servers - a.num_servers || byName(a.country, b.country) || byName(a.country_code, b.country_code),
  );
  return { unique_countries: rows.length, countries: rows };
}

/** Continents with server counts, sorted by region code; `total_servers` sums the listed ones. */
export function regions(
  ix: ServerIndex,
  q: Query = {},
  filters: readonly Filter[] = METADATA_FILTERS.regions,
): RegionsResponse {
  const c = cache(ix);
  if (!c.regions) {
    const col = ix.dataset.dict.region;
    const counts = countIds(col.ids, col.values.length);
    // A null region (no GeoIP record) is in no bucket and not in total_servers (the spec's RegionsResponse).
    c.regions = col.values
      .map((region, id) => ({ region: region as Region, num_servers: counts[id] as number }))
      .filter((r) => r.region !== null && r.num_servers > 0)
      .sort((a, b) => byName(a.region, b.region));
  }
  const filter = rowFilter(filters, q, 0);
  const rows = filter ? c.regions.filter((r) => filter.passes(r as unknown as Row)) : c.regions.slice();
  return { unique_regions: rows.length, total_servers: rows.reduce((n, r) => n + r.num_servers, 0), regions: rows };
}
