// Shared by the mock's HTTP tests: a real server on a free loopback port per suite.
import { afterAll, beforeAll } from 'vitest';
import { loadFixtures, type FixtureCredential } from './fixtures.ts';
import { DEFAULT_OPTIONS, type MockOptions } from './options.ts';
import { startMock, type RunningMock } from './server.ts';

export const fixtures = loadFixtures(DEFAULT_OPTIONS.fixtures);
export const PINNED_NOW = '2026-06-01T12:00:00.000Z';

export function credential(name: string): FixtureCredential {
  const c = fixtures.credentials.find((x) => x.name === name);
  if (!c) throw new Error(`no fixture credential '${name}'`);
  return c;
}

/** Request headers that present a fixture credential the way real clients do. */
export function authHeaders(c: FixtureCredential): Record<string, string> {
  return c.type === 'apiKey' ? { Authorization: `Bearer ${c.value}` } : { Cookie: `${fixtures.sessionCookieName}=${c.value}` };
}

/** Starts a mock on port 0 before the suite and stops it after; `m.url(path)` builds API URLs. */
export function useMock(overrides: Partial<MockOptions> = {}) {
  const m = {
    running: undefined as unknown as RunningMock,
    url: (path: string) => `${m.running.baseUrl}${path}`,
    origin: () => m.running.origin,
  };
  beforeAll(async () => {
    m.running = await startMock({ port: 0, servers: 300, now: Date.parse(PINNED_NOW), selfCheck: true, ...overrides });
  });
  afterAll(async () => {
    await m.running?.close();
  });
  return m;
}

export async function json(res: Response): Promise<any> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`not JSON (${res.status}): ${text.slice(0, 200)}`);
  }
}
