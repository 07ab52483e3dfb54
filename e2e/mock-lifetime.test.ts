// The mock never outlives what started it (mocks/node/lifetime.ts): when the process
// that started it ends, however it ends, the mock stops and frees its port, unless it
// was started with --outlive-parent (for nohup and setsid). The contract suite's
// `--start-mock` child too. (Through `npx` and `kill $!`: e2e/mock-lifetime.pack.ts.)
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { alive, commandLine, descendants, listening, until } from '../testing/processes.ts';
import { startContract } from './helpers.ts';

const CLI = new URL('../mocks/node/cli.ts', import.meta.url).pathname;
const started: number[] = [];

afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

const answers = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(2000) }).then(
    (r) => r.ok,
    () => false,
  );

/**
 * A shell that starts the mock in the background and waits, as a script does; the mock's
 * pid and URL once it listens. Killing the shell leaves the mock to find out by itself.
 */
async function mockUnderShell(extra: string[]): Promise<{ shell: ChildProcess; pid: number; url: string }> {
  const args = [
    process.execPath,
    '--import',
    'tsx',
    CLI,
    '--port',
    '0',
    '--quiet',
    '--servers',
    '20',
    '--cache-dir',
    'off',
    ...extra,
  ]
    .map((a) => `'${a}'`)
    .join(' ');
  const shell = spawn('sh', ['-c', `${args} & echo "pid $!"; wait`]);
  started.push(shell.pid!);
  let out = '';
  shell.stdout!.on('data', (d) => (out += d));
  shell.stderr!.on('data', (d) => (out += d));
  await until('the mock to listen', () => /Mock listening on \S+/.test(out));
  const pid = Number(/pid (\d+)/.exec(out)![1]);
  started.push(pid);
  return { shell, pid, url: `${/Mock listening on (\S+)/.exec(out)![1]}/servers/find?limit=1` };
}

describe('the mock and the process that started it', () => {
  it('stops when that process is killed outright, and frees its port', async () => {
    const { shell, pid, url } = await mockUnderShell([]);
    expect(await answers(url)).toBe(true);
    shell.kill('SIGKILL'); // the shell alone: nothing forwards a signal to the mock
    await until('the mock to exit', () => !alive(pid));
    expect(await answers(url)).toBe(false);
  });

  it('keeps serving with --outlive-parent (nohup, setsid)', async () => {
    const { shell, pid, url } = await mockUnderShell(['--outlive-parent']);
    shell.kill('SIGKILL');
    await until('the shell to be gone', () => !alive(shell.pid!));
    await new Promise((r) => setTimeout(r, 1500)); // several times the mock's look at its parent
    expect(alive(pid)).toBe(true);
    expect(await answers(url)).toBe(true);
  });

  it("the contract suite's --start-mock child stops when the suite is killed outright", async () => {
    const { child } = startContract(['--start-mock', '--dredd', 'off']);
    started.push(child.pid!);
    let mockPid: number | undefined;
    await until(
      'the suite to start its mock',
      () =>
        (mockPid = descendants(child.pid!, true).find((pid) => commandLine(pid).includes('mocks/node/cli.ts'))) !==
        undefined,
      60_000,
    );
    started.push(mockPid!);
    await until('the mock to listen', () => listening(mockPid!), 60_000);
    child.kill('SIGKILL');
    await until('the mock to exit', () => !alive(mockPid!));
  });
});
