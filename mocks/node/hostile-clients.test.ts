// What an adversarial pass over real sockets found, one describe per finding: each test
// sends what such a client sends, over a real socket, and fails on the mock before the fix.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lowerCased } from '../../spec/judges/exchange.ts';
import { findingsOf, JUDGES, JudgeContext } from '../../spec/judges/registry.ts';
import { reasonPhrase } from '../../spec/messages.ts';
import { rawConnection, type RawConnection, type RawResponse } from '../../testing/raw-http.ts';
import { MAX_SESSIONS_PER_USER } from '../core/auth/credentials.ts';
import { credential, model, testOptions } from '../testing/test-app.ts';
import { LINGER_MS } from './lingering-close.ts';
import { startMock, type RunningMock } from './server.ts';
import { connectionCap, openFilesLimit, SOCKET_LIMITS } from './socket-limits.ts';

const API = '/api/v0.1';
const VALID_SESSION = `sls_session=${credential('valid-session').value}`;
const VALID_KEY = credential('valid-key').value;
const portOf = (m: RunningMock) => Number(new URL(m.origin).port);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock(testOptions({ servers: 50 }));
});
afterAll(async () => {
  await mock?.close();
});

/** One request on a connection of its own; `head` is everything after the request line's first line. */
async function ask(request: string, m = mock): Promise<RawResponse> {
  const conn = await rawConnection(portOf(m));
  try {
    conn.write(request);
    return await conn.response();
  } finally {
    conn.destroy();
  }
}

const get = (path: string, headers = '') => ask(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`);
const post = (path: string, body: string, headers = '') =>
  ask(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ` +
      `${Buffer.byteLength(body)}\r\n${headers}\r\n${body}`,
  );

function expectErrorShape(res: RawResponse, status: number, message: RegExp): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toBe('application/json');
  expect(JSON.parse(res.body)).toEqual({
    success: false,
    message: expect.stringMatching(new RegExp(`^${reasonPhrase(status)}: `)),
  });
  expect(JSON.parse(res.body).message).toMatch(message);
}

/** Alice's keys, as her fixture key lists them. */
async function aliceKeyCount(): Promise<number> {
  const res = await get(`${API}/user/apikeys`, `Authorization: Bearer ${VALID_KEY}\r\n`);
  expect(res.status).toBe(200);
  return JSON.parse(res.body).keys.length;
}

/** A dev login's cookie (`sls_session=...`). */
async function login(): Promise<string> {
  const res = await post('/__mock/login', '{"user":"alice@example.test"}');
  expect(res.status).toBe(200);
  return res.headers['set-cookie']!.split(';')[0]!;
}

/**
 * Sends a request's headers and the first half of its body, lets `meanwhile` run, then
 * the rest: the answer to a request authorized before `meanwhile` and acted on after it.
 */
async function trickled(
  path: string,
  body: string,
  headers: string,
  meanwhile: () => Promise<void>,
): Promise<RawResponse> {
  const conn = await rawConnection(portOf(mock));
  try {
    const half = Math.floor(body.length / 2);
    conn.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ` +
        `${Buffer.byteLength(body)}\r\n${headers}\r\n${body.slice(0, half)}`,
    );
    await sleep(150); // the headers are in: the request has been authorized
    await meanwhile();
    conn.write(body.slice(half));
    return await conn.response();
  } finally {
    conn.destroy();
  }
}

describe('1. authorization holds until the request acts, however slowly its body comes', () => {
  const newKey = JSON.stringify({ name: 'made-while-trickling' });

  it('a session logged out while the body trickles in creates no key: 401', async () => {
    await post('/__mock/reset', '');
    const before = await aliceKeyCount();
    const cookie = await login();
    const res = await trickled(`${API}/user/apikeys`, newKey, `Cookie: ${cookie}\r\n`, async () => {
      expect((await post('/__mock/logout', '', `Cookie: ${cookie}\r\n`)).status).toBe(200);
    });
    expectErrorShape(res, 401, /Invalid API key or session/);
    expect(await aliceKeyCount()).toBe(before);
  });

  it(
    "a reset while the body trickles in is a clean state: the fixture session's create answers 401 and lands " +
      'nowhere',
    async () => {
      await post('/__mock/reset', '');
      const fresh = await aliceKeyCount();
      const res = await trickled(`${API}/user/apikeys`, newKey, `Cookie: ${VALID_SESSION}\r\n`, async () => {
        expect((await post('/__mock/reset', '')).status).toBe(200);
      });
      expect(res.status).toBe(401);
      expect(await aliceKeyCount()).toBe(fresh);
      // The fixture session itself works again after the reset.
      expect((await post(`${API}/user/apikeys`, newKey, `Cookie: ${VALID_SESSION}\r\n`)).status).toBe(201);
      await post('/__mock/reset', '');
    },
  );

  it('a dev login whose body trickles in across a reset makes no session: 409', async () => {
    const res = await trickled('/__mock/login', '{"user":"alice@example.test"}', '', async () => {
      expect((await post('/__mock/reset', '')).status).toBe(200);
    });
    expectErrorShape(res, 409, /reset while this login was being sent/);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('a create whose credential stays valid still works when its body trickles', async () => {
    const cookie = await login();
    const res = await trickled(`${API}/user/apikeys`, newKey, `Cookie: ${cookie}\r\n`, async () => {});
    expect(res.status).toBe(201);
    await post('/__mock/reset', '');
  });
});

describe('2. the caches of what clients filter by stay within budgets charged for all they hold', () => {
  type Caches = Record<string, { entries: number; bytes: number; maxBytes: number }>;
  const caches = async (m = mock): Promise<Caches> =>
    JSON.parse((await ask('GET /__mock/info HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', m)).body).caches;
  /** Pipelined searches, 100 at a time, for motd texts `*flood<from>*` to `*flood<to - 1>*`, each `times` times. */
  async function search(from: number, to: number, times: number, m = mock): Promise<void> {
    const conn = await rawConnection(portOf(m));
    try {
      for (let at = from; at < to; at += 100) {
        const end = Math.min(to, at + 100);
        let requests = '';
        for (let k = at; k < end; k++)
          for (let t = 0; t < times; t++)
            requests += `GET ${API}/servers/find?motd=*flood${k}*&limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
        conn.write(requests);
        for (let k = 0; k < (end - at) * times; k++) expect((await conn.response()).status).toBe(200);
      }
    } finally {
      conn.destroy();
    }
  }

  it(
    '10,000 new filter values asked twice each: each cache evicts at its budget, an entry charged more than its ' +
      'bits',
    async () => {
      await search(0, 10_000, 2);
      const after = await caches();
      for (const name of ['rowSets', 'filterValues']) {
        const c = after[name]!;
        expect(c.bytes, name).toBeLessThanOrEqual(c.maxBytes);
        expect(c.entries, `${name} evicted`).toBeLessThan(10_000);
      }
      // A set of 50 servers is 8 bytes of bits; its key and objects are charged too.
      expect(after.rowSets!.bytes / after.rowSets!.entries).toBeGreaterThan(400);
    },
  );

  it('10,000 new filter values asked once each are answered, and a fresh mock keeps almost none of them', async () => {
    const fresh = await startMock(testOptions({ servers: 50 }));
    try {
      await search(0, 10_000, 1, fresh);
      const after = await caches(fresh);
      // Kept only on a second request: just the few the doorkeeper took for seen.
      for (const name of ['rowSets', 'filterValues']) expect(after[name]!.entries, name).toBeLessThan(10_000 / 64);
    } finally {
      await fresh.close();
    }
  });
});

describe('3. a cap on connections, and silent sockets freed in seconds', () => {
  it(
    `the defaults free a silent or slow client well before a minute; the cap leaves descriptors free under ` +
      `ulimit -n (${openFilesLimit() ?? 'unknown'} here)`,
    () => {
      expect(SOCKET_LIMITS.headersTimeoutMs).toBeLessThanOrEqual(10_000);
      expect(SOCKET_LIMITS.requestTimeoutMs).toBeLessThanOrEqual(30_000);
      expect(SOCKET_LIMITS.checkIntervalMs).toBeLessThanOrEqual(1_000);
      expect(connectionCap(1000, 20_000)).toBe(1000);
      expect(connectionCap(1000, 256)).toBe(192);
      expect(
        openFilesLimit(
          () =>
            'Limit Soft Limit Hard Limit Units\nMax open files            20000                20000            ' +
            '    files\n',
        ),
      ).toBe(20_000);
    },
  );

  it(
    'past the cap a new connection is answered 503 (not closed without a word), and once the silent ones time ' +
      'out, clients are served again',
    async () => {
      const CAP = 20;
      const capped = await startMock(testOptions({ servers: 10, maxConnections: CAP }), {
        timeouts: { headersTimeoutMs: 500, checkIntervalMs: 100 },
      });
      const silent: Socket[] = [];
      try {
        const port = portOf(capped);
        const opened = (s: Socket) =>
          new Promise<void>((resolve, reject) => s.once('connect', resolve).once('error', reject));
        for (let i = 0; i < CAP; i++) {
          const s = connect(port, '127.0.0.1');
          s.on('error', () => {});
          silent.push(s);
          await opened(s);
        }
        await sleep(50);
        // Over the cap: the answer comes at once, before the client has said anything.
        const extra = await rawConnection(port);
        const refused = await extra.response();
        expectErrorShape(refused, 503, /--max-connections/);
        expect(refused.headers['retry-after']).toBe('1');
        expect(refused.headers.connection).toBe('close');
        extra.destroy();
        // A client that sends its request reads the same answer.
        const late = await rawConnection(port);
        late.write(`GET ${API}/servers/find?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
        expect((await late.response()).status).toBe(503);
        late.destroy();
        // The silent sockets get their 408 after the header timeout and are let go (even
        // though these clients never close): then the mock takes clients again.
        const timedOut = await Promise.all(
          silent.map(
            (s) =>
              new Promise<string>((resolve) => {
                let got = '';
                s.on('data', (d) => (got += d.toString('latin1')));
                s.once('end', () => resolve(got.split('\r\n')[0]!));
              }),
          ),
        );
        expect(new Set(timedOut)).toEqual(new Set(['HTTP/1.1 408 Request Timeout']));
        await sleep(LINGER_MS + 300);
        const back = await rawConnection(port);
        back.write(`GET ${API}/servers/find?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
        expect((await back.response()).status).toBe(200);
        back.destroy();
      } finally {
        for (const s of silent) s.destroy();
        await capped.close();
      }
    },
  );
});

describe('4. dev logins never log out the fixture sessions', () => {
  it(
    `after ${MAX_SESSIONS_PER_USER + 1} logins as Alice, her fixture session still works; the oldest login is ` +
      `the one ended`,
    async () => {
      await post('/__mock/reset', '');
      const conn: RawConnection = await rawConnection(portOf(mock));
      const cookies: string[] = [];
      try {
        const body = '{"user":"alice@example.test"}';
        for (let i = 0; i <= MAX_SESSIONS_PER_USER; i++) {
          conn.write(
            `POST /__mock/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ` +
              `application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
          );
          const res = await conn.response();
          expect(res.status).toBe(200);
          cookies.push(res.headers['set-cookie']!.split(';')[0]!);
        }
      } finally {
        conn.destroy();
      }
      expect((await get(`${API}/user/apikeys`, `Cookie: ${VALID_SESSION}\r\n`)).status).toBe(200);
      expect((await get(`${API}/user/apikeys`, `Cookie: ${cookies[0]}\r\n`)).status).toBe(401);
      expect((await get(`${API}/user/apikeys`, `Cookie: ${cookies[1]}\r\n`)).status).toBe(200);
      await post('/__mock/reset', '');
    },
  );
});

describe('5. JSON nested thousands deep is a 400 naming the problem, never a 500', () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);

  it('POST /__mock/login with {"user": <an array 5,000 deep>}', async () => {
    expectErrorShape(
      await post('/__mock/login', `{"user":${deep(5000)}}`),
      400,
      /"user" must be a string .*not an array/,
    );
  });

  it('POST /__mock/login with a user that is an object, a number or null', async () => {
    expectErrorShape(await post('/__mock/login', '{"user":{"a":{"b":1}}}'), 400, /"user" must be a string/);
    expectErrorShape(await post('/__mock/login', '{"user":7}'), 400, /not a number/);
    expectErrorShape(await post('/__mock/login', '{"user":null}'), 400, /not null/);
  });

  it('POST /user/apikeys with a name 7,000 deep', async () => {
    const res = await post(`${API}/user/apikeys`, `{"name":${deep(7000)}}`, `Cookie: ${VALID_SESSION}\r\n`);
    expectErrorShape(res, 400, /name/);
  });
});

describe('6. docs asset names are looked up among the assets only', () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'])(
    '/__mock/docs/%s: 404',
    async (name) => {
      expectErrorShape(await get(`/__mock/docs/${name}`), 404, /no such docs asset \(the page loads swagger-ui\.css/);
    },
  );
});

describe('8. requests Node would answer empty, or not at all', () => {
  it('Expect: foo gets a 417 in the error shape, and the connection closes', async () => {
    const res = await get(`${API}/servers/find?limit=1`, 'Expect: foo\r\n');
    expectErrorShape(res, 417, /100-continue.*Expect: foo/);
    expect(res.headers.connection).toBe('close');
  });

  it('Expect: 100-continue still works: the interim 100, then the answer', async () => {
    const socket = connect(portOf(mock), '127.0.0.1');
    let got = '';
    const seen = (text: string) =>
      new Promise<void>((resolve) => {
        const check = () =>
          got.includes(text)
            ? resolve()
            : socket.once('data', (d) => {
                got += d.toString('latin1');
                check();
              });
        check();
      });
    try {
      socket.write(
        `POST /__mock/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ` +
          `2\r\nExpect: 100-continue\r\n\r\n`,
      );
      await seen('HTTP/1.1 100 Continue\r\n\r\n');
      socket.write('{}');
      await seen('HTTP/1.1 200 OK');
    } finally {
      socket.destroy();
    }
  });

  it('CONNECT gets a 405 in the error shape with Allow, not a closed connection', async () => {
    const conn = await rawConnection(portOf(mock));
    conn.write('CONNECT example.test:443 HTTP/1.1\r\nHost: example.test:443\r\n\r\n');
    const res = await conn.response();
    expectErrorShape(res, 405, /CONNECT is not allowed.*not a proxy/);
    expect(res.headers.allow).toBe('GET, HEAD, POST, DELETE, OPTIONS');
    await conn.closed;
  });
});

describe('9. the hosts the mock answers', () => {
  it(
    'a request naming another host (DNS rebinding: Host: evil.test) is refused 403, naming the flag; nothing is ' +
      'reset',
    async () => {
      for (const [method, path] of [
        ['POST', '/__mock/reset'],
        ['POST', '/__mock/login'],
        ['GET', '/__mock/info'],
        ['GET', `${API}/user/apikeys`],
        ['GET', `${API}/servers/find`],
      ] as const) {
        const res = await ask(
          `${method} ${path} HTTP/1.1\r\nHost: evil.test:${portOf(mock)}\r\nContent-Length: 0\r\nCookie: ` +
            `${VALID_SESSION}\r\n\r\n`,
        );
        expectErrorShape(res, 403, /does not answer the host 'evil\.test'.*DNS rebinding.*--allowed-host evil\.test/);
      }
    },
  );

  it("a refused host's 403 is one the spec allows on every operation (the promised sentence first)", async () => {
    // The host check answers before any rule of the API: only the answer's shape is the spec's.
    const shape = JUDGES.filter((j) => ['server-error', 'json', 'error-body', 'schema', 'headers'].includes(j.name));
    const ctx = JudgeContext.of(model);
    for (const op of model.operations) {
      const path = `${API}${op.path.replace(/\{[^}]+\}/g, 'x')}`;
      const res = await ask(
        `${op.method} ${path} HTTP/1.1\r\nHost: evil.test\r\nCookie: ${VALID_SESSION}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
      );
      expect(res.status, op.operationId).toBe(403);
      const answer = {
        status: res.status,
        headers: lowerCased(res.headers),
        text: res.body,
        json: JSON.parse(res.body),
      };
      const ex = { request: { method: op.method, target: path, headers: {} }, answer, at: Date.now() };
      expect(findingsOf(ex, ctx, shape), op.operationId).toEqual([]);
    }
  });

  it.each(['127.0.0.1', 'localhost', 'LOCALHOST.', 'app.localhost', '127.0.0.2', '10.1.2.3', '[::1]', '[2001:db8::1]'])(
    'Host: %s is answered',
    async (host) => {
      const res = await ask(`GET /__mock/info HTTP/1.1\r\nHost: ${host}:${portOf(mock)}\r\n\r\n`);
      expect(res.status).toBe(200);
    },
  );

  it('--allowed-host adds names: exact, and .domain for a domain and its subdomains', async () => {
    const named = await startMock(testOptions({ servers: 10, allowedHosts: ['api', '.myproj.test'] }));
    try {
      const status = async (host: string) =>
        (await ask(`POST /__mock/reset HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 0\r\n\r\n`, named)).status;
      expect(await status('api:4010')).toBe(200);
      expect(await status('myproj.test')).toBe(200);
      expect(await status('api.myproj.test:4010')).toBe(200);
      expect(await status('api.myproj.test.evil.test')).toBe(403);
      expect(await status('notmyproj.test')).toBe(403);
    } finally {
      await named.close();
    }
  });

  it('two Host headers answer 400, whether they differ or not', async () => {
    const two = (b: string) => ask(`GET ${API}/servers/find?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: ${b}\r\n\r\n`);
    expectErrorShape(await two('evil.test'), 400, /2 Host headers/);
    expectErrorShape(await two('127.0.0.1'), 400, /2 Host headers/);
  });

  it('header lines past the 2,000th answer 431, not dropped; 2,000 are read', async () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `X-${i}: 1\r\n`).join('');
    expectErrorShape(
      await get(`${API}/servers/find?limit=1`, lines(2000)),
      431,
      /2001 header lines; this server reads at most 2000/,
    );
    expect((await get(`${API}/servers/find?limit=1`, lines(1999))).status).toBe(200);
  });
});

describe("10. the docs page is no one else's to frame or to script", () => {
  it('no site can frame it (frame-ancestors, X-Frame-Options); nor any other answer', async () => {
    for (const path of ['/__mock/docs', `${API}/servers/find?limit=1`, '/__mock/nope']) {
      const res = await fetch(`${mock.origin}${path}`);
      expect(res.headers.get('content-security-policy'), path).toBe("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
    }
    // And the answers the Node adapter writes itself: a parser error, an Expect it does not meet, no Host.
    for (const raw of [
      'GET / HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n',
      'GET / HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n\r\n',
      'GET / HTTP/1.1\r\n\r\n',
    ]) {
      const res = await ask(raw);
      expect(res.status, raw).toBeGreaterThanOrEqual(400);
      expect(res.headers['content-security-policy'], raw).toBe("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options'], raw).toBe('nosniff');
    }
  });

  it('markup in a fixture email or in the spec title is written as text, never as markup', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slm-docs-'));
    const auth = JSON.parse(readFileSync(new URL('../../fixtures/auth.json', import.meta.url), 'utf8'));
    const email = '"><img src=x onerror=alert(1)>@example.test';
    auth.users[0].email = email;
    writeFileSync(join(dir, 'auth.json'), JSON.stringify(auth));
    const spec = readFileSync(new URL('../../spec/openapi.yaml', import.meta.url), 'utf8');
    const title = /^ {2}title: (.+)$/m.exec(spec)![1]!;
    writeFileSync(
      join(dir, 'openapi.yaml'),
      spec.replace(`  title: ${title}`, '  title: "A & B</title><script>x()</script>"'),
    );
    const docs = await startMock(
      testOptions({ servers: 10, fixtures: join(dir, 'auth.json'), spec: join(dir, 'openapi.yaml') }),
    );
    try {
      const html = await (await fetch(`${docs.origin}/__mock/docs`)).text();
      expect(html).not.toContain('<img');
      expect(html).not.toContain('<script>x()');
      expect(html).toContain('Log in as &quot;&gt;&lt;img src=x onerror=alert(1)&gt;@example.test');
      expect(html).toContain('<title>A &amp; B&lt;/title&gt;&lt;script&gt;x()&lt;/script&gt; (mock docs)</title>');
      // The login button still logs in as that user: the script has the email as data.
      expect(html).toContain(`const USER = ${JSON.stringify(email).replace(/</g, '\\u003c')};`);
    } finally {
      await docs.close();
    }
  });
});
