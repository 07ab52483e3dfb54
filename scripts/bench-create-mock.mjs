// How long createMock() and its first answer take, from a built library entry
// (dist/index.mjs after `npm run build && npm run build:package`), each entry in fresh
// processes, in turn (A B A B ...) so a busy machine's drift hits them alike; the medians.
// `first`: the first createMock() of a process and its first answer (import not counted);
// `warm`: the third, after two (the code compiled, fetch's classes loaded). With --fetch-loaded
// the process touches fetch's Request and Response first, as a test runner with MSW or a
// DOM environment has (Node loads undici on first use: its cost, not the mock's). `import`: the
// entry's import alone, printed beside them (work an entry moves from createMock to its import
// is still work a test file pays). Beside them, in how many runs a garbage collection fell
// within the first: a young-generation collection there costs 1-2 ms of it.
//   node scripts/bench-create-mock.mjs [--runs N] [--fetch-loaded] [--json] ENTRY_A [ENTRY_B]
// With --json it prints one object instead (each entry's medians, and A/B's pairwise median
// of the first answers' times): `npm run bench` reads it.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt === -1 ? 15 : Number(args[runsAt + 1]);
const fetchLoaded = args.includes('--fetch-loaded');
const json = args.includes('--json');
const entries = args
  .filter((a, i) => !a.startsWith('--') && (runsAt === -1 || i !== runsAt + 1))
  .map((entry) => pathToFileURL(resolve(entry)).href);

const child = `
const { PerformanceObserver } = await import('node:perf_hooks');
const collections = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) collections.push(e.startTime); })
  .observe({ entryTypes: ['gc'] });
if (${fetchLoaded}) new Response(new Request('http://x.test/').url);
const imported = performance.now();
const { createMock } = await import(process.argv[1]);
const importMs = performance.now() - imported;
const times = [];
let firstWindow;
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  const mock = createMock({ now: '2026-06-01T12:00:00Z' });
  const res = await mock.fetch('http://api.test/api/v0.1/servers/find?limit=5');
  await res.arrayBuffer();
  times.push(performance.now() - t);
  firstWindow ??= [t, performance.now()];
  await mock.close();
}
// The observer hears of a collection a turn after it.
await new Promise((r) => setTimeout(r, 0));
const inFirst = collections.filter((at) => at >= firstWindow[0] && at <= firstWindow[1]).length;
console.log(JSON.stringify([times[0], times[2], importMs, inFirst]));
`;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seen = entries.map(() => ({ first: [], warm: [], imports: [], collected: 0 }));
for (let r = 0; r < runs; r++)
  entries.forEach((entry, i) => {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', child, entry], { encoding: 'utf8' });
    const [first, warm, importMs, inFirst] = JSON.parse(out.trim().split('\n').at(-1));
    if (inFirst > 0) seen[i].collected++;
    seen[i].first.push(first);
    seen[i].warm.push(warm);
    seen[i].imports.push(importMs);
  });
const medians = entries.map((entry, i) => ({
  entry,
  firstMs: median(seen[i].first),
  warmMs: median(seen[i].warm),
  importMs: median(seen[i].imports),
  /** In how many of the runs the garbage collector ran during the first createMock() and its answer. */
  collectedInFirst: seen[i].collected,
}));
const firstRatio = entries.length === 2 ? median(seen[0].first.map((a, k) => a / seen[1].first[k])) : null;
if (json) console.log(JSON.stringify({ runs, fetchLoaded, entries: medians, firstRatio }));
else {
  for (const m of medians)
    console.log(
      `${m.entry}: first ${m.firstMs.toFixed(1)} ms, warm ${m.warmMs.toFixed(1)} ms, ` +
        `import ${m.importMs.toFixed(1)} ms (medians of ${runs}); ` +
        `a collection during the first in ${m.collectedInFirst} of ${runs}`,
    );
  if (firstRatio !== null) console.log(`first A/B pairwise median: ${firstRatio.toFixed(2)}`);
}
