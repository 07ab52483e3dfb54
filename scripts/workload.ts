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
  const countries = ['Germany', 'United States', 'France', 'Russia', 'Brazil', 'Poland', 'United*', 'DE', 'US', 'GB', 'NL', 'CA'];
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
