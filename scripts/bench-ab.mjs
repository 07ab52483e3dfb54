// Throughput of mock builds (or flags) side by side, for a change's cost on a noisy machine:
// the plain and the filtered query of the benchmark against each variant in turn, each round
// starting with another variant (no variant always first), each measurement on a process
// started for it (a long-lived one keeps whatever core it landed on, and on a shared machine
// one variant's process alone can sit beside another's load for the whole run), the load
// generator (autocannon, 50 connections) in a process of its own; medians and pairwise ratios.
// On Linux it also prints each variant's CPU time an answer (its process's user and system
// time over the measurement, every thread, from /proc): the cost itself, where throughput
// also moves with how the load generator and the mock share the cores.
//   node scripts/bench-ab.mjs [--pairs N] [--seconds S] 'name=path/to/mock.mjs [flags]' ...
//   node scripts/bench-ab.mjs 'on=dist/mock.mjs' 'off=dist/mock.mjs --journal 0' 'base=../baseline/dist/mock.mjs'
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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
      (e, out) => (e ? reject(e) : resolve(JSON.parse(out).requests)),
    ),
  );

/** Clock ticks a second, the unit of /proc's CPU times. */
const TICKS = process.platform === 'linux' ? Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) : 0;
/** A process's CPU time so far, µs (user and system, every thread); undefined off Linux. */
function cpuMicros(pid) {
  if (!TICKS) return undefined;
  // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS;
}

const PORT = 4600;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
let child;
try {
  for (const [query, path] of Object.entries(QUERIES)) {
    const seen = variants.map(() => []);
    const cpu = variants.map(() => []);
    for (let p = 0; p < PAIRS; p++)
      for (let k = 0; k < variants.length; k++) {
        const i = (k + p) % variants.length;
        child = await startMock(variants[i], PORT);
        const url = `http://127.0.0.1:${PORT}${path}`;
        await load(url, 1);
        const before = cpuMicros(child.pid);
        const answers = await load(url, SECONDS);
        const after = cpuMicros(child.pid);
        seen[i].push(answers.average);
        if (before !== undefined) cpu[i].push((after - before) / answers.total);
        child.kill('SIGTERM');
        await new Promise((resolve) => child.on('exit', resolve));
        child = undefined;
      }
    const ratio = (xs, a, b) => median(xs[a].map((x, k) => x / xs[b][k])).toFixed(3);
    console.log(
      `${query}: ${variants.map((v, i) => `${v.name} ${Math.round(median(seen[i]))}`).join(', ')} req/s ` +
        `(medians of ${PAIRS})`,
    );
    for (let i = 1; i < variants.length; i++)
      console.log(`  ${variants[0].name}/${variants[i].name}: ${ratio(seen, 0, i)} (pairwise median)`);
    console.log(`  raw: ${JSON.stringify(seen.map((r) => r.map(Math.round)))}`);
    if (!cpu[0].length) continue;
    console.log(
      `  CPU an answer: ${variants.map((v, i) => `${v.name} ${median(cpu[i]).toFixed(1)}`).join(', ')} µs ` +
        `(medians of ${PAIRS})`,
    );
    for (let i = 1; i < variants.length; i++)
      console.log(`  ${variants[0].name}/${variants[i].name}: ${ratio(cpu, 0, i)} CPU an answer (pairwise median)`);
  }
} finally {
  child?.kill('SIGTERM');
}
