// Shared by the self-tests: run the suite's CLI as a real child process, find free ports.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadFixtures } from '../../fixtures/load.ts';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
const RUN = fileURLToPath(new URL('../run.ts', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The reports the run wrote. */
  junit: string;
  html: string;
  markdown: string;
}

/** The fixture credentials as a QA engineer would pass a target's own: for a server that is not the mock. */
export function fixtureEnv(): Record<string, string> {
  const value = (name: string) => loadFixtures().credentials.find((c) => c.name === name)!.value;
  return { CONTRACT_API_KEY: value('valid-key'), CONTRACT_SESSION_COOKIE: value('valid-session'), CONTRACT_FORBIDDEN_API_KEY: value('forbidden-key') };
}

/** `npm run contract -- <args>` without npm; the reports go to `reports` (default: a fresh temp dir). */
export function runContract(args: string[], env: Record<string, string | undefined> = {}, reports = mkdtempSync(join(tmpdir(), 'contract-test-'))): Promise<CliRun> {
  const cleanEnv = { ...process.env };
  for (const k of Object.keys(cleanEnv)) if (k.startsWith('CONTRACT_')) delete cleanEnv[k];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', RUN, ...args, '--reports', reports], { cwd: REPO, env: { ...cleanEnv, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout, stderr, junit: join(reports, 'contract-junit.xml'), html: join(reports, 'contract-report.html'), markdown: join(reports, 'contract-summary.md') }),
    );
  });
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

export interface MockProcess {
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Runs the mock as its own program (`mocks/cli.ts`, as `npm run mock` does) on a free
 * port and resolves with its base URL. The suite meets the mock only over HTTP, like
 * any other target: it runs the program, it does not import the mock's code.
 */
export function startMockProcess(args: string[] = []): Promise<MockProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'mocks/cli.ts', '--port', '0', '--host', '127.0.0.1', '--quiet', ...args], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /Mock listening on (\S+)/.exec(out)?.[1];
      if (url) resolve({ baseUrl: url, close: () => stop(child) });
    });
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => reject(new Error(`the mock exited (${code}) before listening: ${out}`)));
  });
}

/** Stops a child we started, by its PID, and waits for it to be gone. */
export function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
