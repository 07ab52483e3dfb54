// Prism's validation proxy in front of the mock reports nothing; in front of a server
// with a wrong type it reports the violation in its log.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, test } from 'vitest';
import { startReferenceServer } from '../contract-tests/reference-server/socket.ts';
import { prismArgs } from '../contract-tests/prism/proxy.ts';
import { loadSpec } from '../spec/load.ts';
import { freePort, mockOnSocket, stop, waitForHttp } from './helpers.ts';

const children: ChildProcess[] = [];
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(children.map(stop));
  await Promise.all(closers.map((c) => c()));
});

async function proxy(upstream: string): Promise<{ origin: string; log: () => string }> {
  const port = await freePort();
  const child = spawn(process.execPath, prismArgs(upstream, port), { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const origin = `http://127.0.0.1:${port}`;
  await waitForHttp(`${origin}/metadata/regions`);
  return { origin, log: () => log };
}

async function get(url: string): Promise<number> {
  const res = await fetch(url);
  await res.text();
  return res.status;
}

/** An upstream that answers /servers/find with the spec's "gaps" row, its region replaced by `?as=`. */
async function gapsUpstream(): Promise<string> {
  const doc = loadSpec();
  const gaps = doc.paths['/servers/find']!.get.responses['200'].content['application/json'].examples.gaps.value;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const region = url.searchParams.get('as');
    // proxy() waits for /metadata/regions: answer it validly.
    const body = url.pathname.endsWith('/metadata/regions')
      ? { unique_regions: 0, total_servers: 0, regions: [] }
      : { ...gaps, results: [{ ...gaps.results[0], region: region ?? null }] };
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => server.close(() => r())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe.concurrent('Prism validation proxy', () => {
  test('reads the nullable $ref as the spec means it: null and EU pass, XX is a violation', async ({ expect }) => {
    const p = await proxy(await gapsUpstream());
    expect(await get(`${p.origin}/servers/find`)).toBe(200);
    expect(await get(`${p.origin}/servers/find?as=EU`)).toBe(200);
    await new Promise((r) => setTimeout(r, 300)); // let the log flush
    expect(p.log()).not.toMatch(/Violation/);
    expect(await get(`${p.origin}/servers/find?as=XX`)).toBe(200);
    await expect.poll(() => p.log(), { timeout: 10_000 }).toMatch(/Violation: response\.body\.results\.0\.region/);
  }, 90_000);

  test('in front of the mock: answers pass through, no violation', async ({ expect }) => {
    const mock = await mockOnSocket();
    closers.push(() => mock.close());
    const p = await proxy(mock.baseUrl);
    expect(await get(`${p.origin}/servers/find?limit=3`)).toBe(200);
    expect(await get(`${p.origin}/metadata/versions?limit=5`)).toBe(200);
    await new Promise((r) => setTimeout(r, 300)); // let the log flush
    expect(p.log()).not.toMatch(/Violation/);
  }, 90_000);

  test('in front of a broken server: the violation is logged', async ({ expect }) => {
    const broken = await startReferenceServer('wrong-type');
    closers.push(() => broken.close());
    const p = await proxy(broken.baseUrl);
    expect(await get(`${p.origin}/servers/find?limit=3`)).toBe(200);
    await expect
      .poll(() => p.log(), { timeout: 10_000 })
      .toMatch(/Violation: response\.body\.results\.0\.port .*must be integer/);
  }, 90_000);
});
