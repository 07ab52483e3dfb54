// `npm run bench`: how fast is the mock, next to Prism (the usual off-the-shelf mock) and
// next to a bare node:http server replaying the mock's own answers (the ceiling)?
// All on loopback, in one run, measured the same way for all three. Prints a markdown
// table to stdout (progress goes to stderr) and writes every raw figure to reports/bench.json.
//
//   npm run bench                 full run (10 s per measurement; a few minutes)
//   npm run bench -- --quick      2 s runs, fewer start-ups, smaller datasets (development)
//   npm run bench -- --help       every option
//
// What is measured, and how, is written up in scripts/README.md, with the latest figures.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { programFlags, type FlagTable } from '../cli/flags.ts';
import { loadFixtures } from '../fixtures/load.ts';
import type { GenResult, LoadResult } from './bench-child.ts';
import { replayKey, type Recorded } from './bench-bare.ts';
import {
  API_PREFIX,
  get,
  inChild,
  launch,
  readMemory,
  startServer,
  stopChild,
  summarizeProfile,
  track,
  type Launch,
  type Running,
  type ServerKind,
} from './bench-servers.ts';
import type { RowCacheStats } from '../mocks/search/row-cache.ts';
import { machine } from './machine.ts';
import { replaceReadmeFigures } from './readme-figures.ts';
import { mixedQueries } from './workload.ts';

const FLAGS = {
  quick: { type: 'boolean', help: '2 s runs, 3 start-ups, datasets up to 100k (for development)' },
  servers: {
    type: 'integer',
    value: 'N',
    default: 1000,
    min: 1,
    max: 5_000_000,
    help: "dataset size of the mock under load (the mock's own default)",
  },
  seed: {
    type: 'integer',
    value: 'N',
    default: 42,
    min: 0,
    max: 2 ** 32 - 1,
    help: "seed of the mock's dataset and of the mixed queries",
  },
  mock: {
    type: 'string',
    value: 'FILE',
    default: 'dist/mock.mjs',
    help:
      'the built mock to run (dist/mock.mjs is built first by npm run build; another file replaces the bin ' +
      'and npm run mock in the start-ups too)',
  },
  baseline: {
    type: 'string',
    value: 'DIR',
    help:
      'a checkout of an earlier commit with its dist/ built: its mock joins the memory, throughput and ' +
      'start-up runs, and the table shows the ratios (this build / that one)',
  },
  'skip-contract': { type: 'boolean', help: 'do not time the contract suite' },
  'scale-sizes': {
    type: 'custom',
    value: 'LIST',
    shown: '10000,100000,1000000; --quick: 10000,100000',
    parse: sizeList,
    help: 'dataset sizes of the scale table',
  },
  'skip-scale': { type: 'boolean', help: 'no scale table' },
  'skip-journal': {
    type: 'boolean',
    help: "do not measure the journal's cost side by side (it needs Linux taskset and two cores)",
  },
  out: { type: 'string', value: 'FILE', default: 'reports/bench.json', help: 'raw figures' },
  'cpu-prof': {
    type: 'boolean',
    help:
      'profile the mock under load (node --cpu-prof) and print its busiest functions; slows the mock, so do ' +
      "not publish that run's figures",
  },
  readme: {
    type: 'boolean',
    help: 'also replace the figures between <!-- bench:start --> and <!-- bench:end --> in scripts/README.md',
  },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
} as const satisfies FlagTable;

/** `10000,100000`: dataset sizes, each a whole number from 1 to 5,000,000. */
function sizeList(raw: string): number[] {
  const sizes = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!sizes.length || sizes.some((s) => !/^\d+$/.test(s) || Number(s) < 1 || Number(s) > 5_000_000))
    throw new Error(`must be a comma-separated list of sizes from 1 to 5000000, got '${raw}'`);
  return sizes.map(Number);
}

const args = programFlags('bench', 'npm run bench -- [options]', FLAGS);

const quick = args.quick;
const SEED = args.seed;
const DATASET = args.servers;
// A fixed "now", so the dataset (ages, last pings) and every answer are the same on each run.
const NOW = '2026-06-01T12:00:00.000Z';
const MOCK_ENTRY = args.mock;
const CONFIG = {
  connections: 50,
  durationSec: quick ? 2 : 10,
  warmupSec: quick ? 1 : 3,
  memoryRequests: 10_000,
  startups: quick ? 3 : 5,
  genSizes: quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000],
  mixedQueries: 1000,
  scaleSizes: args.scaleSizes ?? (quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000]),
  scaleColdStarts: quick ? 1 : 2,
  scaleCachedStarts: quick ? 2 : 3,
  /** Start-ups of `npm run mock` per size of the scale table, cold and cached each. */
  scaleNpmStarts: quick ? 1 : 2,
  scaleDurationSec: quick ? 2 : 5,
  scaleWarmupSec: quick ? 1 : 2,
  pagingServers: 100_000,
  pagingLimit: 500,
  /** Rounds and seconds of the journal's cost side by side (scripts/bench-together.mjs). */
  journalRounds: quick ? 2 : 10,
  journalSec: quick ? 2 : 4,
  /** Fresh processes per entry timing createMock() and its first answer (scripts/bench-create-mock.mjs). */
  createMockRuns: quick ? 7 : 21,
};
const BASELINE = args.baseline;
const KINDS: ServerKind[] = ['mock', 'prism', 'bare', ...(BASELINE ? (['baseline'] as const) : [])];
/** The mock as the package runs it (node, no flags), unless --mock names another build. */
const BIN = MOCK_ENTRY === 'dist/mock.mjs' ? 'bin/server-listing-mock.mjs' : MOCK_ENTRY;

const fixtures = loadFixtures();
const VALID_KEY = fixtures.credentials.find((c) => c.name === 'valid-key')?.value;
if (!VALID_KEY) throw new Error('fixtures/auth.json has no valid-key credential');
// Pages of 500 are for paid plans (the spec's x-max-by-plan): valid-key belongs to the paid fixture user.

// ---------------------------------------------------------------------------------------
// The workload. Paths are relative to each server's base: the mock and the bare server
// serve them under /api/v0.1, Prism at the root (see bench-servers.ts).

interface Scenario {
  id: string;
  title: string;
  paths: string[];
  headers: Record<string, string>;
  expect: number;
}

const SCENARIOS: Scenario[] = [
  { id: 'plain', title: 'plain `/servers/find?limit=20`', paths: ['/servers/find?limit=20'], headers: {}, expect: 200 },
  {
    id: 'filtered',
    title: 'filtered `version=1.20*&minUsers=5&sort=users`',
    paths: ['/servers/find?version=1.20*&minUsers=5&sort=users'],
    headers: {},
    expect: 200,
  },
  {
    id: 'mixed',
    title: `mixed: ${CONFIG.mixedQueries} distinct queries`,
    paths: mixedQueries(SEED, CONFIG.mixedQueries),
    headers: {},
    expect: 200,
  },
  {
    id: 'apikeys',
    title: '`GET /user/apikeys`, valid key',
    paths: ['/user/apikeys'],
    headers: { authorization: `Bearer ${VALID_KEY}` },
    expect: 200,
  },
  {
    id: 'unauthorized',
    title: '`GET /user/apikeys`, no credentials (401)',
    paths: ['/user/apikeys'],
    headers: {},
    expect: 401,
  },
];

// ---------------------------------------------------------------------------------------
// Helpers

const log = (msg: string) => console.error(`bench: ${msg}`);

function load(server: Running, s: Scenario, run: { durationSec?: number; amount?: number }): Promise<LoadResult> {
  return inChild<LoadResult>({
    kind: 'load',
    base: server.base,
    paths: s.paths,
    headers: s.headers,
    connections: CONFIG.connections,
    ...run,
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** Share of answers with the scenario's expected status (a mock answering 429 or 404 fast is no win). */
function expectedShare(r: LoadResult, expect: number): number {
  const total = Object.values(r.statusCodes).reduce((a, b) => a + b, 0);
  return total ? (r.statusCodes[String(expect)] ?? 0) / total : 0;
}

// ---------------------------------------------------------------------------------------
// The steps

/**
 * Asks a fresh mock every benchmarked request once and keeps the exact status, headers and
 * body, for the bare server to replay. Headers that describe the connection or the moment
 * (date, keep-alive) are left out; content-length is recomputed by the bare server.
 */
async function record(file: string): Promise<{ problems: string[] }> {
  const mock = await startServer({
    kind: 'mock',
    mockEntry: MOCK_ENTRY,
    seed: SEED,
    servers: DATASET,
    now: NOW,
    mockFlags: noSnapshots(),
  });
  const problems: string[] = [];
  try {
    const out: Recorded[] = [];
    const prefix = new URL(mock.base).pathname;
    for (const s of SCENARIOS) {
      for (const path of s.paths) {
        const res = await get(mock.base, path, s.headers);
        if (res.status !== s.expect && problems.length < 5)
          problems.push(
            `${s.id}: ${path} answered ${res.status}, expected ${s.expect}: ${res.body.toString().slice(0, 200)}`,
          );
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) {
          if (
            v === undefined ||
            ['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(k)
          )
            continue;
          headers[k] = Array.isArray(v) ? v.join(', ') : v;
        }
        out.push({
          key: replayKey(prefix + path, s.headers.authorization),
          status: res.status,
          headers,
          bodyBase64: res.body.toString('base64'),
        });
      }
    }
    writeFileSync(file, JSON.stringify(out));
  } finally {
    await mock.stop();
  }
  return { problems };
}

interface ScenarioFigures {
  id: string;
  title: string;
  expectStatus: number;
  servers: Partial<Record<ServerKind, LoadResult & { expectedShare: number }>>;
}

/** Wall time of `npm run contract -- --base-url <base>`, or null when the suite is not there. */
async function timeContract(base: string): Promise<{ ms: number; exitCode: number | null } | null> {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts?: Record<string, string> };
  if (!pkg.scripts?.contract) {
    log('no `contract` npm script yet: contract suite time recorded as null');
    return null;
  }
  const t0 = performance.now();
  // --pace off: the target is the mock, whose rate limits are reported,
  // not enforced; pacing by them measures the waits.
  const child = track('npm', ['run', '--silent', 'contract', '--', '--base-url', base, '--pace', 'off']);
  const timer = setTimeout(() => void stopChild(child), 10 * 60_000);
  const exitCode = await new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', () => resolve(null));
  });
  clearTimeout(timer);
  const ms = performance.now() - t0;
  if (exitCode !== 0)
    log(`contract suite exited ${exitCode}: ${child.errTail().trim().split('\n').slice(-5).join(' | ')}`);
  return exitCode === null ? null : { ms, exitCode };
}

// ---------------------------------------------------------------------------------------
// The report

type Verdict = 'held' | 'missed' | 'n/a';
const verdict = (v: number | null | undefined, ok: (v: number) => boolean): Verdict =>
  v == null || !Number.isFinite(v) ? 'n/a' : ok(v) ? 'held' : 'missed';
const fmt = (v: number | null | undefined, digits = 0) =>
  v == null || !Number.isFinite(v)
    ? '–'
    : v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ratio = (a: number | undefined, b: number | undefined) =>
  a !== undefined && b !== undefined && b > 0 ? a / b : null;

interface Report {
  machine: ReturnType<typeof machine> & { loadAvgAtEnd?: number[] };
  mode: 'quick' | 'full';
  config: typeof CONFIG & { seed: number; datasetUnderLoad: number; now: string };
  notes: string[];
  scenarios: ScenarioFigures[];
  /** Spawn to first 200 of each start-up variant at 1k servers (see STARTUPS), and the limits it is compared with. */
  startup: StartupFigures[];
  baseline: string | null;
  memory: Partial<Record<ServerKind, { rssMiB: number; peakRssMiB: number; idleRssMiB: number }>>;
  generation: { count: number; ms: number | null; rows: number | null; importMs?: number }[];
  contract: { ms: number; exitCode: number | null } | null;
  /** The mock at 10k / 100k / 1M servers (see measureScale). */
  scale: ScaleRow[];
  paging: PagingResult | null;
  /** The 1k mock's row cache after the memory run (GET /__mock/info). */
  rowCache: RowCacheInfo | null;
  /** The plain query through the validation proxy (dist/proxy.mjs) in front of a mock, next to the same mock direct. */
  proxy: ProxyFigures | null;
  /** The journal and the strict judging on, against the same mock with `--journal 0`, side by side (issue 30). */
  journal: JournalCost | null;
  /** createMock() and its first answer, from the built package entry (issue 30). */
  createMock: CreateMockFigures | null;
  targets: { target: string; value: number | null; verdict: Verdict }[];
  profile?: ReturnType<typeof summarizeProfile> & { file: string };
}

/** The plain query through the proxy and direct, back to back on the same mock (see measureProxy). */
interface ProxyFigures {
  direct: LoadResult;
  proxied: LoadResult;
  /** The limit: a forwarder that only forwards (scripts/bench-forwarder.mjs), in front of the same mock. */
  forwarder: LoadResult | null;
  /**
   * What the proxy judged meanwhile (its GET /__proxy/report): every answer, each
   * passing (answers it fell behind on are "not judged").
   */
  judged: { answers: number; notJudged: number; failed: number; verdict: string } | null;
}

/** One query's answers a second, the journal on / off, side by side (scripts/bench-together.mjs --json). */
interface SideBySide {
  /** The median of the rounds' ratios (on / off). */
  ratio: number;
  sd: number | null;
  ratios: number[];
  answersPerSecond: [number, number];
}
/** The mixed workload's too (no target: the issue names the two queries; there the judges' caches never hit). */
type JournalCost = { rounds: number; seconds: number } & Record<'plain' | 'filtered' | 'mixed', SideBySide>;

/** scripts/bench-create-mock.mjs --json: each entry's medians (ms), this checkout's first. */
interface CreateMockFigures {
  runs: number;
  fetchLoaded: boolean;
  entries: { entry: string; firstMs: number; warmMs: number; importMs: number; collectedInFirst: number }[];
  /** This checkout's first answer over the baseline's, pairwise median (with --baseline). */
  firstRatio: number | null;
}

/** Spawn-to-first-200 runs of one start-up variant. */
interface StartupFigures {
  id: StartupId;
  label: string;
  runsMs: number[];
  medianMs: number | null;
}
type StartupId = 'bare' | 'prism' | 'bin' | 'npm' | 'generated' | 'baseline';

/** The start-up targets of issue 24, at 1k servers (the defaults): against the bare process and Prism. */
const START_TARGETS = { binOverBare: 4, binOverPrism: 0.2, npmOverPrism: 0.3 };
/** Issue 22: the validation proxy in front of the mock keeps at least half the direct throughput. */
const PROXY_TARGET = 0.5;
/**
 * Issue 28: against the forwarder that only forwards (the most any proxy on these stacks keeps), at least this share.
 */
const PROXY_OF_FORWARDER = 0.9;
/** Issue 30: with the journal and the strict judging, at least this share of the plain and filtered throughput. */
const JOURNAL_KEEPS = 0.95;
/** Issue 30: createMock() plus its first answer, at most (ms, median). */
const CREATE_MOCK_MS = 10;
/** Throughput against the earlier build: "not lower", within what back-to-back runs on this VM vary. */
const NOT_LOWER = 0.95;

function targets(r: Report): Report['targets'] {
  const rps = (id: string, k: ServerKind) => r.scenarios.find((s) => s.id === id)?.servers[k]?.reqPerSec;
  const start = (id: StartupId) => r.startup.find((s) => s.id === id)?.medianMs ?? undefined;
  const gen100k = r.generation.find((g) => g.count === 100_000)?.ms ?? null;
  const t = (target: string, value: number | null, ok: (v: number) => boolean) => ({
    target,
    value,
    verdict: verdict(value, ok),
  });
  return [
    t('plain query: mock ≥ 6× Prism', ratio(rps('plain', 'mock'), rps('plain', 'prism')), (v) => v >= 6),
    t('plain query: mock ≥ 70% of bare', ratio(rps('plain', 'mock'), rps('plain', 'bare')), (v) => v >= 0.7),
    t('mixed workload: mock ≥ 5× Prism', ratio(rps('mixed', 'mock'), rps('mixed', 'prism')), (v) => v >= 5),
    ...(r.baseline
      ? [
          t(
            `plain query: mock ≥ ${NOT_LOWER} of the baseline build`,
            ratio(rps('plain', 'mock'), rps('plain', 'baseline')),
            (v) => v >= NOT_LOWER,
          ),
          t(
            `filtered query: mock ≥ ${NOT_LOWER} of the baseline build`,
            ratio(rps('filtered', 'mock'), rps('filtered', 'baseline')),
            (v) => v >= NOT_LOWER,
          ),
        ]
      : []),
    t(
      `start-up (1k servers): the bin ≤ ${START_TARGETS.binOverBare}× bare node:http`,
      ratio(start('bin'), start('bare')),
      (v) => v <= START_TARGETS.binOverBare,
    ),
    t(
      `start-up (1k servers): the bin ≤ ${START_TARGETS.binOverPrism} of Prism`,
      ratio(start('bin'), start('prism')),
      (v) => v <= START_TARGETS.binOverPrism,
    ),
    t(
      `start-up (1k servers): npm run mock ≤ ${START_TARGETS.npmOverPrism} of Prism`,
      ratio(start('npm'), start('prism')),
      (v) => v <= START_TARGETS.npmOverPrism,
    ),
    t('memory: mock ≤ ⅔ of Prism', ratio(r.memory.mock?.rssMiB, r.memory.prism?.rssMiB), (v) => v <= 2 / 3),
    t('100k servers generated in < 2 s', gen100k, (v) => v < 2000),
    t(
      'mixed workload (1k servers): mock ≥ 80% of bare',
      ratio(rps('mixed', 'mock'), rps('mixed', 'bare')),
      (v) => v >= 0.8,
    ),
    t(
      `plain query through the validation proxy ≥ ${PROXY_TARGET} of direct`,
      ratio(r.proxy?.proxied.reqPerSec, r.proxy?.direct.reqPerSec),
      (v) => v >= PROXY_TARGET,
    ),
    t(
      `plain query through the validation proxy ≥ ${PROXY_OF_FORWARDER} of a forwarder that only forwards`,
      ratio(r.proxy?.proxied.reqPerSec, r.proxy?.forwarder?.reqPerSec),
      (v) => v >= PROXY_OF_FORWARDER,
    ),
    t(
      `plain query with the journal and strict judging ≥ ${JOURNAL_KEEPS} of without (side by side)`,
      r.journal?.plain.ratio ?? null,
      (v) => v >= JOURNAL_KEEPS,
    ),
    t(
      `filtered query with the journal and strict judging ≥ ${JOURNAL_KEEPS} of without (side by side)`,
      r.journal?.filtered.ratio ?? null,
      (v) => v >= JOURNAL_KEEPS,
    ),
    t(
      `createMock() and its first answer ≤ ${CREATE_MOCK_MS} ms (median, the built package entry)`,
      r.createMock?.entries[0]?.firstMs ?? null,
      (v) => v <= CREATE_MOCK_MS,
    ),
    ...scaleTargets(r, rps('filtered', 'mock'), start('prism')),
  ];
}

function scaleTargets(r: Report, filtered1k: number | undefined, prismMs: number | undefined): Report['targets'] {
  const at = (n: number) => r.scale.find((x) => x.servers === n);
  const m1 = at(1_000_000);
  const k100 = at(100_000);
  const t = (target: string, value: number | null | undefined, ok: (v: number) => boolean) => ({
    target,
    value: value ?? null,
    verdict: verdict(value, ok),
  });
  const out: Report['targets'] = [];
  if (m1) {
    out.push(
      t('1M servers: cached start-up < 1 s', m1.cachedMedianMs, (v) => v < 1000),
      t('1M servers: cached start-up ≤ Prism', ratio(m1.cachedMedianMs ?? undefined, prismMs), (v) => v <= 1),
      t('1M servers: cold start-up < 4 s', m1.coldMedianMs, (v) => v < 4000),
      t('1M servers: RSS after 10k mixed < 600 MiB', m1.rssMiB, (v) => v < 600),
      t('1M servers: filtered ≥ ½ of the 1k figure', ratio(m1.rps.filtered, filtered1k), (v) => v >= 0.5),
    );
  }
  if (k100)
    out.push(
      t(
        '100k servers: cached start-up ≤ ⅓ of Prism',
        ratio(k100.cachedMedianMs ?? undefined, prismMs),
        (v) => v <= 1 / 3,
      ),
    );
  if (r.paging)
    out.push(
      t(
        'paging 100k in pages of 500: RSS growth < row-cache bound (MiB)',
        r.paging.growthMiB,
        (v) => v < (r.paging?.boundMiB ?? 0),
      ),
    );
  return out;
}

export function renderTable(r: Report): string {
  const m = r.machine;
  const lines: string[] = [];
  lines.push(
    `Machine: ${m.cores} cores (${m.cpuModel}), ${m.memGiB} GiB, Node ${m.node}, ${m.os}; ${r.mode} run of ` +
      `${m.date.slice(0, 16).replace('T', ' ')} UTC` +
      `${m.gitCommit ? `, commit ${m.gitCommit}` : ''}; 1-minute load average before the run ` +
      `${m.loadAvgAtStart[0]?.toFixed(2)}.`,
    '',
    `Throughput: autocannon, ${r.config.connections} connections, ${r.config.durationSec} s after a ` +
      `${r.config.warmupSec} s warm-up, mock dataset of ${r.config.datasetUnderLoad.toLocaleString('en-US')} ` +
      `servers. req/s (p50 / p99 latency, ms).`,
    '',
    r.baseline
      ? `| scenario | mock | Prism 5.14.2 | bare node:http | baseline build | mock/Prism | mock/bare | ` +
          `mock/baseline | bytes per answer, mock / Prism |`
      : '| scenario | mock | Prism 5.14.2 | bare node:http | mock/Prism | mock/bare | bytes per answer, mock / Prism |',
    r.baseline ? '|---|---|---|---|---|---|---|---|---|' : '|---|---|---|---|---|---|---|',
  );
  const cell = (x: (LoadResult & { expectedShare: number }) | undefined) =>
    x
      ? `${fmt(x.reqPerSec)} (${fmt(x.p50Ms)} / ${fmt(x.p99Ms)})` +
        `${x.expectedShare < 0.999 ? ` ⚠ only ${fmt(x.expectedShare * 100, 1)}% expected status` : ''}`
      : '–';
  const tgt = (id: string) => r.targets.find((t) => t.target.startsWith(id));
  for (const s of r.scenarios) {
    const vsPrism = ratio(s.servers.mock?.reqPerSec, s.servers.prism?.reqPerSec);
    const vsBare = ratio(s.servers.mock?.reqPerSec, s.servers.bare?.reqPerSec);
    const mark = (t: ReturnType<typeof tgt>) =>
      t ? ` (target ${t.target.match(/≥ [^ ]+/)?.[0]}: **${t.verdict}**)` : '';
    const pT = s.id === 'plain' ? tgt('plain query: mock ≥ 6×') : s.id === 'mixed' ? tgt('mixed') : undefined;
    const bT = s.id === 'plain' ? tgt('plain query: mock ≥ 70%') : undefined;
    const vsBaseline = ratio(s.servers.mock?.reqPerSec, s.servers.baseline?.reqPerSec);
    const baseT = tgt(`${s.id} query: mock ≥ ${NOT_LOWER} of the baseline`);
    const baseline = r.baseline ? ` ${cell(s.servers.baseline)} |` : '';
    const baseRatio = r.baseline
      ? ` ${vsBaseline == null ? '–' : fmt(vsBaseline, 2)}` +
        `${baseT ? ` (target ≥ ${NOT_LOWER}: **${baseT.verdict}**)` : ''} |`
      : '';
    lines.push(
      `| ${s.title} | ${cell(s.servers.mock)} | ${cell(s.servers.prism)} | ${cell(s.servers.bare)} |` +
        `${baseline} ${vsPrism == null ? '–' : `${fmt(vsPrism, 1)}×`}${mark(pT)} | ` +
        `${vsBare == null ? '–' : `${fmt(vsBare * 100)}%`}${mark(bT)} |${baseRatio} ` +
        `${fmt(s.servers.mock?.bytesPerResponse)} / ${fmt(s.servers.prism?.bytesPerResponse)} |`,
    );
  }
  if (r.baseline)
    lines.push(
      '',
      `Baseline build: ${r.baseline} (its dist/mock.mjs, run as its own package.json's \`npm run mock\` runs it).`,
    );
  lines.push('', ...renderStartup(r));
  lines.push('', '| measure | mock | Prism 5.14.2 | bare node:http | ratio | target |', '|---|---|---|---|---|---|');
  const mem = r.memory;
  const memRatio = ratio(mem.mock?.rssMiB, mem.prism?.rssMiB);
  lines.push(
    `| RSS after ${r.config.memoryRequests.toLocaleString('en-US')} requests (idle after start) | ` +
      `${fmt(mem.mock?.rssMiB)} MiB (${fmt(mem.mock?.idleRssMiB)}) | ${fmt(mem.prism?.rssMiB)} MiB (` +
      `${fmt(mem.prism?.idleRssMiB)}) | ${fmt(mem.bare?.rssMiB)} MiB (${fmt(mem.bare?.idleRssMiB)}) | ` +
      `${memRatio == null ? '–' : `${fmt(memRatio * 100)}% of Prism`} | ≤ 67%: **` +
      `${verdict(memRatio, (v) => v <= 2 / 3)}** |`,
  );
  for (const g of r.generation) {
    const is100k = g.count === 100_000;
    lines.push(
      `| dataset generation, ${g.count.toLocaleString('en-US')} servers (seed ${r.config.seed}) | ` +
        `${g.ms == null ? 'n/a' : `${fmt(g.ms)} ms`} | – | – | – | ` +
        `${is100k ? `< 2 s: **${verdict(g.ms, (v) => v < 2000)}**` : ''} |`,
    );
  }
  const c = r.contract;
  lines.push(
    `| contract suite wall time against the mock | ` +
      `${c ? `${fmt(c.ms / 1000, 1)} s${c.exitCode === 0 ? '' : ` (exit ${c.exitCode})`}` : 'n/a (unavailable)'} ` +
      `| – | – | – | |`,
  );
  if (r.rowCache) lines.push('', `Row cache of the 1k mock after the memory run: ${rowCacheCell(r.rowCache)}.`);
  if (r.proxy) lines.push('', renderProxy(r.proxy));
  if (r.journal || r.createMock) lines.push('', ...renderConsumerSide(r));
  if (r.scale.length) lines.push('', ...renderScale(r));
  if (r.notes.length) lines.push('', ...r.notes.map((n) => `Note: ${n}`));
  return lines.join('\n');
}

/**
 * The start-up table: spawn to the first 200, for the mock as the package runs it (the
 * bin), as a clone runs it (`npm run mock`), next to the limit (a node:http process that
 * only answers) and Prism, at 1k servers (the defaults) and at the scale table's sizes.
 */
function renderStartup(r: Report): string[] {
  const start = (id: StartupId) => r.startup.find((s) => s.id === id)?.medianMs ?? null;
  const [bare, prism] = [start('bare'), start('prism')];
  const ms = (v: number | null) => (v == null ? '–' : `${fmt(v)} ms`);
  const x = (v: number | null, limit?: number) =>
    v == null
      ? '–'
      : `${fmt(v, v < 10 ? 1 : 0)}×` +
        `${limit === undefined ? '' : ` (≤ ${limit}×: **${verdict(v, (y) => y <= limit)}**)`}`;
  const share = (v: number | null, limit?: number) =>
    v == null ? '–' : `${fmt(v, 2)}${limit === undefined ? '' : ` (≤ ${limit}: **${verdict(v, (y) => y <= limit)}**)`}`;
  const row = (what: string, bin: number | null, npm: number | null, targeted: boolean, extra = '') =>
    `${[
      `| ${what} | ${ms(bin)} | ${ms(npm)}`,
      x(ratio(bin ?? undefined, bare ?? undefined), targeted ? START_TARGETS.binOverBare : undefined),
      share(ratio(bin ?? undefined, prism ?? undefined), targeted ? START_TARGETS.binOverPrism : undefined),
      share(ratio(npm ?? undefined, prism ?? undefined), targeted ? START_TARGETS.npmOverPrism : undefined),
    ].join(' | ')} |${extra}`;
  const lines = [
    `Start-up: spawn to the first 200 on \`/servers/find?limit=20\` (polled every 5 ms), median of ` +
      `${r.config.startups} at 1k servers (the variants in turn), of ${r.config.scaleColdStarts} cold / ` +
      `${r.config.scaleCachedStarts} cached (bin) and ${r.config.scaleNpmStarts} each (npm run mock) at the ` +
      `scale sizes. The limit: a bare node:http process that answers \`{}\` to anything (${ms(bare)}); Prism ` +
      `5.14.2: ${ms(prism)}. The bin is \`node bin/server-listing-mock.mjs\` (as \`npx server-listing-mock\` ` +
      `runs it, no node flags); \`npm run mock\` is npm itself, its freshness check of dist/ (no rebuild: it is ` +
      `fresh) and the mock with its node flags.`,
    '',
    '| servers | the bin | `npm run mock` | bin / bare | bin / Prism | npm run mock / Prism |',
    '|---|---|---|---|---|---|',
    row('1,000, the defaults (seed 1337: the dataset the build ships)', start('bin'), start('npm'), true),
    row(`1,000, seed ${r.config.seed} (generated at start)`, start('generated'), null, false),
  ];
  if (r.baseline) lines.push(row('1,000, the defaults, the baseline build (its bin)', start('baseline'), null, false));
  for (const sc of r.scale) {
    const n = sc.servers.toLocaleString('en-US');
    const million = sc.servers === 1_000_000;
    lines.push(
      row(
        `${n}, cold (generated, sorted, snapshot written)` +
          `${million ? ` — target < 4 s: **${verdict(sc.coldMedianMs, (v) => v < 4000)}**` : ''}`,
        sc.coldMedianMs,
        sc.npmColdMedianMs,
        false,
      ),
      row(
        `${n}, cached (the snapshot read)` +
          `${million ? ` — target < 1 s: **${verdict(sc.cachedMedianMs, (v) => v < 1000)}**` : ''}`,
        sc.cachedMedianMs,
        sc.npmCachedMedianMs,
        false,
      ),
    );
  }
  return lines;
}

function renderProxy(p: ProxyFigures): string {
  const share = ratio(p.proxied.reqPerSec, p.direct.reqPerSec);
  const limit = p.forwarder ? ratio(p.forwarder.reqPerSec, p.direct.reqPerSec) : null;
  const ofLimit = p.forwarder ? ratio(p.proxied.reqPerSec, p.forwarder.reqPerSec) : null;
  const judged = p.judged
    ? `; meanwhile the proxy judged ${fmt(p.judged.answers)} answers (${fmt(p.judged.notJudged)} forwarded but ` +
      `not judged), ${fmt(p.judged.failed)} checks failed (verdict ${p.judged.verdict})`
    : '';
  return (
    `Validation proxy (\`dist/proxy.mjs --upstream <mock>\`, issue 22), the plain query, direct then through ` +
    `the proxy, same mock, same load: ` +
    `${fmt(p.direct.reqPerSec)} req/s direct (p50 ${fmt(p.direct.p50Ms)} ms), ${fmt(p.proxied.reqPerSec)} ` +
    `through the proxy (p50 ${fmt(p.proxied.p50Ms)} ms): ` +
    `${share == null ? '–' : fmt(share, 2)} of direct (≥ ${PROXY_TARGET}: **` +
    `${verdict(share, (v) => v >= PROXY_TARGET)}**)${judged}. ` +
    'The limit, a forwarder that only forwards on the same stacks (`scripts/bench-forwarder.mjs`): ' +
    (p.forwarder
      ? `${fmt(p.forwarder.reqPerSec)} req/s, ${fmt(limit, 2)} of direct; the proxy is ${fmt(ofLimit, 2)} of it.`
      : '–.')
  );
}

const contractCell = (c: { ms: number; exitCode: number | null } | null | undefined): string =>
  c ? `${fmt(c.ms / 1000, 1)} s${c.exitCode === 0 ? '' : ` (exit ${c.exitCode})`}` : '–';

const rowCacheCell = (c: RowCacheInfo | null): string =>
  c
    ? `${fmt((100 * c.hits) / Math.max(1, c.hits + c.misses), 1)}% hits (${fmt(c.bytes / 2 ** 20, 1)} of ` +
      `${fmt(c.maxBytes / 2 ** 20)} MiB)`
    : '–';

function renderScale(r: Report): string[] {
  const lines = [
    `Scale: the mock alone at each size (seed ${r.config.seed}), each start with \`--cache-dir\` in a fresh ` +
      `temporary directory: cold = generate, sort and write the snapshot (clock pinned); cached = the next ` +
      `start, on the real clock, which loads it. Start-up is spawn to first 200 (median of ` +
      `${r.config.scaleColdStarts} cold, ${r.config.scaleCachedStarts} cached); RSS after ` +
      `${r.config.memoryRequests.toLocaleString('en-US')} mixed requests; req/s over ` +
      `${r.config.scaleDurationSec} s after ${r.config.scaleWarmupSec} s of warm-up, ${r.config.connections} ` +
      `connections; row-cache hits after the mixed requests.`,
    '',
    '| servers | start-up cold | start-up cached | RSS after mixed | plain req/s | filtered req/s | mixed ' +
      'req/s | row cache | contract suite |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const x of r.scale) {
    lines.push(
      `| ${x.servers.toLocaleString('en-US')} | ${fmt(x.coldMedianMs)} ms | ${fmt(x.cachedMedianMs)} ms ` +
        `| ${fmt(x.rssMiB)} MiB | ${fmt(x.rps.plain)} | ${fmt(x.rps.filtered)} | ${fmt(x.rps.mixed)} ` +
        `| ${rowCacheCell(x.rowCache)} | ${contractCell(x.contract)} |`,
    );
  }
  const p = r.paging;
  if (p) {
    lines.push(
      '',
      `Paging: every one of ${p.servers.toLocaleString('en-US')} servers in ${p.pages} pages of ${p.limit} ` +
        `(\`sort=address\`, an API key): RSS ${fmt(p.beforeMiB)} → ${fmt(p.afterMiB)} MiB (+` +
        `${fmt(p.growthMiB)}), ${fmt(p.afterSecondMiB)} MiB after a second pass; row-cache bound ` +
        `${fmt(p.boundMiB)} MiB; ${p.rows.toLocaleString('en-US')} rows seen.`,
    );
  }
  const scaleT = r.targets.filter((t) => /^(1M|100k|paging)/.test(t.target));
  if (scaleT.length)
    lines.push(
      '',
      ...scaleT.map(
        (t) => `- ${t.target}: ${t.value == null ? '–' : fmt(t.value, t.value < 10 ? 2 : 0)} → **${t.verdict}**`,
      ),
    );
  return lines;
}

// ---------------------------------------------------------------------------------------
// The scale table

/** What GET /__mock/info says of the row cache. */
type RowCacheInfo = RowCacheStats;

interface ScaleRow {
  servers: number;
  /** Start-ups through the bin. */
  coldMs: number[];
  cachedMs: number[];
  coldMedianMs: number | null;
  cachedMedianMs: number | null;
  /** Start-ups through `npm run mock`. */
  npmColdMs: number[];
  npmCachedMs: number[];
  npmColdMedianMs: number | null;
  npmCachedMedianMs: number | null;
  rssMiB: number | null;
  rps: { plain?: number; filtered?: number; mixed?: number };
  rowCache: RowCacheInfo | null;
  contract: { ms: number; exitCode: number | null } | null;
}

interface PagingResult {
  servers: number;
  limit: number;
  pages: number;
  rows: number;
  beforeMiB: number;
  afterMiB: number;
  /** After paging through everything a second time. */
  afterSecondMiB: number;
  growthMiB: number;
  boundMiB: number;
}

/** The mock's `--help`, to see which flags this build has (an older build may lack --cache-dir). */
function mockHelp(): string {
  try {
    return execFileSync(process.execPath, [MOCK_ENTRY, '--help'], { encoding: 'utf8' });
  } catch {
    return '';
  }
}

/**
 * Outside the scale table every mock generates its data (`--cache-dir off`): the main
 * table's start-ups stay comparable across runs, and nothing is written to the home directory.
 */
let helpText: string | undefined;
function noSnapshots(): string[] {
  helpText ??= mockHelp();
  return helpText.includes('--cache-dir') ? ['--cache-dir', 'off'] : [];
}

/** The row cache's counters, from the mock's GET /__mock/info (null if this build does not say). */
async function rowCacheOf(srv: Running): Promise<RowCacheInfo | null> {
  const res = await get(new URL(srv.base).origin, '/__mock/info');
  try {
    return (JSON.parse(res.body.toString()) as { rowCache?: RowCacheInfo }).rowCache ?? null;
  } catch {
    return null;
  }
}

const tempDir = (): string => mkdtempSync(join(os.tmpdir(), 'slm-bench-cache-'));

// ---------------------------------------------------------------------------------------
// What a start-up is timed for

/** `npm run mock` runs this build only (another --mock has no npm script). */
const HAVE_NPM = MOCK_ENTRY === 'dist/mock.mjs';

/** The mock as the package runs it: `node bin/server-listing-mock.mjs` (no node flags), or the --mock file. */
function binLaunch(flags: string[], label = 'the bin', bin = BIN): Launch {
  return {
    label,
    command: process.execPath,
    args: (p) => [bin, '--port', String(p), '--quiet', ...flags],
    prefix: API_PREFIX,
  };
}

/**
 * As a clone runs it: `npm run mock -- <flags>` (npm, its check of dist/, the mock), a process group stopped as one.
 */
function npmLaunch(flags: string[]): Launch {
  return {
    label: 'npm run mock',
    command: 'npm',
    args: (p) => ['run', '--silent', 'mock', '--', '--port', String(p), '--quiet', ...flags],
    prefix: API_PREFIX,
    group: true,
  };
}

/** The limit: a node:http process that answers at once (scripts/bench-hello.mjs). */
const BARE_LAUNCH: Launch = {
  label: 'bare node:http',
  command: process.execPath,
  args: (p) => ['scripts/bench-hello.mjs', String(p)],
  prefix: API_PREFIX,
};

/** The start-up variants at 1k servers, timed in turn (see renderStartup). */
function startupVariants(): { id: StartupId; label: string; start: () => Promise<Running> }[] {
  const baselineBin =
    BASELINE &&
    (existsSync(join(BASELINE, 'bin/server-listing-mock.mjs'))
      ? join(BASELINE, 'bin/server-listing-mock.mjs')
      : join(BASELINE, 'dist/mock.mjs'));
  return [
    { id: 'bare', label: BARE_LAUNCH.label, start: () => launch(BARE_LAUNCH) },
    { id: 'prism', label: 'Prism', start: () => startServer({ kind: 'prism' }) },
    { id: 'bin', label: 'the bin, defaults', start: () => launch(binLaunch([])) },
    ...(HAVE_NPM ? [{ id: 'npm' as const, label: 'npm run mock, defaults', start: () => launch(npmLaunch([])) }] : []),
    { id: 'generated', label: `the bin, seed ${SEED}`, start: () => launch(binLaunch(['--seed', String(SEED)])) },
    ...(baselineBin
      ? [
          {
            id: 'baseline' as const,
            label: 'the baseline build, defaults',
            start: () => launch(binLaunch([], 'baseline', baselineBin)),
          },
        ]
      : []),
  ];
}

/**
 * One row of the scale table: cold start-ups (each in an empty cache directory), cached
 * ones (the directory the last cold start wrote), then the last cached mock under load.
 */
async function measureScale(n: number, supportsCache: boolean): Promise<ScaleRow> {
  const dirs: string[] = [];
  // Cold starts pin the clock like the rest of the bench; cached ones run on the real clock, which also shows the
  // snapshot is not tied to a clock, and lets the contract suite (which judges ages by its own clock) agree with it.
  const flags = (dir: string, now?: string) => [
    '--seed',
    String(SEED),
    '--servers',
    String(n),
    ...(now ? ['--now', now] : []),
    ...(supportsCache ? ['--cache-dir', dir] : []),
  ];
  const start = (how: 'bin' | 'npm', dir: string, now?: string) =>
    launch({ ...(how === 'bin' ? binLaunch(flags(dir, now)) : npmLaunch(flags(dir, now))), timeoutMs: 300_000 });
  const row: ScaleRow = {
    servers: n,
    coldMs: [],
    cachedMs: [],
    coldMedianMs: null,
    cachedMedianMs: null,
    npmColdMs: [],
    npmCachedMs: [],
    npmColdMedianMs: null,
    npmCachedMedianMs: null,
    rssMiB: null,
    rps: {},
    rowCache: null,
    contract: null,
  };
  // The bin and npm run mock in turn, each cold start in an empty cache directory.
  const turns = (runs: number, npmRuns: number): ('bin' | 'npm')[] =>
    Array.from({ length: Math.max(runs, npmRuns) }, (_, i) => [
      ...(i < runs ? ['bin' as const] : []),
      ...(i < npmRuns && HAVE_NPM ? ['npm' as const] : []),
    ]).flat();
  try {
    let dir = '';
    for (const how of turns(CONFIG.scaleColdStarts, CONFIG.scaleNpmStarts)) {
      dir = tempDir();
      dirs.push(dir);
      const srv = await start(how, dir, NOW);
      await srv.stop();
      (how === 'bin' ? row.coldMs : row.npmColdMs).push(srv.startupMs);
      log(`scale ${n}: cold start-up (${how}) ${srv.startupMs.toFixed(0)} ms`);
    }
    // The last start is the bin's, and stays up for the load runs.
    let srv: Running | undefined;
    for (const how of turns(CONFIG.scaleCachedStarts, CONFIG.scaleNpmStarts).reverse()) {
      if (srv) await srv.stop();
      srv = await start(how, dir);
      (how === 'bin' ? row.cachedMs : row.npmCachedMs).push(srv.startupMs);
      log(`scale ${n}: cached start-up (${how}) ${srv.startupMs.toFixed(0)} ms`);
    }
    if (!srv) throw new Error('no cached start');
    try {
      const mixed = SCENARIOS.find((s) => s.id === 'mixed') as Scenario;
      await load(srv, mixed, { amount: CONFIG.memoryRequests });
      row.rssMiB = readMemory(srv.pid).rssMiB;
      row.rowCache = await rowCacheOf(srv);
      for (const id of ['plain', 'filtered', 'mixed'] as const) {
        const s = SCENARIOS.find((x) => x.id === id) as Scenario;
        await load(srv, s, { durationSec: CONFIG.scaleWarmupSec });
        const r = await load(srv, s, { durationSec: CONFIG.scaleDurationSec });
        row.rps[id] = r.reqPerSec;
        log(`scale ${n}: ${id} ${r.reqPerSec.toFixed(0)} req/s, statuses ${JSON.stringify(r.statusCodes)}`);
      }
      if (!args.skipContract) row.contract = await timeContract(srv.base);
    } finally {
      await srv.stop();
    }
  } finally {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
  row.coldMedianMs = row.coldMs.length ? median(row.coldMs) : null;
  row.cachedMedianMs = row.cachedMs.length ? median(row.cachedMs) : null;
  row.npmColdMedianMs = row.npmColdMs.length ? median(row.npmColdMs) : null;
  row.npmCachedMedianMs = row.npmCachedMs.length ? median(row.npmCachedMs) : null;
  return row;
}

/** Issue 30's figures: the journal's cost side by side, createMock() and its first answer. */
function renderConsumerSide(r: Report): string[] {
  const lines: string[] = [];
  const j = r.journal;
  if (j) {
    const one = (q: SideBySide) =>
      `**${fmt(q.ratio, 3)}**${q.sd === null ? '' : ` (standard deviation of a round ${fmt(q.sd, 3)})`}`;
    lines.push(
      `The journal and strict judging on, against the same mock with \`--journal 0\`, side by side (both ` +
        `pinned to one core, each loaded from the other; ${j.rounds} rounds of ${j.seconds} s, ` +
        `scripts/bench-together.mjs): plain query ${one(j.plain)}, filtered ${one(j.filtered)} of the answers ` +
        `a second without them (target ≥ ${JOURNAL_KEEPS}); the mixed workload, each request the next of its ` +
        `distinct queries, ${one(j.mixed)} (no target; a repeated request is judged once, these never repeat ` +
        'soon enough).',
    );
  }
  const m = r.createMock;
  const mine = m?.entries[0];
  if (m && mine) {
    const base = m.entries[1];
    lines.push(
      `${lines.length ? '\n' : ''}createMock() and its first answer, the built package entry (dist/index.mjs), ` +
        `${m.runs} fresh processes${m.fetchLoaded ? ", fetch's classes loaded first" : ''}: ` +
        `**${fmt(mine.firstMs, 1)} ms** ` +
        `(target ≤ ${CREATE_MOCK_MS}); a young-generation collection fell within it in ${mine.collectedInFirst} ` +
        `of ${m.runs}; the third in a process ${fmt(mine.warmMs, 1)} ms; the import ${fmt(mine.importMs)} ms` +
        (base ? `; the baseline build's first ${fmt(base.firstMs, 1)} ms (pairwise ${fmt(m.firstRatio, 2)}).` : '.'),
    );
  }
  return lines;
}

/**
 * The journal and the strict judging against the same mock without them (`--journal 0`), at
 * the same moment (decision 0051): a cost of a few per cent, which runs in turn cannot tell
 * from the machine's drift. Needs Linux's taskset and two cores; else a note says why not.
 */
function measureJournal(notes: string[]): JournalCost | null {
  try {
    execFileSync('taskset', ['-c', '1', 'true'], { stdio: 'ignore' });
  } catch {
    notes.push("the journal's cost was not measured: side by side needs Linux taskset and two cores.");
    return null;
  }
  log(`the journal's cost, side by side: ${CONFIG.journalRounds} rounds of ${CONFIG.journalSec} s a query`);
  // The mixed workload's targets, in the order the throughput run sends them.
  const dir = tempDir();
  const targets = join(dir, 'mixed-targets.json');
  const mixed = SCENARIOS.find((s) => s.id === 'mixed') as Scenario;
  writeFileSync(targets, JSON.stringify(mixed.paths.map((p) => `${API_PREFIX}${p}`)));
  let out: string;
  try {
    out = execFileSync(
      process.execPath,
      [
        'scripts/bench-together.mjs',
        '--json',
        '--rounds',
        String(CONFIG.journalRounds),
        '--seconds',
        String(CONFIG.journalSec),
        '--targets',
        targets,
        `journal=${MOCK_ENTRY}`,
        `off=${MOCK_ENTRY} --journal 0`,
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const figures = JSON.parse(out.trim().split('\n').at(-1) as string) as Omit<JournalCost, 'rounds' | 'seconds'>;
  log(
    `journal on / off: plain ${figures.plain.ratio.toFixed(3)}, filtered ${figures.filtered.ratio.toFixed(3)}, ` +
      `mixed ${figures.mixed.ratio.toFixed(3)}`,
  );
  return { rounds: CONFIG.journalRounds, seconds: CONFIG.journalSec, ...figures };
}

/**
 * createMock() and its first answer from this checkout's package entry (built here), beside
 * the baseline build's when it has one, in fresh processes in turn.
 */
function measureCreateMock(notes: string[]): CreateMockFigures | null {
  execFileSync('npm', ['run', 'build:package', '--silent'], { stdio: 'inherit' });
  const baseline = BASELINE ? join(BASELINE, 'dist/index.mjs') : undefined;
  if (baseline && !existsSync(baseline)) notes.push(`${baseline} does not exist: createMock() timed alone.`);
  const entries = ['dist/index.mjs', ...(baseline && existsSync(baseline) ? [baseline] : [])];
  log(`createMock() and its first answer: ${CONFIG.createMockRuns} fresh processes per entry`);
  const out = execFileSync(
    process.execPath,
    ['scripts/bench-create-mock.mjs', '--json', '--fetch-loaded', '--runs', String(CONFIG.createMockRuns), ...entries],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return JSON.parse(out.trim().split('\n').at(-1) as string) as CreateMockFigures;
}

/**
 * The plain query direct and through the validation proxy in front of the same mock, back
 * to back with the same load (the proxy forwards over loopback, so the mock's own figure
 * is the limit). Then what the proxy judged meanwhile, from its GET /__proxy/report.
 */
async function measureProxy(): Promise<ProxyFigures | null> {
  const plain = SCENARIOS.find((s) => s.id === 'plain') as Scenario;
  const reports = tempDir();
  const mock = await startServer({
    kind: 'mock',
    mockEntry: MOCK_ENTRY,
    seed: SEED,
    servers: DATASET,
    now: NOW,
    mockFlags: noSnapshots(),
  });
  let proxy: Running | undefined;
  try {
    proxy = await launch({
      label: 'validation proxy',
      command: process.execPath,
      args: (p) => ['dist/proxy.mjs', '--upstream', mock.base, '--port', String(p), '--reports', reports],
      prefix: API_PREFIX,
    });
    const measure = async (srv: Running) => {
      await load(srv, plain, { durationSec: CONFIG.warmupSec });
      return load(srv, plain, { durationSec: CONFIG.durationSec });
    };
    const direct = await measure(mock);
    const proxied = await measure(proxy);
    let forwarder: LoadResult | null = null;
    const bare = await launch({
      label: 'bare forwarder',
      command: process.execPath,
      args: (p) => ['scripts/bench-forwarder.mjs', new URL(mock.base).origin, String(p)],
      prefix: API_PREFIX,
    });
    try {
      forwarder = await measure(bare);
    } finally {
      await bare.stop();
    }
    log(
      `plain through the proxy: ${proxied.reqPerSec.toFixed(0)} req/s (direct ` +
        `${direct.reqPerSec.toFixed(0)}), statuses ${JSON.stringify(proxied.statusCodes)}`,
    );
    let judged: ProxyFigures['judged'] = null;
    try {
      const res = await get(new URL(proxy.base).origin, '/__proxy/report');
      const j = JSON.parse(res.body.toString()) as { verdict: string; totals: { failed: number }; figures: string[] };
      // "Answers: 90108 judged, 45 forwarded but not judged" (proxy.ts)
      const [, answers, notJudged] =
        /Answers: (\d+) judged, (\d+) forwarded but not judged/.exec(j.figures.join('\n')) ?? [];
      judged = {
        answers: Number(answers ?? NaN),
        notJudged: Number(notJudged ?? NaN),
        failed: j.totals.failed,
        verdict: j.verdict,
      };
    } catch (err) {
      log(`the proxy's report could not be read: ${(err as Error).message}`);
    }
    return { direct, proxied, forwarder, judged };
  } catch (err) {
    log(`proxy run failed: ${(err as Error).message}`);
    return null;
  } finally {
    if (proxy) await proxy.stop();
    await mock.stop();
    rmSync(reports, { recursive: true, force: true });
  }
}

/** Pages through every server of a big listing with an API key, reading RSS before and after. */
async function measurePaging(supportsCache: boolean): Promise<PagingResult | null> {
  const n = CONFIG.pagingServers;
  const dir = tempDir();
  const srv = await startServer({
    kind: 'mock',
    mockEntry: MOCK_ENTRY,
    seed: SEED,
    servers: n,
    now: NOW,
    mockFlags: supportsCache ? ['--cache-dir', dir] : [],
    timeoutMs: 300_000,
  });
  try {
    const headers = { authorization: `Bearer ${VALID_KEY}` };
    // Warm the process (JIT, lazily built structures) on one page first, so the growth is the paging's.
    await get(
      srv.base,
      `/servers/find?limit=${CONFIG.pagingLimit}&noFilter=true&maxAge=3650&sort=address&page=1`,
      headers,
    );
    const before = readMemory(srv.pid).rssMiB;
    let rows = 0;
    let pages = 0;
    const pass = async (): Promise<void> => {
      rows = 0;
      pages = 0;
      for (let page = 1; ; page++) {
        const res = await get(
          srv.base,
          `/servers/find?limit=${CONFIG.pagingLimit}&noFilter=true&maxAge=3650&sort=address&page=${page}`,
          headers,
        );
        if (res.status !== 200)
          throw new Error(`page ${page} answered ${res.status}: ${res.body.toString().slice(0, 200)}`);
        const got = (JSON.parse(res.body.toString()) as { results: unknown[] }).results.length;
        if (got === 0) break;
        rows += got;
        pages++;
      }
    };
    await pass();
    const after = readMemory(srv.pid).rssMiB;
    // A second pass: a bounded cache does not grow again.
    await pass();
    const afterSecond = readMemory(srv.pid).rssMiB;
    const cache = await rowCacheOf(srv);
    log(`paging: ${rows} rows in ${pages} pages, RSS ${before.toFixed(0)} -> ${after.toFixed(0)} MiB`);
    return {
      servers: n,
      limit: CONFIG.pagingLimit,
      pages,
      rows,
      beforeMiB: before,
      afterMiB: after,
      afterSecondMiB: afterSecond,
      growthMiB: after - before,
      boundMiB: (cache?.maxBytes ?? 64 * 2 ** 20) / 2 ** 20,
    };
  } catch (err) {
    log(`paging failed: ${(err as Error).message}`);
    return null;
  } finally {
    await srv.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const report: Report = {
    machine: machine(),
    mode: quick ? 'quick' : 'full',
    config: { ...CONFIG, seed: SEED, datasetUnderLoad: DATASET, now: NOW },
    notes: [],
    scenarios: SCENARIOS.map((s) => ({ id: s.id, title: s.title, expectStatus: s.expect, servers: {} })),
    startup: [],
    baseline: BASELINE ?? null,
    memory: {},
    generation: [],
    contract: null,
    scale: [],
    paging: null,
    rowCache: null,
    proxy: null,
    journal: null,
    createMock: null,
    targets: [],
  };
  if (MOCK_ENTRY === 'dist/mock.mjs') execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
  // The proxy is this checkout's, whichever mock is measured.
  execFileSync('npm', ['run', 'build:proxy', '--silent'], { stdio: 'inherit' });
  const haveMock = existsSync(MOCK_ENTRY);
  if (!haveMock) report.notes.push(`${MOCK_ENTRY} does not exist: only Prism was measured.`);
  mkdirSync('reports', { recursive: true });
  const recordFile = 'reports/bench-recorded.json';
  const kinds = KINDS.filter((k) => k === 'prism' || haveMock);

  // 1. The bare server's answers: the mock's exact bytes for every benchmarked request.
  if (haveMock) {
    log(`recording the mock's answers for ${SCENARIOS.reduce((n, s) => n + s.paths.length, 0)} requests`);
    const { problems } = await record(recordFile);
    for (const p of problems) report.notes.push(`mock answered an unexpected status: ${p}`);
  }

  // 2. Memory, then throughput. Each server starts fresh, takes 10k requests of the mixed
  //    workload, and its RSS is read; the same warm processes then serve the throughput
  //    runs, one scenario at a time with the three servers back to back, so that drifting
  //    background load on a shared machine hits all three alike.
  const running: Partial<Record<ServerKind, Running>> = {};
  const profileDir = `reports/profiles/${new Date().toISOString().replace(/[:.]/g, '-')}`;
  if (args.cpuProf)
    report.notes.push(`the mock ran under --cpu-prof (${profileDir}): its figures are slowed by the profiler.`);
  try {
    for (const kind of kinds) {
      log(`starting ${kind}`);
      const nodeFlags = kind === 'mock' && args.cpuProf ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
      const srv = await startServer({
        kind,
        mockEntry: MOCK_ENTRY,
        ...(BASELINE ? { baselineDir: BASELINE } : {}),
        seed: SEED,
        servers: DATASET,
        now: NOW,
        recordFile,
        nodeFlags,
        ...(kind === 'mock' || kind === 'baseline' ? { mockFlags: noSnapshots() } : {}),
      });
      running[kind] = srv;
      const idle = readMemory(srv.pid);
      const mixed = SCENARIOS.find((s) => s.id === 'mixed') as Scenario;
      await load(srv, mixed, { amount: CONFIG.memoryRequests });
      report.memory[kind] = { ...readMemory(srv.pid), idleRssMiB: idle.rssMiB };
      if (kind === 'mock') report.rowCache = await rowCacheOf(srv);
      log(`${kind}: RSS ${report.memory[kind]?.rssMiB.toFixed(1)} MiB after ${CONFIG.memoryRequests} requests`);
    }
    for (const [i, s] of SCENARIOS.entries()) {
      for (const kind of kinds) {
        const srv = running[kind] as Running;
        await load(srv, s, { durationSec: CONFIG.warmupSec });
        const r = await load(srv, s, { durationSec: CONFIG.durationSec });
        (report.scenarios[i] as ScenarioFigures).servers[kind] = { ...r, expectedShare: expectedShare(r, s.expect) };
        log(
          `${s.id} on ${kind}: ${r.reqPerSec.toFixed(0)} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, ` +
            `statuses ${JSON.stringify(r.statusCodes)}`,
        );
      }
    }
  } finally {
    for (const srv of Object.values(running)) await srv.stop();
  }
  if (args.cpuProf && existsSync(profileDir)) {
    // The main thread's profile is the big one (tsx's loader thread writes a small second one).
    const file = readdirSync(profileDir)
      .map((f) => `${profileDir}/${f}`)
      .sort((a, b) => statSync(b).size - statSync(a).size)[0];
    if (file) report.profile = { file, ...summarizeProfile(file) };
  }

  // 2b. The plain query through the validation proxy, next to the same mock direct.
  if (haveMock) report.proxy = await measureProxy();

  // 2c. Issue 30: the journal's cost side by side; createMock() and its first answer (this checkout's build).
  if (haveMock && !args.skipJournal) report.journal = measureJournal(report.notes);
  if (MOCK_ENTRY === 'dist/mock.mjs') report.createMock = measureCreateMock(report.notes);

  // 3. Start-up at 1k servers: spawn to first 200, the variants in turn so each sees the same conditions.
  const startupRuns = new Map<StartupId, number[]>();
  const variants = haveMock ? startupVariants() : startupVariants().filter((v) => v.id === 'prism' || v.id === 'bare');
  for (let i = 0; i < CONFIG.startups; i++) {
    for (const v of variants) {
      const srv = await v.start();
      await srv.stop();
      startupRuns.set(v.id, [...(startupRuns.get(v.id) ?? []), srv.startupMs]);
      log(`start-up ${i + 1}/${CONFIG.startups} ${v.label}: ${srv.startupMs.toFixed(0)} ms`);
    }
  }
  report.startup = variants.map((v) => {
    const runs = startupRuns.get(v.id) ?? [];
    return { id: v.id, label: v.label, runsMs: runs, medianMs: runs.length ? median(runs) : null };
  });

  // 4. Dataset generation, each size in a fresh process (1M rows need a bigger heap).
  const generatorModule = 'mocks/dataset/generator.ts';
  for (const count of CONFIG.genSizes) {
    if (!existsSync(generatorModule)) {
      report.generation.push({ count, ms: null, rows: null });
      continue;
    }
    try {
      const g = await inChild<GenResult>({ kind: 'gen', module: generatorModule, seed: SEED, count, now: NOW }, [
        '--max-old-space-size=16384',
      ]);
      report.generation.push({ count, ...g });
      log(`generated ${g.rows} servers in ${g.ms.toFixed(0)} ms`);
    } catch (err) {
      report.notes.push(`dataset generation of ${count} failed: ${(err as Error).message.split('\n')[0]}`);
      report.generation.push({ count, ms: null, rows: null });
    }
  }

  // 5. The contract suite against a fresh mock.
  if (haveMock && !args.skipContract) {
    const mock = await startServer({ kind: 'mock', mockEntry: MOCK_ENTRY, mockFlags: noSnapshots() });
    try {
      log('timing the contract suite');
      report.contract = await timeContract(mock.base);
    } finally {
      await mock.stop();
    }
  }

  // 6. The scale table, and paging through a big listing.
  if (haveMock && !args.skipScale) {
    const supportsCache = noSnapshots().length > 0;
    if (!supportsCache)
      report.notes.push(
        `${MOCK_ENTRY} has no --cache-dir (no snapshot cache): "cached" start-ups are further cold ones.`,
      );
    for (const n of CONFIG.scaleSizes) report.scale.push(await measureScale(n, supportsCache));
    report.paging = await measurePaging(supportsCache);
  }

  report.machine.loadAvgAtEnd = os.loadavg();
  // A benchmark on a busy machine measures the neighbours too: say so next to the figures.
  // (Only the start counts: at the end the average includes this benchmark's own load.)
  const before = report.machine.loadAvgAtStart[0] ?? 0;
  if (before > report.machine.cores / 2) {
    report.notes.push(
      `the machine was busy before the run (1-minute load average ${before.toFixed(1)} on ` +
        `${report.machine.cores} cores): these figures are noisy.`,
    );
  }
  report.targets = targets(report);
  const table = renderTable(report);
  writeFileSync(args.out, JSON.stringify({ ...report, table }, null, 2));
  writeFileSync(args.out.replace(/\.json$/, '.md'), `${table}\n`);
  console.log(table);
  console.log(`\nTargets: ${report.targets.map((t) => `${t.target}: ${t.verdict}`).join('; ')}`);
  if (report.profile) {
    console.log(`\nThe mock's busiest functions under load, by self time (${report.profile.file}):`);
    for (const [fn, pct] of report.profile.functions) console.log(`  ${pct.toFixed(1).padStart(5)}%  ${fn}`);
    console.log('By source file:');
    for (const [file, pct] of report.profile.files) console.log(`  ${pct.toFixed(1).padStart(5)}%  ${file}`);
  }
  log(`raw figures in ${args.out}`);
  if (args.readme) updateReadme(table);
}

/** The new figures into scripts/README.md, between its bench markers. */
function updateReadme(table: string): void {
  if (replaceReadmeFigures('bench', table)) log('scripts/README.md figures updated');
  else log('scripts/README.md has no <!-- bench:start --> / <!-- bench:end --> markers: left unchanged');
}

main().catch((err: unknown) => {
  console.error(`bench: failed: ${(err as Error)?.stack ?? String(err)}`);
  process.exitCode = 1;
});
