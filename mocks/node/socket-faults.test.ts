// An override's faults on a real socket, steered over HTTP as an e2e tool steers them:
// the connection reset, the answer cut half-way, no answer; the server's stop still ends
// a request left unanswered; the request log shows each request's query as it was sent.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NOW } from '../../testing/instants.ts';
import { startMock, type RunningMock } from './server.ts';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, servers: 50, now: NOW, cacheDir: null, quiet: true });
});
afterAll(() => mock?.close());

const control = (path: string, init?: RequestInit) => fetch(`${mock.origin}/__mock/${path}`, init);
const override = async (body: unknown) => {
  const res = await control('overrides', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(201);
};

describe('faults over a socket', () => {
  it('reset: the client reads ECONNRESET; the journal says so, with no status', async () => {
    await override({ operationId: 'findServers', fault: 'reset', times: 1 });
    const failed = await fetch(`${mock.baseUrl}/servers/find`).then(
      () => 'answered',
      (err: TypeError) => (err.cause as NodeJS.ErrnoException).code,
    );
    expect(failed).toBe('ECONNRESET');
    expect((await fetch(`${mock.baseUrl}/servers/find?limit=1`)).status).toBe(200);
    const journal = await (await control('requests?operationId=findServers')).json();
    expect(journal.requests.map((r: { status: number | null; fault?: string }) => [r.status, r.fault ?? null])).toEqual(
      [
        [200, null],
        [null, 'reset'],
      ],
    );
  });

  it('truncate: the head and half the body, then the connection cut; the body cannot be read whole', async () => {
    await override({ operationId: 'findServers', fault: 'truncate', times: 1 });
    const res = await fetch(`${mock.baseUrl}/servers/find?limit=5`);
    expect(res.status).toBe(200);
    const whole = Number(res.headers.get('content-length'));
    expect(whole).toBeGreaterThan(100);
    await expect(res.arrayBuffer()).rejects.toThrow('terminated');
  });

  it('no-answer: nothing comes until the client gives up; the stop ends it after its grace', async () => {
    await override({ operationId: 'listRegions', fault: 'no-answer' });
    await expect(fetch(`${mock.baseUrl}/metadata/regions`, { signal: AbortSignal.timeout(100) })).rejects.toThrow(
      /aborted/,
    );
    const own = await startMock({ port: 0, servers: 10, now: NOW, cacheDir: null, quiet: true });
    await fetch(`${own.origin}/__mock/overrides`, {
      method: 'POST',
      body: JSON.stringify({ operationId: 'listRegions', fault: 'no-answer' }),
    });
    const hanging = fetch(`${own.baseUrl}/metadata/regions`).then(
      () => 'answered',
      () => 'cut',
    );
    // Its entry is there while it hangs: pending, with the override that holds it.
    await expect
      .poll(async () => (await (await fetch(`${own.origin}/__mock/requests`)).json()).requests[0]?.pending)
      .toBe(true);
    await own.close(50);
    expect(await hanging).toBe('cut');
  });
});

describe('the journal over a socket', () => {
  it(
    "reads node's own header list: every header by its lower-case name, the credential masked, the parameters " +
      'read again',
    async () => {
      const key = 'sls_test_valid0000000000000000000000000000000a11ce';
      await fetch(`${mock.baseUrl}/user/apikeys?limit=3`, {
        headers: { Authorization: `Bearer ${key}`, 'X-Trace': 'a', Cookie: 'other=secret-value' },
      });
      await fetch(`${mock.baseUrl}/servers/find?region=eu&limit=2`);
      const { requests } = await (await control('requests?limit=2')).json();
      const [find, keys] = requests;
      expect(keys.request.headers).toMatchObject({
        authorization: 'Bearer <valid-key>',
        'x-trace': 'a',
        cookie: 'other=<masked>',
      });
      expect(keys.auth).toEqual({
        user: 'usr_test_alice',
        scheme: 'apiKey',
        kind: 'bearer',
        credential: '<valid-key>',
      });
      expect(JSON.stringify(requests)).not.toContain(key);
      expect(JSON.stringify(requests)).not.toContain('secret-value');
      expect(find.params.query).toMatchObject({ region: 'EU', limit: 2, maxAge: 30 });
      expect(keys.findings[0]).toMatchObject({
        judge: 'unknown-parameter',
        hint: expect.stringContaining('listApiKeys takes'),
      });
    },
  );
});

/** Sends a request's bytes as they are (Latin-1) on a socket of its own, and reads the answer to its end. */
const sendRaw = (port: number, text: string) =>
  new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(Buffer.from(text, 'latin1')));
    let answer = '';
    socket.on('data', (chunk) => void (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });

describe("the journal's slots", () => {
  it(
    'keep each URL and header as its bytes came (a Latin-1 byte, a repeated name), and a reused slot shows ' +
      'nothing of the longer request it held before',
    async () => {
      const small = await startMock({ port: 0, servers: 10, now: NOW, cacheDir: null, quiet: true, journal: 2 });
      try {
        const long = 'x'.repeat(3000);
        await fetch(`${small.baseUrl}/servers/find?motd=${long}`, { headers: { 'X-Long': long } });
        await fetch(`${small.baseUrl}/metadata/regions`, { headers: { 'X-Note': 'one' } });
        // The third request takes the first one's slot.
        const port = Number(new URL(small.origin).port);
        const answer = await sendRaw(
          port,
          'GET /api/v0.1/metadata/regions?x=%C3%A9&y=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Trace: a\r\n' +
            'X-Note: caf\u00e9\r\nX-Trace: b\r\nAUTHORIZATION: Token abc\r\nConnection: close\r\n\r\n',
        );
        expect(answer).toMatch(/^HTTP\/1\.1 200 /);
        const journal = await (await fetch(`${small.origin}/__mock/requests`)).json();
        expect(journal.journal.dropped).toBe(1);
        const [raw, second] = journal.requests;
        expect(raw.request).toMatchObject({
          target: '/api/v0.1/metadata/regions?x=%C3%A9&y=1',
          query: { x: '\u00e9', y: '1' },
          headers: {
            host: '127.0.0.1',
            'x-trace': 'a, b',
            'x-note': 'caf\u00e9',
            authorization: '<9 characters, masked>',
            connection: 'close',
          },
        });
        expect(Object.keys(raw.request.headers)).toEqual(['host', 'x-trace', 'x-note', 'authorization', 'connection']);
        // The judges read the credential from node's list too, whatever case its name came in.
        expect(raw.findings.map((f: { judge: string }) => f.judge)).toContain('malformed-credential');
        expect(raw.curl).toBe(
          "curl 'http://127.0.0.1/api/v0.1/metadata/regions?x=%C3%A9&y=1' -H 'authorization: <9 characters, masked>'",
        );
        expect(second.request).toMatchObject({ target: '/api/v0.1/metadata/regions', headers: { 'x-note': 'one' } });
        expect(JSON.stringify(journal)).not.toContain('xxx');
      } finally {
        await small.close();
      }
    },
  );
  it('gives a repeated request the same findings, and one with other headers its own', async () => {
    const url = `${mock.baseUrl}/servers/find?sortBy=users`;
    await fetch(url);
    await fetch(url);
    await fetch(url, { headers: { Authorization: 'Token abc' } });
    await fetch(url);
    const { requests } = await (await control('requests?limit=4')).json();
    expect(requests.map((r: { findings: { judge: string }[] }) => r.findings.map((f) => f.judge))).toEqual([
      ['unknown-parameter'],
      ['unknown-parameter', 'malformed-credential'],
      ['unknown-parameter'],
      ['unknown-parameter'],
    ]);
  });

  it('shows each request its own headers where the same URL came with others, before and after', async () => {
    const url = `${mock.baseUrl}/servers/find?limit=1`;
    for (const trace of ['a', 'b', 'a', 'a', 'c']) await fetch(url, { headers: { 'X-Trace': trace } });
    const { requests } = await (await control('requests?limit=5')).json();
    expect(requests.map((r: { request: { headers: Record<string, string> } }) => r.request.headers['x-trace'])).toEqual(
      ['c', 'a', 'a', 'b', 'a'],
    );
  });
});

describe('the request log', () => {
  it('shows the query as sent (no \\u0026 for &), and marks an override', async () => {
    const logged = await startMock({ port: 0, servers: 10, now: NOW, cacheDir: null, quiet: false });
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(String(line)));
    try {
      await fetch(`${logged.baseUrl}/servers/find?limit=10&page=1&motd=<b>`);
      await fetch(`${logged.origin}/__mock/overrides`, {
        method: 'POST',
        body: JSON.stringify({ operationId: 'listRegions', status: 500, times: 1 }),
      });
      await fetch(`${logged.baseUrl}/metadata/regions`);
    } finally {
      spy.mockRestore();
      await logged.close();
    }
    expect(lines[0]).toMatch(/^GET \/api\/v0\.1\/servers\/find\?limit=10&page=1&motd=%3Cb%3E 200 [\d.]+ms$/);
    expect(lines.at(-1)).toMatch(/^GET \/api\/v0\.1\/metadata\/regions 500 [\d.]+ms \(override 1\)$/);
  });
});
