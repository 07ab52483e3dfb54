// mocks/README.md's vitest + MSW recipe, run as a frontend team runs it against the fixture
// app's own API client (e2e/fixture-app/api.js: plain fetch, nothing about mocks): MSW hands
// the API and /__mock/* to createMock(); each test steers the mock in a line or a few
// (exactly these servers, a 500 once, a reset connection, a sign-in) and asks it what the
// app sent; a request the real service would ignore fails the test, with its near miss.
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMock, server } from '../mocks/node/in-process.ts';
import { mockHandlers } from '../mocks/node/msw-handlers.ts';
// @ts-expect-error: the fixture app is plain JavaScript, without declarations
import { createApi } from './fixture-app/api.js';

const api = createApi('https://api.example.test');

describe('the vitest + MSW recipe', () => {
  // --- the recipe ---
  const mock = createMock({ now: '2026-06-01T12:00:00Z' });
  const msw = setupServer(...mockHandlers(mock));
  beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    mock.assertNoFindings(); // a request the real service would ignore fails the test
    mock.reset(); // no overrides, an empty journal, signed out, the seeded keys
  });
  afterAll(async () => {
    msw.close();
    await mock.close();
  });
  // --- end of the recipe ---

  it("a 500 once: the app shows the API's message, and the next search works", async () => {
    mock.use({ operationId: 'findServers', status: 500, times: 1 });
    await expect(api.findServers()).rejects.toThrow('Internal Server Error: the request could not be completed');
    expect((await api.findServers()).results).toHaveLength(10);
  });

  it('a reset connection and a cut answer: the app says so', async () => {
    mock.use({ operationId: 'findServers', fault: 'reset', times: 1 });
    await expect(api.findServers()).rejects.toThrow('The server cannot be reached');
    mock.use({ operationId: 'findServers', fault: 'truncate', times: 1 });
    await expect(api.findServers()).rejects.toThrow('The answer was cut off');
  });

  it('what the app sent: its filters, as the mock read them', async () => {
    await api.findServers({ region: 'eu', page: '2' });
    const [sent] = mock.requests({ operationId: 'findServers' });
    expect(sent!.params!.query).toMatchObject({ region: 'EU', page: 2, limit: 10 });
  });

  it('signing in within a unit test: the login cookie is kept for the next calls', async () => {
    await expect(api.listKeys()).rejects.toMatchObject({ status: 401 });
    await api.login('alice@example.test'); // POST /__mock/login, through MSW
    expect((await api.listKeys()).keys.length).toBeGreaterThan(0);
    await expect(api.createKey('')).rejects.toThrow(/body.name must NOT have fewer than 1 characters/);
    expect(mock.requests({ status: 400 })[0]!.refusedBy).toBe('schema');
  });

  it('a test that sends a parameter the operation lacks fails, with its did-you-mean', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await api.findServers({ sortBy: 'users' });
    vi.restoreAllMocks();
    expect(() => mock.assertNoFindings()).toThrow(/'sortBy' is not a parameter of findServers.*did you mean 'sort'\?/);
    mock.reset(); // this test expected it; afterEach checks the rest
  });
});

describe('exactly these servers', () => {
  it('three servers given in code, each field not given filled; the app shows exactly them', async () => {
    const mock = createMock({
      servers: [
        server({ motd: 'Alpha' }),
        server({ motd: 'Beta' }),
        server({ region: 'NA', country: 'Canada', country_code: 'CA' }),
      ],
    });
    const msw = setupServer(...mockHandlers(mock));
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      expect((await api.findServers()).total).toBe(3);
      expect((await api.findServers({ region: 'NA' })).results.map((s: { country: string }) => s.country)).toEqual([
        'Canada',
      ]);
    } finally {
      msw.close();
      await mock.close();
    }
  });
});
