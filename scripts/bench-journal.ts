// What the request journal costs a request, in process (no socket: only the mock's own work,
// which the journal adds to): two mocks of one build made by createMock(), as a unit test
// makes one, the journal on in one and off (`journal: 0`) in the other, batches in turn so a
// busy machine's drift hits both; the plain and the filtered query of the benchmark. Prints µs
// per request and the ratio.
//   npx tsx scripts/bench-journal.ts [--rounds N] [--batch N]
import { parseFlags } from '../cli/flags.ts';
import { createMock, type InProcessMock } from '../mocks/node/in-process.ts';

const { rounds, batch } = parseFlags(
  {
    rounds: { type: 'integer', default: 15, min: 1, max: 1000, help: 'batches of each mock' },
    batch: { type: 'integer', default: 2000, min: 100, max: 1_000_000, help: 'requests a batch' },
  },
  process.argv.slice(2),
  {},
).values;

const options = { seed: 42, servers: 1000, now: '2026-06-01T12:00:00Z', quiet: true, selfCheck: false, cacheDir: null };
const mocks = { on: createMock({ ...options, journal: 1000 }), off: createMock({ ...options, journal: 0 }) };
const QUERIES = {
  plain: 'http://127.0.0.1:4010/api/v0.1/servers/find?limit=20',
  filtered: 'http://127.0.0.1:4010/api/v0.1/servers/find?version=1.20*&minUsers=5&sort=users',
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function time(mock: InProcessMock, url: string): Promise<number> {
  const t = performance.now();
  for (let i = 0; i < batch; i++) await (await mock.fetch(url)).arrayBuffer();
  return ((performance.now() - t) * 1000) / batch;
}

for (const [name, url] of Object.entries(QUERIES)) {
  for (const mock of Object.values(mocks)) await time(mock, url); // warm both
  const seen = { on: [] as number[], off: [] as number[] };
  for (let r = 0; r < rounds; r++)
    for (const key of r % 2 ? (['off', 'on'] as const) : (['on', 'off'] as const))
      seen[key].push(await time(mocks[key], url));
  const ratio = median(seen.on.map((x, i) => x / seen.off[i]!));
  console.log(
    `${name}: ${median(seen.on).toFixed(1)} µs a request with the journal, ${median(seen.off).toFixed(1)} without ` +
      `(medians of ${rounds} batches of ${batch}); on/off pairwise median ${ratio.toFixed(3)}`,
  );
}
await Promise.all(Object.values(mocks).map((mock) => mock.close()));
