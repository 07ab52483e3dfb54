// The worker process of `npm run bench`. scripts/bench.ts forks it (with tsx) for the two
// jobs that must not share a process with anything else:
//  - `load`: drive one autocannon run. The machine has 2 cores, so the load generator and
//    the server compete; running autocannon in its own process, the same way for every
//    server, keeps that competition identical for the mock, Prism and the bare server.
//  - `gen`: time the mock's dataset generator in a fresh process, so one size's garbage
//    and warm caches do not flatter the next.
// It answers one message with one message and exits.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { distinctFilterQuery } from './workload.ts';

export interface LoadJob {
  kind: 'load';
  base: string;
  /** One path, or many: then every request takes the next path of the list, across all connections. */
  paths: string[];
  /**
   * Instead of `paths`: every request asks for filter values never asked before (workload.ts's distinctFilterQuery).
   */
  distinctFilters?: boolean;
  headers: Record<string, string>;
  connections: number;
  /** Either a duration in seconds or a number of requests. */
  durationSec?: number;
  amount?: number;
}
export interface LoadResult {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  totalRequests: number;
  bytesPerResponse: number;
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
}
export interface GenJob {
  kind: 'gen';
  module: string;
  seed: number;
  count: number;
  now: string;
}
export interface GenResult {
  /** generateDataset() alone: the columns the mock serves (generateServers() in a build without it). */
  ms: number;
  rows: number;
  /** Importing mocks/dataset/generator.ts (its tables and favicons are built at load), for context. */
  importMs: number;
}

// autocannon ships no types; this is the slice of its API and result we use.
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  throughput: { average: number };
  statusCodeStats: Record<string, { count: number }>;
  errors: number;
  timeouts: number;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

async function load(job: LoadJob): Promise<LoadResult> {
  const url = new URL(job.base);
  const prefix = url.pathname.replace(/\/$/, '');
  const paths = job.paths.map((p) => prefix + p);
  let next = 0;
  // A single path: autocannon prebuilds the request once. Several: one global counter hands
  // each request the next path, so consecutive requests never repeat a URL and each URL
  // comes back only after all the others (a response cache cannot hide the filtering).
  const requests = job.distinctFilters
    ? [
        {
          method: 'GET',
          setupRequest: (req: Record<string, unknown>) => {
            req.path = prefix + distinctFilterQuery(next++);
            return req;
          },
        },
      ]
    : paths.length === 1
      ? [{ method: 'GET', path: paths[0] }]
      : [
          {
            method: 'GET',
            setupRequest: (req: Record<string, unknown>) => {
              req.path = paths[next++ % paths.length];
              return req;
            },
          },
        ];
  const r = await autocannon({
    url: url.origin,
    connections: job.connections,
    ...(job.amount ? { amount: job.amount } : { duration: job.durationSec }),
    headers: job.headers,
    requests,
  });
  const statusCodes: Record<string, number> = {};
  for (const [code, s] of Object.entries(r.statusCodeStats)) statusCodes[code] = s.count;
  return {
    reqPerSec: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    totalRequests: r.requests.total,
    bytesPerResponse: r.requests.average > 0 ? r.throughput.average / r.requests.average : 0,
    statusCodes,
    errors: r.errors,
    timeouts: r.timeouts,
  };
}

async function gen(job: GenJob): Promise<GenResult> {
  const i0 = performance.now();
  const mod = (await import(pathToFileURL(job.module).href)) as {
    generateServers: (o: { seed: number; count: number; now: Date }) => unknown[];
    generateDataset?: (o: { seed: number; count: number; now: Date }) => { size: number };
  };
  const importMs = performance.now() - i0;
  const t0 = performance.now();
  const opts = { seed: job.seed, count: job.count, now: new Date(job.now) };
  const rows = mod.generateDataset ? mod.generateDataset(opts).size : mod.generateServers(opts).length;
  const ms = performance.now() - t0;
  return { ms, rows, importMs };
}

process.once('message', (job: LoadJob | GenJob) => {
  (job.kind === 'load' ? load(job) : gen(job)).then(
    (result) => process.send?.({ ok: true, result }, () => process.exit(0)),
    (err: unknown) => process.send?.({ ok: false, error: String((err as Error)?.stack ?? err) }, () => process.exit(1)),
  );
});
