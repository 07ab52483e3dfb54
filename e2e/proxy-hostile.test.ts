// The validation proxy in front of an upstream that misbehaves, over real sockets (issue
// 31): no secret reaches any output (the log, every report, the recording), cut or
// encoded; every answer a client could not use is a failure, never "not judged"; valid
// traffic HTTP allows passes (1xx, any reason phrase, a 304 with Content-Length); slow
// answers give their connection back; copies in flight are charged to one budget; only
// the hosts it is served on are answered; text from the upstream never forges a line, an
// XML error or a markdown link. Each upstream is a few lines of node:http or a raw socket.
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NOT_JUDGED } from '../contract-tests/proxy/judge-traffic.ts';
import { HELD_LIMIT, startProxy, type ProxyOptions, type RunningProxy } from '../contract-tests/proxy/proxy.ts';
import { writeReports, reportPaths } from '../contract-tests/reports/files.ts';
import { summary } from '../contract-tests/reports/outcome.ts';
import { loadSpec } from '../spec/load.ts';
import { LIMIT_HEADERS } from '../spec/testing/exchanges.ts';
import { rawConnection } from '../testing/raw-http.ts';

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c();
});

const JSON_HEADERS = { 'Content-Type': 'application/json', ...LIMIT_HEADERS };
const REGIONS = '{"unique_regions":0,"total_servers":0,"regions":[]}';
const example = loadSpec().paths['/servers/find']!.get.responses['200'].content['application/json'].examples;
const ROW = Object.values<any>(example)[0].value.results[0] as Record<string, unknown>;
const row = (patch: Record<string, unknown>) => ({ ...ROW, last_ping: new Date().toISOString(), ...patch });

/** An upstream of a few lines on a free port; its base URL. */
async function upstream(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(
    () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v0.1`;
}

/** An upstream that writes raw bytes for each request (framing node:http would not write). */
async function rawUpstream(answer: (socket: Socket, head: string) => void): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let head = '';
    socket.on('data', (d: Buffer) => {
      head += d.toString('latin1');
      if (head.includes('\r\n\r\n')) {
        answer(socket, head);
        head = '';
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(
    () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  );
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v0.1`;
}

async function proxyTo(base: string, log: string[] = [], more: Partial<ProxyOptions> = {}): Promise<RunningProxy> {
  const proxy = await startProxy({ upstream: base, log: (l) => log.push(l), ...more });
  closers.push(() => proxy.close(200));
  return proxy;
}

interface Got {
  status: number;
  reason: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  informational: number[];
}

/** One request over node:http (a fresh connection), with the 1xx answers it saw before the final one. */
function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Got> {
  return new Promise((resolve, reject) => {
    const informational: number[] = [];
    const req = request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          reason: res.statusMessage!,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
          informational,
        }),
      );
    });
    req.on('information', (info) => informational.push(info.statusCode));
    req.on('error', reject);
    req.end();
  });
}

/** Every output the proxy writes about its run: the log, the summary, and each report file. */
function everyOutput(proxy: RunningProxy, log: string[]): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'proxy-hostile-'));
  const outcome = proxy.outcome();
  writeReports(outcome, reportPaths({ reports: dir }, dir, 'proxy'), 'proxy');
  const files = Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
  return { log: log.join('\n'), summary: summary(outcome), ...files };
}

/** Every result of the proxy's reports so far. */
const results = (proxy: RunningProxy) => proxy.outcome().reports.flatMap((r) => r.results);
const failures = (proxy: RunningProxy) => results(proxy).filter((r) => r.status === 'fail');
/** The result saying an answer went unjudged, if any. */
const notJudged = (proxy: RunningProxy) => results(proxy).find((r) => r.check === NOT_JUDGED);

describe('a secret never leaves the proxy, whatever is cut or encoded', () => {
  it(
    'a created key in a contract-breaking 201, cut by an excerpt inside its secret: masked in the log, the ' +
      'summary and every report',
    async () => {
      const secret = `sls_live_${'0123456789abcdef'.repeat(2)}89abcdef`;
      const base = await upstream((_req, res) => {
        // No `id`, `prefix` or dates: the schema fails it, and the failure's
        // excerpt of the body is cut at 300 characters,
        // inside the secret.
        const body = JSON.stringify({ success: true, key: { name: 'x'.repeat(247), secret } });
        // (The secret starts at character 290 of the body: the 300-character excerpt ends 10 characters into it.)
        res.writeHead(201, JSON_HEADERS).end(body);
      });
      const log: string[] = [];
      const proxy = await proxyTo(base, log);
      const created = await fetch(`${proxy.baseUrl}/user/apikeys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: `sls_session=sess_${'a'.repeat(40)}` },
        body: '{"name":"ci"}',
      });
      expect(await created.text()).toContain(secret);
      await proxy.judged();
      expect(failures(proxy).some((f) => f.check.startsWith('schema: '))).toBe(true);
      for (const [where, text] of Object.entries(everyOutput(proxy, log))) {
        // A mask shows 8 characters and the last 4: no longer piece of the secret may show.
        for (let i = 0; i + 9 <= secret.length; i++) expect(text, where).not.toContain(secret.slice(i, i + 9));
      }
    },
  );

  it('a key in Authorization and percent-encoded in a query, and one echoed after 1,000 junk credentials: masked ' +
    'everywhere, kept out of the recording', async () => {
    const key = `sls_live_${'c0ffee00'.repeat(5)}`;
    const late = `sls_live_${'deadbeef'.repeat(5)}`;
    const base = await upstream((req, res) => {
      const auth = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (req.url!.includes('/servers/find')) {
        // The upstream puts the caller's token into a server's MOTD (a reflected credential).
        const results = [
          row({ address: 'echo.example', port: 1, motd: `hello ${auth}` }),
          row({ address: 'plain.example', port: 2 }),
        ];
        res.writeHead(200, JSON_HEADERS).end(JSON.stringify({ displayed: 2, total: 2, results }));
      } else if (req.url!.includes('/user/apikeys'))
        res
          .writeHead(500, JSON_HEADERS)
          .end(JSON.stringify({ success: false, message: `Internal Server Error: no user for ${auth}` }));
      else res.writeHead(200, JSON_HEADERS).end(REGIONS);
    });
    const dir = mkdtempSync(join(tmpdir(), 'proxy-record-'));
    const file = join(dir, 'recorded.json');
    const log: string[] = [];
    const proxy = await proxyTo(base, log, { record: file });
    const encoded = [...Buffer.from(key)]
      .map((b, i) => (i % 2 ? `%${b.toString(16)}` : String.fromCharCode(b)))
      .join('');
    expect(
      (await get(`${proxy.baseUrl}/servers/find?limit=2&api_key=${encoded}`, { authorization: `Bearer ${key}` }))
        .status,
    ).toBe(200);
    for (let i = 0; i < 1000; i++)
      await get(`${proxy.baseUrl}/metadata/regions`, { authorization: `Bearer junk_${String(i).padStart(40, '0')}` });
    expect((await get(`${proxy.baseUrl}/user/apikeys`, { authorization: `Bearer ${late}` })).status).toBe(500);
    expect((await get(`${proxy.baseUrl}/servers/find?limit=2`, { authorization: `Bearer ${late}` })).status).toBe(200);
    await proxy.judged();
    const recording = proxy.finishRecording()!;
    const recorded = readFileSync(file, 'utf8');
    const outputs = { ...everyOutput(proxy, log), recording: recorded };
    for (const [where, text] of Object.entries(outputs)) {
      for (const secret of [key, late]) {
        for (let i = 0; i + 9 <= secret.length; i++) expect(text, where).not.toContain(secret.slice(i, i + 9));
        expect(decodeURIComponent(text.replace(/%(?![0-9a-f]{2})/gi, '%25')), where).not.toContain(secret);
      }
    }
    // The rows that held a credential are left out; the rest are kept.
    expect(recording).toMatchObject({ servers: 1, withCredential: 1 });
    expect(log.join('\n')).toMatch(/listApiKeys {2}server-error: .*no user for sls_live…beef/);
  }, 60_000);

  it(
    'Authorization: Bearer null (a logged-out page) ' + 'makes null no secret: rows holding null are recorded',
    async () => {
      const base = await upstream((_req, res) =>
        res
          .writeHead(200, JSON_HEADERS)
          .end(
            JSON.stringify({ displayed: 1, total: 1, results: [row({ address: 'n.example', port: 3, city: null })] }),
          ),
      );
      const file = join(mkdtempSync(join(tmpdir(), 'proxy-null-')), 'recorded.json');
      const proxy = await proxyTo(base, [], { record: file });
      await get(`${proxy.baseUrl}/servers/find?limit=1`, { authorization: 'Bearer null' });
      await proxy.judged();
      expect(proxy.finishRecording()).toMatchObject({ servers: 1, withCredential: 0 });
      expect(JSON.parse(readFileSync(file, 'utf8')).servers[0].city).toBe(null);
    },
  );
});

describe('an answer the client could not use is a failure, never "not judged"', () => {
  it(
    'a body cut mid-way, gzip that does not decode, an unknown encoding, no answer at all: each a readable ' +
      'failure, one per kind',
    async () => {
      const base = await rawUpstream((socket, head) => {
        const path = head.split(' ')[1]!;
        const ok = (headers: string) =>
          socket.write(
            `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-RateLimit-Limit: ` +
              `20\r\nX-RateLimit-Remaining: 19\r\nX-RateLimit-Reset: 1795456260\r\n${headers}\r\n`,
          );
        if (path.endsWith('/regions')) {
          ok(`Content-Length: ${REGIONS.length}\r\n`);
          socket.end(REGIONS.slice(0, 20));
        } else if (path.endsWith('/countries')) {
          const junk = Buffer.from('not gzip at all, not even close');
          ok(`Content-Encoding: gzip\r\nContent-Length: ${junk.length}\r\n`);
          socket.write(junk);
        } else if (path.includes('/versions')) {
          const n = /n=(\d+)/.exec(path)?.[1] ?? '0';
          const body = Buffer.from('{"unique_versions":0,"versions":[]}');
          ok(`Content-Encoding: x-odd-${n}\r\nContent-Length: ${body.length}\r\n`);
          socket.write(body);
        } else socket.destroy();
      });
      const log: string[] = [];
      const proxy = await proxyTo(base, log);
      await get(`${proxy.baseUrl}/metadata/regions`).catch(() => undefined);
      await get(`${proxy.baseUrl}/metadata/countries`);
      for (let n = 0; n < 50; n++) await get(`${proxy.baseUrl}/metadata/versions?n=${n}`);
      await get(`${proxy.baseUrl}/servers/find?limit=1`).catch(() => undefined);
      await proxy.judged();
      const failed = failures(proxy).filter((f) => f.check.startsWith('readable: '));
      expect(Object.fromEntries(failed.map((f) => [f.operationId, f.message]))).toEqual({
        listRegions: expect.stringContaining(
          `the connection closed after 20 bytes of its body of the ${REGIONS.length} its Content-Length says`,
        ),
        listCountries: expect.stringMatching(/its body does not decode as gzip/),
        listVersions: expect.stringMatching(/encoded as "x-odd-0", which clients do not decode.*\(50 of 50 answers/),
        findServers: expect.stringMatching(/^no answer: the connection closed before an answer/),
      });
      // One reason per kind: no other encoding's name is kept anywhere.
      const json = everyOutput(proxy, log)['proxy-report.json']!;
      expect(json).not.toMatch(/x-odd-[1-9]/);
      expect(notJudged(proxy)).toBeUndefined();
      expect(proxy.outcome().exitCode).toBe(1);
    },
  );

  it(
    'JSON nested deeper than a judge can walk (the judge ' + 'throws): a failure of that judge, the proxy still up',
    async () => {
      const deep = `{"displayed":1,"total":1,"results":[${'['.repeat(10_000)}${']'.repeat(10_000)}]}`;
      const base = await upstream((_req, res) => res.writeHead(200, JSON_HEADERS).end(deep));
      const proxy = await proxyTo(base);
      expect((await get(`${proxy.baseUrl}/servers/find?limit=1`)).status).toBe(200);
      await proxy.judged();
      const threw = failures(proxy).find((f) => f.check.startsWith('hygiene: '));
      expect(threw?.message).toMatch(/the hygiene judge could not read this exchange: Maximum call stack/);
      expect(notJudged(proxy)).toBeUndefined();
      expect((await get(`${proxy.baseUrl}/servers/find?limit=1`)).status).toBe(200);
    },
  );

  it('an upstream that cannot be reached is not judged (it said nothing): a gate exits 2, not 1', async () => {
    const proxy = await proxyTo('http://127.0.0.1:9/api/v0.1');
    expect((await get(`${proxy.baseUrl}/metadata/regions`)).status).toBe(502);
    await proxy.judged();
    const skip = notJudged(proxy);
    expect(skip?.message).toMatch(/the upstream could not be reached/);
  });
});

describe('valid traffic passes', () => {
  it('103 Early Hints, a reason phrase above U+00FF, a 304 with Content-Length: the client gets each', async () => {
    const base = await rawUpstream((socket, head) => {
      const path = head.split(' ')[1]!;
      const limits = 'X-RateLimit-Limit: 20\r\nX-RateLimit-Remaining: 19\r\nX-RateLimit-Reset: 1795456260\r\n';
      if (path.includes('hints')) {
        socket.write('HTTP/1.1 103 Early Hints\r\nLink: </app.css>; rel=preload; as=style\r\n\r\n');
        socket.write(
          `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n${limits}Content-Length: ` +
            `${REGIONS.length}\r\n\r\n${REGIONS}`,
        );
      } else if (path.includes('reason')) {
        socket.write(
          Buffer.from(
            `HTTP/1.1 200 Tout va bien \u0100 ✓\r\nContent-Type: application/json\r\n${limits}Content-Length: ` +
              `${REGIONS.length}\r\n\r\n${REGIONS}`,
          ),
        );
      } else
        socket.write(`HTTP/1.1 304 Not Modified\r\nETag: "r1"\r\n${limits}Content-Length: ${REGIONS.length}\r\n\r\n`);
    });
    const log: string[] = [];
    const proxy = await proxyTo(base, log);
    const hinted = await get(`${proxy.baseUrl}/metadata/regions?hints=1`);
    expect([hinted.informational, hinted.status, hinted.body]).toEqual([[103], 200, REGIONS]);
    const reason = await get(`${proxy.baseUrl}/metadata/regions?reason=1`);
    expect([reason.status, Buffer.from(reason.reason, 'latin1').toString('utf8'), reason.body]).toEqual([
      200,
      'Tout va bien \u0100 ✓',
      REGIONS,
    ]);
    const notModified = await get(`${proxy.baseUrl}/metadata/regions?etag=1`, { 'if-none-match': '"r1"' });
    expect([notModified.status, notModified.headers.etag, notModified.body]).toEqual([304, '"r1"', '']);
    await proxy.judged();
    expect(log).toEqual([]);
  });

  it('answers slower than --upstream-timeout give their connection back: 130 stalled answers hold no other ' +
    'request for ever', async () => {
    const stalled = new Set<ServerResponse>();
    const base = await upstream((req, res) => {
      if (req.url!.includes('stall')) {
        stalled.add(res);
        return;
      }
      res.writeHead(200, JSON_HEADERS).end(REGIONS);
    });
    closers.push(async () => {
      for (const r of stalled) r.destroy();
    });
    const proxy = await proxyTo(base, [], { upstreamTimeoutMs: 1000 });
    const slow = Array.from({ length: 130 }, (_, i) => get(`${proxy.baseUrl}/metadata/regions?stall=${i}`));
    const fast = await get(`${proxy.baseUrl}/metadata/regions`);
    expect(fast.body).toBe(REGIONS);
    const ended = await Promise.all(slow);
    expect(new Set(ended.map((r) => r.status))).toEqual(new Set([504]));
    await proxy.judged();
    const noAnswer = failures(proxy).find((f) => f.check.startsWith('readable: '));
    expect(noAnswer?.message).toMatch(/no answer: none within 1000 ms \(UND_ERR_HEADERS_TIMEOUT\) \(130 of/);
  }, 30_000);

  it('copies of answers in flight are charged to the judging budget: 40 answers of 7.5 MiB at once hold no more ' +
    'than it', async () => {
    const size = 7.5 * 2 ** 20;
    const half = Buffer.alloc(size / 2, 0x20);
    const waiting: (() => void)[] = [];
    let started = 0;
    const base = await upstream((_req, res) => {
      res.writeHead(200, { ...JSON_HEADERS, 'Content-Length': String(size + REGIONS.length) });
      res.write(half);
      started++;
      waiting.push(() => res.end(Buffer.concat([half, Buffer.from(REGIONS)])));
    });
    const proxy = await proxyTo(base);
    const answers = Array.from({ length: 40 }, () => get(`${proxy.baseUrl}/metadata/regions`));
    while (started < 40) await new Promise((r) => setTimeout(r, 20));
    // Every answer half sent (150 MiB through the proxy): what it holds is within the budget.
    await new Promise((r) => setTimeout(r, 200));
    expect(proxy.held()).toBeLessThanOrEqual(HELD_LIMIT);
    for (const w of waiting) w();
    expect((await Promise.all(answers)).every((a) => a.body.length === size + REGIONS.length)).toBe(true);
    await proxy.judged();
    expect(proxy.held()).toBe(0);
    const skip = notJudged(proxy);
    expect(skip?.message).toMatch(/while the judge had fallen behind/);
  }, 60_000);
});

describe('the hosts it is served on, and only those', () => {
  it(
    'another Host (DNS rebinding) gets 403, the report too, and reaches nothing; --allowed-host adds one; an ' +
      'absolute-form authority is checked and never forwarded',
    async () => {
      const seen: string[] = [];
      const base = await upstream((req, res) => {
        seen.push(`${req.headers.host} ${req.url}`);
        res.writeHead(200, JSON_HEADERS).end(REGIONS);
      });
      const proxy = await proxyTo(base, [], { allowedHosts: ['.myproj.test'] });
      const port = Number(new URL(proxy.origin).port);
      const ask = async (target: string, host: string) => {
        const c = await rawConnection(port);
        c.write(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
        const r = await c.response();
        c.destroy();
        return r;
      };
      for (const target of ['/api/v0.1/metadata/regions', '/__proxy/report', '/anything']) {
        const refused = await ask(target, 'evil.test');
        expect(refused.status, target).toBe(403);
        expect(JSON.parse(refused.body).message).toMatch(
          /does not answer the host 'evil\.test'.*--allowed-host evil\.test/,
        );
      }
      expect((await ask('/api/v0.1/metadata/regions', 'api.myproj.test:4020')).status).toBe(200);
      expect((await ask('/__proxy/report', `localhost:${port}`)).status).toBe(200);
      // Absolute form: its authority is the host asked for (not Host), and only the path goes on.
      expect((await ask('http://evil.test/api/v0.1/metadata/regions', '127.0.0.1')).status).toBe(403);
      expect((await ask(`http://127.0.0.1:${port}/api/v0.1/metadata/regions?x=1`, 'evil.test')).status).toBe(200);
      const upstreamHost = new URL(base).host;
      expect(seen).toEqual([
        `${upstreamHost} /api/v0.1/metadata/regions`,
        `${upstreamHost} /api/v0.1/metadata/regions?x=1`,
      ]);
    },
  );
});

describe('text from the upstream is never trusted', () => {
  it(
    'a 5xx detail with escapes, forged lines, U+FFFF, an image and a link: one log line, well-formed JUnit, ' +
      'inert markdown',
    async () => {
      const detail =
        'Internal Server Error: \u001b[32mok\u001b[0m\n::warning::forged\r\nPASSED: 1 checks run, 0 failed\u202e ' +
        '\uffff\u0001\ud800 ![pixel](https://evil.example/t.png) [click](https://evil.example/x) www.evil.example';
      // Raw, as a crashing framework writes its stack: not JSON, so no escaping of its own.
      const base = await upstream((_req, res) =>
        res.writeHead(500, { ...JSON_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' }).end(detail),
      );
      const log: string[] = [];
      const proxy = await proxyTo(base, log);
      await get(`${proxy.baseUrl}/metadata/regions`);
      await proxy.judged();
      const out = everyOutput(proxy, log);
      expect(log.length).toBeGreaterThan(0);
      expect(log.every((l) => l.startsWith('VIOLATION ') && !l.includes('\n'))).toBe(true);
      for (const text of [out.log!, out.summary!]) {
        // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for them is the point
        expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
        expect(text.split('\n').some((l) => /^(::warning::|PASSED)/.test(l))).toBe(false);
      }
      expect(out.log).toContain('\\x1b[32mok');
      // XML 1.0's characters only, and every element closed.
      const xml = out['proxy-junit.xml']!;
      expect(xml).not.toMatch(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u);
      expect(xml.match(/<testcase /g)?.length).toBe((xml.match(/<\/testcase>|<testcase [^>]*\/>/g) ?? []).length);
      // Outside code spans and fences (where nothing is markup), no image, link or bare URL of the upstream's.
      const md = out['proxy-summary.md']!.replace(/^\s*(`{3,})[^\n]*\n[\s\S]*?^\s*\1\s*$/gm, '').replace(
        /(`+)[^`][\s\S]*?\1/g,
        '',
      );
      // (A bracket escaped with a backslash is text: `\![pixel\](...)` renders as it reads.)
      expect(md).not.toMatch(/(?<!\\)!\[|(?<!\\)\]\(|https:\/\/evil|www\.evil/);
      expect(md).toContain('evil');
    },
  );
});

describe('what the registry now says, through a real proxy', () => {
  it(
    'a placeholder credential is none (Bearer undefined, Basic, an empty session): a protected answer 200 to it ' +
      'is a violation',
    async () => {
      const base = await upstream((_req, res) => res.writeHead(200, JSON_HEADERS).end('{"keys":[]}'));
      const log: string[] = [];
      const proxy = await proxyTo(base, log);
      for (const headers of [
        { authorization: 'Bearer undefined' } as Record<string, string>,
        { authorization: 'Basic dXNlcjpwYXNz' },
        { cookie: 'sls_session=; theme=dark' },
      ])
        await get(`${proxy.baseUrl}/user/apikeys`, headers);
      await proxy.judged();
      const auth = failures(proxy).find((f) => f.operationId === 'listApiKeys' && f.check.startsWith('auth: '));
      expect(auth?.message).toMatch(/expected 401: it carries no credential.*\(3 of 3 answers judged break it/);
    },
  );

  it(
    'odd spellings of a path are routed as the mock routes them; a 200 to a path the API does not have is a ' +
      'violation; Prefer: code=500 excuses no 500',
    async () => {
      const broken = JSON.stringify({ displayed: 1, total: 1, results: [{ port: 'x' }] });
      const base = await upstream((req, res) => {
        if (req.url!.includes('/metadata/')) res.writeHead(500, JSON_HEADERS).end('{"success":false,"message":"boom"}');
        else res.writeHead(200, JSON_HEADERS).end(broken);
      });
      const proxy = await proxyTo(base);
      for (const path of ['/servers/find/', '/Servers/Find', '//servers/find', '/servers/%66ind'])
        expect((await get(`${proxy.baseUrl}${path}?limit=1`)).status).toBe(200);
      await get(`${proxy.baseUrl}/metadata/regions`, { prefer: 'code=500' });
      await proxy.judged();
      const shown = failures(proxy).map((f) => `${f.operationId} ${f.check.split(':')[0]}`);
      expect(shown).toEqual(
        expect.arrayContaining(['(no operation) routing', 'findServers schema', 'listRegions server-error']),
      );
      const routing = failures(proxy).find((f) => f.check.startsWith('routing: '));
      expect(routing?.message).toMatch(/\(3 of 3 answers judged break it/);
    },
  );
});
