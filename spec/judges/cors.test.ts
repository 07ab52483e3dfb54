// The `cors` judge on single exchanges: what an allowed origin, an origin no deployment may
// grant, and one x-cors does not list are owed, on answers and on preflights, at each level.
import { describe, expect, it } from 'vitest';
import { loadModel } from '../model.ts';
import { exchange, JSON_TYPE, LIMIT_HEADERS } from '../testing/exchanges.ts';
import type { Exchange, Known } from './exchange.ts';
import { owedStatuses } from './owed-status.ts';
import { findingsOf, JudgeContext, judgeExchange } from './registry.ts';

const model = loadModel();
const ctx = JudgeContext.of(model);
const PAGE = 'http://localhost:5173';
const FOREIGN = 'https://not-allowed.invalid';
const EXPOSED = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Allow';
const regions = { unique_regions: 0, total_servers: 0, regions: [] };
const WILDCARD =
  'Access-Control-Allow-Origin: * where x-cors allows credentials: browsers refuse every credentialed call';

/** The headers a correct answer to `origin` carries. */
function granted(origin = PAGE): Record<string, string> {
  return {
    ...JSON_TYPE,
    ...LIMIT_HEADERS,
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': EXPOSED,
    vary: 'Origin',
  };
}

function get(headers: Record<string, string>, origin = PAGE, known?: Known): Exchange {
  return exchange('GET /api/v0.1/metadata/regions', 200, regions, {
    headers,
    request: { Origin: origin },
    ...(known ? { known } : {}),
  });
}

/** A preflight of `path` for `method`, answered `status` with `headers`. */
function preflight(path: string, method: string, status: number, headers: Record<string, string>): Exchange {
  return exchange(`OPTIONS /api/v0.1${path}`, status, '', {
    headers,
    request: {
      Origin: PAGE,
      'Access-Control-Request-Method': method,
      'Access-Control-Request-Headers': 'authorization,content-type',
    },
  });
}

const PREFLIGHT_OK = {
  'access-control-allow-origin': PAGE,
  'access-control-allow-credentials': 'true',
  'access-control-allow-methods': 'GET,HEAD,POST,DELETE',
  'access-control-allow-headers': 'Authorization,Content-Type,Prefer',
  'access-control-max-age': '600',
  vary: 'Origin, Access-Control-Request-Headers',
};

const cors = (ex: Exchange, c = ctx) => findingsOf(ex, c).filter((f) => f.judge === 'cors');
const defects = (ex: Exchange, c = ctx) => cors(ex, c).map((f) => `[${f.level}] ${f.defect}`);

describe('an answer to an origin x-cors allows', () => {
  it('passes when it echoes the origin with credentials, Vary: Origin and every exposed header, on errors too', () => {
    expect(findingsOf(get(granted()), ctx)).toEqual([]);
    const other = 'http://127.0.0.1:3000';
    const notFound = exchange(
      'GET /api/v0.1/nope',
      404,
      { success: false, message: 'Not Found: no route' },
      {
        headers: granted(other),
        request: { Origin: other },
      },
    );
    expect(findingsOf(notFound, ctx)).toEqual([]);
  });

  it('fails Access-Control-Allow-Origin: *, refused by browsers with credentials, at interface level, alone', () => {
    const found = cors(get({ ...granted(), 'access-control-allow-origin': '*' }));
    expect(found).toEqual([
      expect.objectContaining({
        level: 'interface',
        defect: WILDCARD,
        subject: { header: 'access-control-allow-origin' },
        acrossSubjects: true,
      }),
    ]);
    expect(found[0]!.why).toContain(`Origin ${PAGE} got Access-Control-Allow-Origin: *`);
  });

  it('fails an origin not echoed (absent, another, two values): nothing else is said, the browser hides it', () => {
    for (const value of [undefined, 'http://localhost:3000', `${PAGE}, ${PAGE}`]) {
      const headers = { ...JSON_TYPE, ...LIMIT_HEADERS, ...(value ? { 'access-control-allow-origin': value } : {}) };
      expect(defects(get(headers)), String(value)).toEqual([
        '[assumed] an allowed origin is not granted: Access-Control-Allow-Origin does not echo it',
      ]);
    }
  });

  it('fails a grant without Allow-Credentials (interface), without Vary: Origin, or hiding an exposed header', () => {
    const { 'access-control-allow-credentials': _c, ...noCredentials } = granted();
    expect(defects(get(noCredentials))).toEqual([
      '[interface] Access-Control-Allow-Credentials: true missing where x-cors allows credentials',
    ]);
    expect(defects(get({ ...granted(), vary: 'Accept-Encoding' }))).toEqual([
      '[assumed] Vary: Origin missing on answers that echo the Origin',
    ]);
    const hidden = cors(get({ ...granted(), 'access-control-expose-headers': 'X-RateLimit-Limit,x-ratelimit-reset' }));
    expect(hidden.map((f) => f.defect)).toEqual(['Access-Control-Expose-Headers leaves out headers x-cors exposes']);
    expect(hidden[0]!.why).toContain('a page cannot read X-RateLimit-Remaining, Retry-After, Allow');
    // With credentials a browser reads `*` as a name, not as every header.
    expect(defects(get({ ...granted(), 'access-control-expose-headers': '*' }))).toHaveLength(1);
  });

  it('is judged at interface level only for what x-cors promises there (credentials)', () => {
    const strict = JudgeContext.of(model, 'interface');
    expect(defects(get({ ...granted(), 'access-control-allow-origin': '*' }), strict)).toHaveLength(1);
    expect(defects(get({ ...JSON_TYPE, ...LIMIT_HEADERS }), strict)).toEqual([]);
    expect(judgeExchange(get(granted()), strict).filter((v) => v.judge.name === 'cors')).toEqual([]);
  });
});

describe('an origin no deployment may grant, and one x-cors does not list', () => {
  const foreign = { foreignOrigin: true };
  it('a foreign origin granted, echoed or by *, is one finding; refused, none', () => {
    expect(defects(get(granted(FOREIGN), FOREIGN, foreign))).toEqual([
      '[assumed] an origin x-cors does not allow is granted',
    ]);
    expect(defects(get({ ...granted(), 'access-control-allow-origin': '*' }, FOREIGN, foreign))).toEqual([
      `[interface] ${WILDCARD}`,
    ]);
    expect(defects(get({ ...JSON_TYPE, ...LIMIT_HEADERS }, FOREIGN, foreign))).toEqual([]);
  });

  it('an unlisted origin (a deployment may serve its site there) is owed no grant; a grant it gets must work', () => {
    const site = 'https://www.example.com';
    expect(defects(get({ ...JSON_TYPE, ...LIMIT_HEADERS }, site))).toEqual([]);
    expect(defects(get(granted(site), site))).toEqual([]);
    const { vary: _v, ...noVary } = granted(site);
    expect(defects(get(noVary, site))).toEqual(['[assumed] Vary: Origin missing on answers that echo the Origin']);
  });

  it('does not apply without Origin, to a same-origin request, or outside the API', () => {
    const plain = exchange('GET /api/v0.1/metadata/regions', 200, regions);
    expect(judgeExchange(plain, ctx).map((v) => v.judge.name)).not.toContain('cors');
    const same = exchange('GET /api/v0.1/metadata/regions', 200, regions, {
      request: { Origin: PAGE, 'Sec-Fetch-Site': 'same-origin' },
    });
    expect(judgeExchange(same, ctx).map((v) => v.judge.name)).not.toContain('cors');
    const page = exchange('GET /__mock/docs', 200, '<html>', { request: { Origin: PAGE } });
    expect(judgeExchange(page, ctx).map((v) => v.judge.name)).not.toContain('cors');
  });
});

describe('a preflight from an allowed origin', () => {
  it("is owed x-cors's status, and passes with the path's methods, the headers and the max age", () => {
    const ok = preflight('/user/apikeys/key_abcdef', 'DELETE', 204, PREFLIGHT_OK);
    expect(owedStatuses(ok, ctx).map((o) => `${o.rule} ${o.status}`)).toEqual(['cors 204']);
    expect(findingsOf(ok, ctx)).toEqual([]);
  });

  it('fails another status, with the status it was owed', () => {
    const found = cors(preflight('/servers/find', 'GET', 200, PREFLIGHT_OK));
    expect(found.map((f) => f.defect)).toEqual(['a preflight answers 200 where x-cors says 204']);
    expect(found[0]!.evidence).toEqual({ expectedStatus: 204 });
    // An answer the mock chose (to a Host it refuses) is not its CORS layer's.
    const refused = preflight('/servers/find', 'GET', 403, {});
    expect(cors({ ...refused, known: { steered: true } })).toEqual([]);
    // A rate limit may refuse a preflight too: then only the grant is judged.
    expect(
      cors(preflight('/servers/find', 'GET', 429, { ...PREFLIGHT_OK, 'access-control-allow-methods': '' })),
    ).toEqual([]);
  });

  it('fails methods of its path left out, headers not allowed (* never covers Authorization), another max age', () => {
    expect(
      defects(preflight('/user/apikeys', 'POST', 204, { ...PREFLIGHT_OK, 'access-control-allow-methods': 'POST' })),
    ).toEqual(['[assumed] Access-Control-Allow-Methods of a preflight leaves out methods its path declares']);
    const star = cors(
      preflight('/user/apikeys', 'POST', 204, { ...PREFLIGHT_OK, 'access-control-allow-headers': '*' }),
    );
    expect(star.map((f) => f.why)).toEqual([
      "a preflight of /user/apikeys gets Access-Control-Allow-Headers '*', " +
        'which leaves out Authorization, Content-Type',
    ]);
    const { 'access-control-max-age': _m, ...noMaxAge } = PREFLIGHT_OK;
    expect(defects(preflight('/servers/find', 'GET', 204, noMaxAge))).toEqual([
      '[assumed] Access-Control-Max-Age of a preflight is not the one x-cors promises',
    ]);
  });

  it('owes nothing of a path the API lacks; OPTIONS without Access-Control-Request-Method is no preflight', () => {
    expect(owedStatuses(preflight('/nope', 'GET', 404, PREFLIGHT_OK), ctx)).toEqual([]);
    const plain = exchange(
      'OPTIONS /api/v0.1/servers/find',
      405,
      { success: false, message: 'Method Not Allowed: x' },
      {
        headers: { ...granted() },
        request: { Origin: PAGE },
      },
    );
    expect(owedStatuses(plain, ctx)).toEqual([]);
    expect(cors(plain)).toEqual([]);
  });
});
