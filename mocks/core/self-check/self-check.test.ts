// The mock refuses to drift from the spec under test. createApp takes its handlers as
// a parameter, so a test hands it deliberately broken ones (no monkeypatching) and
// drives the environment-neutral app with `app.request()`, as any runtime adapter would.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../app.ts';
import { loadInputs } from '../../node/load.ts';
import { createHandlers, type Handler, type Handlers } from '../handlers/handlers.ts';
import { MockState } from '../state.ts';
import { ResponseChecker } from './self-check.ts';
import { testOptions } from '../../testing/test-app.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

const options = testOptions({ servers: 50 });
const inputs = loadInputs(options);
const honest = createHandlers(inputs.model);

function mock(selfCheck: boolean, replaced: Partial<Handlers> = {}) {
  const handlers = { ...honest, ...replaced } as Handlers;
  return createApp({ options: { ...options, selfCheck }, state: new MockState(inputs, options.now), handlers }).app;
}

describe('self-check', () => {
  it('answers 500 and logs loudly when a handler breaks the schema', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const app = mock(true, {
      listRegions: (() => ({ status: 200, body: { unique_regions: '7', regions: [] } })) as Handler,
    });
    const res = await app.request('/api/v0.1/metadata/regions');
    expect(res.status).toBe(500);
    const body = (await res.json()) as { success: boolean; message: string };
    expect(body.success).toBe(false);
    expect(body.message).toMatch(
      /drifted from the spec: body must have property 'total_servers'; body\.unique_regions must be integer/,
    );
    expect(errors).toHaveBeenCalledWith(
      expect.stringMatching(/^MOCK DRIFT: GET \/api\/v0\.1\/metadata\/regions -> 200/),
    );
  });

  it('catches a drift in the pre-serialised search answer and an undeclared status', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const app = mock(true, {
      findServers: (() => ({ status: 200, json: '{"displayed":1,"total":1,"results":[{"port":"x"}]}' })) as Handler,
      listVersions: (() => ({ status: 418, body: { success: false, message: 'teapot' } })) as Handler,
    });
    const find = await app.request('/api/v0.1/servers/find');
    expect(find.status).toBe(500);
    expect(((await find.json()) as { message: string }).message).toContain('body.results.0.port must be integer');
    const versions = await app.request('/api/v0.1/metadata/versions');
    expect(((await versions.json()) as { message: string }).message).toContain(
      'listVersions does not declare a 418 response',
    );
  });

  it('passes honest answers through untouched, and is off outside tests unless asked', async () => {
    const res = await mock(true).request('/api/v0.1/metadata/regions');
    expect(res.status).toBe(200);
    const drifted = { listRegions: (() => ({ status: 200, body: { drifted: true } })) as Handler };
    expect((await mock(false, drifted).request('/api/v0.1/metadata/regions')).status).toBe(200);
  });

  it("holds an answer written before routing (the host check's 403) to what the operation declares", async () => {
    const checker = new ResponseChecker(inputs.model);
    const keys = { method: 'GET', path: '/api/v0.1/user/apikeys' };
    const off = { success: false, message: "Forbidden: the mock does not answer the host 'evil.test'" };
    expect(checker.check(undefined, 403, off, keys)).toMatch(
      /body\.message must match pattern "\^Forbidden: You don't/,
    );
    // Where the operation declares no 403 (or there is no operation), the error body is the rule.
    expect(checker.check(undefined, 403, off, { method: 'GET', path: '/api/v0.1/servers/find' })).toBeUndefined();
    expect(checker.check(undefined, 403, off, { method: 'POST', path: '/__mock/reset' })).toBeUndefined();
    // What the mock answers a refused host, self-checked: the promised sentence first.
    const res = await mock(true).request('http://evil.test/api/v0.1/user/apikeys');
    expect(res.status).toBe(403);
    const body = (await res.json()) as { message: string };
    expect(checker.check(undefined, 403, body, keys)).toBeUndefined();
    expect(body.message).toMatch(/^Forbidden: You don't have permission to access this resource\. The mock does not/);
  });

  it('refuses to build an app missing a handler for an operation of the spec', () => {
    const { listRegions: _dropped, ...rest } = honest;
    expect(() => createApp({ options, state: new MockState(inputs, options.now), handlers: rest })).toThrow(
      "no handler for operationId 'listRegions'",
    );
  });
});
