// Each operation's answers through the HTTP layer: every /servers/find filter and
// sort, the ping forms, the metadata lookups and the API-key lifecycle. Search answers
// are checked against an oracle computed in the test from the whole dataset (fetched
// once through the API), so the test does not lean on the mock's own filter code.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UNAUTHORIZED_MESSAGE } from '../../../spec/messages.ts';
import { authHeaders, credential, json, useApp } from '../../testing/test-app.ts';
import { NOW } from '../../../testing/instants.ts';

const m = useApp({ servers: 400 });
const DAY = 86_400_000;
const paid = authHeaders(credential('valid-key')); // Alice pays: pages of up to 500 rows
let all: any[] = [];

const isTcpShield = (s: any) => /tcpshield/i.test(s.asn_name);
const ageDays = (s: any) => (NOW - Date.parse(s.last_ping)) / DAY;

async function find(query: string, headers: Record<string, string> = paid) {
  const res = await m.fetch(m.url(`/servers/find?${query}`), { headers });
  expect(res.status, query).toBe(200);
  return json(res);
}

beforeAll(async () => {
  all = (await find('noFilter=true&maxAge=3650&limit=500&favicon=true')).results;
});

describe('the dataset seen through the API', () => {
  it('is the whole generated listing, realistic where a client can see it', () => {
    expect(all).toHaveLength(400);
    expect(all.some(isTcpShield)).toBe(true);
    expect(all.some((s) => s.offline_mode === 1)).toBe(true);
    expect(all.some((s) => s.detected_mod_pack !== null)).toBe(true);
    expect(
      all.some((s) => s.favicon === null) && all.some((s) => s.favicon?.startsWith('data:image/png;base64,')),
    ).toBe(true);
    for (const s of all) {
      expect(s.players_online).toBeLessThanOrEqual(s.players_limit);
      expect(s.motd_stripped).toBe(s.motd === null ? null : s.motd.replace(/§./g, ''));
      // A string, never a number; null when the address has no ASN record.
      expect(s.asn_number === null || typeof s.asn_number === 'string').toBe(true);
      expect(ageDays(s)).toBeLessThanOrEqual(60);
    }
  });
});

// [query, predicate every row of the answer must meet, over the default-visible servers]
const FILTERS: [string, (s: any) => boolean][] = [
  ['version=1.20*', (s) => /^1\.20/i.test(s.version)],
  ['version=paper*', (s) => /^paper/i.test(s.version)],
  ['version=1.20.4', (s) => s.version.toLowerCase() === '1.20.4'],
  ['minUsers=50', (s) => s.players_online >= 50],
  ['maxUsers=3', (s) => s.players_online <= 3],
  ['minAge=10&maxAge=20', (s) => ageDays(s) >= 10 && ageDays(s) <= 20],
  ['maxAge=2', (s) => ageDays(s) <= 2],
  ['region=EU', (s) => s.region === 'EU'],
  ['country=Germany', (s) => s.country === 'Germany'],
  ['country=united*', (s) => /^united/i.test(s.country ?? '')],
  ['country=de', (s) => s.country_code === 'DE'],
  ['country_code=us', (s) => s.country_code === 'US'],
  ['city=an', (s) => s.city?.toLowerCase().includes('an')],
  ['motd=server', (s) => (s.motd_stripped ?? '').toLowerCase().includes('server')],
  ['motd=s*r*v', (s) => /s.*r.*v/is.test(s.motd_stripped ?? '')],
  ['org=hetzner', (s) => /hetzner/i.test(s.asn_name ?? '')],
  // A null field never matches, not even a bare wildcard.
  ['org=*', (s) => s.asn_name !== null],
  ['city=*', (s) => s.city !== null],
  ['asn=24940', (s) => s.asn_number === '24940'],
  ['offlineOnly=true', (s) => s.offline_mode === 1],
  ['offlineOnly=off', () => true],
  ['region=NA&minUsers=5&sort=users', (s) => s.region === 'NA' && s.players_online >= 5],
];

describe('/servers/find filters', () => {
  it.each(FILTERS)('%s', async (query, predicate) => {
    const base = (s: any) => ageDays(s) <= 30 && predicate(s); // maxAge defaults to 30
    const body = await find(`${query}&limit=500`);
    const expected = all.filter((s) => (query.includes('Age') ? predicate(s) : base(s)));
    const visible = expected.filter((s) => !isTcpShield(s));
    expect(body.total, 'total').toBe(visible.length);
    expect(body.filtered, 'filtered').toBe(expected.length - visible.length);
    expect(body.displayed).toBe(body.results.length);
    expect(body.results.length).toBe(visible.length);
    // A filter that matched nothing would prove nothing: the seeded data must exercise it.
    expect(body.total, 'rows matched').toBeGreaterThan(0);
    for (const row of body.results) {
      expect(predicate(row), `${row.address}:${row.port}`).toBe(true);
      expect(isTcpShield(row)).toBe(false);
    }
  });

  it('modpack matches the name or the short name, whole value', async () => {
    const pack = all.find((s) => s.detected_mod_pack_short && ageDays(s) <= 30 && !isTcpShield(s));
    expect(pack).toBeDefined();
    for (const value of [pack.detected_mod_pack, pack.detected_mod_pack_short.toLowerCase()]) {
      const body = await find(`modpack=${encodeURIComponent(value)}&limit=500`);
      expect(body.total).toBeGreaterThan(0);
      for (const row of body.results) expect(row.detected_mod_pack).toBe(pack.detected_mod_pack);
    }
  });

  it('noFilter includes TCPShield servers and drops `filtered`', async () => {
    const body = await find('noFilter=true&limit=500');
    expect(body).not.toHaveProperty('filtered');
    expect(body.total).toBe(all.filter((s) => ageDays(s) <= 30).length);
    expect(body.results.some(isTcpShield)).toBe(true);
  });

  it('favicon and relativeTime change the rows as documented', async () => {
    const plain = await find('limit=5');
    for (const row of plain.results) expect(row).not.toHaveProperty('favicon');
    const withIcons = await find('limit=5&favicon=true');
    for (const row of withIcons.results) expect(row).toHaveProperty('favicon');
    const relative = await find('limit=5&relativeTime=true');
    for (const row of relative.results)
      expect(row.last_ping).toMatch(/^(just now|\d+ (second|minute|hour|day|month|year)s? ago)$/);
    for (const row of plain.results) expect(row.last_ping).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});

describe('/servers/find sorts', () => {
  const key = (s: any) => `${s.address}:${s.port}`;
  it.each([
    ['users', (a: any, b: any) => b.players_online - a.players_online],
    ['address', (a: any, b: any) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0)],
    ['port', (a: any, b: any) => a.port - b.port],
    ['updated', (a: any, b: any) => Date.parse(b.last_ping) - Date.parse(a.last_ping)],
  ] as const)('sort=%s orders the rows', async (sort, cmp) => {
    const rows = (await find(`sort=${sort}&limit=500`)).results;
    expect(rows.length).toBeGreaterThan(10);
    for (let i = 1; i < rows.length; i++)
      expect(cmp(rows[i - 1], rows[i]), `${key(rows[i - 1])} before ${key(rows[i])}`).toBeLessThanOrEqual(0);
  });

  it('sort=version puts newer versions first, numerically (1.20.4 before 1.9)', async () => {
    const rows = (await find('sort=version&limit=500')).results.map((s: any) => s.version);
    const num = (v: string) => (/(\d+)\.(\d+)(?:\.(\d+))?/.exec(v) ?? []).slice(1).map((x) => Number(x ?? 0));
    const vanilla = rows.filter((v: string) => /^\d/.test(v)).map(num);
    for (let i = 1; i < vanilla.length; i++) {
      const [a, b] = [vanilla[i - 1], vanilla[i]];
      const diff = a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
      expect(diff).toBeGreaterThanOrEqual(0);
    }
  });

  it('the default order is the last ping, newest first', async () => {
    expect((await find('limit=50')).results).toEqual((await find('limit=50&sort=updated')).results);
  });
});

describe('/servers/find pagination', () => {
  it('pages are consecutive slices and displayed is the row count', async () => {
    const [p1, p2, both] = await Promise.all([
      find('limit=10&page=1'),
      find('limit=10&page=2'),
      find('limit=20&page=1'),
    ]);
    expect([...p1.results, ...p2.results]).toEqual(both.results);
    expect(p1.total).toBe(both.total);
    expect(p1.displayed).toBe(10);
  });

  it('a page past the end is empty, not an error', async () => {
    const body = await find('limit=10&page=9999');
    expect(body.results).toEqual([]);
    expect(body.displayed).toBe(0);
    expect(body.total).toBeGreaterThan(0);
  });

  it('anonymous and free callers get at most 20 rows, paying ones up to 500', async () => {
    expect((await find('limit=100', {})).results).toHaveLength(20);
    expect((await find('limit=100', authHeaders(credential('forbidden-key')))).results).toHaveLength(20);
    expect((await find('limit=100')).results).toHaveLength(100);
    expect((await find('', {})).results).toHaveLength(20);
  });
});

describe('/status/ping', () => {
  const fresh = () => all.find((s) => NOW - Date.parse(s.last_ping) < 30 * 60_000);
  const stale = () => all.find((s) => NOW - Date.parse(s.last_ping) > 30 * 60_000);

  it('answers every route form for an indexed server', async () => {
    const s = all.find((x) => x.port === 25565)!;
    const forms = [`${s.address}:${s.port}`, `${s.address}/${s.port}`, s.address, s.address.toUpperCase()];
    const bodies = await Promise.all(forms.map(async (f) => json(await m.fetch(m.url(`/status/ping/${f}`)))));
    for (const body of bodies) expect(body).toEqual(bodies[0]);
    const server = bodies[0].server;
    expect(server).toMatchObject({ address: s.address, port: s.port, version: s.version });
    expect(server).toHaveProperty('favicon');
    for (const absent of ['players', 'plugins', 'motd_stripped']) expect(server).not.toHaveProperty(absent);
  });

  it('is online for a recent ping and refreshing for one older than 30 minutes', async () => {
    const a = await json(await m.fetch(m.url(`/status/ping/${fresh().address}:${fresh().port}`)));
    expect(a).toMatchObject({ status: 'online', refresh: false });
    const b = await json(await m.fetch(m.url(`/status/ping/${stale().address}/${stale().port}`)));
    expect(b).toMatchObject({ status: 'refreshing', refresh: true });
  });

  it('is 404 "not indexed" for an unknown server', async () => {
    const res = await m.fetch(m.url('/status/ping/unknown.example.org:25566'));
    expect(res.status).toBe(404);
    expect(await json(res)).toEqual({
      success: false,
      message: 'Not Found: server unknown.example.org:25566 is not indexed yet',
      status: 'Server is not indexed yet, it will be shortly',
    });
  });
});

describe('/metadata', () => {
  it('versions: counts per version, most first, filter and limit', async () => {
    const body = await json(await m.fetch(m.url('/metadata/versions')));
    expect(body.unique_versions).toBe(new Set(all.map((s) => s.version)).size);
    expect(body.versions.reduce((n: number, v: any) => n + v.num_servers, 0)).toBe(all.length);
    for (let i = 1; i < body.versions.length; i++)
      expect(body.versions[i - 1].num_servers).toBeGreaterThanOrEqual(body.versions[i].num_servers);
    const top = body.versions[0];
    expect(top.num_servers).toBe(all.filter((s) => s.version === top.version).length);
    const filtered = await json(await m.fetch(m.url('/metadata/versions?version=1.20*&limit=2')));
    expect(filtered.versions.length).toBeLessThanOrEqual(2);
    expect(filtered.unique_versions).toBe(
      new Set(all.filter((s) => /^1\.20/i.test(s.version)).map((s) => s.version)).size,
    );
  });

  it('countries: servers pinged in the last 30 days, most first, by name or code', async () => {
    const body = await json(await m.fetch(m.url('/metadata/countries')));
    // Servers without a GeoIP record are in no bucket (the spec's CountriesResponse).
    const recent = all.filter((s) => ageDays(s) <= 30 && s.country !== null);
    expect(body.countries.reduce((n: number, c: any) => n + c.num_servers, 0)).toBe(recent.length);
    const de = await json(await m.fetch(m.url('/metadata/countries?country=de')));
    expect(de.countries).toEqual([
      { country: 'Germany', country_code: 'DE', num_servers: recent.filter((s) => s.country_code === 'DE').length },
    ]);
  });

  it('regions: sorted by code, total_servers is their sum, filter by region', async () => {
    const body = await json(await m.fetch(m.url('/metadata/regions')));
    const codes = body.regions.map((r: any) => r.region);
    expect(codes).toEqual([...codes].sort());
    expect(body.total_servers).toBe(all.filter((s) => s.region !== null).length);
    expect(codes).not.toContain(null);
    const eu = await json(await m.fetch(m.url('/metadata/regions?region=EU')));
    expect(eu).toEqual({
      unique_regions: 1,
      total_servers: all.filter((s) => s.region === 'EU').length,
      regions: [{ region: 'EU', num_servers: all.filter((s) => s.region === 'EU').length }],
    });
  });
});

describe('API key lifecycle', () => {
  const session = () => authHeaders(credential('valid-session'));
  const UNAUTHORIZED = { success: false, message: UNAUTHORIZED_MESSAGE };
  beforeEach(() => m.mock.state.reset());

  it('creates a key whose secret is shown once, works at once, and stops working when revoked', async () => {
    const created = await m.fetch(m.url('/user/apikeys'), {
      method: 'POST',
      headers: { ...session(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'ci-pipeline', expires_in_days: 30 }),
    });
    expect(created.status).toBe(201);
    const { key } = await json(created);
    expect(key.secret).toMatch(/^sls_test_[0-9a-f]{40}$/);
    expect(key.secret.startsWith(key.prefix)).toBe(true);
    expect(key.name).toBe('ci-pipeline');
    expect(Date.parse(key.expires_at) - Date.parse(key.created_at)).toBe(30 * 86_400_000);

    const bearer = { Authorization: `Bearer ${key.secret}` };
    const listed = await m.fetch(m.url('/user/apikeys'), { headers: bearer });
    expect(listed.status).toBe(200);
    const listText = await listed.text();
    expect(listText).not.toContain(key.secret);
    const mine = JSON.parse(listText).keys.find((k: { id: string }) => k.id === key.id);
    expect(mine).toMatchObject({ id: key.id, name: 'ci-pipeline', prefix: key.prefix });
    expect(mine.last_used_at).not.toBeNull();
    expect(mine).not.toHaveProperty('secret');

    const revoked = await m.fetch(m.url(`/user/apikeys/${key.id}`), { method: 'DELETE', headers: session() });
    expect(revoked.status).toBe(200);
    expect(await json(revoked)).toEqual({ success: true, id: key.id, message: 'API key revoked' });

    const after = await m.fetch(m.url('/user/apikeys'), { headers: bearer });
    expect(after.status).toBe(401);
    expect(await json(after)).toEqual(UNAUTHORIZED);
    const list = await json(await m.fetch(m.url('/user/apikeys'), { headers: session() }));
    expect(list.keys.map((k: { id: string }) => k.id)).not.toContain(key.id);
  });

  it('creates an unnamed key without expiry from an empty body', async () => {
    const res = await m.fetch(m.url('/user/apikeys'), { method: 'POST', headers: session() });
    expect(res.status).toBe(201);
    expect((await json(res)).key).toMatchObject({ name: null, expires_at: null, last_used_at: null });
  });

  it('lets a key revoke itself', async () => {
    const res = await m.fetch(m.url('/user/apikeys/key_testvalid01'), {
      method: 'DELETE',
      headers: authHeaders(credential('valid-key')),
    });
    expect(res.status).toBe(200);
    const again = await m.fetch(m.url('/user/apikeys'), { headers: authHeaders(credential('valid-key')) });
    expect(again.status).toBe(401);
  });

  it("answers 404 for another user's key and for an unknown id, without telling which", async () => {
    const other = await m.fetch(m.url('/user/apikeys/key_testforbid01'), { method: 'DELETE', headers: session() });
    const unknown = await m.fetch(m.url('/user/apikeys/key_doesnotexist'), { method: 'DELETE', headers: session() });
    for (const [res, id] of [
      [other, 'key_testforbid01'],
      [unknown, 'key_doesnotexist'],
    ] as const) {
      expect(res.status).toBe(404);
      expect(await json(res)).toEqual({ success: false, message: `Not Found: no API key with id '${id}'` });
    }
  });

  it('refuses a 26th key with 409 and keeps the existing ones', async () => {
    const headers = session();
    const before = (await json(await m.fetch(m.url('/user/apikeys'), { headers }))).keys.length;
    for (let i = before; i < 25; i++) {
      expect((await m.fetch(m.url('/user/apikeys'), { method: 'POST', headers })).status).toBe(201);
    }
    const res = await m.fetch(m.url('/user/apikeys'), { method: 'POST', headers });
    expect(res.status).toBe(409);
    expect((await json(res)).message).toMatch(/^Conflict: at most 25 API keys/);
    expect((await json(await m.fetch(m.url('/user/apikeys'), { headers }))).keys).toHaveLength(25);
  });

  it('keeps nothing of a revoked key: create-and-revoke cycles leave the store as it was', async () => {
    const before = m.mock.state.keys.size;
    for (let i = 0; i < 300; i++) {
      const { key } = await json(await m.fetch(m.url('/user/apikeys'), { method: 'POST', headers: session() }));
      expect((await m.fetch(m.url(`/user/apikeys/${key.id}`), { method: 'DELETE', headers: session() })).status).toBe(
        200,
      );
    }
    expect(m.mock.state.keys.size).toBe(before);
  });

  it('reset restores the seeded keys', async () => {
    await m.fetch(m.url('/user/apikeys'), { method: 'POST', headers: session() });
    await m.fetch(`${m.origin()}/__mock/reset`, { method: 'POST' });
    const list = await json(await m.fetch(m.url('/user/apikeys'), { headers: session() }));
    expect(list.keys.map((k: { id: string }) => k.id).sort()).toEqual(['key_testexpired01', 'key_testvalid01']);
  });
});
