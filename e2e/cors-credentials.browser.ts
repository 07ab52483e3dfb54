// The CORS contract (the spec's x-cors) as a browser holds a server to it: a page on
// another 127.0.0.1 port, an origin x-cors allows, calls each target with
// `fetch(url, { credentials: 'include' })`, as the web frontend does: a search, whose
// X-RateLimit-Remaining it reads; the key list with an API key (a preflight asks first);
// a revocation (DELETE: a preflight asks for it). The mock and the correct reference
// server must let it do all three; each CORS defect of the reference server must break
// what the cors judge says it breaks, in the browser itself. Run by `npm run test:browser`;
// the screenshot is kept in reports/cors-browser.png.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixtures } from '../fixtures/load.ts';
import type { Defect } from '../contract-tests/reference-server/defects.ts';
import { startReferenceServer, type RunningServer } from '../contract-tests/reference-server/socket.ts';
import { startMock, type RunningMock } from '../mocks/node/server.ts';
import { launchChromium } from '../testing/chromium.ts';

const KEY = loadFixtures().credentials.find((c) => c.name === 'valid-key')!.value;

// Every target in turn; each step's status and what the page could read, or the error
// fetch threw (a CORS refusal is a TypeError, whatever the server answered).
const PAGE = `<!doctype html><meta charset="utf-8"><title>CORS from a page</title>
<style>body{font:14px system-ui;margin:16px}td,th{border:1px solid #999;padding:4px 8px;text-align:left}
table{border-collapse:collapse}.bad{background:#fdd}.ok{background:#dfd}</style>
<h1>fetch(url, { credentials: 'include' }) from <span id="origin"></span></h1>
<table id="view"><tr><th>target</th><th>search: X-RateLimit-Remaining</th>
<th>key list (Authorization)</th><th>DELETE a key</th></tr></table>
<pre id="out">pending</pre><script>
(async () => {
  document.getElementById('origin').textContent = location.origin;
  const targets = JSON.parse(new URLSearchParams(location.search).get('targets'));
  const auth = { Authorization: 'Bearer ${KEY}' };
  const out = {};
  const step = async (api, path, init, read) => {
    try {
      const res = await fetch(api + path, { credentials: 'include', ...init });
      return { status: res.status, ...read(res) };
    } catch (e) { return { error: String(e) }; }
  };
  for (const [name, api] of Object.entries(targets)) {
    const remaining = (r) => ({ remaining: r.headers.get('X-RateLimit-Remaining') });
    const find = await step(api, '/servers/find?limit=2', {}, remaining);
    const keys = await step(api, '/user/apikeys', { headers: auth }, () => ({}));
    const revoke = await step(api, '/user/apikeys/key_0123456789ab', { method: 'DELETE', headers: auth }, () => ({}));
    out[name] = { find, keys, revoke };
    const cell = (s, text) => '<td class="' + (s.error || text === null ? 'bad' : 'ok') + '">' +
      (s.error || (s.status + ' ' + (text ?? '(unreadable)'))) + '</td>';
    document.getElementById('view').insertAdjacentHTML('beforeend', '<tr><td>' + name + '</td>' +
      cell(find, find.remaining) + cell(keys, '') + cell(revoke, '') + '</tr>');
  }
  document.getElementById('out').textContent = JSON.stringify(out);
})();
</script>`;

const DEFECTS: Defect[] = ['cors-wildcard-with-credentials', 'cors-no-expose-headers', 'cors-preflight-missing-method'];

let mock: RunningMock;
const references: Record<string, RunningServer> = {};
let page: Server;
let pageOrigin: string;
let browser: Browser;
let steps: Record<
  string,
  Record<'find' | 'keys' | 'revoke', { status?: number; remaining?: string | null; error?: string }>
>;

beforeAll(async () => {
  mock = await startMock({ port: 0, host: '127.0.0.1', servers: 50, quiet: true });
  for (const d of ['none', ...DEFECTS] as Defect[]) references[d] = await startReferenceServer(d);
  page = createServer((_req, res) => void res.writeHead(200, { 'Content-Type': 'text/html' }).end(PAGE));
  await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
  pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  browser = await launchChromium();
  const tab: Page = await browser.newPage({ viewport: { width: 1280, height: 480 } });
  const targets = {
    mock: `${mock.origin}/api/v0.1`,
    ...Object.fromEntries(Object.entries(references).map(([d, s]) => [`reference ${d}`, s.baseUrl])),
  };
  await tab.goto(`${pageOrigin}/?targets=${encodeURIComponent(JSON.stringify(targets))}`);
  await tab.waitForFunction("document.getElementById('out').textContent !== 'pending'", null, { timeout: 60_000 });
  steps = JSON.parse(await tab.locator('#out').innerText());
  mkdirSync('reports', { recursive: true });
  await tab.screenshot({ path: 'reports/cors-browser.png' });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await mock?.close();
  for (const s of Object.values(references)) await s.close();
  page?.close();
});

describe('a page on another 127.0.0.1 port, with credentials included', () => {
  for (const target of ['mock', 'reference none']) {
    it(`${target}: searches and reads X-RateLimit-Remaining, lists keys, asks to revoke one`, () => {
      const { find, keys, revoke } = steps[target]!;
      expect(find.status).toBe(200);
      expect(find.remaining, 'exposed through Access-Control-Expose-Headers').toMatch(/^\d+$/);
      expect(keys.status, 'the preflight for Authorization passed').toBe(200);
      // Whatever the answer (no such key), the page could read it: the preflight for DELETE passed.
      expect(revoke.status).toBe(404);
    });
  }

  it('Access-Control-Allow-Origin: * with credentials: the browser refuses every call', () => {
    const { find, keys, revoke } = steps['reference cors-wildcard-with-credentials']!;
    for (const s of [find, keys, revoke]) expect(s.error).toMatch(/TypeError: Failed to fetch/);
  });

  it('no Access-Control-Expose-Headers: the answer is read, X-RateLimit-Remaining is not', () => {
    const { find, keys } = steps['reference cors-no-expose-headers']!;
    expect(find.status).toBe(200);
    expect(find.remaining).toBeNull();
    expect(keys.status).toBe(200);
  });

  it('a preflight that leaves out DELETE: the revocation never leaves the browser; the rest works', () => {
    const { find, keys, revoke } = steps['reference cors-preflight-missing-method']!;
    expect(find.remaining).toMatch(/^\d+$/);
    expect(keys.status).toBe(200);
    expect(revoke.error).toMatch(/TypeError: Failed to fetch/);
  });
});
