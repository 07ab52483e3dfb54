// Process plumbing for `npm run bench`: start the servers under test (the mock, Prism,
// the bare replay server, an earlier build of the mock), and the programs whose start-up
// is timed (the bin, `npm run mock`, a bare node:http process), wait for their first 200,
// read their memory, stop them. Every child is tracked so that an error or Ctrl-C never
// leaves one running; `npm run mock` runs in a process group of its own and is stopped as one.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import http from 'node:http';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import type { GenJob, LoadJob } from './bench-child.ts';

export type ServerKind = 'mock' | 'prism' | 'bare' | 'baseline';

export interface Running {
  kind: ServerKind;
  pid: number;
  /** Where URLs are appended: `http://127.0.0.1:<port>` plus the path prefix this server uses. */
  base: string;
  /** Milliseconds from spawn to the first 200 on the probe URL. */
  startupMs: number;
  stop(): Promise<void>;
}

export const HOST = '127.0.0.1';
export const API_PREFIX = '/api/v0.1';
const PRISM_BIN = 'node_modules/@stoplight/prism-cli/dist/index.js';

// Every child we start, so the exit and signal handlers can stop them all.
const children = new Set<ChildProcess>();
/** Those started as a process group: stopped through the group. */
const groups = new WeakSet<ChildProcess>();
const target = (child: ChildProcess): number => (groups.has(child) ? -(child.pid as number) : (child.pid as number));

function killAll(): void {
  for (const child of children) {
    if (child.pid !== undefined && child.exitCode === null) {
      try {
        process.kill(target(child), 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}
process.on('exit', killAll);
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    console.error(`\nbench: ${sig}, stopping every server it started`);
    killAll();
    process.exit(130);
  });
}

/** Spawns a child we will stop ourselves; its stderr is kept (last 4 KB) to explain failures. */
export function track(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  ipc = false,
  group = false,
): ChildProcess & { errTail: () => string } {
  // A group of its own (`group`): npm and the mock it runs, stopped together as a terminal would.
  const child = spawn(command, args, {
    stdio: ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
    env,
    detached: group,
  });
  if (group) groups.add(child);
  children.add(child);
  child.once('exit', () => children.delete(child));
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-4096);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return Object.assign(child, { errTail: () => tail });
}

/** SIGTERM, then SIGKILL if the process has not left after 3 s. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(target(child), 'SIGTERM');
  const timer = setTimeout(() => {
    if (child.pid !== undefined && child.exitCode === null) process.kill(target(child), 'SIGKILL');
  }, 3000);
  await exited;
  clearTimeout(timer);
}

/** Runs one job in a fresh scripts/bench-child.ts process and returns its answer. */
export async function inChild<T>(job: LoadJob | GenJob, nodeFlags: string[] = []): Promise<T> {
  const child = track(process.execPath, [...nodeFlags, '--import', 'tsx', 'scripts/bench-child.ts'], process.env, true);
  try {
    const answer = await new Promise<{ ok: boolean; result?: T; error?: string }>((resolve, reject) => {
      child.once('message', (m) => resolve(m as { ok: boolean; result?: T; error?: string }));
      child.once('exit', (code) =>
        reject(new Error(`bench-child exited (${code}) without an answer:\n${child.errTail()}`)),
      );
      child.send(job);
    });
    if (!answer.ok) throw new Error(answer.error);
    return answer.result as T;
  } finally {
    await stopChild(child);
  }
}

/** A port nobody listens on right now (the OS picks it; a tiny race is acceptable here). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, HOST, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** One GET with an explicit path (no URL normalisation), resolving with status, headers, body. */
export function get(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname.replace(/\/$/, '') + path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error(`GET ${path}: no answer in 10 s`)));
    req.on('error', reject);
    req.end();
  });
}

/** Polls `path` every 5 ms until it answers 200; fails if the child dies or after `timeoutMs`. */
async function waitFor200(
  child: ChildProcess & { errTail: () => string },
  base: string,
  path: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `server exited (${child.exitCode ?? child.signalCode}) before answering 200:\n${child.errTail()}`,
      );
    }
    try {
      const res = await get(base, path);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline)
      throw new Error(`no 200 from ${base}${path} within ${timeoutMs} ms:\n${child.errTail()}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * The node flags `npm run mock` gives the mock (e.g. a smaller young generation), read from
 * a package.json (this repository's, or an earlier build's) so the benchmark measures
 * exactly what users run.
 */
export function mockNodeFlags(packageJson = 'package.json'): string[] {
  const script: string = JSON.parse(readFileSync(packageJson, 'utf8')).scripts.mock;
  const run = /\bnode((?: --[^\s]+)*) (?:dist\/mock\.mjs|scripts\/run-mock\.mjs)/.exec(script);
  return run?.[1]?.trim().split(/\s+/).filter(Boolean) ?? [];
}

/**
 * The environment of every program the bench starts: without the mock's MOCK_* defaults and without the
 * test switches (the mock checks every answer under vitest or NODE_ENV=test).
 */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('MOCK_') || k === 'VITEST' || k === 'NODE_ENV') delete env[k];
  return env;
}

/**
 * A program to start and time: what runs (given its port), where its API is, and whether it is a process group (npm).
 */
export interface Launch {
  label: string;
  command: string;
  args: (port: number) => string[];
  /** The path prefix of its API (`/api/v0.1`, or nothing for Prism). */
  prefix: string;
  group?: boolean;
  timeoutMs?: number;
}

/** Starts a program on a free port and waits for its first 200 on `/servers/find?limit=20` (polled every 5 ms). */
export async function launch(l: Launch): Promise<Running & { label: string }> {
  const port = await freePort();
  const base = `http://${HOST}:${port}${l.prefix}`;
  const t0 = performance.now();
  const child = track(l.command, l.args(port), cleanEnv(), false, l.group);
  try {
    await waitFor200(child, base, '/servers/find?limit=20', l.timeoutMs ?? 120_000);
  } catch (err) {
    await stopChild(child);
    throw new Error(`${l.label}: ${(err as Error).message}`);
  }
  const startupMs = performance.now() - t0;
  if (child.pid === undefined) throw new Error(`${l.label}: no pid`);
  return { kind: 'mock', label: l.label, pid: child.pid, base, startupMs, stop: () => stopChild(child) };
}

export interface StartOptions {
  kind: ServerKind;
  /**
   * mock: the built entry point `npm run mock` runs (default `dist/mock.mjs`); baseline: the earlier build's checkout.
   */
  mockEntry?: string;
  baselineDir?: string;
  /** mock: dataset flags. */
  seed?: number;
  servers?: number;
  now?: string;
  /** bare: the recorded answers file. */
  recordFile?: string;
  /** Extra flags for node itself, e.g. `--cpu-prof`. */
  nodeFlags?: string[];
  /** mock: extra flags of its own, e.g. `--trust-proxy`. */
  mockFlags?: string[];
  timeoutMs?: number;
}

/**
 * Starts one server on a free port and waits for its first 200 on `/servers/find?limit=20`.
 * All run as one plain `node` process (no npm/npx wrapper), so the PID we hold is the
 * process that serves, its RSS is the server's, and throughput and memory compare like for
 * like. The mock runs as `npm run mock` runs it: `node <its flags> dist/mock.mjs`, the
 * esbuild bundle of mocks/node/cli.ts (bench.ts builds it first); the baseline the same
 * way from its own checkout. The bare server runs through tsx's loader.
 */
export async function startServer(o: StartOptions): Promise<Running> {
  const mockArgs = (port: number) => {
    const args = ['--port', String(port), '--host', HOST, '--quiet'];
    if (o.seed !== undefined) args.push('--seed', String(o.seed));
    if (o.servers !== undefined) args.push('--servers', String(o.servers));
    if (o.now !== undefined) args.push('--now', o.now);
    return [...args, ...(o.mockFlags ?? [])];
  };
  let l: Omit<Launch, 'label'>;
  switch (o.kind) {
    case 'mock':
      l = {
        command: process.execPath,
        args: (p) => [...(o.nodeFlags ?? []), ...mockNodeFlags(), o.mockEntry ?? 'dist/mock.mjs', ...mockArgs(p)],
        prefix: API_PREFIX,
      };
      break;
    case 'baseline': {
      const dir = o.baselineDir as string;
      l = {
        command: process.execPath,
        args: (p) => [
          ...(o.nodeFlags ?? []),
          ...mockNodeFlags(join(dir, 'package.json')),
          join(dir, 'dist/mock.mjs'),
          ...mockArgs(p),
        ],
        prefix: API_PREFIX,
      };
      break;
    }
    case 'prism':
      // Prism serves the spec's paths WITHOUT the servers[0] prefix (/servers/find, not
      // /api/v0.1/servers/find: the prefixed path is a 404 there). Static mode (examples,
      // dynamic off) is its default. (NODE_ENV=production would split it into two processes.)
      l = {
        command: process.execPath,
        args: (p) => [PRISM_BIN, 'mock', '-h', HOST, '-p', String(p), '-v', 'silent', 'spec/openapi.yaml'],
        prefix: '',
      };
      break;
    case 'bare':
      if (!o.recordFile) throw new Error('bare server needs the recorded answers file');
      l = {
        command: process.execPath,
        args: (p) => ['--import', 'tsx', 'scripts/bench-bare.ts', o.recordFile as string, String(p)],
        prefix: API_PREFIX,
      };
      break;
  }
  const running = await launch({ ...l, label: o.kind, ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}) });
  return { ...running, kind: o.kind };
}

/** Resident set size of a process in MiB, from /proc/<pid>/status (VmRSS; VmHWM is the peak). */
export function readMemory(pid: number): { rssMiB: number; peakRssMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMiB: kb('VmRSS') / 1024, peakRssMiB: kb('VmHWM') / 1024 };
}

/**
 * The busiest functions of a V8 CPU profile (`node --cpu-prof`), by self time: where a
 * server spends its CPU, summed per function and per source file, as shares of its busy time.
 */
export function summarizeProfile(file: string, top = 12): { functions: [string, number][]; files: [string, number][] } {
  const p = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
    samples: number[];
    timeDeltas: number[];
  };
  const frames = new Map(p.nodes.map((n) => [n.id, n.callFrame]));
  const byFn = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  p.samples.forEach((id, i) => {
    const dt = p.timeDeltas[i] ?? 0;
    const cf = frames.get(id);
    // Idle time is when this server waited (e.g. while the others were under load): leave it out.
    if (!cf || cf.functionName === '(idle)') return;
    total += dt;
    // file:///.../node_modules/hono/dist/x.js -> hono; file:///repo/mocks/core/app.ts -> mocks/core/app.ts
    const file = (cf.url || cf.functionName)
      .replace(/^file:\/\/.*?\/node_modules\/((@[^/]+\/)?[^/]+)\/.*$/, '$1')
      .replace(`file://${process.cwd()}/`, '');
    const fn = `${cf.functionName || '(anonymous)'} ${file}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + dt);
    byFile.set(file, (byFile.get(file) ?? 0) + dt);
  });
  const rank = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]): [string, number] => [k, Math.round((1000 * v) / total) / 10]);
  return { functions: rank(byFn), files: rank(byFile) };
}
