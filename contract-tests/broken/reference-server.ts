// A small, correct implementation of the contract whose single defect is chosen by a
// parameter, for the suite's self-tests: with `defect: 'none'` the whole suite must pass,
// and with each defect it must fail and name it. Deliberately tiny: three servers in
// memory, keys from fixtures/auth.json.
import { serve } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { loadFixtures } from '../../fixtures/load.ts';
import { FORBIDDEN_MESSAGE, UNAUTHORIZED_MESSAGE } from '../../spec/messages.ts';

export const DEFECTS = {
  none: 'a correct implementation',
  'auth-not-enforced': 'GET /user/apikeys answers without credentials',
  'wrong-401-message': 'the 401 body says "Unauthorised" instead of the promised message',
  'missing-field': "search rows lack the required 'port'",
  'wrong-type': "search rows carry 'port' as a string",
  'limit-ignored': 'GET /servers/find ignores limit',
  'secret-in-list': 'GET /user/apikeys shows each key\'s secret',
  'wrong-status': 'POST /user/apikeys answers 200 instead of 201',
} as const;
export type Defect = keyof typeof DEFECTS;

interface Key { id: string; user: string; name: string | null; secret: string; created_at: string; expires_at: string | null; last_used_at: string | null; revoked: boolean }

const fixtures = loadFixtures();
// Its own choice, written down here rather than read from the spec: an oracle that
// derived its behaviour from the spec model could not catch the model's mistakes.
const SESSION_COOKIE = 'sls_session';

const NOW = '2026-03-01T12:00:00.000Z';
const SERVERS = ['94.19.15.232', '51.77.1.10', 'play.example.org'].map((address, i) => ({
  address,
  port: 25565 + i,
  version: ['1.20.4', 'Paper 1.21.1', '1.8.9'][i]!,
  offline_mode: i === 2 ? 1 : 0,
  players_online: 10 * i,
  players_limit: 100,
  motd: `§aServer ${i}`,
  motd_stripped: `Server ${i}`,
  players: [],
  plugins: ['EssentialsX'],
  country: 'Germany',
  country_code: 'DE',
  region: 'EU',
  city: null,
  asn_number: '24940',
  asn_name: 'Hetzner Online GmbH',
  last_ping: NOW,
  detected_mod_pack: null,
  detected_mod_pack_short: null,
}));

const error = (c: Context, status: 400 | 401 | 403 | 404, message: string) => c.json({ success: false, message }, status);

export function createReferenceApp(defect: Defect = 'none'): Hono {
  const keys: Key[] = fixtures.credentials
    .filter((f) => f.type === 'apiKey' && f.keyId && f.user)
    .map((f) => ({ id: f.keyId!, user: f.user!, name: f.keyName ?? null, secret: f.value, created_at: f.createdAt ?? NOW, expires_at: f.expiresAt ?? null, last_used_at: null, revoked: Boolean(f.revoked) }));
  const sessions = new Map(fixtures.credentials.filter((f) => f.type === 'session' && f.expect !== 401).map((f) => [f.value, f.user!]));

  type Principal = { user: string; scheme: 'apiKey' | 'session' };
  const authenticate = (c: Context): Principal | undefined => {
    const auth = c.req.header('authorization');
    if (auth !== undefined) {
      const m = /^Bearer (\S+)$/.exec(auth);
      const key = m && keys.find((k) => k.secret === m[1] && !k.revoked && (!k.expires_at || k.expires_at > NOW));
      return key ? { user: key.user, scheme: 'apiKey' } : undefined;
    }
    const cookie = c.req.header('cookie')?.split(/;\s*/).find((p) => p.startsWith(`${SESSION_COOKIE}=`))?.split('=')[1];
    const user = cookie ? sessions.get(cookie) : undefined;
    return user ? { user, scheme: 'session' } : undefined;
  };
  const guard = (c: Context, schemes: Principal['scheme'][]): Principal | Response => {
    const who = authenticate(c);
    if (!who) {
      if (defect === 'auth-not-enforced' && c.req.method === 'GET') return { user: 'usr_test_alice', scheme: 'apiKey' };
      return error(c, 401, defect === 'wrong-401-message' ? 'Unauthorised' : UNAUTHORIZED_MESSAGE);
    }
    const perms = fixtures.users.find((u) => u.id === who.user)?.permissions ?? [];
    if (!perms.includes('apikeys') || !schemes.includes(who.scheme)) return error(c, 403, FORBIDDEN_MESSAGE);
    return who;
  };
  const record = (k: Key) => ({ id: k.id, name: k.name, prefix: k.secret.slice(0, 13), created_at: k.created_at, expires_at: k.expires_at, last_used_at: k.last_used_at });

  const app = new Hono().basePath('/api/v0.1');
  // Rate limits are reported, not enforced: the spec declares the headers on every answer.
  app.use(async (c, next) => {
    await next();
    c.header('X-RateLimit-Limit', '100');
    c.header('X-RateLimit-Remaining', '99');
    c.header('X-RateLimit-Reset', String(Math.floor(Date.parse(NOW) / 1000) + 60));
  });
  app.get('/servers/find', (c) => {
    const raw = c.req.query('limit') || '50';
    const page = Number(c.req.query('page') || '1');
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 500) return error(c, 400, "Bad Request: query parameter 'limit' must be integer between 1 and 500");
    const limit = defect === 'limit-ignored' ? 50 : Number(raw);
    // Filters are not implemented: every row matches (the contract does not say which rows exist).
    const all = Array.from({ length: 12 }, (_, i) => ({ ...SERVERS[i % 3]!, port: 25565 + i }));
    const results = all.slice((page - 1) * limit, page * limit).map((row) => {
      if (defect === 'missing-field') return Object.fromEntries(Object.entries(row).filter(([k]) => k !== 'port'));
      if (defect === 'wrong-type') return { ...row, port: String(row.port) };
      return row;
    });
    return c.json({ displayed: results.length, total: all.length, filtered: 0, results });
  });
  const ping = (c: Context, host: string, port: number) => {
    const row = SERVERS.find((s) => s.address === host && s.port === port);
    if (!row) return c.json({ success: false, message: `Not Found: server ${host}:${port} is not indexed yet`, status: 'Server is not indexed yet, it will be shortly' }, 404);
    const { motd_stripped: _m, players: _p, plugins: _pl, ...core } = row;
    return c.json({ status: 'online', refresh: false, server: { ...core, favicon: null } });
  };
  app.get('/status/ping/:host/:port', (c) => ping(c, c.req.param('host'), Number(c.req.param('port'))));
  app.get('/status/ping/:address', (c) => {
    const [host, port] = c.req.param('address').split(':');
    return ping(c, host ?? '', Number(port ?? 25565));
  });
  app.get('/metadata/versions', (c) => c.json({ unique_versions: 3, versions: SERVERS.map((s) => ({ version: s.version, num_servers: 1 })) }));
  app.get('/metadata/countries', (c) => c.json({ unique_countries: 1, countries: [{ country: 'Germany', country_code: 'DE', num_servers: 3 }] }));
  app.get('/metadata/regions', (c) => c.json({ unique_regions: 1, total_servers: 3, regions: [{ region: 'EU', num_servers: 3 }] }));

  app.get('/user/apikeys', (c) => {
    const who = guard(c, ['apiKey', 'session']);
    if (who instanceof Response) return who;
    const mine = keys.filter((k) => k.user === who.user && !k.revoked).reverse();
    return c.json({ success: true, keys: mine.map((k) => (defect === 'secret-in-list' ? { ...record(k), secret: k.secret } : record(k))) });
  });
  app.post('/user/apikeys', async (c) => {
    const who = guard(c, ['session']);
    if (who instanceof Response) return who;
    const body = (await c.req.json().catch(() => ({}))) as { name?: string; expires_in_days?: number };
    const key: Key = {
      id: `key_${randomBytes(6).toString('hex')}`,
      user: who.user,
      name: body.name ?? null,
      secret: `sls_test_${randomBytes(20).toString('hex')}`,
      created_at: NOW,
      expires_at: body.expires_in_days ? new Date(Date.parse(NOW) + body.expires_in_days * 86_400_000).toISOString() : null,
      last_used_at: null,
      revoked: false,
    };
    keys.push(key);
    return c.json({ success: true, key: { ...record(key), secret: key.secret } }, defect === 'wrong-status' ? 200 : 201);
  });
  app.delete('/user/apikeys/:id', (c) => {
    const who = guard(c, ['apiKey', 'session']);
    if (who instanceof Response) return who;
    const key = keys.find((k) => k.id === c.req.param('id') && k.user === who.user && !k.revoked);
    if (!key) return error(c, 404, `Not Found: no API key with id '${c.req.param('id')}'`);
    key.revoked = true;
    return c.json({ success: true, id: key.id, message: 'API key revoked' });
  });
  app.notFound((c) => error(c, 404, 'Not Found: no such path'));
  return app;
}

export interface RunningServer {
  baseUrl: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 on a free port. */
export async function startReferenceServer(defect: Defect = 'none'): Promise<RunningServer> {
  const app = createReferenceApp(defect);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v0.1`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
