// --cors-origin: the list (+X adds to the defaults), the matcher, and what happens to
// a refused origin: no CORS headers, one log line with the fix, 403 on dev routes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { originMatcher, parseCorsOrigins, refusedOriginMessage } from './cors-policy.ts';
import { lowerCased, type Exchange } from '../../../spec/judges/exchange.ts';
import { findingsOf, JudgeContext } from '../../../spec/judges/registry.ts';
import { SPEC_PATH } from '../../../spec/load.ts';
import { DEFAULT_OPTIONS, OptionsError, parseOptions } from '../../node/options.ts';
import { authHeaders, credential, json, model, useApp, type TestApp } from '../../testing/test-app.ts';

const DEFAULTS = DEFAULT_OPTIONS.corsOrigins;
const m = useApp();

describe('--cors-origin', () => {
  it('X,Y replaces the defaults; +X,+Y adds to them', () => {
    expect(parseCorsOrigins('http://a.test:1, http://b.test', DEFAULTS)).toEqual(['http://a.test:1', 'http://b.test']);
    expect(parseCorsOrigins('+http://192.168.1.5:5173', DEFAULTS)).toEqual([...DEFAULTS, 'http://192.168.1.5:5173']);
    expect(parseCorsOrigins('+http://a.test,+http://b.test', DEFAULTS)).toEqual([
      ...DEFAULTS,
      'http://a.test',
      'http://b.test',
    ]);
    expect(parseOptions(['--cors-origin', '+http://a.test'], {}).corsOrigins).toEqual([...DEFAULTS, 'http://a.test']);
  });

  it('refuses, with the fix, what no browser Origin can match or a mix of + and not', () => {
    expect(() => parseOptions(['--cors-origin', 'http://localhost:5173/'], {})).toThrow(OptionsError);
    expect(() => parseCorsOrigins('http://localhost:5173/app', DEFAULTS)).toThrow(
      /has a path.*use http:\/\/localhost:5173/,
    );
    expect(() => parseCorsOrigins('localhost:5173', DEFAULTS)).toThrow(/not an origin: write scheme:\/\/host/);
    expect(() => parseCorsOrigins('+http://a.test,http://b.test', DEFAULTS)).toThrow(/mixes/);
    expect(() => parseCorsOrigins(' , ', DEFAULTS)).toThrow(/at least one origin/);
  });

  it('* in an entry matches a run without /, a lone * every origin, null the opaque origin', () => {
    const m = originMatcher(['http://localhost:*', 'null']);
    expect(m('http://localhost:5173')).toBe(true);
    expect(m('http://localhost:5173.evil.test/x')).toBe(false);
    expect(m('null')).toBe(true);
    expect(originMatcher(['*'])('http://anything.test:1')).toBe(true);
  });
});

describe('a refused origin', () => {
  afterEach(() => vi.restoreAllMocks());
  const page = 'http://192.168.1.5:5173';

  it('gets no CORS headers, and the log says so once, with the flag that allows it', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const m = useApp();
    for (let i = 0; i < 3; i++) {
      const res = await m.fetch(m.url('/servers/find?limit=1'), { headers: { Origin: page } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toContain(`refused origin ${page}`);
    expect(warn.mock.calls[0]![0]).toContain(`--cors-origin +${page}`);
  });

  it(
    'is no refusal when the request is same-origin (a page the mock serves, or a dev-server proxy that keeps ' +
      'Host)',
    async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const m = useApp();
      const own = await m.fetch(`${page}/__mock/login`, { method: 'POST', headers: { Origin: page }, body: '{}' });
      expect(own.status).toBe(200);
      const forwarded = await m.fetch(`${m.origin()}/__mock/login`, {
        method: 'POST',
        headers: { Origin: page, 'X-Forwarded-Host': '192.168.1.5:5173' },
        body: '{}',
      });
      expect(forwarded.status).toBe(200);
      expect(warn).not.toHaveBeenCalled();
    },
  );

  it('cannot log in, log out or reset: 403 JSON naming the fix, and no session is made', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const m = useApp();
    const create = vi.spyOn(m.mock.state.sessions, 'create');
    for (const route of ['login', 'logout', 'reset']) {
      const res = await m.fetch(`${m.origin()}/__mock/${route}`, {
        method: 'POST',
        headers: { Origin: page },
        body: '{}',
      });
      expect(res.status, route).toBe(403);
      expect(res.headers.get('set-cookie')).toBeNull();
      expect(await json(res)).toEqual({
        success: false,
        message:
          `Forbidden: You don't have permission to access this resource. Origin ${page} is not allowed by ` +
          `--cors-origin; start the mock with --cors-origin +${page} to allow it`,
      });
    }
    expect(create).not.toHaveBeenCalled();
    // The same origin, once allowed, logs in.
    const allowed = useApp({ corsOrigins: parseCorsOrigins(`+${page}`, DEFAULTS) });
    const ok = await allowed.fetch(`${allowed.origin()}/__mock/login`, {
      method: 'POST',
      headers: { Origin: page },
      body: '{}',
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(page);
  });
});

describe('a refused origin in the log', () => {
  it('cannot forge a log line or drive the terminal', () => {
    const line = refusedOriginMessage('http://evil.test\nmock: GET /api/v0.1/user/apikeys 200\u001b[2J', [
      'http://localhost:*',
    ]);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character must not reach the log
    expect(line).not.toMatch(/[\n\u001b]/);
    expect(line).toContain('refused origin http://evil.test\\u000amock: GET /api/v0.1/user/apikeys 200\\u001b[2J');
  });
});

describe('CORS for browser apps on another origin', () => {
  const origin = 'http://localhost:5173';

  it('answers a preflight for a credentialed request', async () => {
    const res = await m.fetch(m.url('/user/apikeys'), {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('echoes the origin (never *) with credentials on real answers, errors included', async () => {
    for (const path of ['/servers/find?limit=1', '/user/apikeys']) {
      const res = await m.fetch(m.url(path), { headers: { Origin: 'http://127.0.0.1:3000' } });
      expect(res.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3000');
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
      expect(res.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining');
      expect(res.headers.get('vary')).toContain('Origin');
    }
  });

  it('gives a foreign origin no allow-origin header', async () => {
    const res = await m.fetch(m.url('/servers/find?limit=1'), { headers: { Origin: 'https://evil.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  describe('with --cors-origin', () => {
    const custom = useApp({ corsOrigins: ['https://app.example.test'] });
    it('allows only the listed origins', async () => {
      const ok = await custom.fetch(custom.url('/servers/find?limit=1'), {
        headers: { Origin: 'https://app.example.test' },
      });
      expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example.test');
      const other = await custom.fetch(custom.url('/servers/find?limit=1'), { headers: { Origin: origin } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    });
  });
});

/** A request to the mock, as the registry's judges read it. */
async function judged(app: TestApp, path: string, init: { method?: string; headers: Record<string, string> }) {
  const res = await app.fetch(app.url(path), init);
  const text = await res.text();
  const ex: Exchange = {
    request: { method: init.method ?? 'GET', target: `${app.mock.basePath}${path}`, headers: lowerCased(init.headers) },
    answer: { status: res.status, headers: lowerCased(res.headers), text, json: text ? JSON.parse(text) : undefined },
    at: Date.now(),
  };
  return { res, ex };
}

describe("the spec's CORS contract (x-cors), as the mock answers it", () => {
  const ctx = JudgeContext.of(model);
  const page = 'http://localhost:5173';

  it('defaults --cors-origin to the origins x-cors allows', () => {
    expect(DEFAULT_OPTIONS.corsOrigins).toEqual(model.cors.origins.allowed);
  });

  it('gives the cors judge nothing to say: a preflight of every operation, plain and credentialed calls', async () => {
    const m = useApp();
    const exchanges: Exchange[] = [];
    for (const op of model.operations) {
      const path = op.path.replace(/\{[^}]+\}/g, 'example.org');
      const headers = {
        Origin: page,
        'Access-Control-Request-Method': op.method,
        'Access-Control-Request-Headers': op.requestBody ? 'authorization,content-type' : 'authorization',
      };
      const { res, ex } = await judged(m, path, { method: 'OPTIONS', headers });
      expect(res.status, op.operationId).toBe(model.cors.preflight.status);
      exchanges.push(ex);
    }
    const session = authHeaders(credential('valid-session'));
    for (const [path, headers] of [
      ['/servers/find?limit=1', { Origin: page }],
      ['/user/apikeys', { Origin: page, ...session }],
      ['/user/apikeys', { Origin: page }],
      ['/servers/find?limit=0', { Origin: 'http://127.0.0.1:3000' }],
    ] as const) {
      const { ex } = await judged(m, path, { headers });
      expect(ex.answer.headers['access-control-allow-origin'], path).toBe(headers.Origin);
      exchanges.push(ex);
    }
    for (const ex of exchanges) expect(findingsOf(ex, ctx), `${ex.request.method} ${ex.request.target}`).toEqual([]);
  });

  it('grants an origin no deployment may allow nothing, which the cors judge holds it to', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { ex } = await judged(useApp(), '/servers/find?limit=1', {
      headers: { Origin: 'https://not-allowed.invalid' },
    });
    expect(ex.answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(findingsOf({ ...ex, known: { foreignOrigin: true } }, ctx)).toEqual([]);
    vi.restoreAllMocks();
  });

  describe('with another copy of the spec (--spec)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cors-spec-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const copy = join(dir, 'openapi.yaml');
    writeFileSync(
      copy,
      readFileSync(SPEC_PATH, 'utf8')
        .replace('\n    status: 204\n', '\n    status: 200\n')
        .replace('maxAgeSeconds: 600', 'maxAgeSeconds: 60')
        .replace('allowHeaders: [Authorization, Content-Type]', 'allowHeaders: [Authorization, Content-Type, If-Match]')
        .replace('names: [X-RateLimit-Limit,', 'names: [X-Request-Id, X-RateLimit-Limit,'),
    );
    const m = useApp({ spec: copy });

    it("answers a preflight with that copy's status, headers and max age, and exposes its headers", async () => {
      const pre = await m.fetch(m.url('/user/apikeys'), {
        method: 'OPTIONS',
        headers: { Origin: page, 'Access-Control-Request-Method': 'POST' },
      });
      expect(pre.status).toBe(200);
      expect(pre.headers.get('access-control-max-age')).toBe('60');
      expect(pre.headers.get('access-control-allow-headers')).toBe('Authorization,Content-Type,If-Match,Prefer');
      const get = await m.fetch(m.url('/servers/find?limit=1'), { headers: { Origin: page } });
      expect(get.headers.get('access-control-expose-headers')?.split(',')[0]).toBe('X-Request-Id');
    });
  });
});
