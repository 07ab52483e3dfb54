// The installed package's mock never outlives what started it: a CI script that starts
// it with `npx server-listing-mock &` and ends with `kill $!` signals npx alone; npx
// passes the signal to the shell it ran the bin in, and that shell dies without passing
// it on. The mock must still stop (it sees its parent gone, mocks/node/lifetime.ts),
// leaving no process and a free port. And Ctrl-C in a terminal (SIGINT to npx, its
// shell and the mock at once) answers the request in flight first. `npm pack`, then
// `npm install <tarball>` in an empty folder, as e2e/installed-package.pack.ts does.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive, commandLine, descendants, until } from '../testing/processes.ts';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'mock-lifetime-'));
const leftovers: number[] = [];

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_loglevel: 'error' },
  });
}

beforeAll(() => {
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', root], REPO)) as { filename: string }[];
  npm(['install', join(root, packed[0]!.filename), '--no-audit', '--no-fund', '--prefer-offline'], root);
});

afterAll(() => {
  for (const pid of leftovers) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  }
  rmSync(root, { recursive: true, force: true });
});

/** True when nothing listens on the port any more: this process can take it. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * `npx server-listing-mock <args>` in the install folder: npx, the processes below it, the base URL once it listens.
 */
async function startNpx(
  args: string[],
  detached: boolean,
): Promise<{ npx: ChildProcess; below: number[]; baseUrl: string }> {
  const npx = spawn('npx', ['server-listing-mock', '--port', '0', '--quiet', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached,
  });
  leftovers.push(npx.pid!);
  let out = '';
  npx.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  npx.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  await until('the mock to listen', () => /Mock listening on \S+/.test(out), 60_000);
  const below = descendants(npx.pid!);
  leftovers.push(...below);
  expect(below.some((pid) => commandLine(pid).includes('server-listing-mock'))).toBe(true);
  return { npx, below, baseUrl: /Mock listening on (\S+)/.exec(out)![1]! };
}

describe('npx server-listing-mock', () => {
  it('then kill $! (npx alone): no process is left and the port is free', async () => {
    // As `npx server-listing-mock --port 0 &` in a script: $! is npx's pid.
    const { npx, below, baseUrl } = await startNpx([], false);
    expect((await fetch(`${baseUrl}/servers/find?limit=1`)).status).toBe(200);
    process.kill(npx.pid!, 'SIGTERM'); // kill $!
    await until('npx and everything it started to exit', () => [npx.pid!, ...below].every((pid) => !alive(pid)));
    expect(await portFree(Number(new URL(baseUrl).port))).toBe(true);
  });

  it(
    'then Ctrl-C (SIGINT to its process group) with a slow answer in flight: the answer comes, then nothing is ' +
      'left',
    async () => {
      const { npx, below, baseUrl } = await startNpx(['--latency', '1500'], true);
      const answer = fetch(`${baseUrl}/servers/find?limit=1`);
      await new Promise((r) => setTimeout(r, 300)); // the request is inside the mock, waiting out its latency
      process.kill(-npx.pid!, 'SIGINT');
      expect((await answer).status).toBe(200);
      await until('npx and everything it started to exit', () => [npx.pid!, ...below].every((pid) => !alive(pid)));
      expect(await portFree(Number(new URL(baseUrl).port))).toBe(true);
    },
  );
});
