// What only a real socket shows; everything else is tested through app.request().
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from './server.ts';
import { testOptions } from './test-helpers.ts';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock(testOptions({ servers: 50 }));
});
afterAll(async () => {
  await mock?.close();
});

function send(path: string, init: { method?: string; headers?: Record<string, string>; body?: string; chunked?: boolean; agent?: import('node:http').Agent } = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(mock.baseUrl + path);
    const req = request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method: init.method ?? 'GET', headers: init.headers, agent: init.agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
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
  it('listens on the loopback port it was given and serves the API under the spec\'s base path', async () => {
    expect(mock.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v0\.1$/);
    const res = await send('/servers/find?limit=2');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    expect(JSON.parse(res.body).results).toHaveLength(2);
  });

  it('refuses a streamed body over the limit with 413, without a Content-Length to go by', async () => {
    const res = await send('/user/apikeys', { method: 'POST', headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }, body: JSON.stringify({ name: 'x'.repeat(40_000) }), chunked: true });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ success: false, message: 'Payload Too Large: the request body is over 16384 bytes' });
  });

  it('closes even with idle keep-alive connections open', async () => {
    const other = await startMock(testOptions({ servers: 10 }));
    const { Agent } = await import('node:http');
    const agent = new Agent({ keepAlive: true });
    const url = new URL(other.baseUrl);
    await new Promise<void>((resolve, reject) =>
      request({ host: url.hostname, port: url.port, path: `${url.pathname}/metadata/regions`, agent }, (res) => res.resume().on('end', resolve)).on('error', reject).end(),
    );
    await expect(other.close()).resolves.toBeUndefined();
    agent.destroy();
  });
});
