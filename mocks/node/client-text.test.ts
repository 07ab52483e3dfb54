// Over a real socket: every answer, whoever writes it (the app, the docs page, the dev
// routes, the Node adapter's own answers to what the app never sees), says
// `X-Content-Type-Options: nosniff`; and no answer or log line repeats client text raw
// (mocks/core/printable.ts): markup and control characters come back escaped, long
// text cut.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rawConnection, type RawResponse } from '../../testing/raw-http.ts';
import { authHeaders, credential, testOptions } from '../testing/test-app.ts';
import { startMock, type RunningMock } from './server.ts';

let mock: RunningMock;
let port: number;
const API = '/api/v0.1';
beforeAll(async () => {
  mock = await startMock(testOptions({ servers: 50, rateLimit: true }));
  port = Number(new URL(mock.origin).port);
});
afterAll(async () => {
  await mock?.close();
});

/** One request on a fresh connection, exactly as written (`\n` ends each line); the answer. */
async function raw(head: string, body = ''): Promise<RawResponse> {
  const conn = await rawConnection(port);
  try {
    conn.write(Buffer.concat([Buffer.from(`${head.replace(/\n/g, '\r\n')}\r\n`, 'latin1'), Buffer.from(body)]));
    return await conn.response();
  } finally {
    conn.destroy();
  }
}

const get = (path: string, headers = '') => raw(`GET ${path} HTTP/1.1\nHost: 127.0.0.1\n${headers}`);
const post = (path: string, body: string, headers = '', type = 'application/json') =>
  raw(
    `POST ${path} HTTP/1.1\nHost: 127.0.0.1\nContent-Type: ${type}\nContent-Length: ` +
      `${Buffer.byteLength(body)}\n${headers}`,
    body,
  );
const session = `Cookie: ${authHeaders(credential('valid-session')).Cookie}\n`;

describe('X-Content-Type-Options: nosniff on every answer', () => {
  it.each<[string, () => Promise<RawResponse>, number]>([
    ['a search', () => get(`${API}/servers/find?limit=1`), 200],
    ['a bad parameter', () => get(`${API}/servers/find?limit=abc`), 400],
    ['no credentials', () => get(`${API}/user/apikeys`), 401],
    ['an unknown path', () => get(`${API}/nope`), 404],
    ['a wrong method', () => raw(`PUT ${API}/servers/find HTTP/1.1\nHost: 127.0.0.1\nContent-Length: 0\n`), 405],
    [
      'a CORS preflight',
      () =>
        raw(
          `OPTIONS ${API}/servers/find HTTP/1.1\nHost: 127.0.0.1\nOrigin: ` +
            `http://localhost:5173\nAccess-Control-Request-Method: GET\n`,
        ),
      204,
    ],
    ['the API index', () => get(API), 200],
    ['/__mock/info', () => get('/__mock/info'), 200],
    ['/__mock/login', () => post('/__mock/login', ''), 200],
    ['/__mock/reset', () => post('/__mock/reset', ''), 200],
    ['the docs page', () => get('/__mock/docs'), 200],
    ['a docs asset', () => get('/__mock/docs/swagger-ui.css'), 200],
    ['an unknown docs asset', () => get('/__mock/docs/nope.js'), 404],
    ['the spec as YAML', () => get('/__mock/openapi.yaml'), 200],
    [
      'a method the parser refuses (written on the socket)',
      () => raw(`get ${API}/servers/find HTTP/1.1\nHost: 127.0.0.1\n`),
      400,
    ],
    ['HTTP/1.1 without Host (written by the adapter)', () => raw(`GET ${API}/servers/find HTTP/1.1\n`), 400],
    [
      'a Host that is no host (written by the adapter)',
      () => raw(`GET ${API}/servers/find HTTP/1.1\nHost: bad host!\n`),
      400,
    ],
  ])('%s', async (_name, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

/** The answer's message, which must hold none of the markup the request carried. */
async function messageOf(res: Promise<RawResponse>, status: number): Promise<string> {
  const answer = await res;
  expect(answer.status).toBe(status);
  const message = (JSON.parse(answer.body) as { message: string }).message;
  expect(message).not.toMatch(/[<>]/);
  return message;
}

describe('client text in answers: escaped or cut, never raw', () => {
  it('the path a 404 repeats, sent raw or percent-encoded', async () => {
    expect(await messageOf(get(`${API}/nope/<script>alert(1)</script>`), 404)).toContain(
      `no route for GET ${API}/nope/%3Cscript%3Ealert(1)%3C/script%3E;`,
    );
    expect(await messageOf(get(`${API}/nope/%3Cscript%3Ealert(1)%3C%2Fscript%3E`), 404)).toContain(
      `${API}/nope/%3Cscript%3Ealert(1)%3C%2Fscript%3E;`,
    );
    const long = await messageOf(get(`${API}/${'x'.repeat(5000)}`), 404);
    expect(long).toMatch(/x…\(5010 chars\);/);
    expect(long.length).toBeLessThan(500);
  });

  it('the path a 405 repeats', async () => {
    expect(
      await messageOf(raw(`PUT ${API}/status/ping/<b> HTTP/1.1\nHost: 127.0.0.1\nContent-Length: 0\n`), 405),
    ).toContain('PUT is not allowed on /api/v0.1/status/ping/%3Cb%3E;');
  });

  it(
    'a Prefer example name, a login user name, a content ' + 'type, a JSON body, a body property, a parameter value',
    async () => {
      expect(await messageOf(get(`${API}/servers/find`, 'Prefer: example=<script>alert(1)</script>\n'), 400)).toContain(
        'Prefer example=\\u003cscript\\u003ealert(1)\\u003c/script\\u003e is not',
      );
      expect(await messageOf(post('/__mock/login', '{"user":"<script>alert(1)</script>"}'), 400)).toContain(
        'unknown fixture user "\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"',
      );
      expect(await messageOf(post('/__mock/login', '{"user":["a"]}'), 400)).toContain(
        '"user" must be a string (a fixture user\'s id or email), not an array',
      );
      expect(await messageOf(post(`${API}/user/apikeys`, '{"name":1}', session, 'text/<b>'), 415)).toContain(
        "not 'text/\\u003cb\\u003e'",
      );
      expect(await messageOf(post(`${API}/user/apikeys`, '{"name": <b>}', session), 400)).toMatch(
        /not valid JSON: Unexpected token '\\u003c'$/,
      );
      expect(await messageOf(post(`${API}/user/apikeys`, '{"<b>": 1}', session), 400)).toContain(
        "unknown property '\\u003cb\\u003e'",
      );
      expect(await messageOf(get(`${API}/status/ping/%3Cb%3E`), 400)).toContain('got "\\u003cb\\u003e"');
    },
  );

  it('a refused Origin, in the 403 of a dev route', async () => {
    const message = await messageOf(post('/__mock/reset', '', 'Origin: http://evil.test/<b>\n'), 403);
    expect(message).toContain('Origin http://evil.test/\\u003cb\\u003e is not allowed');
  });
});

describe('client text in the log', () => {
  it('the request log escapes a refused Origin (C1 controls too), as the warning beside it does', async () => {
    const logged = await startMock(testOptions({ servers: 10, quiet: false }));
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
    const warn = vi.spyOn(console, 'warn').mockImplementation((line: unknown) => void lines.push(String(line)));
    try {
      const conn = await rawConnection(Number(new URL(logged.origin).port));
      // Header values travel as bytes: 0x85 and 0x9b arrive as U+0085 (NEL) and U+009B (CSI).
      conn.write(
        Buffer.concat([
          Buffer.from(
            `GET ${API}/servers/find?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://evil.test`,
            'latin1',
          ),
          Buffer.from([0x85, 0x9b]),
          Buffer.from('31m\r\n\r\n', 'latin1'),
        ]),
      );
      expect((await conn.response()).status).toBe(200);
      conn.destroy();
    } finally {
      log.mockRestore();
      warn.mockRestore();
      await logged.close();
    }
    const request = lines.find((l) => l.startsWith('GET '));
    expect(request).toMatch(
      new RegExp(
        String.raw`^GET \/api\/v0\.1\/servers\/find\?limit=1 200 [\d.]+ms \(CORS: origin` +
          String.raw` http:\/\/evil\.test\\u0085\\u009b31m refused\)$`,
      ),
    );
    expect(lines.join('\n')).not.toMatch(/[\u0080-\u009f]/);
  });
});
