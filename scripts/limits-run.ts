// `npm run limits`: a whole run of the suite against the reference server enforcing the
// documented rate limits (per minute: 20 anonymous, 60 a session, 100 an API key, per
// account; the metadata lookups one a second) on the real clock, in process, the suite
// pacing itself as it does against any target. It prints the requests each counter took,
// the lower bound the limits set on the run ((ceil(requests / limit) - 1) windows of the
// busiest counter: counters count at once; and for the run's start, windows being aligned
// to the clock), and the run's time, waits and 429s beside it.
//
//   npm run limits                    the default run (budget 500): a few minutes
//   npm run limits -- --budget 200    a smaller run
import { type FlagTable, programFlags } from '../cli/flags.ts';
import { fixtureEnv, REFERENCE_BASE, referenceFetch } from '../contract-tests/reference-server/in-process.ts';
import { boundFrom, limitBounds } from '../contract-tests/reference-server/limit-bound.ts';
import type { Counted } from '../contract-tests/reference-server/rate-limit.ts';
import { runSuite } from '../contract-tests/run/suite.ts';

const FLAGS = {
  budget: { type: 'integer', value: 'N', min: 1, max: 100_000, help: "the suite's request budget (default: its own)" },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
} as const satisfies FlagTable;

const args = programFlags('limits', 'npm run limits -- [options]', FLAGS);
const counted: Counted[] = [];
const started = Date.now();
const { outcome } = await runSuite({
  baseUrl: REFERENCE_BASE,
  fetch: referenceFetch('none', { rateLimit: 'documented', observeLimits: (c) => counted.push(c) }),
  allowWrites: true,
  dredd: false,
  env: fixtureEnv(),
  promises: false,
  ...(args.budget ? { budget: args.budget } : {}),
});
const wallMs = Date.now() - started;
const { buckets, boundMs } = limitBounds(counted);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
// A counter is its path group and its account; the account's own name is the reference's.
const named = (bucket: string) => {
  const [group, account] = bucket.split(':');
  return `${group ? `/${group}/*` : 'every other path'}, ${account}`;
};
console.log('Requests per limit counter (path group, account), as the reference counted them:');
for (const b of buckets)
  console.log(
    `- ${named(b.bucket)}: ${b.requests} request(s)${b.refused ? ` and ${b.refused} refused (429)` : ''}, ` +
      `limit ${b.limit} per ${seconds(b.windowMs)}: at least ${seconds(b.boundMs)}`,
  );
console.log(`\nLower bound the limits set: ${seconds(boundMs)} (the busiest counter; counters count at once)`);
// Windows are aligned to the clock: a run that starts inside one has only its rest before the next.
const second = new Date(started).getUTCSeconds();
console.log(`For a run started ${second} s into the minute: ${seconds(boundFrom(buckets, started))}`);
console.log(`The run: ${seconds(wallMs)}, exit ${outcome.exitCode}`);
for (const line of outcome.figures.filter((l) => /^(Requests|Rate limits):/.test(l))) console.log(line);
