// `--start-mock`: the mock runs as its own program on a free port, the way a developer
// runs it (the suite meets it over HTTP only, like any other target), and is stopped by
// its PID when the run ends. It runs in a process group of its own, so a Ctrl-C in the
// terminal reaches the suite alone, which removes what it created and then stops the
// mock; and it never outlives the suite: if the suite is killed outright, the mock
// sees its parent gone and stops (mocks/node/lifetime.ts).
import { spawn } from 'node:child_process';
import { MOCK_PROGRAM, PACKAGE_ROOT } from '../shared/package-files.ts';

export interface MockProgram {
  baseUrl: string;
  pid: number | undefined;
  close(): Promise<void>;
}

const START_TIMEOUT_MS = 60_000;

export function startMockProgram(): Promise<MockProgram> {
  // No --rate-limit: the mock reports its limits without enforcing them,
  // and the run does not wait on them (--pace off).
  const child = spawn(process.execPath, [...MOCK_PROGRAM, '--port', '0', '--host', '127.0.0.1', '--quiet'], {
    cwd: PACKAGE_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const close = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void close();
      reject(new Error(`the mock did not start within ${START_TIMEOUT_MS / 1000} s: ${output.trim()}`));
    }, START_TIMEOUT_MS);
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      const url = /Mock listening on (\S+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ baseUrl: url, pid: child.pid, close });
      }
    });
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the mock exited (${code}) before listening: ${output.trim()}`));
    });
  });
}
