// The recipes of mocks/README.md ("In your unit tests, without a server"), run as a
// frontend team runs them: MSW 2 in vitest, its handlers passing every request for the
// API's base URL to `mock.fetch`; and a plain stubbed `fetch`. The app code under test
// is an ordinary client of the API that knows nothing of the mock.
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMock } from '../mocks/node/in-process.ts';
import type { ApiKeyList, FindResponse } from '../spec/openapi.gen.ts';

/** The fixture API key of Alice (fixtures/auth.json), and her session. */
const KEY = 'sls_test_valid0000000000000000000000000000000a11ce';
const SESSION = 'sess_test_valid_alice_0000000000000001';

/** Where the app under test thinks the API is (its production base URL). */
const API = 'https://api.breakblocks.com/api/v0.1';

/** An app's own API client: plain fetch, nothing about mocks. */
const client = {
  async find(query: string): Promise<FindResponse> {
    const res = await fetch(`${API}/servers/find?${query}`);
    if (!res.ok) throw new Error(((await res.json()) as { message: string }).message);
    return (await res.json()) as FindResponse;
  },
  async keys(apiKey: string): Promise<{ status: number; body: ApiKeyList | { message: string } }> {
    const res = await fetch(`${API}/user/apikeys`, { headers: { Authorization: `Bearer ${apiKey}` } });
    return { status: res.status, body: (await res.json()) as ApiKeyList };
  },
  async createKey(session: string, name: string): Promise<number> {
    const res = await fetch(`${API}/user/apikeys`, {
      method: 'POST',
      headers: { Cookie: `sls_session=${session}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    return res.status;
  },
};

describe('MSW: handlers that pass requests for the API to mock.fetch', () => {
  // --- the recipe ---
  const mock = createMock({ now: '2026-06-01T12:00:00Z' });
  const server = setupServer(http.all(`${API}/*`, ({ request }) => mock.fetch(request)));
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => mock.reset());
  afterAll(async () => {
    server.close();
    await mock.close();
  });
  // --- end of the recipe ---

  it("the app's search gets the mock's seeded servers", async () => {
    const page = await client.find('limit=5&sort=users');
    expect(page.results).toHaveLength(5);
    expect(page.total).toBeGreaterThan(100);
    const users = page.results.map((s) => s.players_online ?? 0);
    expect(users).toEqual([...users].sort((a, b) => b - a));
  });

  it("the mock's errors reach the app as the API words them", async () => {
    await expect(client.find('limit=abc')).rejects.toThrow("query parameter 'limit' must be integer");
  });

  it('auth as the spec says: the fixture key lists its keys, an unknown key is 401', async () => {
    const ok = await client.keys(KEY);
    expect(ok.status).toBe(200);
    expect((ok.body as ApiKeyList).keys.length).toBeGreaterThan(0);
    const unknown = await client.keys('sls_nobody');
    expect(unknown).toEqual({ status: 401, body: { success: false, message: expect.any(String) } });
  });

  it('a key created in one test (with the session cookie)...', async () => {
    const before = ((await client.keys(KEY)).body as ApiKeyList).keys.length;
    expect(await client.createKey(SESSION, 'from a test')).toBe(201);
    expect(((await client.keys(KEY)).body as ApiKeyList).keys).toHaveLength(before + 1);
  });

  it('...is gone in the next: reset() in afterEach puts back the seeded state', async () => {
    const keys = ((await client.keys(KEY)).body as ApiKeyList).keys;
    expect(keys.map((k) => k.name)).not.toContain('from a test');
  });
});

describe('a plain fetch stub', () => {
  it('hands every call to mock.fetch; the same answers as the server', async () => {
    // --- the recipe ---
    const mock = createMock({ now: '2026-06-01T12:00:00Z' });
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => mock.fetch(input, init));
    // ... the app's code calls fetch ...
    const page = await client.find('limit=2&region=EU');
    vi.unstubAllGlobals();
    await mock.close();
    // --- end of the recipe ---
    expect(page.results.map((s) => s.region)).toEqual(['EU', 'EU']);
  });
});
