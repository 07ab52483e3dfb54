// Throughput of mock builds (or flags) side by side, for a change's cost on a noisy machine:
// the plain and the filtered query of the benchmark against each variant in turn, each round
// starting with another variant (no variant always first), each measurement on a process
// started for it (a long-lived one keeps whatever core it landed on, and on a shared machine
// one variant's process alone can sit beside another's load for the whole run), the load
// generator (autocannon, 50 connections) in a process of its own; medians and pairwise ratios.
//   node scripts/bench-ab.mjs [--pairs N] [--seconds S] 'name=path/to/mock.mjs [flags]' ...
//   node scripts/bench-ab.mjs 'on=dist/mock.mjs' 'off=dist/mock.mjs --journal 0' 'base=../baseline/dist/mock.mjs'
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { benchArgs, QUERIES, startMock } from './bench-variants.mjs';

const { options, variants } = benchArgs(process.argv, { pairs: 6, seconds: 5 });
const PAIRS = options.pairs;
const SECONDS = options.seconds;
if (variants.length < 2) throw new Error("give at least two variants: 'name=dist/mock.mjs [flags]'");
const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
const load = (url, seconds) =>
  new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      [AUTOCANNON, '-j', '-c', '50', '-d', String(seconds), url],
      { maxBuffer: 1 << 24 },
      (e, out) => (e ? reject(e) : resolve(JSON.parse(out).requests.average)),
    ),
  );

const PORT = 4600;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
let child;
try {
  for (const [query, path] of Object.entries(QUERIES)) {
    const seen = variants.map(() => []);
    for (let p = 0; p < PAIRS; p++)
      for (let k = 0; k < variants.length; k++) {
        const i = (k + p) % variants.length;
        child = await startMock(variants[i], PORT);
        const url = `http://127.0.0.1:${PORT}${path}`;
        await load(url, 1);
        seen[i].push(await load(url, SECONDS));
        child.kill('SIGTERM');
        await new Promise((resolve) => child.on('exit', resolve));
        child = undefined;
      }
    const ratio = (a, b) => median(seen[a].map((x, k) => x / seen[b][k])).toFixed(3);
    console.log(
      `${query}: ${variants.map((v, i) => `${v.name} ${Math.round(median(seen[i]))}`).join(', ')} req/s ` +
        `(medians of ${PAIRS})`,
    );
    for (let i = 1; i < variants.length; i++)
      console.log(`  ${variants[0].name}/${variants[i].name}: ${ratio(0, i)} (pairwise median)`);
    console.log(`  raw: ${JSON.stringify(seen.map((r) => r.map(Math.round)))}`);
  }
} finally {
  child?.kill('SIGTERM');
}
