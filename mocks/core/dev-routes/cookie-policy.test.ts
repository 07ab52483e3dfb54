// The dev-login cookie per page origin x mock origin: the attributes, and whether any
// browser keeps it over plain http. Over HTTP through /__mock/login too. What Chromium
// really does with each is checked in e2e/mock-cross-origin.browser.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isLoopbackHost, planLoginCookie, relationOf, siteOf } from './cookie-policy.ts';
import { json, useApp } from '../../testing/test-app.ts';

const LAX = 'Path=/; HttpOnly; SameSite=Lax';
const NONE = 'Path=/; HttpOnly; SameSite=None; Secure; Partitioned';
// Cross-site by our guess (no Sec-Fetch-Site): both, the browser keeps the one that works.
const BOTH = [NONE, LAX];

describe('sites, as browsers define them', () => {
  it('a site is the registrable domain (eTLD+1), or the host itself for IPs and single labels', () => {
    expect(siteOf('app.myproj.test')).toBe('myproj.test');
    expect(siteOf('a.b.example.co.uk')).toBe('example.co.uk');
    expect(siteOf('alice.github.io')).toBe('alice.github.io'); // a private suffix: each user is a site
    expect(siteOf('192.168.1.5')).toBe('192.168.1.5');
    expect(siteOf('localhost')).toBe('localhost');
    expect(siteOf('api')).toBe('api');
  });

  it('same-site is scheme + site; ports and subdomains do not count, IP addresses do', () => {
    const rel = (a: string, b: string) => relationOf(new URL(a), new URL(b));
    expect(rel('http://localhost:5173', 'http://localhost:4010')).toBe('same-site');
    expect(rel('http://app.myproj.test:5173', 'http://api.myproj.test:4010')).toBe('same-site');
    expect(rel('http://192.168.1.5:5173', 'http://192.168.1.5:4010')).toBe('same-site');
    expect(rel('http://192.168.1.5:5173', 'http://192.168.1.6:4010')).toBe('cross-site');
    expect(rel('http://localhost:5173', 'http://127.0.0.1:4010')).toBe('cross-site');
    expect(rel('https://app.myproj.test', 'http://api.myproj.test')).toBe('cross-site');
    expect(rel('http://web:3000', 'http://api:4010')).toBe('cross-site');
    expect(rel('http://localhost:4010', 'http://localhost:4010')).toBe('same-origin');
  });

  it('loopback hosts are trusted over plain http; LAN addresses and names are not', () => {
    for (const h of ['localhost', 'app.localhost', '127.0.0.1', '127.0.0.2', '[::1]'])
      expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['192.168.1.5', '10.0.0.2', 'api', 'api.myproj.test', '127.0.0.1.nip.io'])
      expect(isLoopbackHost(h), h).toBe(false);
  });
});

describe('the login cookie, page origin x mock origin', () => {
  const cases: [page: string | undefined, mock: string, attributes: string[], sticks: boolean][] = [
    [undefined, 'http://127.0.0.1:4010', [LAX], true], // curl, or a same-origin page
    ['http://localhost:5173', 'http://localhost:4010', [LAX], true],
    ['http://app.myproj.test:5173', 'http://api.myproj.test:4010', [LAX], true],
    ['http://192.168.1.5:5173', 'http://192.168.1.5:4010', [LAX], true],
    ['http://localhost:5173', 'http://127.0.0.1:4010', BOTH, true],
    ['http://192.168.1.5:5173', 'http://127.0.0.1:4010', BOTH, true],
    ['http://app.myproj.test:5173', 'https://api.other.test', [NONE, `${LAX}; Secure`], true],
    ['http://192.168.1.5:5173', 'http://192.168.1.6:4010', BOTH, false],
    ['http://localhost:5173', 'http://192.168.1.6:4010', BOTH, false],
    ['http://web:3000', 'http://api:4010', BOTH, false],
    ['http://app.myproj.test:5173', 'http://api.other.test:4010', BOTH, false],
  ];
  it.each(cases)('page %s -> mock %s', (page, mock, attributes, sticks) => {
    const plan = planLoginCookie({ pageOrigin: page, mockOrigin: mock });
    expect(plan.attributes).toEqual(attributes);
    expect(plan.sticks).toBe(sticks);
    if (!sticks) {
      expect(plan.problem!.why).toContain(new URL(mock).origin);
      expect(plan.problem!.fixes.join('\n')).toMatch(/one host[\s\S]*https[\s\S]*API key/);
    }
  });

  it("prefers the browser's own Sec-Fetch-Site when it sends one (to https and loopback URLs)", () => {
    // A page proxied by its dev server to a mock on 127.0.0.1 (Host rewritten): same origin to the browser.
    expect(
      planLoginCookie({
        pageOrigin: 'https://app.myproj.test',
        secFetchSite: 'same-origin',
        mockOrigin: 'http://127.0.0.1:4010',
      }).attributes,
    ).toEqual([LAX]);
    expect(
      planLoginCookie({
        pageOrigin: 'http://localhost:5173',
        secFetchSite: 'cross-site',
        mockOrigin: 'http://localhost:4010',
      }).attributes,
    ).toEqual([NONE]);
  });

  it('a garbage Origin is treated as no page origin', () => {
    expect(planLoginCookie({ pageOrigin: 'null', mockOrigin: 'http://127.0.0.1:4010' }).relation).toBe('no-origin');
    expect(planLoginCookie({ pageOrigin: '%%%', mockOrigin: 'http://127.0.0.1:4010' }).attributes).toEqual([LAX]);
  });
});

describe('POST /__mock/login says whether the cookie will stick', () => {
  const m = useApp({ corsOrigins: ['*'], allowedHosts: ['.myproj.test'] });
  afterEach(() => vi.restoreAllMocks());
  const login = (page: string, mock: string) =>
    m.fetch(`${mock}/__mock/login`, {
      method: 'POST',
      headers: { Origin: page, 'Content-Type': 'application/json' },
      body: '{}',
    });

  it('same site over http: Lax, sticks, nothing logged', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const res = await login('http://app.myproj.test:5173', 'http://api.myproj.test:4010');
    expect(res.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^sls_session=sess_test_\w+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=604800$/),
    ]);
    expect((await json(res)).cookie).toMatchObject({ name: 'sls_session', site: 'same-site', sticks: true });
    expect(warn).not.toHaveBeenCalled();
  });

  it('two non-loopback sites over http: the answer and the log say why and what to do', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const res = await login('http://192.168.1.5:5173', 'http://192.168.1.6:4010');
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.cookie).toMatchObject({ site: 'cross-site', sticks: false, attributes: BOTH });
    expect(
      res.headers.getSetCookie().map((c) => c.replace(/^sls_session=\w+; /, '').replace(/; Max-Age=\d+$/, '')),
    ).toEqual(BOTH);
    expect(body.warning).toMatch(/drop the session cookie/);
    expect(body.cookie.fixes.length).toBeGreaterThanOrEqual(3);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(
      /will not stick[\s\S]*192\.168\.1\.6[\s\S]*Fixes:[\s\S]*proxy[\s\S]*https[\s\S]*API key/,
    );
  });
});
