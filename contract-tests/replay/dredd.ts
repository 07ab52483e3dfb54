// Runs Dredd 14 as a child process with the TypeScript hooks. Its own console output
// holds full request headers (credentials), so it is captured, masked and kept as a log
// instead of being printed.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { SPEC_PATH } from '../../spec/load.ts';
import type { RunConfig } from './config.ts';
import { DREDD_HOOKS, PACKAGE_ROOT } from './package-files.ts';

const require = createRequire(import.meta.url);
// Generous: against real rate limits a default run waits minutes (anonymous: 20 requests a minute).
const TIMEOUT_MS = 60 * 60_000;

export interface DreddOutcome {
  exitCode: number | null;
  output: string;
  timedOut: boolean;
}

export function runDredd(config: RunConfig, onChild?: (pid: number) => void): Promise<DreddOutcome> {
  const bin = require.resolve('dredd/bin/dredd');
  const args = [bin, SPEC_PATH, config.baseUrl, ...DREDD_HOOKS.require, '--hookfiles', DREDD_HOOKS.file, '--loglevel', 'warning', '--color', 'false'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: PACKAGE_ROOT,
      env: { ...process.env, CONTRACT_RUN: JSON.stringify(config), NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (child.pid) onChild?.(child.pid);
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
    }, TIMEOUT_MS);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code, output, timedOut });
    });
  });
}
