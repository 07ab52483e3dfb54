// scripts/proxy-record.ts at a small size: the validation proxy as a process, with
// --record, in front of a generated listing (and a relay giving every row a favicon of a
// few KiB), paged through with favicons and stopped with SIGTERM: it exits 0 with every
// report and a recording of every server, and says its peak memory. The figure at 100,000
// servers is the script's, run by hand (scripts/README.md).
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers.ts';

function run(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'scripts/proxy-record.ts'), ...args], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/** Listens on the port when it is free (undefined when something else holds it already: held either way). */
function holdPort(port: number): Promise<Server | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

describe('the proxy recording a listing through a process', () => {
  it('2,000 servers with 4 KiB favicons, paged 500 at a time: exit 0, four reports, every server recorded, its ' +
    'peak RSS said', async () => {
    // The mock's default port held meanwhile, as another mock on the machine holds it: the script picks a free one.
    const squatter = await holdPort(4010);
    const { code, out } = await run(['--servers', '2000', '--favicon-bytes', '4096']).finally(() => squatter?.close());
    expect(code, out).toBe(0);
    const figures = JSON.parse(out.split('\n').find((l) => l.startsWith('{'))!) as Record<string, unknown>;
    expect(figures).toMatchObject({
      servers: 2000,
      rows: 2000,
      exitCode: 0,
      reports: 4,
      recordedServers: 2000,
      statuses: { 200: 4 },
    });
    expect(figures.recordingMiB as number).toBeGreaterThan((2000 * 4096 * (4 / 3)) / 2 ** 20);
    expect(figures.proxyPeakRssMiB as number).toBeGreaterThan(0);
  }, 120_000);
});
