// Shared by the mock's tests: an app built in memory and driven with `app.request()`
// (no socket: the HTTP behaviour is the app's), and the fixture credentials.
import { loadFixtures, type FixtureCredential } from '../../fixtures/load.ts';
import { credentialHeaders, loadModel } from '../../spec/model.ts';
import { expect } from 'vitest';
import type { MockApp } from '../core/app.ts';
import { buildMock } from '../node/load.ts';
import { DEFAULT_OPTIONS, type MockOptions } from '../node/options.ts';
import { NOW } from '../../testing/instants.ts';

export const model = loadModel();
export const fixtures = loadFixtures();
/** The origin of the URLs handed to `app.request()`: a loopback mock on its default port. */
export const ORIGIN = 'http://127.0.0.1:4010';

export function credential(name: string): FixtureCredential {
  const c = fixtures.credentials.find((x) => x.name === name);
  if (!c) throw new Error(`no fixture credential '${name}'`);
  return c;
}

/** Request headers that present a fixture credential the way real clients do. */
export function authHeaders(c: FixtureCredential): Record<string, string> {
  return credentialHeaders(model.schemes.get(c.type)!, c.value);
}

/** The options tests run with: a small dataset, a pinned clock, every answer self-checked. */
export function testOptions(overrides: Partial<MockOptions> = {}): MockOptions {
  return {
    ...DEFAULT_OPTIONS,
    port: 0,
    servers: 300,
    now: NOW,
    selfCheck: true,
    quiet: true,
    cacheDir: null,
    ...overrides,
  };
}

export interface TestApp {
  mock: MockApp;
  /** `app.request()` with fetch's signature. */
  fetch(url: string, init?: RequestInit): Promise<Response>;
  /** An API URL: `url('/servers/find')`. */
  url(path: string): string;
  origin(): string;
}

/**
 * A mock app in memory, built from `overrides` on top of testOptions(); warnings to `warn` (console.warn by default).
 */
export function useApp(overrides: Partial<MockOptions> = {}, warn?: (line: string) => void): TestApp {
  const mock = buildMock(testOptions(overrides), undefined, warn);
  return {
    mock,
    fetch: async (url, init) => mock.app.request(url, init),
    url: (path) => `${ORIGIN}${mock.basePath}${path}`,
    origin: () => ORIGIN,
  };
}

export async function json(res: Response): Promise<any> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`not JSON (${res.status}): ${text.slice(0, 200)}`);
  }
}

/** The answer is `status` with the spec's error body, its message matching `message`. */
export async function expectError(res: Response, status: number, message: RegExp): Promise<void> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await json(res)).toEqual({ success: false, message: expect.stringMatching(message) });
}
