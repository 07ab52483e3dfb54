// The mock in process (the package's library entry) against the server on a real
// socket: the same requests get the same bytes (status, headers, body); reset() and
// close() do what they say; a bad option is refused, named. (The same, installed from
// the packed package: e2e/installed-package.pack.ts; under MSW: e2e/mock-in-msw.test.ts.)
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FindResponse } from '../../spec/openapi.gen.ts';
import { authHeaders, credential } from '../testing/test-app.ts';
import { inCodeFlags } from '../../cli/options-in-code.ts';
import { createMock, credentials, type InProcessMock, server as aServer } from './in-process.ts';
import { FLAGS } from './options.ts';
import { startMock, type RunningMock } from './server.ts';
import { NOW, NOW_ISO } from '../../testing/instants.ts';
import { loadModel } from '../../spec/model.ts';

// A test may ask V8 for a collection (what a busy run does at any moment).
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const SETTINGS = { seed: 4242, servers: 250, now: NOW_ISO, cacheDir: null, rowCacheMiB: 8 };
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
  it('answers as the server does, byte for byte: data, auth, errors, headers, dev routes', async () => {
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

  it("answers each operation's first request, its stages built then, as a server built them at start", async () => {
    const key = authHeaders(credential('valid-key'));
    const session = authHeaders(credential('valid-session'));
    const requests: [string, RequestInit?][] = [
      ['/api/v0.1/servers/find?limit=5&sortBy=users'],
      ['/api/v0.1/status/ping/play.example.com'],
      ['/api/v0.1/status/ping/play.example.com/25565'],
      ['/api/v0.1/metadata/versions?limit=abc'],
      ['/api/v0.1/metadata/countries'],
      ['/api/v0.1/metadata/regions'],
      ['/api/v0.1/user/apikeys', { headers: key }],
      // The body validator, compiled on this first request: refused with the schema's reason.
      [
        '/api/v0.1/user/apikeys',
        { method: 'POST', headers: { ...session, 'Content-Type': 'application/json' }, body: '{"name":""}' },
      ],
      ['/api/v0.1/user/apikeys/key_nothere', { method: 'DELETE', headers: key }],
    ];
    const asked = new Set<string>();
    for (const [path, init] of requests) {
      // A fresh pair each: the request is the first either has, and the mock's first to that operation.
      const fresh = await startMock({ port: 0, host: '127.0.0.1', ...SETTINGS, now: NOW, quiet: true });
      const first = createMock(SETTINGS);
      try {
        const url = `${fresh.origin}${path}`;
        const [overSocket, inProcess] = [
          await whole(await fetch(url, init)),
          await whole(await first.fetch(new Request(url, init))),
        ];
        expect(inProcess, `${init?.method ?? 'GET'} ${path}`).toEqual(overSocket);
        for (const r of first.requests()) if (r.operationId) asked.add(r.operationId);
      } finally {
        await Promise.all([fresh.close(), first.close()]);
      }
    }
    expect([...loadModel().byId.keys()].filter((id) => !asked.has(id))).toEqual([]);
  });

  it("says each answer's length as node:http would: Content-Length is the body's bytes, a search's too", async () => {
    for (const path of [
      '/api/v0.1/servers/find?limit=3&favicon=true',
      '/api/v0.1/servers/find?version=1.20*&sort=users',
      '/api/v0.1/servers/find?limit=abc',
      '/api/v0.1/metadata/regions',
      '/api/v0.1/user/apikeys',
    ]) {
      const res = await mock.fetch(`http://127.0.0.1${path}`);
      const bytes = (await res.arrayBuffer()).byteLength;
      expect(res.headers.get('content-length'), path).toBe(String(bytes));
    }
  });

  it("hands each body as fetch does, a byte stream, whose bytes are the reader's own", async () => {
    for (const path of [
      '/api/v0.1/servers/find?limit=1',
      '/api/v0.1/servers/find?limit=20',
      '/api/v0.1/metadata/regions',
    ]) {
      const url = `http://127.0.0.1${path}`;
      const expected = await (await mock.fetch(url)).text();
      // A BYOB reader, which only a byte stream takes (fetch's own bodies are byte streams).
      const reader = (await mock.fetch(url)).body!.getReader({ mode: 'byob' });
      const read: Buffer[] = [];
      for (let r = await reader.read(new Uint8Array(512)); !r.done; r = await reader.read(new Uint8Array(512)))
        read.push(Buffer.from(r.value));
      expect(Buffer.concat(read).toString('utf8'), path).toBe(expected);
      // What a reader is handed it may change: the next answer is the mock's, unchanged.
      const chunk = await (await mock.fetch(url)).body!.getReader().read();
      chunk.value!.fill(0x20);
      expect(await (await mock.fetch(url)).text(), path).toBe(expected);
    }
  });

  it('takes fetch-style arguments too (a URL and its init), so it can stand in for fetch', async () => {
    const res = await mock.fetch('http://api.test/api/v0.1/user/apikeys', {
      headers: authHeaders(credential('valid-key')),
    });
    expect(res.status).toBe(200);
    expect(mock.basePath).toBe('/api/v0.1');
  });

  it("resolves a relative URL against the page's location (in a DOM); without one rejects, saying so", async () => {
    await expect(mock.fetch('/api/v0.1/metadata/regions')).rejects.toThrow(
      'createMock: fetch needs an absolute URL (there is no page location to resolve a relative one against), ' +
        "got '/api/v0.1/metadata/regions'",
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

describe('createMock(): steered and asked in process (issue 30)', () => {
  const API = 'https://api.example.test/api/v0.1';
  const own = createMock({ now: NOW_ISO, servers: 50 });
  afterEach(() => own.reset());
  afterAll(() => own.close());

  it('serves exactly the servers given: every field not given filled, times relative to its clock', async () => {
    const mock = createMock({
      now: NOW_ISO,
      servers: [aServer({ motd: 'A' }), aServer({ players_online: 40 }), { motd: 'C' }],
    });
    const page = (await (await mock.fetch(`${API}/servers/find`)).json()) as FindResponse;
    expect(page.total).toBe(3);
    expect(page.results.map((s) => s.last_ping)).toEqual(Array(3).fill(new Date(NOW - 5 * 60_000).toISOString()));
    expect(page.results.find((s) => s.players_online === 40)?.players_limit).toBe(40);
    await mock.close();
  });

  it('says at start, and in the journal, when a default filter hides rows it was given', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const mock = createMock({ now: NOW_ISO, servers: [aServer(), aServer({ pingedAgo: '40d' })] });
    expect(warn.mock.calls.map(([l]) => l)).toEqual([
      "createMock: 1 of 2 servers were last seen more than 30 days before the mock's clock: findServers leaves them " +
        'out unless the request gives maxAge (its default is 30)',
    ]);
    warn.mockRestore();
    expect(((await (await mock.fetch(`${API}/servers/find`)).json()) as FindResponse).total).toBe(1);
    expect(mock.requests()[0]!.hidden).toMatchObject({ parameter: 'maxAge', default: 30, rows: 1 });
    await mock.fetch(`${API}/servers/find?maxAge=60`);
    expect(mock.requests()[0]!.hidden).toBeUndefined();
    await mock.close();
  });

  it('refuses servers it could not serve, naming the row and the rule', () => {
    expect(() => createMock({ servers: [aServer({ players_online: 5, players_limit: 1 })] })).toThrow(
      new RegExp(
        String.raw`^createMock: servers\[0\] \(server-\d+\.example\.test:25565\): ` +
          String.raw`players_online \(5\) must not be above players_limit \(1\)$`,
      ),
    );
    expect(() => createMock({ servers: [{ pingedAgo: 'soon' as never }] })).toThrow(/pingedAgo must be milliseconds/);
    expect(() => createMock({ servers: [], data: 'x.json' })).toThrow(/not both/);
  });

  it('a 500, a 409, a 401 or a slow answer, once', async () => {
    own.use({ operationId: 'findServers', status: 500, times: 1 });
    expect((await own.fetch(`${API}/servers/find`)).status).toBe(500);
    expect((await own.fetch(`${API}/servers/find`)).status).toBe(200);
    own.use(
      { operationId: 'createApiKey', status: 409, times: 1 },
      { operationId: 'listApiKeys', status: 401, times: 1 },
    );
    own.useCredential('valid-session');
    expect((await own.fetch(`${API}/user/apikeys`, { method: 'POST' })).status).toBe(409);
    expect((await own.fetch(`${API}/user/apikeys`)).status).toBe(401);
    own.use({ operationId: 'listRegions', delay: 30, times: 1 });
    const slow = own.fetch(`${API}/metadata/regions`);
    expect(own.requests()[0]).toMatchObject({ pending: true, status: null, override: { id: 4, delay: 30 } });
    expect((await slow).status).toBe(200);
    expect(own.overrides().map((o) => o.remaining)).toEqual([0, 0, 0, 0]);
  });

  it('a reset connection, a truncated answer, no answer: as fetch meets a broken network', async () => {
    own.use({ operationId: 'findServers', fault: 'reset', times: 1 });
    await expect(own.fetch(`${API}/servers/find`)).rejects.toThrow(
      expect.objectContaining({ message: 'fetch failed', cause: expect.objectContaining({ code: 'ECONNRESET' }) }),
    );
    own.use({ operationId: 'findServers', fault: 'truncate', times: 1 });
    const cut = await own.fetch(`${API}/servers/find?limit=3`);
    expect(cut.status).toBe(200);
    await expect(cut.json()).rejects.toThrow('terminated');
    own.use({ operationId: 'listRegions', fault: 'no-answer' });
    await expect(own.fetch(`${API}/metadata/regions`, { signal: AbortSignal.timeout(50) })).rejects.toThrow(
      /aborted|timeout/i,
    );
    expect(own.requests().map((r) => [r.status, r.fault])).toEqual([
      [null, 'no-answer'],
      [200, 'truncate'],
      [null, 'reset'],
    ]);
  });

  it('a request nobody answers is aborted by its signal, after a garbage collection too', async () => {
    own.use({ operationId: 'listRegions', fault: 'no-answer' });
    // The timeout signal is all the caller holds; what the mock made from it may be collected meanwhile.
    const pending = own.fetch(`${API}/metadata/regions`, { signal: AbortSignal.timeout(300) });
    for (let i = 0; i < 3; i++) {
      collectGarbage();
      await new Promise((r) => setImmediate(r));
    }
    await expect(pending).rejects.toThrow(/aborted|timeout/i);
  }, 10_000);

  it('what the UI sent: the journal, with parameters as parsed and the caller masked', async () => {
    own.useCredential('valid-key');
    await own.fetch(`${API}/servers/find?limit=10&page=2&region=eu`);
    const [sent] = own.requests({ operationId: 'findServers' });
    expect(sent!.params!.query).toMatchObject({ limit: 10, page: 2, region: 'EU' });
    expect(sent!.auth).toEqual({ user: 'usr_test_alice', scheme: 'apiKey', kind: 'bearer', credential: '<valid-key>' });
  });

  it('signs in within a unit test: the login cookie is kept, as a browser keeps it; reset signs out', async () => {
    expect((await own.fetch(`${API}/user/apikeys`)).status).toBe(401);
    await own.signIn('alice@example.test');
    expect((await own.fetch(`${API}/user/apikeys`)).status).toBe(200);
    expect((await own.fetch(`${API}/user/apikeys`, { credentials: 'omit' })).status).toBe(401);
    await own.fetch('https://api.example.test/__mock/logout', { method: 'POST' });
    expect((await own.fetch(`${API}/user/apikeys`)).status).toBe(401);
    await own.signIn();
    own.reset();
    expect((await own.fetch(`${API}/user/apikeys`)).status).toBe(401);
    await expect(own.signIn('nobody')).rejects.toThrow(/signIn failed: Bad Request: unknown fixture user "nobody"/);
    expect(own.credentialHeaders('forbidden-key')).toEqual({
      Authorization: `Bearer ${credentials['forbidden-key'].value}`,
    });
  });

  it('a test fails on an unknown parameter, with its did-you-mean', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await own.fetch(`${API}/servers/find?sortBy=users`);
    vi.restoreAllMocks();
    expect(() => own.assertNoFindings()).toThrow(
      'createMock: 1 request the real service would not take as meant:\n' +
        "  GET /api/v0.1/servers/find?sortBy=users: 'sortBy' is not a parameter of findServers; " +
        "the real service ignores it: did you mean 'sort'?",
    );
    own.reset();
    own.assertNoFindings();
  });

  it('a test fails on a body field the schema lacks, a credential no scheme reads, with what was meant', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const created = await own.fetch(`${API}/user/apikeys`, {
      method: 'POST',
      headers: { ...own.credentialHeaders('valid-session'), 'Content-Type': 'application/json' },
      body: JSON.stringify({ nmae: 'ci' }),
    });
    await own.fetch(`${API}/user/apikeys`, { headers: { Authorization: 'Bearer undefined' } });
    vi.restoreAllMocks();
    expect(created.status).toBe(400);
    expect(() => own.assertNoFindings()).toThrow(
      [
        'createMock: 2 requests the real service would not take as meant:',
        "  POST /api/v0.1/user/apikeys: the body's 'nmae' is not a field of createApiKey's body: did you mean 'name'?",
        '  GET /api/v0.1/user/apikeys: Authorization: Bearer … is no credential any scheme of the spec reads, ' +
          "so the request carries none: send 'Authorization: Bearer <API key>'",
      ].join('\n'),
    );
  });

  it('judges each request by its own headers: the same URL sent with a bad credential is judged anew', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const url = `${API}/servers/find?limit=3`;
    await own.fetch(url);
    await own.fetch(url, { headers: { Authorization: 'Bearer undefined' } });
    await own.fetch(url);
    vi.restoreAllMocks();
    const [third, second, first] = own.requests({ operationId: 'findServers' });
    expect([first, second, third].map((e) => e!.findings.map((f) => f.judge))).toEqual([
      [],
      ['malformed-credential'],
      [],
    ]);
    expect([first, second, third].map((e) => Object.keys(e!.request.headers))).toEqual([[], ['authorization'], []]);
  });

  it("keeps each request's headers as sent: those a browser adds, a body's type, a Request's own", async () => {
    own.useCredential('valid-key');
    await own.fetch(`${API}/servers/find`);
    await own.fetch(`${API}/servers/find`, { method: 'POST', body: 'x' });
    own.signOut();
    await own.fetch(new Request(`${API}/servers/find`, { headers: { 'X-Trace': 't1' } }));
    await own.fetch(`${API}/servers/find`, { headers: [['X-Trace', 't2']] });
    const [byArray, byRequest, withBody, byUrl] = own.requests();
    expect(byUrl!.request.headers).toEqual({ authorization: 'Bearer <valid-key>' });
    expect(withBody!.request.headers).toEqual({
      authorization: 'Bearer <valid-key>',
      'content-type': 'text/plain;charset=UTF-8',
    });
    expect(byRequest!.request.headers).toEqual({ 'x-trace': 't1' });
    expect(byArray!.request.headers).toEqual({ 'x-trace': 't2' });
  });

  it('over HTTP, the journal holds the same findings, made by the same judges', async () => {
    await fetch(`${server.baseUrl}/servers/find?sortBy=users`, { headers: { Authorization: 'Basic YTpi' } });
    const journal = await (await fetch(`${server.origin}/__mock/requests?findings=true`)).json();
    expect(journal.requests[0].findings).toEqual([
      {
        judge: 'unknown-parameter',
        level: 'warning',
        why: "'sortBy' is not a parameter of findServers; the real service ignores it",
        hint: "did you mean 'sort'?",
      },
      {
        judge: 'malformed-credential',
        level: 'warning',
        why: 'Authorization: Basic … is no credential any scheme of the spec reads, so the request carries none',
        hint: "send 'Authorization: Bearer <API key>'",
      },
    ]);
  });

  it('refuses a bad override in code with the same sentences as over HTTP', () => {
    expect(() => own.use({ operationId: 'findServers', status: 418 })).toThrow(
      'invalid override: findServers does not declare a 418 response (declared: 200, 400, 429, 500)',
    );
    expect(own.overrides()).toEqual([]);
    expect(own.removeOverrides()).toBe(false);
  });

  it('serves Prefer examples consistent with themselves: example=empty counts 0', async () => {
    const empty = await own.fetch(`${API}/servers/find`, { headers: { Prefer: 'code=200, example=empty' } });
    expect(await empty.json()).toEqual({ displayed: 0, total: 0, filtered: 0, results: [] });
  });
});

describe('createMock(): the usage profile (issue 32)', () => {
  it('mock.usage() is what the app used under its consumer; reset keeps it, clearUsage() starts afresh', async () => {
    const mock = createMock({ consumer: 'web', servers: 20, now: NOW });
    try {
      await mock.fetch('https://api.example.test/api/v0.1/servers/find?country=DE&limit=5');
      mock.useCredential('valid-key');
      await mock.fetch('https://api.example.test/api/v0.1/user/apikeys');
      mock.reset();
      const profile = mock.usage();
      expect(profile).toMatchObject({ consumer: 'web', recordedBy: 'mock', requests: 2, from: NOW_ISO, to: NOW_ISO });
      expect(profile.operations.findServers?.parameters.country).toEqual({
        in: 'query',
        requests: 1,
        kinds: { text: 1 },
      });
      expect(profile.operations.listApiKeys).toMatchObject({ credentials: { bearer: 1 }, statuses: { 200: 1 } });
      expect(JSON.stringify(profile)).not.toContain(credentials['valid-key'].value);
      mock.clearUsage();
      expect(mock.usage()).toMatchObject({ requests: 0, operations: {} });
    } finally {
      await mock.close();
    }
  });

  it('without a consumer, usage() says how to name one; a bad name is refused as the flag is', async () => {
    const mock = createMock({ servers: 5 });
    try {
      expect(() => mock.usage()).toThrow(
        "createMock: no usage profile is recorded: name the consumer, createMock({ consumer: 'web' })",
      );
    } finally {
      await mock.close();
    }
    expect(() => createMock({ consumer: 'web frontend' })).toThrow(
      "createMock: option 'consumer' must be who the usage profile is of, 1 to 100 letters, digits",
    );
  });
});
