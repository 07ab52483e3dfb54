// The controls over HTTP, through the app: overrides posted, listed, used up and removed;
// the journal as JSON or as the page; both cleared by /__mock/reset; refused to a page
// whose origin CORS refuses.
import { describe, expect, it, vi } from 'vitest';
import { authHeaders, credential, expectError, json, useApp } from '../../testing/test-app.ts';
import { FAULT_HEADER } from '../overrides/transport.ts';

const post = (m: ReturnType<typeof useApp>, body: unknown, headers: Record<string, string> = {}) =>
  m.fetch(`${m.origin()}/__mock/overrides`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('/__mock/overrides', () => {
  it('takes one override or a list, answers them with ids, lists them newest first with their use', async () => {
    const m = useApp();
    const created = await post(m, [
      { operationId: 'findServers', status: 500, times: 1 },
      { method: 'GET', path: '/metadata/regions', delay: 1 },
    ]);
    expect(created.status).toBe(201);
    expect((await json(created)).overrides.map((o: { id: number }) => o.id)).toEqual([1, 2]);
    expect((await m.fetch(m.url('/servers/find'))).status).toBe(500);
    expect((await m.fetch(m.url('/servers/find'))).status).toBe(200);
    const listed = await json(await m.fetch(`${m.origin()}/__mock/overrides`));
    expect(listed.overrides).toEqual([
      { id: 2, method: 'GET', path: '/metadata/regions', delay: 1, used: 0, remaining: null },
      { id: 1, operationId: 'findServers', status: 500, times: 1, used: 1, remaining: 0 },
    ]);
    expect((await m.fetch(`${m.origin()}/__mock/overrides/2`, { method: 'DELETE' })).status).toBe(200);
    await expectError(
      await m.fetch(`${m.origin()}/__mock/overrides/2`, { method: 'DELETE' }),
      404,
      /no override with id '2'/,
    );
    expect(await json(await m.fetch(`${m.origin()}/__mock/overrides`, { method: 'DELETE' }))).toEqual({
      success: true,
      removed: 1,
    });
  });

  it('refuses a bad override with 400 naming every problem, and adds none of a list with one bad', async () => {
    const m = useApp();
    await expectError(
      await post(m, [
        { operationId: 'findServers', status: 500 },
        { operationId: 'findServer', status: 500 },
      ]),
      400,
      /^Bad Request: \[1\] operationId "findServer" is not an operation of the spec: did you mean 'findServers'\?$/,
    );
    await expectError(
      await m.fetch(`${m.origin()}/__mock/overrides`, { method: 'POST', body: '{' }),
      400,
      /not valid JSON/,
    );
    expect((await json(await m.fetch(`${m.origin()}/__mock/overrides`))).overrides).toEqual([]);
  });

  it(
    'answers a declared example consistent with itself, ' + 'a 401 that passed auth, and only matching requests',
    async () => {
      const m = useApp();
      await post(m, [
        { operationId: 'findServers', example: 'empty', when: { query: { region: 'EU' } } },
        { operationId: 'listApiKeys', status: 401, times: 1 },
      ]);
      expect((await json(await m.fetch(m.url('/servers/find?region=EU')))).total).toBe(0);
      expect((await json(await m.fetch(m.url('/servers/find?region=NA')))).total).toBeGreaterThan(0);
      const key = authHeaders(credential('valid-key'));
      await expectError(
        await m.fetch(m.url('/user/apikeys'), { headers: key }),
        401,
        /^Unauthorized: Invalid API key or session$/,
      );
      expect((await m.fetch(m.url('/user/apikeys'), { headers: key })).status).toBe(200);
      // An override never gets a request past what the real service refuses first.
      expect((await m.fetch(m.url('/servers/find?region=EU&limit=abc'))).status).toBe(400);
      const [refused] = m.mock.control.requests({ status: 401 });
      expect(refused).toMatchObject({ refusedBy: 'override', override: { id: 2 } });
    },
  );

  it('marks an answer off the contract in a header, the journal and the log, and skips the self-check', async () => {
    const warn = vi.fn();
    const m = useApp({}, warn);
    await post(m, { operationId: 'findServers', body: { servers: [] }, offContract: 'the old v0 shape' });
    const res = await m.fetch(m.url('/servers/find'));
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ servers: [] });
    expect(res.headers.get('x-mock-off-contract')).toMatch(/^the old v0 shape: body must have property 'displayed'/);
    expect(m.mock.control.requests()[0]!.override?.offContract).toMatch(/^the old v0 shape/);
    expect(warn.mock.calls.join('\n')).toMatch(
      /override 1 answers GET \/api\/v0.1\/servers\/find with 200 off the contract/,
    );
  });

  it(
    'without a connection (app.request), a fault is an answer naming it; a rate with a seed takes the same ' +
      'requests every time',
    async () => {
      const m = useApp();
      await post(m, { operationId: 'listRegions', fault: 'reset', times: 1 });
      expect((await m.fetch(m.url('/metadata/regions'))).headers.get(FAULT_HEADER)).toBe('reset');
      const drawn = async () => {
        const app = useApp();
        await post(app, { fault: 'truncate', rate: 0.3, seed: 42 });
        const hit: number[] = [];
        for (let i = 0; i < 40; i++)
          if ((await app.fetch(app.url('/metadata/versions'))).headers.get(FAULT_HEADER)) hit.push(i);
        return hit;
      };
      const first = await drawn();
      expect(first.length).toBeGreaterThan(4);
      expect(first.length).toBeLessThan(24);
      expect(await drawn()).toEqual(first);
    },
  );

  it('is refused to a page whose origin CORS refuses (POST and DELETE)', async () => {
    const m = useApp({ corsOrigins: ['http://allowed.test'] });
    await expectError(
      await post(m, { operationId: 'findServers', status: 500 }, { Origin: 'http://evil.test' }),
      403,
      /not allowed by --cors-origin/,
    );
    await expectError(
      await m.fetch(`${m.origin()}/__mock/overrides`, { method: 'DELETE', headers: { Origin: 'http://evil.test' } }),
      403,
      /not allowed/,
    );
  });
});

describe('/__mock/requests', () => {
  it('answers JSON, or the page when a browser asks for HTML; a reset clears it and the overrides', async () => {
    const m = useApp();
    await m.fetch(m.url('/servers/find?limit=2'));
    await post(m, { operationId: 'findServers', status: 500 });
    const listed = await json(await m.fetch(`${m.origin()}/__mock/requests?operationId=findServers`));
    expect(listed.journal).toEqual({ size: 1000, dropped: 0 });
    expect(listed.requests.map((r: { request: { target: string } }) => r.request.target)).toEqual([
      '/api/v0.1/servers/find?limit=2',
    ]);
    const page = await m.fetch(`${m.origin()}/__mock/requests`, { headers: { Accept: 'text/html,application/json' } });
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('<title>Requests: server-listing-mock</title>');
    await m.fetch(`${m.origin()}/__mock/reset`, { method: 'POST' });
    expect((await json(await m.fetch(`${m.origin()}/__mock/requests`))).requests).toEqual([]);
    expect((await m.fetch(m.url('/servers/find'))).status).toBe(200);
  });
});
