// The mock in process (the package's library entry) against the server on a real
// socket: the same requests get the same bytes (status, headers, body); reset() and
// close() do what they say; a bad option is refused, named. (The same, installed from
// the packed package: e2e/installed-package.pack.ts; under MSW: e2e/mock-in-msw.test.ts.)
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { authHeaders, credential } from '../testing/test-app.ts';
import { inCodeFlags } from '../../cli/options-in-code.ts';
import { createMock, type InProcessMock } from './in-process.ts';
import { FLAGS } from './options.ts';
import { startMock, type RunningMock } from './server.ts';
import { NOW, NOW_ISO } from '../../testing/instants.ts';

const SETTINGS = { seed: 4242, servers: 250, now: NOW_ISO, cacheDir: null };
/** What node:http adds to every answer on a socket, which an answer in process has no use for. */
const TRANSPORT = ['date', 'connection', 'keep-alive', 'transfer-encoding'];

let server: RunningMock;
let mock: InProcessMock;
beforeAll(async () => {
  server = await startMock({ port: 0, host: '127.0.0.1', ...SETTINGS, now: NOW, quiet: true });
  mock = createMock(SETTINGS);
});
afterAll(async () => {
  await Promise.all([server?.close(), mock?.close()]);
});

/** One answer, all of it: status, headers (but the transport's) and body bytes. */
async function whole(res: Response) {
  const headers: [string, string][] = [];
  res.headers.forEach((value, name) => void (TRANSPORT.includes(name) || headers.push([name, value])));
  return { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()).toString('latin1') };
}

describe('createMock()', () => {
  it('answers the same requests with the same bytes as the server: data, auth, errors, headers, dev routes', async () => {
    const key = authHeaders(credential('valid-key'));
    const forbidden = authHeaders(credential('forbidden-key'));
    const requests: [string, RequestInit?][] = [
      ['/api/v0.1/servers/find?limit=3&sort=users'],
      ['/api/v0.1/servers/find?version=1.20*&favicon=true&limit=2'],
      ['/api/v0.1/servers/find?limit=abc'],
      ['/api/v0.1/metadata/countries'],
      ['/api/v0.1/metadata/regions', { method: 'HEAD' }],
      ['/api/v0.1'],
      ['/api/v0.1/user/apikeys', { headers: key }],
      ['/api/v0.1/user/apikeys', { headers: forbidden }],
      ['/api/v0.1/user/apikeys'],
      ['/api/v0.1/user/apikeys', { method: 'POST', headers: { ...key, 'Content-Type': 'text/plain' }, body: 'x' }],
      ['/api/v0.1/servers/find', { method: 'DELETE' }],
      ['/api/v0.1/servers/find?limit=1', { headers: { Prefer: 'code=200, example=empty' } }],
      ['/api/v0.1/servers/find', { headers: { Origin: 'http://localhost:5173' } }],
      [
        '/api/v0.1/servers/find',
        { method: 'OPTIONS', headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'GET' } },
      ],
      ['/api/v0.1/nope'],
      ['/__mock/info'],
      ['/__mock/openapi.json'],
    ];
    expect(requests.length).toBeGreaterThan(10);
    for (const [path, init] of requests) {
      // In order, one at a time: both count the anonymous caller's rate limit alike.
      const url = `${server.origin}${path}`;
      const [overSocket, inProcess] = [
        await whole(await fetch(url, init)),
        await whole(await mock.fetch(new Request(url, init))),
      ];
      expect(inProcess, `${init?.method ?? 'GET'} ${path}`).toEqual(overSocket);
    }
  });

  it('takes fetch-style arguments too (a URL and its init), so it can stand in for fetch', async () => {
    const res = await mock.fetch('http://api.test/api/v0.1/user/apikeys', {
      headers: authHeaders(credential('valid-key')),
    });
    expect(res.status).toBe(200);
    expect(mock.basePath).toBe('/api/v0.1');
  });

  it("resolves a relative URL against the page's location (a DOM environment), and without one rejects, saying so", async () => {
    await expect(mock.fetch('/api/v0.1/metadata/regions')).rejects.toThrow(
      "createMock: fetch needs an absolute URL (there is no page location to resolve a relative one against), got '/api/v0.1/metadata/regions'",
    );
    vi.stubGlobal('location', new URL('http://localhost:5173/app/'));
    try {
      expect((await mock.fetch('/api/v0.1/metadata/regions')).status).toBe(200);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('reset() puts back the seeded keys and sessions, as POST /__mock/reset does', async () => {
    const own = createMock(SETTINGS);
    const session = authHeaders(credential('valid-session'));
    const list = async () =>
      (
        (await (await own.fetch(`http://api.test/api/v0.1/user/apikeys`, { headers: session })).json()) as {
          keys: unknown[];
        }
      ).keys.length;
    const before = await list();
    const created = await own.fetch('http://api.test/api/v0.1/user/apikeys', {
      method: 'POST',
      headers: { ...session, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'made in a test' }),
    });
    expect(created.status).toBe(201);
    expect(await list()).toBe(before + 1);
    own.reset();
    expect(await list()).toBe(before);
    await own.close();
  });

  it('close() lets the answers in flight finish; a fetch after it rejects', async () => {
    const slow = createMock({ ...SETTINGS, latency: 50 });
    const inFlight = slow.fetch('http://api.test/api/v0.1/metadata/regions');
    await slow.close();
    expect((await inFlight).status).toBe(200);
    await expect(slow.fetch('http://api.test/api/v0.1/metadata/regions')).rejects.toThrow(
      'createMock: fetch after close()',
    );
  });

  it('close() ends a request whose body never finishes after a grace: its fetch rejects, saying why', async () => {
    const own = createMock(SETTINGS);
    const session = authHeaders(credential('valid-session'));
    let sent = 0;
    let cancelled: unknown;
    // A body whose first bytes come and whose rest never does (a stream the test never closes).
    const stalled = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ === 0) controller.enqueue(new TextEncoder().encode('{"name": "never fin'));
      },
      cancel(reason) {
        cancelled = reason;
      },
    });
    const answer = own.fetch('http://api.test/api/v0.1/user/apikeys', {
      method: 'POST',
      headers: { ...session, 'Content-Type': 'application/json' },
      body: stalled,
      duplex: 'half',
    } as RequestInit);
    const settled = answer.then(
      () => 'answered',
      (err: Error) => err.message,
    );
    await own.close(50);
    expect(await settled).toMatch(/^createMock: close\(\) ended this request after 50 ms: its answer was not ready/);
    // The mock let go of the body: the stream was cancelled, saying so.
    expect(String(cancelled)).toMatch(/createMock: close\(\)/);
  });

  it("refuses a bad option, naming it, with the server flag's own rule", () => {
    expect(() => createMock({ servers: -1 })).toThrow(
      "createMock: option 'servers' must be an integer from 0 to 5000000, got '-1'",
    );
    expect(() => createMock({ now: 'yesterday' })).toThrow(
      "createMock: option 'now' must be an ISO 8601 time, got 'yesterday'",
    );
    expect(() => createMock({ latency: { min: 5, max: 1 } })).toThrow(
      "createMock: option 'latency' must be MS or MIN-MAX",
    );
    expect(() => createMock({ corsOrigins: ['http://a.test/'] })).toThrow(/^createMock: option 'corsOrigins' /);
    expect(() => createMock({ latency: 'slow' } as never)).toThrow(
      "createMock: option 'latency' must be MS or MIN-MAX",
    );
    expect(() => createMock({ seeds: 1 } as never)).toThrow("createMock: unknown option 'seeds': did you mean seed?");
    // It takes what its flag table declares inCode, by key, and nothing else (not --port: no socket).
    expect(() => createMock({ port: 1 } as never)).toThrow(
      `createMock: unknown option 'port' (options: ${[...inCodeFlags(FLAGS).keys()].join(', ')})`,
    );
    expect(() => createMock({ cleanData: 'yes' } as never)).toThrow(
      'createMock: option \'cleanData\' must be true or false, got "yes"',
    );
  });
});
