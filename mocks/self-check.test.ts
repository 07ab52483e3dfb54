// The mock refuses to drift from the spec under test. Uses the environment-neutral
// app directly (`app.request()`, no socket), as any runtime adapter would.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from './app.ts';
import { handlers, type Handler } from './handlers.ts';
import { DEFAULT_OPTIONS } from './options.ts';

const original = { ...handlers };
afterEach(() => {
  Object.assign(handlers, original);
  vi.restoreAllMocks();
});

function mock(selfCheck: boolean) {
  return createApp({ ...DEFAULT_OPTIONS, servers: 50, quiet: true, selfCheck, now: Date.parse('2026-06-01T00:00:00Z') }).app;
}

describe('self-check', () => {
  it('answers 500 and logs loudly when a handler breaks the schema', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    handlers.listRegions = (() => ({ status: 200, body: { unique_regions: '7', regions: [] } })) as Handler;
    const res = await mock(true).request('/api/v0.1/metadata/regions');
    expect(res.status).toBe(500);
    const body = (await res.json()) as { success: boolean; message: string };
    expect(body.success).toBe(false);
    expect(body.message).toMatch(/drifted from the spec: body must have property 'total_servers'; body\.unique_regions must be integer/);
    expect(errors).toHaveBeenCalledWith(expect.stringMatching(/^MOCK DRIFT: GET \/api\/v0\.1\/metadata\/regions -> 200/));
  });

  it('catches a drift in the pre-serialised search answer and an undeclared status', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    handlers.findServers = (() => ({ status: 200, json: '{"displayed":1,"total":1,"results":[{"port":"x"}]}' })) as Handler;
    handlers.listVersions = (() => ({ status: 418, body: { success: false, message: 'teapot' } })) as Handler;
    const app = mock(true);
    const find = await app.request('/api/v0.1/servers/find');
    expect(find.status).toBe(500);
    expect(((await find.json()) as { message: string }).message).toContain('body.results.0.port must be integer');
    const versions = await app.request('/api/v0.1/metadata/versions');
    expect(((await versions.json()) as { message: string }).message).toContain('listVersions does not declare a 418 response');
  });

  it('passes honest answers through untouched, and is off outside tests unless asked', async () => {
    const res = await mock(true).request('/api/v0.1/metadata/regions');
    expect(res.status).toBe(200);
    handlers.listRegions = (() => ({ status: 200, body: { drifted: true } })) as Handler;
    expect((await mock(false).request('/api/v0.1/metadata/regions')).status).toBe(200);
  });
});
