// What only a real socket shows; everything else is tested through app.request().
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reasonPhrase } from '../../spec/messages.ts';
import { DRAIN_MAX_BYTES } from '../core/body-limit/body-limit.ts';
import { rawConnection, type RawResponse } from '../../testing/raw-http.ts';
import { startMock, type RunningMock } from './server.ts';
import { testOptions } from '../testing/test-app.ts';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock(testOptions({ servers: 50 }));
});
afterAll(async () => {
  await mock?.close();
});

function send(
  path: string,
  init: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    chunked?: boolean;
    agent?: import('node:http').Agent;
  } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(mock.baseUrl + path);
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: init.method ?? 'GET',
        headers: init.headers,
        agent: init.agent,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    if (init.body !== undefined) {
      if (init.chunked) {
        // No Content-Length: the size is only known by reading the stream.
        for (let i = 0; i < init.body.length; i += 1024) req.write(init.body.slice(i, i + 1024));
      } else req.write(init.body);
    }
    req.end();
  });
}

describe('the mock on a real socket', () => {
  it("listens on the loopback port it was given and serves the API under the spec's base path", async () => {
    expect(mock.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v0\.1$/);
    const res = await send('/servers/find?limit=2');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    expect(JSON.parse(res.body).results).toHaveLength(2);
  });

  it('refuses a streamed body over the limit with 413, without a Content-Length to go by', async () => {
    const res = await send('/user/apikeys', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      body: JSON.stringify({ name: 'x'.repeat(40_000) }),
      chunked: true,
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({
      success: false,
      message: 'Payload Too Large: the request body is over 16384 bytes',
    });
  });

  it('closes even with idle keep-alive connections open', async () => {
    const other = await startMock(testOptions({ servers: 10 }));
    const { Agent } = await import('node:http');
    const agent = new Agent({ keepAlive: true });
    const url = new URL(other.baseUrl);
    await new Promise<void>((resolve, reject) =>
      request({ host: url.hostname, port: url.port, path: `${url.pathname}/metadata/regions`, agent }, (res) =>
        res.resume().on('end', resolve),
      )
        .on('error', reject)
        .end(),
    );
    await expect(other.close()).resolves.toBeUndefined();
    agent.destroy();
  });
});

const portOf = (m: RunningMock) => Number(new URL(m.origin).port);
const API = '/api/v0.1';

function expectErrorShape(res: RawResponse, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toBe('application/json');
  const body = JSON.parse(res.body);
  expect(body).toEqual({ success: false, message: expect.stringMatching(new RegExp(`^${reasonPhrase(status)}: .+`)) });
  return body.message as string;
}

describe("what Node's HTTP parser refuses", () => {
  it.each([
    ['a lowercase method', `get ${API}/metadata/regions HTTP/1.1\r\nHost: localhost\r\n\r\n`, 400, /method/],
    [
      'a space in a header name',
      `GET ${API}/metadata/regions HTTP/1.1\r\nHost: localhost\r\nBad Header: 1\r\n\r\n`,
      400,
      /header/,
    ],
    ['an unknown HTTP version', `GET ${API}/metadata/regions HTTP/7.1\r\nHost: localhost\r\n\r\n`, 400, /./],
    [
      'a URL of 20 KiB',
      `GET ${API}/servers/find?motd=${'a'.repeat(20 * 1024)} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
      414,
      /URL/,
    ],
    [
      'a header of 20 KiB',
      `GET ${API}/metadata/regions HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`,
      431,
      /headers/,
    ],
    [
      'malformed chunking',
      `POST ${API}/user/apikeys HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: ` +
        `chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n`,
      400,
      /chunked/,
    ],
    [
      'Content-Length beside chunking',
      `POST ${API}/user/apikeys HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nTransfer-Encoding: ` +
        `chunked\r\n\r\n0\r\n\r\n`,
      400,
      /Transfer-Encoding can't be present with Content-Length/,
    ],
    [
      'a Content-Length that is no number',
      `POST ${API}/user/apikeys HTTP/1.1\r\nHost: localhost\r\nContent-Length: ten\r\n\r\n`,
      400,
      /Content-Length/,
    ],
    ['HTTP/1.1 without Host', `GET ${API}/metadata/regions HTTP/1.1\r\n\r\n`, 400, /Host/],
  ])('%s: the error shape, Connection: close, and the connection closes', async (_name, request, status, message) => {
    const conn = await rawConnection(portOf(mock));
    conn.write(request);
    const res = await conn.response();
    expect(expectErrorShape(res, status)).toMatch(message);
    expect(res.headers.connection).toBe('close');
    await conn.closed;
  });

  it('an invalid Host is a 400 in the error shape, and the connection carries on', async () => {
    const conn = await rawConnection(portOf(mock));
    conn.write(`GET ${API}/metadata/regions HTTP/1.1\r\nHost: bad host!\r\n\r\n`);
    expect(expectErrorShape(await conn.response(), 400)).toMatch(/Host/);
    conn.write(`GET ${API}/servers/find?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    expect((await conn.response()).status).toBe(200);
    conn.destroy();
  });

  it('a request without Host in HTTP/1.0 is still served', async () => {
    const conn = await rawConnection(portOf(mock));
    conn.write(`GET ${API}/servers/find?limit=1 HTTP/1.0\r\n\r\n`);
    expect((await conn.response()).status).toBe(200);
    conn.destroy();
  });
});

describe('a 413 and the connection it came on', () => {
  const post = (length: number, extra = '') =>
    `POST ${API}/user/apikeys HTTP/1.1\r\nHost: localhost\r\nContent-Type: ` +
    `application/json\r\nContent-Length: ${length}\r\n${extra}\r\n`;

  it(
    'with a declared length: the rest of the body is read, ' + 'however slowly it comes, and the next request works',
    async () => {
      const conn = await rawConnection(portOf(mock));
      conn.write(post(40_000) + 'x'.repeat(1000));
      const refused = await conn.response();
      expectErrorShape(refused, 413);
      expect(refused.headers.connection).toBe('keep-alive');
      // The rest arrives well after the answer (a slow uplink): the connection must still be there.
      await new Promise((r) => setTimeout(r, 800));
      conn.write('x'.repeat(39_000));
      conn.write(`GET ${API}/servers/find?limit=1 HTTP/1.1\r\nHost: localhost\r\n\r\n`);
      expect((await conn.response()).status).toBe(200);
      conn.destroy();
    },
  );

  it(`over ${DRAIN_MAX_BYTES} bytes declared: Connection: close, and it closes`, async () => {
    const conn = await rawConnection(portOf(mock));
    conn.write(post(DRAIN_MAX_BYTES + 1));
    const res = await conn.response();
    expectErrorShape(res, 413);
    expect(res.headers.connection).toBe('close');
    await conn.closed;
  });

  it('chunked, with no end in sight: Connection: close, and it closes', async () => {
    const conn = await rawConnection(portOf(mock));
    conn.write(
      `POST ${API}/user/apikeys HTTP/1.1\r\nHost: localhost\r\nContent-Type: ` +
        `application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    for (let i = 0; i < 20; i++) conn.write(`400\r\n${'x'.repeat(1024)}\r\n`);
    const res = await conn.response();
    expectErrorShape(res, 413);
    expect(res.headers.connection).toBe('close');
    await conn.closed;
  });
});

describe('anonymous callers by socket address', () => {
  it('counts each client address on its own, whatever X-Forwarded-For says', async () => {
    const limited = await startMock(testOptions({ servers: 10, rateLimit: true }));
    try {
      const statuses = async (localAddress: string, n: number) => {
        const conn = await rawConnection(portOf(limited), '127.0.0.1', localAddress);
        const out: number[] = [];
        for (let i = 0; i < n; i++) {
          conn.write(
            `GET ${API}/servers/find?limit=1 HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-For: 198.51.100.${i}\r\n\r\n`,
          );
          out.push((await conn.response()).status);
        }
        conn.destroy();
        return out;
      };
      const first = await statuses('127.0.0.2', 21);
      expect(first.slice(0, 20).every((s) => s === 200)).toBe(true);
      expect(first[20]).toBe(429);
      expect(await statuses('127.0.0.3', 1)).toEqual([200]);
    } finally {
      await limited.close();
    }
  });
});

describe('stopping', () => {
  it('stops accepting, lets a request in flight finish, then frees the port', async () => {
    const slow = await startMock(testOptions({ servers: 10, latency: { min: 400, max: 400 } }));
    const port = portOf(slow);
    const conn = await rawConnection(port);
    conn.write(`GET ${API}/servers/find?limit=1 HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    await new Promise((r) => setTimeout(r, 50)); // the request is in the app, waiting out its latency
    const stopped = slow.close();
    const inFlight = await conn.response();
    expect(inFlight.status).toBe(200);
    expect(inFlight.headers.connection).toBe('close');
    await stopped;
    await conn.closed;
    await expect(rawConnection(port)).rejects.toThrow(/ECONNREFUSED/);
  });
});
