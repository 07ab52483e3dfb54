// A real browser on another origin, as frontend developers use the mock: headless
// Chromium loads a page that logs in through /__mock/login and calls protected
// endpoints with `fetch(url, { credentials: 'include' })`. Run by
// `npm run test:browser` (needs Debian's chromium; CI installs it).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from './server.ts';

const run = promisify(execFile);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// The page reports every step as JSON in <pre id="out">.
const PAGE = `<!doctype html><pre id="out">pending</pre><script>
(async () => {
  const api = new URLSearchParams(location.search).get('api');
  const steps = {};
  const call = async (name, path, init = {}) => {
    try {
      const res = await fetch(api + path, { credentials: 'include', ...init });
      steps[name] = { status: res.status, remaining: res.headers.get('X-RateLimit-Remaining'), body: await res.json() };
    } catch (e) { steps[name] = { error: String(e) }; }
  };
  const json = { 'Content-Type': 'application/json' };
  await call('login', '/__mock/login', { method: 'POST', headers: json, body: JSON.stringify({ user: 'alice@example.test' }) });
  await call('list', '/api/v0.1/user/apikeys');
  await call('create', '/api/v0.1/user/apikeys', { method: 'POST', headers: json, body: JSON.stringify({ name: 'from-browser' }) });
  await call('find', '/api/v0.1/servers/find?limit=2');
  await call('logout', '/__mock/logout', { method: 'POST' });
  await call('after', '/api/v0.1/user/apikeys');
  document.getElementById('out').textContent = JSON.stringify(steps);
})();
</script>`;

let mock: RunningMock;
let page: Server;
let pagePort: number;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`);
  mock = await startMock({ port: 0, host: '127.0.0.1', selfCheck: true, servers: 50 });
  page = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(PAGE));
  await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
  pagePort = (page.address() as AddressInfo).port;
});

afterAll(async () => {
  await mock?.close();
  page?.close();
});

async function runPage(pageOrigin: string, apiOrigin: string): Promise<Record<string, any>> {
  const profile = mkdtempSync(join(tmpdir(), 'slm-chromium-'));
  try {
    const { stdout } = await run(CHROMIUM, [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      `--user-data-dir=${profile}`, '--virtual-time-budget=10000', '--dump-dom',
      `${pageOrigin}/?api=${encodeURIComponent(apiOrigin)}`,
    ], { timeout: 60_000 });
    const out = /<pre id="out">([^<]*)<\/pre>/.exec(stdout)?.[1];
    if (!out || out === 'pending') throw new Error(`the page did not finish: ${stdout.slice(0, 500)}`);
    return JSON.parse(out.replace(/&quot;/g, '"').replace(/&amp;/g, '&'));
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

function expectLoggedInFlow(steps: Record<string, any>) {
  expect(steps.login.status).toBe(200);
  expect(steps.list.status).toBe(200);
  expect(steps.list.body.success).toBe(true);
  expect(steps.create.status).toBe(201);
  expect(steps.create.body.key.secret).toMatch(/^sls_test_/);
  expect(steps.find.status).toBe(200);
  // Exposed to scripts through Access-Control-Expose-Headers.
  expect(steps.find.remaining).toMatch(/^\d+$/);
  expect(steps.logout.status).toBe(200);
  expect(steps.after.status).toBe(401);
  expect(steps.after.body).toEqual({ success: false, message: 'Unauthorized: Invalid API key or session' });
}

describe('a browser app on another origin', () => {
  it('same site, other port (localhost:page -> localhost:mock): logs in and uses the session cookie', async () => {
    const port = new URL(mock.origin).port;
    expectLoggedInFlow(await runPage(`http://localhost:${pagePort}`, `http://localhost:${port}`));
  });

  it('cross site (localhost page -> 127.0.0.1 mock): the partitioned cookie still works', async () => {
    expectLoggedInFlow(await runPage(`http://localhost:${pagePort}`, mock.origin));
  });

  it('a foreign origin cannot read answers', async () => {
    const foreign = await startMock({ port: 0, corsOrigins: ['http://allowed.example.test'], servers: 10 });
    try {
      const steps = await runPage(`http://localhost:${pagePort}`, foreign.origin);
      expect(steps.login.error).toMatch(/TypeError|Failed to fetch/);
    } finally {
      await foreign.close();
    }
  });
});
