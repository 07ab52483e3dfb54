// `npm run soak -- --minutes M`: does the mock's memory stay flat under long, mixed load?
// The built mock (as `npm run mock` runs it, plus --trust-proxy) takes the benchmark's
// mixed workload (scripts/workload.ts) from autocannon at 50 connections for M minutes.
// Beside it runs a trickle of the traffic that used to leak: every request from a new
// X-Forwarded-For address with a new filter value, development logins, API keys
// created and revoked, pages through the whole listing with favicons. The mock's RSS
// is sampled every few seconds; after a warm-up, the median of the last third of the
// samples is compared with the median of the first third. Growth past the tolerance is
// a "growing" verdict (exit 1), else "flat" (exit 0). Figures go to reports/soak.json
// and reports/soak.md, and with --readme into scripts/README.md.
//
// With --flood N (distinct filters), the run is cut in two halves: the mixed workload
// alone, then the same beside N connections that each ask for filter values nobody asked
// before (workload.ts's distinctFilterQuery), which miss every cache the mock keeps of
// filters and fill it. Then the verdict is that the mock's RSS stayed within its
// baseline (the last third of the first half) plus what its caches may still grow by
// (their budgets less what they held then, from GET /__mock/info), and that the mixed
// workload's median latency beside the flood stayed within 3x of its median alone.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { programFlags, type FlagTable } from '../cli/flags.ts';
import type { LoadResult } from './bench-child.ts';
import { inChild, readMemory, startServer } from './bench-servers.ts';
import { machine } from './machine.ts';
import { replaceReadmeFigures } from './readme-figures.ts';
import { mixedQueries } from './workload.ts';

const FLAGS = {
  minutes: { type: 'custom', value: 'M', default: 5, parse: atLeast(0.1), help: 'how long to load the mock' },
  connections: { type: 'integer', value: 'N', default: 50, min: 1, max: 10_000, help: 'autocannon connections' },
  servers: {
    type: 'integer',
    value: 'N',
    default: 1000,
    min: 1,
    max: 5_000_000,
    help: "the mock's dataset size (its own default)",
  },
  seed: { type: 'integer', value: 'N', default: 42, min: 0, max: 2 ** 32 - 1, help: 'dataset and mixed-query seed' },
  'sample-seconds': { type: 'custom', value: 'S', default: 5, parse: atLeast(1), help: 'RSS sampling interval' },
  'churn-per-second': {
    type: 'custom',
    value: 'N',
    default: 20,
    parse: atLeast(0),
    help: 'requests of the leak-hunting trickle per second (0: none)',
  },
  tolerance: {
    type: 'custom',
    value: 'PCT',
    default: 10,
    parse: atLeast(0),
    help: 'growth of the last third over the first third still called flat',
  },
  flood: {
    type: 'integer',
    value: 'N',
    default: 0,
    min: 0,
    max: 256,
    help:
      'distinct filters: N more connections asking for filter values nobody asked before, in the second half ' +
      'of the run; the first half is the baseline (see Soak: distinct filters)',
  },
  mock: {
    type: 'string',
    value: 'FILE',
    default: 'dist/mock.mjs',
    help: 'the built mock to run (dist/mock.mjs is built first); another build, to compare',
  },
  out: { type: 'string', value: 'FILE', default: 'reports/soak.json', help: 'raw figures' },
  readme: {
    type: 'boolean',
    help: 'also put the figures between <!-- soak:start --> and <!-- soak:end --> in scripts/README.md',
  },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
} as const satisfies FlagTable;

/** A number of at least `min` (minutes, seconds, a rate, a percentage). */
function atLeast(min: number): (raw: string) => number {
  return (raw) => {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n) || n < min)
      throw new Error(`must be a number of at least ${min}, got '${raw}'`);
    return n;
  };
}

const args = programFlags('soak', 'npm run soak -- [options]', FLAGS);
const MINUTES = args.minutes;
const CONNECTIONS = args.connections;
const SERVERS = args.servers;
const SEED = args.seed;
const SAMPLE_MS = args.sampleSeconds * 1000;
const CHURN_PER_SECOND = args.churnPerSecond;
const TOLERANCE_PCT = args.tolerance;
const FLOOD = args.flood;
/** With a flood, other clients' median latency beside it may be at most this many times their median alone. */
const FLOOD_LATENCY_RATIO = 3;
// The first minute (at most a fifth of the run) lets caches and the heap settle.
const WARMUP_S = Math.min(60, (MINUTES * 60) / 5);

const log = (msg: string) => console.error(`soak: ${msg}`);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

interface Sample {
  seconds: number;
  rssMiB: number;
}

/**
 * The leak-hunting trickle: each step is one kind of request whose keys a client picks,
 * every one of them new. Returns the status counts per step kind.
 */
function churn(base: string, stopAt: number): Promise<Record<string, Record<string, number>>> {
  const counts: Record<string, Record<string, number>> = {};
  const count = (kind: string, status: number | string) => {
    const c = (counts[kind] ??= {});
    c[status] = (c[status] ?? 0) + 1;
  };
  const origin = new URL(base).origin;
  const call = async (kind: string, url: string, init: RequestInit = {}) => {
    try {
      const res = await fetch(url, init);
      await res.arrayBuffer();
      count(kind, res.status);
      return res;
    } catch (err) {
      count(kind, (err as Error).message);
      return undefined;
    }
  };
  const steps: ((n: number) => Promise<void>)[] = [
    // A new client address and new filter values: a rate-limit bucket and a filter mask each.
    async (n) => {
      const xff = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
      await call('new client + filters', `${base}/servers/find?motd=soak${n}&version=${n}*&limit=5`, {
        headers: { 'X-Forwarded-For': xff },
      });
      await call('new client + filters', `${base}/metadata/versions?version=soak${n}*`, {
        headers: { 'X-Forwarded-For': xff },
      });
    },
    // A development login, a key created and revoked with it; every other session is left open.
    async (n) => {
      const login = await call('login + key', `${origin}/__mock/login`, {
        method: 'POST',
        body: JSON.stringify({ user: 'alice@example.test' }),
      });
      const cookie = login?.headers.get('set-cookie')?.split(';')[0];
      if (!cookie) return;
      const created = await fetch(`${base}/user/apikeys`, { method: 'POST', headers: { Cookie: cookie } }).then(
        (r) => r.json() as Promise<{ key?: { id: string } }>,
        () => undefined,
      );
      count('login + key', created?.key ? 'created' : 'not created');
      if (created?.key)
        await call('login + key', `${base}/user/apikeys/${created.key.id}`, {
          method: 'DELETE',
          headers: { Cookie: cookie },
        });
      if (n % 2) await call('login + key', `${origin}/__mock/logout`, { method: 'POST', headers: { Cookie: cookie } });
    },
    // Pages through the whole listing, favicons included: every row's bytes get cached.
    async (n) => {
      await call(
        'paging with favicons',
        `${base}/servers/find?favicon=true&noFilter=true&maxAge=3650&limit=20&page=` +
          `${1 + (n % Math.ceil(SERVERS / 20))}`,
      );
    },
  ];
  const gapMs = CHURN_PER_SECOND > 0 ? 1000 / CHURN_PER_SECOND : 0;
  return (async () => {
    if (!gapMs) return counts;
    for (let n = 0; Date.now() < stopAt; n++) {
      const t0 = Date.now();
      await steps[n % steps.length]!(n);
      await new Promise((r) => setTimeout(r, Math.max(0, gapMs - (Date.now() - t0))));
    }
    return counts;
  })();
}

/** The straight line through the samples, in MiB per minute. */
function slopePerMinute(samples: Sample[]): number {
  const n = samples.length;
  if (n < 2) return 0;
  const mx = samples.reduce((a, s) => a + s.seconds, 0) / n;
  const my = samples.reduce((a, s) => a + s.rssMiB, 0) / n;
  const cov = samples.reduce((a, s) => a + (s.seconds - mx) * (s.rssMiB - my), 0);
  const varx = samples.reduce((a, s) => a + (s.seconds - mx) ** 2, 0);
  return varx ? (cov / varx) * 60 : 0;
}

/** What GET /__mock/info says of a cache: entries, bytes charged, budget. */
interface CacheInfo {
  entries: number;
  bytes: number;
  maxBytes: number;
}

/** The mock's caches, from GET /__mock/info: the row cache and the caches of client-chosen filters. */
async function cachesOf(base: string): Promise<Record<string, CacheInfo>> {
  const info = (await (await fetch(`${new URL(base).origin}/__mock/info`)).json()) as {
    rowCache: CacheInfo;
    caches?: Record<string, CacheInfo>;
  };
  // A build before the caches were reported says only its row cache (and its row sets' 64 MiB budget is all it had).
  return { rowCache: info.rowCache, ...(info.caches ?? { rowSets: { entries: 0, bytes: 0, maxBytes: 64 * MiB } }) };
}

const MiB = 2 ** 20;

async function main(): Promise<void> {
  const where = machine();
  if (args.mock === 'dist/mock.mjs') execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
  const server = await startServer({
    kind: 'mock',
    mockEntry: args.mock,
    seed: SEED,
    servers: SERVERS,
    mockFlags: ['--trust-proxy'],
    timeoutMs: 300_000,
  });
  log(
    `mock (pid ${server.pid}) on ${server.base}; ${MINUTES} min at ${CONNECTIONS} connections, RSS every ` +
      `${SAMPLE_MS / 1000} s`,
  );
  const started = Date.now();
  const samples: Sample[] = [];
  const sample = () => samples.push({ seconds: (Date.now() - started) / 1000, rssMiB: readMemory(server.pid).rssMiB });
  sample();
  const sampler = setInterval(() => {
    sample();
    const last = samples.at(-1)!;
    if (samples.length % 12 === 0) log(`${(last.seconds / 60).toFixed(1)} min: RSS ${last.rssMiB.toFixed(1)} MiB`);
  }, SAMPLE_MS);
  let load: LoadResult;
  let churned: Record<string, Record<string, number>>;
  let flood: FloodFigures | undefined;
  try {
    const durationSec = Math.round(MINUTES * 60);
    const mixed = (seconds: number) =>
      inChild<LoadResult>({
        kind: 'load',
        base: server.base,
        paths: mixedQueries(SEED, 1000),
        headers: {},
        connections: CONNECTIONS,
        durationSec: seconds,
      });
    const churning = churn(server.base, started + durationSec * 1000);
    if (FLOOD === 0) load = await mixed(durationSec);
    else {
      const half = Math.max(1, Math.round(durationSec / 2));
      const alone = await mixed(half);
      sample();
      const floodFrom = samples.length;
      const firstHalf = samples.slice(0, floodFrom);
      const baselineMiB = median(firstHalf.slice(-Math.max(1, Math.floor(firstHalf.length / 3))).map((x) => x.rssMiB));
      const before = await cachesOf(server.base);
      log(
        `flood: baseline RSS ${baselineMiB.toFixed(1)} MiB, mixed p50 alone ${alone.p50Ms} ms; now ${FLOOD} ` +
          `connections of new filters for ${half} s`,
      );
      const [beside, flooded] = await Promise.all([
        mixed(half),
        inChild<LoadResult>({
          kind: 'load',
          base: server.base,
          paths: [],
          distinctFilters: true,
          headers: {},
          connections: FLOOD,
          durationSec: half,
        }),
      ]);
      sample();
      const after = await cachesOf(server.base);
      const headroomMiB = Object.values(before).reduce((sum, c) => sum + Math.max(0, c.maxBytes - c.bytes), 0) / MiB;
      const peakMiB = Math.max(...samples.slice(floodFrom).map((x) => x.rssMiB));
      flood = {
        connections: FLOOD,
        seconds: half,
        alone,
        beside,
        flooded,
        baselineMiB,
        headroomMiB,
        boundMiB: baselineMiB + headroomMiB,
        peakMiB,
        before,
        after,
      };
      load = beside;
    }
    churned = await churning;
    sample();
  } finally {
    clearInterval(sampler);
    await server.stop();
  }

  const settled = samples.filter((s) => s.seconds >= WARMUP_S);
  const third = Math.max(1, Math.floor(settled.length / 3));
  const first = median(settled.slice(0, third).map((s) => s.rssMiB));
  const last = median(settled.slice(-third).map((s) => s.rssMiB));
  const growthPct = ((last - first) / first) * 100;
  const flatVerdict =
    settled.length >= 3 && growthPct <= TOLERANCE_PCT ? 'flat' : settled.length >= 3 ? 'growing' : 'too short to tell';
  // Beside a flood the caches fill (the RSS grows by design): then the verdict is the bound and the latency.
  const floodHeld = flood
    ? flood.peakMiB <= flood.boundMiB && flood.beside.p50Ms <= FLOOD_LATENCY_RATIO * Math.max(1, flood.alone.p50Ms)
    : undefined;
  const verdict = flood ? (floodHeld ? 'held' : 'missed') : flatVerdict;
  const peak = Math.max(...samples.map((s) => s.rssMiB));
  const perMinute: string[] = [];
  for (let m = 0; m < Math.ceil(MINUTES); m++) {
    const inMinute = samples.filter((s) => s.seconds >= m * 60 && s.seconds < (m + 1) * 60).map((s) => s.rssMiB);
    if (inMinute.length) perMinute.push(median(inMinute).toFixed(0));
  }
  const statuses = Object.entries(load.statusCodes)
    .map(([s, n]) => `${s}×${n.toLocaleString('en-US')}`)
    .join(' ');
  const churnText = Object.entries(churned)
    .map(
      ([kind, c]) =>
        `${kind}: ${Object.entries(c)
          .map(([s, n]) => `${s}×${n}`)
          .join(' ')}`,
    )
    .join('; ');
  const lines = [
    `Machine: ${where.cores} cores (${where.cpuModel}), Node ${where.node}; ` +
      `${where.date.slice(0, 16).replace('T', ' ')} UTC${where.gitCommit ? `, commit ${where.gitCommit}` : ''}; ` +
      `1-minute load average before the run ${where.loadAvgAtStart[0]?.toFixed(2)}.`,
    '',
    `\`npm run soak -- --minutes ${MINUTES}${SERVERS !== 1000 ? ` --servers ${SERVERS}` : ''}` +
      `${FLOOD ? ` --flood ${FLOOD}` : ''}\`: the mock (\`--servers ${SERVERS} --seed ${SEED} --trust-proxy\`) ` +
      `under the mixed workload at ${CONNECTIONS} connections, plus ${CHURN_PER_SECOND} leak-hunting requests a ` +
      `second${FLOOD ? `, and in the second half ${FLOOD} connections of distinct filters` : ''}; RSS every ` +
      `${SAMPLE_MS / 1000} s, the first ${WARMUP_S.toFixed(0)} s as warm-up.`,
    '',
    '| measure | value |',
    '|---|---|',
    flood
      ? `| verdict | **${verdict}** (RSS within baseline + cache headroom, and mixed p50 beside the flood ` +
        `within ${FLOOD_LATENCY_RATIO}× of alone) |`
      : `| verdict | **${verdict}** (last third ${growthPct >= 0 ? '+' : ''}${growthPct.toFixed(1)}% over the ` +
        `first third; flat up to +${TOLERANCE_PCT}%) |`,
    `| RSS: start / after warm-up (first third) / end (last third) / peak | ${samples[0]!.rssMiB.toFixed(1)} ` +
      `/ ${first.toFixed(1)} / ${last.toFixed(1)} / ${peak.toFixed(1)} MiB |`,
    `| RSS trend after warm-up | ${slopePerMinute(settled) >= 0 ? '+' : ''}` +
      `${slopePerMinute(settled).toFixed(2)} MiB/min |`,
    `| RSS per minute (median, MiB) | ${perMinute.join(', ')} |`,
    `| mixed workload | ${load.totalRequests.toLocaleString('en-US')} requests, ${load.reqPerSec.toFixed(0)} ` +
      `req/s, p50 ${load.p50Ms} ms, p99 ${load.p99Ms} ms; ${statuses}; ${load.errors} errors, ${load.timeouts} ` +
      `timeouts |`,
    `| leak-hunting trickle | ${churnText || 'off'} |`,
    ...(flood ? floodRows(flood) : []),
  ];
  // RSS hardly minds a busy machine; throughput does: say so beside the figures.
  const before = where.loadAvgAtStart[0] ?? 0;
  if (before > where.cores / 2) {
    lines.push(
      '',
      `Note: the machine was busy (1-minute load average ${before.toFixed(1)} on ${where.cores} cores before ` +
        `the run): the req/s are not benchmark figures; RSS is what this run is for.`,
    );
  }
  const table = lines.join('\n');
  mkdirSync(args.out.replace(/\/[^/]*$/, '') || '.', { recursive: true });
  writeFileSync(
    args.out,
    JSON.stringify(
      {
        machine: where,
        minutes: MINUTES,
        connections: CONNECTIONS,
        servers: SERVERS,
        warmupSeconds: WARMUP_S,
        verdict,
        flood,
        growthPct,
        firstThirdMiB: first,
        lastThirdMiB: last,
        peakMiB: peak,
        samples,
        load,
        churn: churned,
        table,
      },
      null,
      2,
    ),
  );
  writeFileSync(args.out.replace(/\.json$/, '.md'), `${table}\n`);
  console.log(table);
  const markers = flood ? `soak-flood-${SERVERS}` : 'soak';
  if (args.readme)
    log(
      replaceReadmeFigures(markers, table)
        ? 'scripts/README.md figures updated'
        : `scripts/README.md has no ${markers} markers: left unchanged`,
    );
  process.exitCode = verdict === 'flat' || verdict === 'held' ? 0 : 1;
}

interface FloodFigures {
  connections: number;
  seconds: number;
  /** The mixed workload alone (first half), and beside the flood (second half). */
  alone: LoadResult;
  beside: LoadResult;
  /** The flood itself. */
  flooded: LoadResult;
  /** RSS of the last third of the first half; what the caches may still grow by then; their sum. */
  baselineMiB: number;
  headroomMiB: number;
  boundMiB: number;
  /** The highest RSS sampled in the second half. */
  peakMiB: number;
  before: Record<string, CacheInfo>;
  after: Record<string, CacheInfo>;
}

function floodRows(f: FloodFigures): string[] {
  const mib = (b: number) => (b / MiB).toFixed(1);
  const caches = Object.entries(f.after)
    .map(
      ([name, c]) => `${name} ${c.entries.toLocaleString('en-US')} entries, ${mib(c.bytes)} of ${mib(c.maxBytes)} MiB`,
    )
    .join('; ');
  const statuses = Object.entries(f.flooded.statusCodes)
    .map(([s, n]) => `${s}×${n.toLocaleString('en-US')}`)
    .join(' ');
  const ratio = f.beside.p50Ms / Math.max(1, f.alone.p50Ms);
  return [
    `| distinct filters | ${f.connections} connections for ${f.seconds} s: ` +
      `${f.flooded.totalRequests.toLocaleString('en-US')} requests (${f.flooded.reqPerSec.toFixed(0)} req/s, p50 ` +
      `${f.flooded.p50Ms} ms), each a filter value nobody asked before; ${statuses}; ${f.flooded.errors} errors ` +
      `|`,
    `| mixed workload: alone / beside the flood | p50 ${f.alone.p50Ms} / ${f.beside.p50Ms} ms (**` +
      `${ratio.toFixed(2)}×**, at most ${FLOOD_LATENCY_RATIO}×), p99 ${f.alone.p99Ms} / ${f.beside.p99Ms} ms, ` +
      `${f.alone.reqPerSec.toFixed(0)} / ${f.beside.reqPerSec.toFixed(0)} req/s |`,
    `| RSS beside the flood: peak / bound | **${f.peakMiB.toFixed(1)}** / ${f.boundMiB.toFixed(1)} MiB ` +
      `(baseline ${f.baselineMiB.toFixed(1)} MiB, the last third of the first half, + ` +
      `${f.headroomMiB.toFixed(1)} MiB the caches could still take then) |`,
    `| caches after the flood | ${caches} |`,
  ];
}

main().catch((err: unknown) => {
  console.error(`soak: failed: ${(err as Error)?.stack ?? String(err)}`);
  process.exitCode = 2;
});
