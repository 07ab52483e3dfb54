// The benchmarks' workload, shared by `npm run bench` and `npm run soak`, so both load
// the mock with the same requests.
import { createRng, int, pick } from '../mocks/dataset/rng.ts';

/**
 * `count` distinct /servers/find queries over the real filters. Every value is valid per the
 * spec (Prism validates requests and would answer 422 otherwise) and `limit` stays within
 * the anonymous maximum of 20. Seeded, so the mixed queries are the same on every run.
 */
export function mixedQueries(seed: number, count: number): string[] {
  const rnd = createRng(seed);
  const maybe = (p: number) => rnd() < p;
  const versions = ['1.20*', '1.21*', '1.19*', '1.18*', '1.16*', '1.12*', '1.8*', '*1.20*', 'Paper*', 'Velocity*', '*'];
  const regions = ['NA', 'EU', 'AS', 'SA', 'AF', 'OC'];
  const countries = [
    'Germany',
    'United States',
    'France',
    'Russia',
    'Brazil',
    'Poland',
    'United*',
    'DE',
    'US',
    'GB',
    'NL',
    'CA',
  ];
  const sorts = ['users', 'version', 'address', 'port', 'updated'];
  const motds = ['survival', 'skyblock', 'pvp', 'welcome', 'smp'];
  const seen = new Set<string>();
  while (seen.size < count) {
    const q: string[] = [];
    if (maybe(0.6)) q.push(`version=${encodeURIComponent(pick(rnd, versions))}`);
    if (maybe(0.5)) q.push(`minUsers=${int(rnd, 40)}`);
    if (maybe(0.15)) q.push(`maxUsers=${50 + int(rnd, 450)}`);
    if (maybe(0.3)) q.push(`region=${pick(rnd, regions)}`);
    else if (maybe(0.25)) q.push(`country=${encodeURIComponent(pick(rnd, countries))}`);
    if (maybe(0.15)) q.push(`maxAge=${1 + int(rnd, 30)}`);
    if (maybe(0.1)) q.push(`motd=${pick(rnd, motds)}`);
    if (maybe(0.7)) q.push(`sort=${pick(rnd, sorts)}`);
    if (maybe(0.4)) q.push(`page=${1 + int(rnd, 5)}`);
    q.push(`limit=${1 + int(rnd, 20)}`);
    seen.add(`/servers/find?${q.join('&')}`);
  }
  return [...seen];
}

/**
 * The n-th request of the distinct-filters flood (`npm run soak -- --flood N`): each asks
 * for a filter value nobody asked before (a new text in the wildcard filters, a new
 * country, mod pack, ASN, version pattern, a new combination with minUsers, a new
 * metadata filter), so each misses every cache the mock keeps of filters and fills it
 * with one more entry. Valid per the spec (short values), one row per answer.
 */
export function distinctFilterQuery(n: number): string {
  const v = n.toString(36);
  switch (n % 9) {
    case 0:
      return `/servers/find?motd=*flood${v}*&limit=1`;
    case 1:
      return `/servers/find?city=*${v}*&limit=1`;
    case 2:
      return `/servers/find?org=*${v}*&limit=1`;
    case 3:
      return `/servers/find?version=1.${v}*&limit=1`;
    case 4:
      return `/servers/find?country=Flood${v}&limit=1`;
    case 5:
      return `/servers/find?modpack=flood-${v}&limit=1`;
    case 6:
      return `/servers/find?asn=${1_000_000 + n}&limit=1`;
    case 7:
      return `/servers/find?motd=*${v}*&minUsers=${n % 40}&limit=1`;
    default:
      return `/metadata/versions?version=flood${v}*`;
  }
}
