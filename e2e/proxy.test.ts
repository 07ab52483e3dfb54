// The validation proxy over real sockets, in this process (contract-tests/proxy/proxy.ts):
// a few hundred answers of the mock are the same bytes through it as direct (status,
// reason, headers, body); what HTTP says a gateway does: a 501 stays a 501, the answer
// streams before the upstream has finished, hop-by-hop fields (and those Connection
// names) stay on their hop both ways, repeated Set-Cookie lines pass, the upstream gets
// its own Host and a Via line, keep-alive holds; in front of a reference server with
// defects the answers pass unchanged and each defect is logged once.
import { createServer, request, Agent, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { NOT_JUDGED } from '../contract-tests/proxy/judge-traffic.ts';
import { startProxy, type RunningProxy } from '../contract-tests/proxy/proxy.ts';
import { caseHeaders, EVERYDAY, SHOWN, type TrafficCase } from '../contract-tests/testing/traffic-cases.ts';
import { startReferenceServer } from '../contract-tests/reference-server/socket.ts';
import type { Defect } from '../contract-tests/reference-server/defects.ts';
import { mockOnSocket } from './helpers.ts';

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c();
});

interface Raw {
  status: number;
  reason: string;
  headers: string[];
  body: Buffer;
}

/** A body with each `last_ping` blanked (a relative time, "5 minutes ago", that the clock moves on). */
const withoutPings = (body: Buffer) => body.toString().replace(/"last_ping":"[^"]*"/g, '"last_ping":""');

const agent = new Agent({ keepAlive: true, maxSockets: 8 });
closers.push(async () => agent.destroy());

/** One request over node:http, the answer's bytes and raw headers as they came (no decoding). */
function raw(
  url: string,
  method = 'GET',
  headers: Record<string, string> | string[] = {},
  body?: string,
  via = agent,
): Promise<Raw & { socket: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: via }, (res: IncomingMessage) => {
      const socket = res.socket.localPort ?? 0;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          reason: res.statusMessage!,
          headers: res.rawHeaders,
          body: Buffer.concat(chunks),
          socket,
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Headers that matter to a client: all but the hop's own and the clock's. */
function mattering(h: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < h.length; i += 2)
    if (!['date', 'connection', 'keep-alive', 'transfer-encoding', 'x-ratelimit-reset'].includes(h[i]!.toLowerCase()))
      out.push(`${h[i]}: ${h[i + 1]}`);
  return out;
}

async function proxyTo(upstream: string, log: string[] = []): Promise<RunningProxy> {
  const proxy = await startProxy({ upstream, log: (l) => log.push(l) });
  closers.push(() => proxy.close());
  return proxy;
}

describe('through the proxy to the mock', () => {
  it('a few hundred answers are the same bytes as direct: status, reason, headers that matter, body; no ' +
    'violation', async () => {
    // The real clock: the proxy judges ages by the upstream's Date header, which
    // the mock sends from the real clock even under --now.
    const mock = await mockOnSocket({ seed: 7 });
    closers.push(() => mock.close());
    const log: string[] = [];
    const proxy = await proxyTo(mock.baseUrl, log);
    const found = JSON.parse((await raw(`${mock.baseUrl}/servers/find?limit=50&noFilter=true`)).body.toString()) as {
      results: { address: string; port: number }[];
    };
    const requests: TrafficCase[] = [...EVERYDAY];
    const sorts = ['users', 'version', 'address', 'port', 'updated'];
    for (let i = 0; requests.length < 300; i++) {
      const s = found.results[i % found.results.length]!;
      requests.push(
        {
          method: 'GET',
          path:
            `/servers/find?limit=${1 + (i % 30)}&sort=${sorts[i % 5]}&page=${1 + (i % 4)}` +
            `${i % 3 ? '&favicon=true' : ''}${i % 7 === 0 ? '&region=EU' : ''}`,
        },
        { method: 'GET', path: `/status/ping/${s.address}:${s.port}` },
        {
          method: 'GET',
          path: `/status/ping/${s.address}/${s.port}`,
          ...(i % 2 ? { credential: 'valid-key' as const } : {}),
        },
        {
          method: i % 2 ? 'HEAD' : 'GET',
          path: `/metadata/${['versions', 'countries', 'regions'][i % 3]}?limit=${1 + i}`,
        },
      );
    }
    requests.push({
      method: 'POST',
      path: '/user/apikeys',
      credential: 'valid-session',
      body: { name: 'through the proxy' },
    });
    requests.push({ method: 'OPTIONS', path: '/servers/find' });
    for (const c of requests) {
      const headers = { ...caseHeaders(c), 'accept-encoding': 'gzip, br', origin: 'http://localhost:5173' };
      const body = c.body === undefined ? undefined : JSON.stringify(c.body);
      // Writes go once, through the proxy: what matters is that the answer comes back as the mock gave it.
      const direct = c.method === 'POST' ? undefined : await raw(`${mock.baseUrl}${c.path}`, c.method, headers, body);
      const proxied = await raw(`${proxy.baseUrl}${c.path}`, c.method, headers, body);
      if (!direct) {
        expect(proxied.status, c.path).toBe(201);
        continue;
      }
      expect(`${proxied.status} ${proxied.reason}`, c.path).toBe(`${direct.status} ${direct.reason}`);
      expect(mattering(proxied.headers), c.path).toEqual(mattering(direct.headers));
      // A key list says when each key was last used: the request just before changed it.
      if (c.path.startsWith('/user/') && proxied.status === 200)
        expect(JSON.parse(proxied.body.toString()).keys.length).toBe(JSON.parse(direct.body.toString()).keys.length);
      // Relative times are read off the real clock when each answer is made: a unit can tick over between the two.
      else if (c.path.includes('relativeTime=true'))
        expect(withoutPings(proxied.body), c.path).toBe(withoutPings(direct.body));
      else expect(proxied.body.equals(direct.body), c.path).toBe(true);
    }
    await proxy.judged();
    expect(log).toEqual([]);
    const outcome = proxy.outcome();
    expect(outcome.exitCode).toBe(0);
    expect(outcome.figures.join()).toMatch(
      new RegExp(`Answers: ${requests.length} judged, 0 forwarded but not judged`),
    );
  }, 120_000);
});

describe('what HTTP asks of a gateway', () => {
  it(
    'a 501 stays a 501, bytes stream before the upstream ends, hop-by-hop fields stay on their hop, Set-Cookie ' +
      'lines pass, keep-alive holds',
    async () => {
      let seen: IncomingMessage | undefined;
      let release: () => void = () => {};
      let regions = 0;
      const upstream = createServer((req, res) => {
        seen = req;
        if (req.url!.endsWith('/metadata/regions')) {
          // The same body each time; the rate-limit headers only on the first answer.
          const limits =
            regions++ === 0
              ? { 'X-RateLimit-Limit': '20', 'X-RateLimit-Remaining': '19', 'X-RateLimit-Reset': '1795456260' }
              : {};
          res
            .writeHead(200, { 'Content-Type': 'application/json', ...limits })
            .end('{"unique_regions":0,"total_servers":0,"regions":[]}');
        } else if (req.url!.endsWith('/unimplemented')) {
          res
            .writeHead(501, 'Not Implemented Here', { 'Content-Type': 'application/json' })
            .end('{"success":false,"message":"Not Implemented: soon"}');
        } else if (req.url!.endsWith('/slow')) {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.write('{"part":1,');
          release = () => res.end('"rest":2}');
        } else {
          res.setHeader('Set-Cookie', ['a=1; Path=/', 'b=2; Path=/']);
          res
            .writeHead(200, {
              Connection: 'X-Hop-Answer',
              'X-Hop-Answer': 'one hop',
              'Keep-Alive': 'timeout=9',
              'X-End': 'kept',
              'Content-Type': 'application/json',
            })
            .end('{}');
        }
      });
      await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
      closers.push(
        () =>
          new Promise((r) => {
            upstream.closeAllConnections();
            upstream.close(() => r());
          }),
      );
      const port = (upstream.address() as AddressInfo).port;
      const log: string[] = [];
      const proxy = await proxyTo(`http://127.0.0.1:${port}/api/v0.1`, log);

      const unimplemented = await raw(`${proxy.baseUrl}/unimplemented`);
      expect(`${unimplemented.status} ${unimplemented.reason} ${unimplemented.body}`).toBe(
        '501 Not Implemented Here {"success":false,"message":"Not Implemented: soon"}',
      );

      const one = new Agent({ keepAlive: true, maxSockets: 1 });
      closers.push(async () => one.destroy());
      const plain = await raw(
        `${proxy.baseUrl}/plain`,
        'GET',
        [
          'Host',
          new URL(proxy.origin).host,
          'Connection',
          'keep-alive, X-Hop',
          'X-Hop',
          'secret of this hop',
          'TE',
          'trailers',
          'Proxy-Authorization',
          'Basic cHJveHk6c2VjcmV0',
          'X-End',
          'kept',
          'Via',
          '1.1 browser-cache',
        ],
        undefined,
        one,
      );
      expect(seen!.headers).toMatchObject({
        host: `127.0.0.1:${port}`,
        'x-end': 'kept',
        via: '1.1 browser-cache, 1.1 server-listing-proxy',
      });
      for (const gone of ['x-hop', 'te', 'proxy-authorization']) expect(seen!.headers[gone], gone).toBeUndefined();
      const names = plain.headers.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
      expect(names).not.toContain('x-hop-answer');
      expect(plain.headers.join('\n')).toContain('Set-Cookie\na=1; Path=/\nSet-Cookie\nb=2; Path=/\nX-End\nkept');
      expect(plain.headers.join('\n')).not.toContain('timeout=9');
      // The client's connection is kept between requests.
      expect((await raw(`${proxy.baseUrl}/plain`, 'GET', {}, undefined, one)).socket).toBe(plain.socket);

      // The first bytes reach the client while the upstream has not finished its answer.
      const first = await new Promise<string>((resolve, reject) => {
        const req = request(`${proxy.baseUrl}/slow`, (res) => res.once('data', (c: Buffer) => resolve(c.toString())));
        req.on('error', reject);
        req.end();
      });
      expect(first).toBe('{"part":1,');
      release();

      // The same bytes again need no second reading of the body, but the headers of each answer are judged.
      for (let i = 0; i < 3; i++) expect((await raw(`${proxy.baseUrl}/metadata/regions`)).status).toBe(200);
      await proxy.judged();
      const headers = proxy
        .outcome()
        .reports.flatMap((r) => r.results)
        .find((r) => r.operationId === 'listRegions' && r.status === 'fail');
      expect(headers?.message).toMatch(
        /X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset missing.*\(2 of 3 answers judged break it/,
      );
      expect(log.filter((l) => l.includes('listRegions'))).toHaveLength(1);
    },
  );
});

describe('through the proxy to a reference server with defects', () => {
  const defects: Defect[] = [
    'auth-not-enforced',
    'wrong-type',
    'limit-ignored',
    'sql-500',
    'html-404',
    '404-wrong-method',
    'no-rate-limit-headers',
    'out-of-range-accepted',
    // A browser's calls from another origin, and its preflights: the registry's cors judge, no code of the proxy's.
    'cors-no-expose-headers',
    'cors-preflight-missing-method',
  ];

  it('answers pass unchanged; each defect is logged once, ' +
    'at its level, with its repro; the outcome fails', async () => {
    const server = await startReferenceServer(defects);
    closers.push(() => server.close());
    const log: string[] = [];
    const proxy = await proxyTo(server.baseUrl, log);
    for (const d of defects) {
      const c = SHOWN[d]!.request;
      for (let i = 0; i < 2; i++) {
        const direct = await raw(`${server.baseUrl}${c.path}`, c.method, caseHeaders(c));
        const proxied = await raw(`${proxy.baseUrl}${c.path}`, c.method, caseHeaders(c));
        expect(`${proxied.status} ${mattering(proxied.headers).join('|')}`, c.path).toBe(
          `${direct.status} ${mattering(direct.headers).join('|')}`,
        );
        expect(proxied.body.toString(), c.path).toBe(direct.body.toString());
      }
    }
    await proxy.judged();
    for (const d of defects) {
      const { operation, judge, level, why } = SHOWN[d]!.seen;
      const lines = log.filter(
        (l) => l.startsWith(`VIOLATION [${level}] ${operation}  ${judge}: `) && why.test(l.split(`${judge}: `)[1]!),
      );
      expect(lines, `${d}:\n${log.join('\n')}`).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(`; repro: curl -i .*'${server.baseUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
      );
    }
    // Every line is a new violation: none repeats.
    expect(new Set(log.map((l) => /^VIOLATION \[\w+\] .+? {2}[\w-]+: /.exec(l)![0])).size).toBe(log.length);
    expect(proxy.outcome().exitCode).toBe(1);
  }, 60_000);
});

describe('answers that trip the judge, and credentials an answer echoes', () => {
  it(
    'rows that are not objects, and bodies the judge chokes on, leave the proxy up with its counts; a ' +
      'credential echoed by an answer is masked in the log',
    async () => {
      const key = 'sls_live_notafixture_0123456789abcdef0123456789abcdef';
      const upstream = createServer((req, res) => {
        const url = req.url!;
        const json = (status: number, body: unknown) =>
          res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
        if (url.includes('/servers/find'))
          json(200, { displayed: 3, total: 3, filtered: 3, results: [null, 7, ['x']] });
        else if (url.includes('/user/apikeys'))
          json(500, {
            success: false,
            message: `Internal Server Error: no user for key ${String(req.headers.authorization).split(' ')[1]}`,
          });
        else json(200, {});
      });
      await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
      closers.push(() => new Promise<void>((r) => upstream.close(() => r())));
      const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/api/v0.1`;
      const log: string[] = [];
      const proxy = await proxyTo(base, log);

      const odd = await raw(`${proxy.baseUrl}/servers/find?limit=2&sort=users&country=de`);
      expect(odd.status).toBe(200);
      expect(JSON.parse(odd.body.toString()).results).toEqual([null, 7, ['x']]);
      const echoed = await raw(`${proxy.baseUrl}/user/apikeys`, 'GET', { Authorization: `Bearer ${key}` });
      expect(echoed.status).toBe(500);
      await proxy.judged();

      // Still serving, and the report has both answers: the schema finding for the rows, the 5xx.
      expect((await raw(`${proxy.baseUrl}/metadata/regions`)).status).toBe(200);
      await proxy.judged();
      const results = proxy.outcome().reports.flatMap((r) => r.results);
      expect(results.filter((r) => r.status === 'fail').map((r) => `${r.operationId} ${r.check}`)).toEqual(
        expect.arrayContaining([
          'findServers schema: the body matches the schema its status declares',
          'listApiKeys server-error: no answer is a server error (5xx)',
        ]),
      );
      expect(results.some((r) => r.check === NOT_JUDGED)).toBe(false);
      // The key the client sent, echoed in the answer's message, is never printed whole.
      expect(log.join('\n')).not.toContain(key);
      expect(log.some((l) => l.includes('listApiKeys') && l.includes('server-error: '))).toBe(true);
    },
  );
});
