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
  servers: { type: 'integer', value: 'N', default: 1000, min: 1, max: 5_000_000, help: "the mock's dataset size (its own default)" },
  seed: { type: 'integer', value: 'N', default: 42, min: 0, max: 2 ** 32 - 1, help: 'dataset and mixed-query seed' },
  'sample-seconds': { type: 'custom', value: 'S', default: 5, parse: atLeast(1), help: 'RSS sampling interval' },
  'churn-per-second': { type: 'custom', value: 'N', default: 20, parse: atLeast(0), help: 'requests of the leak-hunting trickle per second (0: none)' },
  tolerance: { type: 'custom', value: 'PCT', default: 10, parse: atLeast(0), help: 'growth of the last third over the first third still called flat' },
  out: { type: 'string', value: 'FILE', default: 'reports/soak.json', help: 'raw figures' },
  readme: { type: 'boolean', help: 'also put the figures between <!-- soak:start --> and <!-- soak:end --> in scripts/README.md' },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
} as const satisfies FlagTable;

/** A number of at least `min` (minutes, seconds, a rate, a percentage). */
function atLeast(min: number): (raw: string) => number {
  return (raw) => {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n) || n < min) throw new Error(`must be a number of at least ${min}, got '${raw}'`);
    return n;
  };
}

const args = programFlags('soak', 'npm run soak -- [options]', FLAGS);
const MINUTES = args.minutes;
const CONNECTIONS = args.connections;
const SERVERS = args.servers;
const SEED = args.seed;
const SAMPLE_MS = args['sample-seconds'] * 1000;
const CHURN_PER_SECOND = args['churn-per-second'];
const TOLERANCE_PCT = args.tolerance;
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
      await call('new client + filters', `${base}/servers/find?motd=soak${n}&version=${n}*&limit=5`, { headers: { 'X-Forwarded-For': xff } });
      await call('new client + filters', `${base}/metadata/versions?version=soak${n}*`, { headers: { 'X-Forwarded-For': xff } });
    },
    // A development login, a key created and revoked with it; every other session is left open.
    async (n) => {
      const login = await call('login + key', `${origin}/__mock/login`, { method: 'POST', body: JSON.stringify({ user: 'alice@example.test' }) });
      const cookie = login?.headers.get('set-cookie')?.split(';')[0];
      if (!cookie) return;
      const created = await fetch(`${base}/user/apikeys`, { method: 'POST', headers: { Cookie: cookie } }).then((r) => r.json() as Promise<{ key?: { id: string } }>, () => undefined);
      count('login + key', created?.key ? 'created' : 'not created');
      if (created?.key) await call('login + key', `${base}/user/apikeys/${created.key.id}`, { method: 'DELETE', headers: { Cookie: cookie } });
      if (n % 2) await call('login + key', `${origin}/__mock/logout`, { method: 'POST', headers: { Cookie: cookie } });
    },
    // Pages through the whole listing, favicons included: every row's bytes get cached.
    async (n) => {
      await call('paging with favicons', `${base}/servers/find?favicon=true&noFilter=true&maxAge=3650&limit=20&page=${1 + (n % Math.ceil(SERVERS / 20))}`);
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

async function main(): Promise<void> {
  const where = machine();
  execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
  const server = await startServer({ kind: 'mock', seed: SEED, servers: SERVERS, mockFlags: ['--trust-proxy'] });
  log(`mock (pid ${server.pid}) on ${server.base}; ${MINUTES} min at ${CONNECTIONS} connections, RSS every ${SAMPLE_MS / 1000} s`);
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
  try {
    const durationSec = Math.round(MINUTES * 60);
    [load, churned] = await Promise.all([
      inChild<LoadResult>({ kind: 'load', base: server.base, paths: mixedQueries(SEED, 1000), headers: {}, connections: CONNECTIONS, durationSec }),
      churn(server.base, started + durationSec * 1000),
    ]);
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
  const verdict = settled.length >= 3 && growthPct <= TOLERANCE_PCT ? 'flat' : settled.length >= 3 ? 'growing' : 'too short to tell';
  const peak = Math.max(...samples.map((s) => s.rssMiB));
  const perMinute: string[] = [];
  for (let m = 0; m < Math.ceil(MINUTES); m++) {
    const inMinute = samples.filter((s) => s.seconds >= m * 60 && s.seconds < (m + 1) * 60).map((s) => s.rssMiB);
    if (inMinute.length) perMinute.push(median(inMinute).toFixed(0));
  }
  const statuses = Object.entries(load.statusCodes).map(([s, n]) => `${s}×${n.toLocaleString('en-US')}`).join(' ');
  const churnText = Object.entries(churned)
    .map(([kind, c]) => `${kind}: ${Object.entries(c).map(([s, n]) => `${s}×${n}`).join(' ')}`)
    .join('; ');
  const lines = [
    `Machine: ${where.cores} cores (${where.cpuModel}), Node ${where.node}; ${where.date.slice(0, 16).replace('T', ' ')} UTC${where.gitCommit ? `, commit ${where.gitCommit}` : ''}; 1-minute load average before the run ${where.loadAvgAtStart[0]?.toFixed(2)}.`,
    '',
    `\`npm run soak -- --minutes ${MINUTES}\`: the mock (\`--servers ${SERVERS} --seed ${SEED} --trust-proxy\`) under the mixed workload at ${CONNECTIONS} connections, plus ${CHURN_PER_SECOND} leak-hunting requests a second; RSS every ${SAMPLE_MS / 1000} s, the first ${WARMUP_S.toFixed(0)} s as warm-up.`,
    '',
    '| measure | value |',
    '|---|---|',
    `| verdict | **${verdict}** (last third ${growthPct >= 0 ? '+' : ''}${growthPct.toFixed(1)}% over the first third; flat up to +${TOLERANCE_PCT}%) |`,
    `| RSS: start / after warm-up (first third) / end (last third) / peak | ${samples[0]!.rssMiB.toFixed(1)} / ${first.toFixed(1)} / ${last.toFixed(1)} / ${peak.toFixed(1)} MiB |`,
    `| RSS trend after warm-up | ${slopePerMinute(settled) >= 0 ? '+' : ''}${slopePerMinute(settled).toFixed(2)} MiB/min |`,
    `| RSS per minute (median, MiB) | ${perMinute.join(', ')} |`,
    `| mixed workload | ${load.totalRequests.toLocaleString('en-US')} requests, ${load.reqPerSec.toFixed(0)} req/s, p50 ${load.p50Ms} ms, p99 ${load.p99Ms} ms; ${statuses}; ${load.errors} errors, ${load.timeouts} timeouts |`,
    `| leak-hunting trickle | ${churnText || 'off'} |`,
  ];
  // RSS hardly minds a busy machine; throughput does: say so beside the figures.
  const before = where.loadAvgAtStart[0] ?? 0;
  if (before > where.cores / 2) {
    lines.push('', `Note: the machine was busy (1-minute load average ${before.toFixed(1)} on ${where.cores} cores before the run): the req/s are not benchmark figures; RSS is what this run is for.`);
  }
  const table = lines.join('\n');
  mkdirSync(args.out.replace(/\/[^/]*$/, '') || '.', { recursive: true });
  writeFileSync(args.out, JSON.stringify({ machine: where, minutes: MINUTES, connections: CONNECTIONS, servers: SERVERS, warmupSeconds: WARMUP_S, verdict, growthPct, firstThirdMiB: first, lastThirdMiB: last, peakMiB: peak, samples, load, churn: churned, table }, null, 2));
  writeFileSync(args.out.replace(/\.json$/, '.md'), `${table}\n`);
  console.log(table);
  if (args.readme) log(replaceReadmeFigures('soak', table) ? 'scripts/README.md figures updated' : 'scripts/README.md has no soak markers: left unchanged');
  process.exitCode = verdict === 'flat' ? 0 : 1;
}

main().catch((err: unknown) => {
  console.error(`soak: failed: ${(err as Error)?.stack ?? String(err)}`);
  process.exitCode = 2;
});
