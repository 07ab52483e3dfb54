// mocks/README.md's Playwright recipe, with playwright-core and the system's Chromium: the
// fixture app's page (e2e/fixture-app/, plain HTML and JS served by this test) against the
// mock on its own port, steered and asked over HTTP as any e2e tool does it:
// POST /__mock/overrides, GET /__mock/requests, POST /__mock/reset. Then the journal's page
// at /__mock/requests in the browser: newest first, filtered, each entry's why and curl
// line; its screenshot is kept in reports/journal-page.png.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rowsAt, server } from '../mocks/dataset/server-builder.ts';
import { startMock, type RunningMock } from '../mocks/node/server.ts';
import { launchChromium } from '../testing/chromium.ts';
import { NOW } from '../testing/instants.ts';

const APP = new URL('./fixture-app/', import.meta.url);
let mock: RunningMock;
let site: Server;
let siteOrigin: string;
let browser: Browser;
let page: Page;

// Exactly these servers, as a Playwright suite gives them: a --data file (here written with the builder).
const data = join(mkdtempSync(join(tmpdir(), 'fixture-app-')), 'servers.json');
writeFileSync(
  data,
  JSON.stringify({
    servers: rowsAt(
      [
        server({ address: 'alpha.example.test', motd: 'Alpha SMP', region: 'EU' }),
        server({ address: 'beta.example.test', motd: 'Beta Creative', region: 'EU' }),
        server({ address: 'gamma.example.test', motd: 'Gamma', region: 'NA', country: 'Canada', country_code: 'CA' }),
      ],
      NOW,
    ),
  }),
);

// --- the recipe ---
const control = (path: string, body?: unknown) =>
  fetch(`${mock.origin}/__mock/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }).then((res) => res.json());
// Anything the page sent that the real service would not take as meant fails the test; then a clean slate.
async function expectNothingMisreadThenReset() {
  const { requests } = await control('requests?findings=true');
  expect(
    requests.flatMap((r: { request: { target: string }; findings: { why: string }[] }) =>
      r.findings.map((f) => `${r.request.target}: ${f.why}`),
    ),
  ).toEqual([]);
  await control('reset', {});
}
// --- end of the recipe ---

beforeAll(async () => {
  mock = await startMock({ port: 0, host: '127.0.0.1', selfCheck: true, now: NOW, data, cacheDir: null });
  site = createServer((req, res) => {
    const name = req.url === '/' ? 'index.html' : (req.url ?? '').slice(1);
    if (!['index.html', 'app.js', 'api.js'].includes(name)) return void res.writeHead(404).end();
    const text = readFileSync(new URL(name, APP), 'utf8').replace('__API__', mock.origin);
    res.writeHead(200, { 'Content-Type': name.endsWith('.js') ? 'text/javascript' : 'text/html' }).end(text);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  siteOrigin = `http://localhost:${(site.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  site?.close();
  await mock?.close();
});

async function open(): Promise<Page> {
  page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  await page.goto(siteOrigin);
  return page;
}

describe('the Playwright recipe: the fixture app against the mock process', () => {
  afterEach(expectNothingMisreadThenReset);

  it('shows exactly the servers given; what the UI sent when a filter changes is in the journal', async () => {
    const tab = await open();
    await expect.poll(() => tab.locator('#status').innerText()).toBe('3 servers, page 1');
    await tab.locator('#region').selectOption('NA');
    await expect
      .poll(() => tab.locator('#servers li').allInnerTexts())
      .toEqual(['gamma.example.test:25565: Gamma (0/20)']);
    const { requests } = await control('requests?operationId=findServers&limit=1');
    expect(requests[0].params.query).toMatchObject({ region: 'NA', page: 1, limit: 10 });
    expect(requests[0].request.headers.origin).toBe(siteOrigin);
    await tab.close();
  });

  it('a 500 once, then a reset connection: the page says each, and recovers', async () => {
    await control('overrides', { operationId: 'findServers', status: 500, times: 1 });
    const tab = await open();
    await expect
      .poll(() => tab.locator('#error').innerText())
      .toBe('Internal Server Error: the request could not be completed');
    // Until removed: a browser sends a GET again, once, when a kept-alive connection is reset.
    await control('overrides', { operationId: 'findServers', fault: 'reset' });
    await tab.locator('#next').click();
    await expect.poll(() => tab.locator('#error').innerText()).toMatch(/^The server cannot be reached/);
    await fetch(`${mock.origin}/__mock/overrides`, { method: 'DELETE' });
    await tab.locator('#next').click();
    await expect.poll(() => tab.locator('#status').innerText()).toBe('3 servers, page 3');
    await tab.close();
  });

  it('signs in with the dev login and lists the keys; a 401 once shows the sign-in prompt', async () => {
    const tab = await open();
    await expect.poll(() => tab.locator('#keys-status').innerText()).toBe('Sign in to see your keys.');
    await tab.locator('#login').click();
    await expect.poll(() => tab.locator('#keys-status').innerText()).toMatch(/^\d+ keys$/);
    await control('overrides', { operationId: 'listApiKeys', status: 401, times: 1 });
    await tab.reload();
    await expect.poll(() => tab.locator('#keys-status').innerText()).toBe('Sign in to see your keys.');
    await tab.close();
  });
});

describe('the journal page at /__mock/requests', () => {
  // This page's test sends a misread parameter on purpose, to show its finding.
  afterEach(() => control('reset', {}));

  it(
    'lists the requests newest first with their why and ' + 'a curl line, live, filtered by operation and status',
    async () => {
      await fetch(`${mock.baseUrl}/servers/find?region=EU&sortBy=users`);
      await fetch(`${mock.baseUrl}/user/apikeys`);
      const { overrides } = await control('overrides', { operationId: 'listRegions', status: 500, times: 1 });
      await fetch(`${mock.baseUrl}/metadata/regions`);
      const tab = await browser.newPage({ viewport: { width: 1200, height: 760 } });
      await tab.goto(`${mock.origin}/__mock/requests`);
      const entries = tab.locator('li.entry');
      await expect.poll(() => entries.count()).toBe(3);
      expect(await entries.nth(0).locator('.target').innerText()).toBe('/api/v0.1/metadata/regions');
      expect(await entries.nth(0).locator('.override').innerText()).toBe(`override ${overrides[0].id}`);
      expect(await entries.nth(1).locator('.refused').innerText()).toBe(
        'refused by auth: Unauthorized: Invalid API key or session',
      );
      expect(await entries.nth(2).locator('.finding').innerText()).toBe(
        "unknown-parameter: 'sortBy' is not a parameter of findServers; the real service ignores it (did you " +
          "mean 'sort'?)",
      );
      expect(await entries.nth(2).locator('.curl').innerText()).toBe(
        `curl '${mock.baseUrl}/servers/find?region=EU&sortBy=users'`,
      );
      // Live: a request made now appears at the top without a reload.
      await fetch(`${mock.baseUrl}/servers/find?limit=1`);
      await expect.poll(() => entries.nth(0).locator('.target').innerText()).toBe('/api/v0.1/servers/find?limit=1');
      mkdirSync('reports', { recursive: true });
      await tab.screenshot({ path: 'reports/journal-page.png', fullPage: true });
      await tab.locator('#status').fill('4xx');
      await expect.poll(() => entries.count()).toBe(1);
      await tab.locator('#status').fill('');
      await tab.locator('#op').selectOption('findServers');
      await expect.poll(() => entries.count()).toBe(2);
      await tab.close();
    },
  );
});
