// Shared by the end-to-end tests: the suite's CLI as a real child process, the mock on a
// real socket in this process, free ports, and stopping what a test started.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMock, type RunningMock } from '../mocks/node/server.ts';

export { fixtureEnv } from '../contract-tests/reference-server/in-process.ts';

export const REPO = fileURLToPath(new URL('../', import.meta.url));
const CLI = fileURLToPath(new URL('../contract-tests/cli.ts', import.meta.url));

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The reports the run wrote. */
  junit: string;
  html: string;
  markdown: string;
  json: string;
  dreddLog: string;
}

/** A CLI run under way: its process, and its end. */
export interface RunningCli {
  child: ChildProcess;
  done: Promise<CliRun>;
}

/**
 * `npm run contract -- <args>` without npm, in a process group of its own (as a terminal
 * starts it); the reports go to `reports` (default: a fresh temp dir).
 */
export function startContract(
  args: string[],
  env: Record<string, string | undefined> = {},
  reports = mkdtempSync(join(tmpdir(), 'contract-test-')),
): RunningCli {
  const cleanEnv = { ...process.env };
  for (const k of Object.keys(cleanEnv)) if (k.startsWith('CONTRACT_')) delete cleanEnv[k];
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args, '--reports', reports], {
    cwd: REPO,
    env: { ...cleanEnv, ...env },
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({
        code,
        signal,
        stdout,
        stderr,
        junit: join(reports, 'contract-junit.xml'),
        html: join(reports, 'contract-report.html'),
        markdown: join(reports, 'contract-summary.md'),
        json: join(reports, 'contract-report.json'),
        dreddLog: join(reports, 'contract-dredd.log'),
      }),
    );
  });
  return { child, done };
}

export function runContract(
  args: string[],
  env: Record<string, string | undefined> = {},
  reports?: string,
): Promise<CliRun> {
  return startContract(args, env, reports).done;
}

/** The mock on a socket of this process, on a free port (its answers self-checked, as under every test). */
export function mockOnSocket(options: Parameters<typeof startMock>[0] = {}): Promise<RunningMock> {
  return startMock({ port: 0, host: '127.0.0.1', cacheDir: null, ...options });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export async function waitForHttp(url: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(2_000) }).then((r) => r.body?.cancel());
      return;
    } catch (err) {
      if (Date.now() > until) throw new Error(`${url} did not come up: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** Stops a child we started, by its PID, and waits for it to be gone. */
export function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
