// The pre-flight against real sockets: each way a target cannot be tested stops the run
// with its cause (a refused port, a name that does not resolve, a certificate no one
// trusts, a base URL without the spec's server path, a web page where the API should
// be), and a target is the mock only if it says so.
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer, type RunningServer } from '../contract-tests/reference-server/socket.ts';
import { candidateBases, preflight as preflightWith } from '../contract-tests/run/preflight.ts';
import { loadModel } from '../spec/model.ts';
import { freePort } from './helpers.ts';

const model = loadModel();
/** Over real sockets: the global fetch. */
const preflight = (url: string, m: typeof model) => preflightWith(url, m, (request) => fetch(request));
const servers: Server[] = [];
let reference: RunningServer;

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  reference = await startReferenceServer('none');
});
afterAll(async () => {
  await reference.close();
  for (const s of servers) s.close();
});

describe('pre-flight: a target that cannot be reached', () => {
  test('a refused port is named, with what to check', async () => {
    const port = await freePort();
    await expect(preflight(`http://127.0.0.1:${port}/api/v0.1`, model)).rejects.toThrow(
      new RegExp(
        `^cannot reach http://127\\.0\\.0\\.1:${port}/api/v0\\.1: connection refused: nothing listens on that ` +
          `host and port \\(ECONNREFUSED: .*\\)\\. Is the server running`,
      ),
    );
  });

  test('a host name that does not resolve (.invalid never does) is a DNS failure', async () => {
    await expect(preflight('https://staging.invalid/api/v0.1', model)).rejects.toThrow(
      new RegExp(
        String.raw`^cannot reach https:\/\/staging\.invalid\/api\/v0\.1: DNS lookup failed: no such host` +
          String.raw` \((ENOTFOUND|EAI_AGAIN): .*\)\. Is the host name`,
      ),
    );
  });

  test('a self-signed certificate is a TLS failure, with the way to trust a CA of your own', async () => {
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keyType: 'ec',
      curve: 'P-256',
      notAfterDate: new Date(Date.now() + 86_400_000),
    });
    const port = await listen(createHttpsServer({ key: pems.private, cert: pems.cert }, (_req, res) => res.end('{}')));
    await expect(preflight(`https://127.0.0.1:${port}/api/v0.1`, model)).rejects.toThrow(
      new RegExp(
        `TLS: the server's certificate is not trusted` +
          String.raw` \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN): self[- ]signed` +
          ' certificate.*NODE_EXTRA_CA_CERTS',
      ),
    );
  });

  test('https on a port that speaks http is a failed handshake, named', async () => {
    const port = await listen(createHttpServer((_req, res) => res.end('{}')));
    await expect(preflight(`https://127.0.0.1:${port}/api/v0.1`, model)).rejects.toThrow(
      /TLS handshake failed.*\. Is the scheme in --base-url/,
    );
  });
});

describe('pre-flight: a base URL that misses the API', () => {
  test("without the spec's server path: every public route is 404, and the URL that answers is suggested", async () => {
    const origin = reference.baseUrl.replace(/\/api\/v0\.1$/, '');
    await expect(preflight(origin, model)).rejects.toThrow(
      new RegExp(
        `^every public route of the spec answers 404 or HTML under ${origin} \\(GET /servers/find: 404, ` +
          `.*\\), but ${origin}/api/v0\\.1/servers/find answers 200: did you mean --base-url ` +
          `${origin}/api/v0\\.1\\?$`,
      ),
    );
  });

  test('a web page at every path (a front end, not the API): no route answers, and it says so', async () => {
    const port = await listen(
      createHttpServer((_req, res) =>
        res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>App</title>'),
      ),
    );
    await expect(preflight(`http://127.0.0.1:${port}/api/v0.1`, model)).rejects.toThrow(
      new RegExp(
        String.raw`^no public route of the spec answers under .* \(GET \/servers\/find: 200 HTML, .*\): is it` +
          ' the base URL of the Server Listing API',
      ),
    );
  });

  test('the URLs a user may have meant', () => {
    expect(candidateBases('http://h:1', '/api/v0.1')).toEqual(['http://h:1/api/v0.1']);
    expect(candidateBases('http://h:1/api/v0.1/servers/find', '/api/v0.1')).toEqual(['http://h:1/api/v0.1']);
    expect(candidateBases('http://h:1/proxy', '/api/v0.1')).toEqual([
      'http://h:1/proxy/api/v0.1',
      'http://h:1/api/v0.1',
    ]);
  });
});

describe('pre-flight: what the target is', () => {
  test('a correct implementation that is not the mock passes, and is not taken for it', async () => {
    const target = await preflight(reference.baseUrl, model);
    expect(target).toMatchObject({ baseUrl: reference.baseUrl, mock: undefined });
    expect(target.requests).toBe(2);
  });

  test('a target is the mock when /__mock/info says so', async () => {
    const info = {
      success: true,
      name: 'server-listing-mock',
      version: '0.1.0',
      seed: 7,
      data: null,
      servers: 12,
      basePath: '/api/v0.1',
    };
    const port = await listen(
      createHttpServer((req, res) => {
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify(req.url === '/__mock/info' ? info : { displayed: 0, total: 0, results: [] }));
      }),
    );
    expect((await preflight(`http://127.0.0.1:${port}/api/v0.1`, model)).mock).toMatchObject({
      name: 'server-listing-mock',
      seed: 7,
      servers: 12,
    });
  });
});
