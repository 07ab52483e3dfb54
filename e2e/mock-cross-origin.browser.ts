// A real browser on another origin, as frontend developers use the mock: headless
// Chromium loads a page that logs in through /__mock/login and calls protected
// endpoints with `fetch(url, { credentials: 'include' })`, for each page origin x mock
// origin of the cookie table in mocks/README.md. Run by `npm run test:browser`.
//
// How the origins are made on one machine: `*.myproj.test` and `*.other.test` resolve
// to 127.0.0.1 (--host-resolver-rules), so they are non-loopback *names* to Chromium
// (no Secure cookie over http, like a LAN name or a docker-compose service), while the
// sockets stay on loopback. Real LAN IP addresses cannot be made here: 127.0.0.2 is
// still loopback, so it stands in for an IP only where the same-site rule is tested.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchChromium } from '../testing/chromium.ts';
import { parseCorsOrigins } from '../mocks/core/cors/cors-policy.ts';
import { DEFAULT_OPTIONS } from '../mocks/node/options.ts';
import { startMock, type RunningMock } from '../mocks/node/server.ts';

// The page reports every step as JSON in <pre id="out">. The login is a simple request
// (a text body, no preflight), as a form or a careless fetch would send it.
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
  await call('login', '/__mock/login', { method: 'POST', body: JSON.stringify({ user: 'alice@example.test' }) });
  await call('list', '/api/v0.1/user/apikeys');
  const created = { method: 'POST', headers: json, body: JSON.stringify({ name: 'from-browser' }) };
  await call('create', '/api/v0.1/user/apikeys', created);
  await call('find', '/api/v0.1/servers/find?limit=2');
  await call('logout', '/__mock/logout', { method: 'POST' });
  await call('after', '/api/v0.1/user/apikeys');
  document.getElementById('out').textContent = JSON.stringify(steps);
})();
</script>`;

const RESOLVE = '--host-resolver-rules=MAP *.myproj.test 127.0.0.1, MAP *.other.test 127.0.0.1';

let mock: RunningMock;
let mockPort: string;
let page: Server;
let pagePort: number;
let browser: Browser;
const warnings: string[] = [];

beforeAll(async () => {
  vi.spyOn(console, 'warn').mockImplementation((line: string) => void warnings.push(String(line)));
  const corsOrigins = parseCorsOrigins(
    '+http://*.myproj.test:*,+http://*.other.test:*,+http://127.0.0.2:*',
    DEFAULT_OPTIONS.corsOrigins,
  );
  // The names made with --host-resolver-rules are names the mock is called by:
  // it answers them only when told (--allowed-host).
  mock = await startMock({
    port: 0,
    host: '127.0.0.1',
    selfCheck: true,
    servers: 50,
    corsOrigins,
    allowedHosts: ['.myproj.test', '.other.test'],
  });
  mockPort = new URL(mock.origin).port;
  // The page, and a proxy of /api and /__mock to the mock as a frontend dev server's
  // proxy does it (Vite's `changeOrigin: true`: the Host header becomes the mock's).
  page = createServer((req, res) => {
    if (!/^\/(api|__mock)\//.test(req.url ?? ''))
      return void res.writeHead(200, { 'Content-Type': 'text/html' }).end(PAGE);
    const upstream = httpRequest(
      `${mock.origin}${req.url}`,
      { method: req.method, headers: { ...req.headers, host: new URL(mock.origin).host } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  // Every loopback address, so the page can also be on 127.0.0.2.
  await new Promise<void>((r) => page.listen(0, '0.0.0.0', r));
  pagePort = (page.address() as AddressInfo).port;
  browser = await launchChromium([RESOLVE]);
});

afterAll(async () => {
  vi.restoreAllMocks();
  await browser?.close();
  await mock?.close();
  page?.close();
});

afterEach(() => void (warnings.length = 0));

async function runPage(b: Browser, pageHost: string, api: string): Promise<Record<string, any>> {
  const context = await b.newContext();
  try {
    const tab = await context.newPage();
    await tab.goto(`http://${pageHost}:${pagePort}/?api=${encodeURIComponent(api)}`);
    const out = tab.locator('#out');
    await expect.poll(() => out.innerText(), { timeout: 30_000 }).not.toBe('pending');
    return JSON.parse(await out.innerText());
  } finally {
    await context.close();
  }
}

function expectLoggedInFlow(steps: Record<string, any>) {
  expect(steps.login.status).toBe(200);
  expect(steps.login.body.cookie.sticks).toBe(true);
  expect(steps.list.status, 'the protected call carries the cookie').toBe(200);
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

/** Login answers 200 but says the cookie will not stick, and the browser indeed drops it. */
function expectCookieDropped(steps: Record<string, any>) {
  expect(steps.login.status).toBe(200);
  expect(steps.login.body.cookie).toMatchObject({ site: 'cross-site', sticks: false });
  expect(steps.login.body.warning).toMatch(/drop the session cookie/);
  expect(steps.list.status, 'the browser dropped the cookie').toBe(401);
  expect(steps.find.status).toBe(200);
  expect(warnings.join('\n')).toMatch(/will not stick[\s\S]*Fixes:/);
}

describe('the dev-login cookie, page origin x mock origin, over plain http', () => {
  it('same host, other port (localhost -> localhost): Lax, works', async () => {
    const steps = await runPage(browser, 'localhost', `http://localhost:${mockPort}`);
    expect(steps.login.body.cookie.attributes).toEqual(['Path=/; HttpOnly; SameSite=Lax']);
    expectLoggedInFlow(steps);
  });

  it('same host, a non-loopback name (app.myproj.test -> app.myproj.test): Lax, works', async () => {
    const steps = await runPage(browser, 'app.myproj.test', `http://app.myproj.test:${mockPort}`);
    expect(steps.login.body.cookie.attributes).toEqual(['Path=/; HttpOnly; SameSite=Lax']);
    expectLoggedInFlow(steps);
  });

  it('same site, other hosts (app.myproj.test -> api.myproj.test): Lax, works', async () => {
    const steps = await runPage(browser, 'app.myproj.test', `http://api.myproj.test:${mockPort}`);
    expect(steps.login.body.cookie).toMatchObject({ site: 'same-site' });
    expectLoggedInFlow(steps);
  });

  it('cross site, mock on loopback (localhost -> 127.0.0.1): SameSite=None; Secure; Partitioned, works', async () => {
    const steps = await runPage(browser, 'localhost', mock.origin);
    expect(steps.login.body.cookie.attributes).toEqual(['Path=/; HttpOnly; SameSite=None; Secure; Partitioned']);
    expectLoggedInFlow(steps);
  });

  it(
    'cross site, two IP addresses (127.0.0.2 -> 127.0.0.1): ' + 'partitioned, works because both are loopback',
    async () => {
      const steps = await runPage(browser, '127.0.0.2', mock.origin);
      expect(steps.login.body.cookie).toMatchObject({ site: 'cross-site', sticks: true });
      expectLoggedInFlow(steps);
    },
  );

  it('cross site, page on a non-loopback name, mock on loopback (app.myproj.test -> 127.0.0.1): works', async () => {
    expectLoggedInFlow(await runPage(browser, 'app.myproj.test', mock.origin));
  });

  it(
    'cross site, mock on a non-loopback name (app.myproj.test -> api.other.test): cannot work; the answer and ' +
      'the log say why',
    async () => {
      expectCookieDropped(await runPage(browser, 'app.myproj.test', `http://api.other.test:${mockPort}`));
    },
  );

  it(
    'cross site, page on loopback, mock on a non-loopback name (localhost -> api.other.test): cannot work ' + 'either',
    async () => {
      expectCookieDropped(await runPage(browser, 'localhost', `http://api.other.test:${mockPort}`));
    },
  );

  it(
    "the fix: the page's dev server proxies /api and " + '/__mock (rewriting Host), so a non-loopback page works',
    async () => {
      // The page server is also the "dev server proxy" here: same origin for the browser.
      const steps = await runPage(browser, 'app.other.test', `http://app.other.test:${pagePort}`);
      // The mock sees Origin app.other.test and Host 127.0.0.1, and no Sec-Fetch-Site (not sent
      // to an http page's own origin): it cannot tell a proxy, so it sends a Lax copy too,
      // which is the one the browser keeps.
      expect(steps.login.body.cookie.attributes).toContain('Path=/; HttpOnly; SameSite=Lax');
      expectLoggedInFlow(steps);
    },
  );

  it("Chromium's --unsafely-treat-insecure-origin-as-secure does not help: the cookie is still dropped", async () => {
    const api = `http://api.other.test:${mockPort}`;
    const flagged = await launchChromium([RESOLVE, `--unsafely-treat-insecure-origin-as-secure=${api}`]);
    try {
      expectCookieDropped(await runPage(flagged, 'app.myproj.test', api));
    } finally {
      await flagged.close();
    }
  });
});

describe('a page on an origin --cors-origin refuses', () => {
  it('cannot read answers, cannot log in (403, no session made), and the log names the fix', async () => {
    const foreign = await startMock({ port: 0, corsOrigins: ['http://allowed.example.test'], servers: 10 });
    const create = vi.spyOn(foreign.mock.state.sessions, 'create');
    try {
      const steps = await runPage(browser, 'localhost', foreign.origin);
      expect(steps.login.error).toMatch(/TypeError|Failed to fetch/);
      expect(steps.find.error).toMatch(/TypeError|Failed to fetch/);
      expect(create).not.toHaveBeenCalled();
      expect(warnings.join('\n')).toContain(`refused origin http://localhost:${pagePort}`);
      expect(warnings.join('\n')).toContain(`--cors-origin +http://localhost:${pagePort}`);
    } finally {
      await foreign.close();
    }
  });
});
