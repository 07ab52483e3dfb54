// The reference server: a small, correct implementation of the API with defects that
// can be switched on, for the suite's self-tests: with none the whole suite must pass,
// and with each defect it must fail and name it. It is an oracle: it shares no code
// with the mock and does not read spec/model.ts (it may use fixtures/ and
// spec/messages.ts); its data is a few hundred realistic rows of its own. A Hono app:
// the tests drive it in process (`app.fetch`), `startReferenceServer` puts it on a socket.
import { Hono, type Context } from 'hono';
import { randomBytes } from 'node:crypto';
import { loadFixtures } from '../../fixtures/load.ts';
import { FORBIDDEN_MESSAGE, UNAUTHORIZED_MESSAGE, errorBody } from '../../spec/messages.ts';
import { referenceRows } from './data.ts';
import { QueryError, countries, regions, search, versions, type SearchDefects } from './search.ts';
import type { Defect } from './defects.ts';
import { corsLayer } from './cors.ts';
import { fragileInput } from './fragile-input.ts';
import { type Counted, rateLimiter } from './rate-limit.ts';

export interface ReferenceOptions {
  /**
   * Enforce a rate limit: this many requests per window per credential, then 429 with
   * Retry-After; or the documented limits (rate-limit.ts DOCUMENTED), per account and tier.
   */
  rateLimit?: { limit: number; windowMs: number } | 'documented';
  /** Hears each request as the limits count it (a measure of a run: requests per counter). */
  observeLimits?: (counted: Counted) => void;
  /** Its clock (default the real one): a test shares a fake one with the suite's pacing. */
  now?: () => number;
}

interface Key {
  id: string;
  user: string;
  name: string | null;
  secret: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked: boolean;
}

const fixtures = loadFixtures();
// Its own choices, written down here rather than read from the spec: an oracle that
// derived its behaviour from the spec model could not catch the model's mistakes.
const SESSION_COOKIE = 'sls_session';
const MAX_KEYS = 25;
const MAX_BODY = 16_384;
const DEFAULT_PORT = 25565;
const HOST = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
/** Every route and its methods, for 405 answers. */
const ROUTES: [RegExp, string[]][] = [
  [/^\/servers\/find$/, ['GET']],
  [/^\/status\/ping\/[^/]+$/, ['GET']],
  [/^\/status\/ping\/[^/]+\/[^/]+$/, ['GET']],
  [/^\/metadata\/(versions|countries|regions)$/, ['GET']],
  [/^\/user\/apikeys$/, ['GET', 'POST']],
  [/^\/user\/apikeys\/[^/]+$/, ['DELETE']],
];
const BASE = '/api/v0.1';
const NOW = '2026-03-01T12:00:00.000Z';

const SQL_LEAK =
  'Error: ER_PARSE_ERROR: You have an error in your SQL syntax; check the manual that corresponds to your MySQL ' +
  `server version for the right syntax to use near 'abc LIMIT 50' at line 1
    at Query.Sequence._packetToError (/srv/app/node_modules/mysql/lib/protocol/sequences/Sequence.js:47:14)
    at Query.ErrorPacket (/srv/app/node_modules/mysql/lib/protocol/sequences/Query.js:79:18)
    at findServers (/srv/app/src/routes/servers.js:88:21)`;

export function createReferenceApp(defects: Defect | Defect[] = 'none', options: ReferenceOptions = {}): Hono {
  const chosen = new Set(Array.isArray(defects) ? defects : [defects]);
  const has = (d: Defect) => chosen.has(d);
  const rows = referenceRows();
  const now = options.now ?? Date.now;
  const started = now();
  const keys: Key[] = fixtures.credentials
    .filter((f) => f.type === 'apiKey' && f.keyId && f.user)
    .map((f) => ({
      id: f.keyId!,
      user: f.user!,
      name: f.keyName ?? null,
      secret: f.value,
      created_at: f.createdAt ?? NOW,
      expires_at: f.expiresAt ?? null,
      last_used_at: null,
      revoked: Boolean(f.revoked),
    }));
  const sessions = new Map(
    fixtures.credentials.filter((f) => f.type === 'session' && f.expect !== 401).map((f) => [f.value, f.user!]),
  );
  const switches: SearchDefects = {
    falseAsTrue: has('false-as-true'),
    wrongDefaultSort: has('wrong-default-sort'),
    ignoredFilter: has('ignored-filter'),
    motdRaw: has('motd-raw'),
    totalCountsHidden: has('total-counts-hidden'),
    totalPerPage: has('total-per-page'),
    outOfRangeAccepted: has('out-of-range-accepted'),
    limitDependentCount: has('limit-dependent-count'),
    limitIgnored: has('limit-ignored'),
  };

  const error = (c: Context, status: number, detail?: string) =>
    c.json(
      has('bare-error-body') && status === 400 ? { error: detail ?? 'bad request' } : errorBody(status, detail),
      status as 400,
    );
  const badQuery = (c: Context, err: unknown) => {
    if (!(err instanceof QueryError)) throw err;
    if (has('sql-500') && err.rule === 'must be an integer') return c.text(SQL_LEAK, 500);
    return error(c, 400, err.message);
  };
  const query = (c: Context) => c.req.query() as Record<string, string>;

  type Principal = { user: string; scheme: 'apiKey' | 'session' };
  const authenticate = (c: Context): Principal | undefined => {
    if (has('refuses-credentials')) return undefined;
    const auth = c.req.header('authorization');
    if (auth !== undefined) {
      const m = /^Bearer (\S+)$/.exec(auth);
      const key = m && keys.find((k) => k.secret === m[1] && !k.revoked && (!k.expires_at || k.expires_at > NOW));
      // A key that authenticates a request was last used now.
      if (key) key.last_used_at = new Date(now()).toISOString();
      return key ? { user: key.user, scheme: 'apiKey' } : undefined;
    }
    const cookie = c.req
      .header('cookie')
      ?.split(/;\s*/)
      .find((p) => p.startsWith(`${SESSION_COOKIE}=`))
      ?.split('=')[1];
    const user = cookie ? sessions.get(cookie) : undefined;
    return user ? { user, scheme: 'session' } : undefined;
  };
  const guard = (c: Context, schemes: Principal['scheme'][]): Principal | Response => {
    const who = authenticate(c);
    if (!who) {
      if (has('auth-not-enforced') && c.req.method === 'GET') return { user: 'usr_test_alice', scheme: 'apiKey' };
      return c.json({ success: false, message: has('wrong-401-message') ? 'Unauthorised' : UNAUTHORIZED_MESSAGE }, 401);
    }
    const perms = fixtures.users.find((u) => u.id === who.user)?.permissions ?? [];
    if (!perms.includes('apikeys') || !schemes.includes(who.scheme))
      return c.json({ success: false, message: FORBIDDEN_MESSAGE }, 403);
    return who;
  };
  const record = (k: Key) => ({
    id: k.id,
    name: k.name,
    prefix: k.secret.slice(0, 13),
    created_at: k.created_at,
    expires_at: k.expires_at,
    last_used_at: k.last_used_at,
  });

  const app = new Hono().basePath(BASE);
  // First: a preflight is answered before anything counts it, and every answer after it gets its grant.
  app.use(corsLayer(has));
  if (has('text-plain-json')) {
    app.use(async (c, next) => {
      await next();
      if (c.res.headers.get('content-type')?.startsWith('application/json'))
        c.res.headers.set('Content-Type', 'text/plain; charset=UTF-8');
    });
  }
  // Who a request counts against under the documented limits: its account, in the tier of its credential.
  const caller = (c: Context) => {
    const who = authenticate(c);
    return who ? { account: who.user, tier: who.scheme } : { account: 'anonymous', tier: 'anonymous' as const };
  };
  app.use(
    rateLimiter(options.rateLimit, {
      sendHeaders: !has('no-rate-limit-headers'),
      now,
      caller,
      observe: options.observeLimits,
    }),
  );
  app.use(fragileInput(has));
  app.onError((err, c) => error(c, 500, `the request could not be completed (${err.name})`));

  app.get('/servers/find', (c) => {
    try {
      const { page, ...answer } = search(rows, query(c), switches, now());
      if (has('nulls-past-page-one') && page > 1) {
        answer.results = answer.results.map((r, i) =>
          (i * 7 + page) % 20 === 0 ? { ...r, players_online: null as unknown as number } : r,
        );
      }
      if (has('missing-field'))
        answer.results = answer.results.map(({ port: _p, ...r }) => r as typeof r & { port: number });
      if (has('wrong-type'))
        answer.results = answer.results.map((r) => ({ ...r, port: String(r.port) as unknown as number }));
      return c.json(answer);
    } catch (err) {
      return badQuery(c, err);
    }
  });

  const ping = (c: Context, host: string, portText: string | undefined, names: { host: string; port: string }) => {
    const port = portText === undefined ? DEFAULT_PORT : /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
    if (!HOST.test(host) || host.length > 253)
      return error(c, 400, `path parameter '${names.host}' is not a hostname or IPv4 address`);
    if (!(port >= 1 && port <= 65535))
      return error(c, 400, `path parameter '${names.port}' needs a port from 1 to 65535`);
    const row = rows.find((r) => r.address.toLowerCase() === host.toLowerCase() && r.port === port);
    if (!row)
      return c.json(
        {
          ...errorBody(404, `server ${host}:${port} is not indexed yet`),
          status: 'Server is not indexed yet, it will be shortly',
        },
        404,
      );
    const { motd_stripped: _m, players: _p, plugins: _pl, ...core } = row;
    const stale = now() - Date.parse(row.last_ping) > 30 * 60_000;
    return c.json({ status: stale ? 'refreshing' : 'online', refresh: stale, server: core });
  };
  app.get('/status/ping/:host/:port', (c) =>
    ping(c, c.req.param('host'), c.req.param('port'), { host: 'host', port: 'port' }),
  );
  app.get('/status/ping/:address', (c) => {
    const address = c.req.param('address');
    // The defect splits the address at ':' before decoding it, so `host%3Aport` is a host that is never indexed.
    if (has('encoded-colon-404') && /%3a/i.test(new URL(c.req.url).pathname))
      return c.json(
        {
          ...errorBody(404, `server ${address} is not indexed yet`),
          status: 'Server is not indexed yet, it will be shortly',
        },
        404,
      );
    const colon = address.lastIndexOf(':');
    return ping(c, colon < 0 ? address : address.slice(0, colon), colon < 0 ? undefined : address.slice(colon + 1), {
      host: 'address',
      port: 'address',
    });
  });

  if (!has('missing-route')) {
    app.get('/metadata/versions', (c) => {
      try {
        return c.json(versions(rows, query(c), switches));
      } catch (err) {
        return badQuery(c, err);
      }
    });
  }
  app.get('/metadata/countries', (c) => {
    // The defect: the route reads a sort it does not have when the search's `sort` comes along.
    if (has('foreign-param-500') && query(c).sort !== undefined)
      throw new TypeError("Cannot read properties of undefined (reading 'sort')");
    try {
      return c.json(countries(rows, query(c), now()));
    } catch (err) {
      return badQuery(c, err);
    }
  });
  app.get('/metadata/regions', (c) => {
    try {
      return c.json(regions(rows, query(c)));
    } catch (err) {
      return badQuery(c, err);
    }
  });

  app.get('/user/apikeys', (c) => {
    const who = guard(c, ['apiKey', 'session']);
    if (who instanceof Response) return who;
    const mine = keys.filter((k) => k.user === who.user && !k.revoked).reverse();
    return c.json({
      success: true,
      keys: mine.map((k) => (has('secret-in-list') ? { ...record(k), secret: k.secret } : record(k))),
    });
  });
  app.post('/user/apikeys', async (c) => {
    const text = await c.req.text();
    if (Buffer.byteLength(text) > MAX_BODY) return error(c, 413, `the request body is over ${MAX_BODY} bytes`);
    const who = guard(c, ['session']);
    if (who instanceof Response) return who;
    let body: Record<string, unknown> = {};
    if (text.trim() !== '') {
      if (!(c.req.header('content-type') ?? '').startsWith('application/json'))
        return error(c, 415, 'send the body as application/json');
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return error(c, 400, 'the body is not valid JSON');
      }
      const problem = keyBodyProblem(body);
      if (problem) return error(c, 400, problem);
    }
    if (keys.filter((k) => k.user === who.user && !k.revoked).length >= MAX_KEYS)
      return error(c, 409, `at most ${MAX_KEYS} API keys per user; revoke one first`);
    const days = body.expires_in_days as number | undefined;
    const key: Key = {
      id: `key_${randomBytes(6).toString('hex')}`,
      user: who.user,
      name: (body.name as string | undefined) ?? null,
      secret: `sls_test_${randomBytes(20).toString('hex')}`,
      created_at: new Date(started).toISOString(),
      expires_at: days ? new Date(started + days * 86_400_000).toISOString() : null,
      last_used_at: null,
      revoked: false,
    };
    keys.push(key);
    return c.json({ success: true, key: { ...record(key), secret: key.secret } }, has('wrong-status') ? 200 : 201);
  });
  app.delete('/user/apikeys/:id', (c) => {
    const who = guard(c, ['apiKey', 'session']);
    if (who instanceof Response) return who;
    const id = c.req.param('id');
    if (!/^key_[A-Za-z0-9]{6,40}$/.test(id))
      return error(c, 400, `path parameter 'id' is not a key id (key_ and 6 to 40 letters or digits)`);
    const key = keys.find((k) => k.id === id && k.user === who.user && !k.revoked);
    if (!key) return error(c, 404, `no API key with id '${id}'`);
    key.revoked = true;
    return c.json({ success: true, id: key.id, message: 'API key revoked' });
  });

  app.notFound((c) => {
    // Only a path under the base path is one of its routes (another method may be allowed there).
    const path = c.req.path.startsWith(BASE) ? c.req.path.slice(BASE.length) : undefined;
    const route =
      path === undefined
        ? undefined
        : ROUTES.find(([re]) => re.test(path) && !(has('missing-route') && path === '/metadata/versions'));
    if (route && !has('404-wrong-method')) {
      c.header('Allow', route[1].join(', '));
      return error(c, 405, `${c.req.method} is not allowed here; use ${route[1].join(', ')}`);
    }
    if (has('html-404'))
      return c.html(
        `<!DOCTYPE html><html><head><title>Error</title></head><body><pre>Cannot ${c.req.method} ` +
          `${c.req.path}</pre></body></html>`,
        404,
      );
    return error(c, 404, `no such path: ${c.req.path}`);
  });
  return app;
}

/** What is wrong with a create body: its name, its expiry, or a property it may not have. */
function keyBodyProblem(body: unknown): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'the body must be a JSON object';
  for (const [k, v] of Object.entries(body)) {
    if (k === 'name') {
      if (typeof v !== 'string' || v.length < 1 || v.length > 64)
        return "body property 'name' must be a string of 1 to 64 characters";
    } else if (k === 'expires_in_days') {
      if (!Number.isInteger(v) || (v as number) < 1 || (v as number) > 365)
        return "body property 'expires_in_days' must be an integer from 1 to 365";
    } else return `body property '${k}' is not allowed`;
  }
  return undefined;
}
