// The journal through the app: every request recorded with what the mock made of it, the
// credentials masked, each 4xx with the rule that refused it, bounded under a flood,
// cleared by a reset; and the findings, said once per kind.
import { describe, expect, it, vi } from 'vitest';
import { authHeaders, credential, json, useApp } from '../../testing/test-app.ts';
import { EVERY_ANSWER_HEADERS } from '../answers.ts';
import { Journal } from './journal.ts';

describe('Journal', () => {
  it('keeps the newest `capacity` requests, newest first, and counts the ones dropped', () => {
    const journal = new Journal(3);
    for (let i = 0; i < 10; i++) journal.add(i, 'GET', `http://a/${i}`);
    expect([...journal.newestFirst()].map((r) => r.id)).toEqual([10, 9, 8]);
    expect(journal.dropped).toBe(7);
    journal.clear();
    expect([...journal.newestFirst()]).toEqual([]);
    journal.add(0, 'GET', 'http://a/x');
    expect([...journal.newestFirst()].map((r) => r.id)).toEqual([11]);
    expect(journal.dropped).toBe(0);
  });

  it("keeps a repeated request's text once, and never gives a request another's", () => {
    const journal = new Journal(10);
    const [one, other] = [
      ['Host', 'a'],
      ['Host', 'b'],
    ];
    const first = journal.add(0, 'GET', 'http://a/x', [...one]);
    expect(journal.add(0, 'GET', 'http://a/x', [...one]).sent).toBe(first.sent);
    const otherHeaders = journal.add(0, 'GET', 'http://a/x', [...other]);
    expect(otherHeaders.rawHeaders).toEqual(other);
    expect(journal.add(0, 'GET', 'http://a/y', [...other]).url).toBe('http://a/y');
    // Not the request before's: the one remembered for its URL.
    expect(journal.add(0, 'GET', 'http://a/x', [...other]).sent).toBe(otherHeaders.sent);
    expect(journal.add(0, 'GET', 'http://a/x').rawHeaders).toBeUndefined();
  });

  it('keeps nothing with a capacity of 0', () => {
    const journal = new Journal(0);
    journal.add(0, 'GET', 'http://a/');
    expect([...journal.newestFirst()]).toEqual([]);
  });
});

describe('the journal of an app', () => {
  it('records each request: operation, parameters as parsed and as sent, caller (masked), status', async () => {
    const m = useApp();
    await m.fetch(m.url('/servers/find?limit=5&region=eu&limit=9'));
    await m.fetch(m.url('/user/apikeys'), { headers: authHeaders(credential('valid-key')) });
    const [keys, find] = m.mock.control.requests();
    expect(find).toMatchObject({
      operationId: 'findServers',
      status: 200,
      request: {
        method: 'GET',
        target: '/api/v0.1/servers/find?limit=5&region=eu&limit=9',
        query: { limit: ['5', '9'], region: 'eu' },
      },
      params: { query: { limit: 5, region: 'EU', maxAge: 30 } },
      findings: [],
    });
    expect(keys).toMatchObject({
      operationId: 'listApiKeys',
      status: 200,
      auth: { user: 'usr_test_alice', scheme: 'apiKey', kind: 'bearer', credential: '<valid-key>' },
      request: { headers: { authorization: 'Bearer <valid-key>' } },
      curl: "curl 'http://127.0.0.1:4010/api/v0.1/user/apikeys' -H 'authorization: Bearer <valid-key>'",
    });
    expect(JSON.stringify(m.mock.control.requests())).not.toContain(credential('valid-key').value);
  });

  // The stages before the route run as one middleware (app.ts's everyRequest): an error of a stage after
  // the journal's reaches Hono's onError only past the journal, which answers it itself.
  it("records the 500 a stage's bug answers, thrown at once or after a wait (--latency)", async () => {
    for (const latency of [
      { min: 0, max: 0 },
      { min: 1, max: 1 },
    ]) {
      const m = useApp({ latency });
      const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
      try {
        Object.defineProperty(m.mock.state, 'rates', {
          get() {
            throw new Error('a bug in the rate limits');
          },
        });
        const res = await m.fetch(m.url('/servers/find'));
        expect(res.status).toBe(500);
        expect(await json(res)).toEqual({ success: false, message: expect.stringMatching(/see its log/) });
        const [entry] = m.mock.control.requests();
        expect(entry).toMatchObject({ status: 500, request: { target: '/api/v0.1/servers/find' } });
        expect(entry).not.toHaveProperty('pending');
        expect(String(logged.mock.calls[0])).toContain('a bug in the rate limits');
      } finally {
        logged.mockRestore();
      }
    }
  });

  it('names the rule that refused every 4xx, with its message', async () => {
    const m = useApp();
    const session = authHeaders(credential('valid-session'));
    const sent: [string, RequestInit?][] = [
      [m.url('/servers/find?limit=abc')],
      [m.url('/user/apikeys')],
      [m.url('/nowhere')],
      [m.url('/servers/find'), { method: 'DELETE' }],
      [m.url('/user/apikeys'), { method: 'POST', headers: { ...session, 'Content-Type': 'text/plain' }, body: 'x' }],
      [
        m.url('/user/apikeys'),
        { method: 'POST', headers: { ...session, 'Content-Type': 'application/json' }, body: '{' },
      ],
      [
        m.url('/user/apikeys'),
        { method: 'POST', headers: { ...session, 'Content-Type': 'application/json' }, body: '{"nam":1}' },
      ],
      [
        m.url('/user/apikeys'),
        { method: 'POST', headers: { ...session, 'Content-Length': '99999' }, body: 'x'.repeat(99_999) },
      ],
      [m.url('/metadata/regions'), { headers: { Prefer: 'code=418' } }],
    ];
    for (const [url, init] of sent) await m.fetch(url, init);
    const rules = m.mock.control
      .requests()
      .reverse()
      .map((r) => [r.status, r.refusedBy]);
    expect(rules).toEqual([
      [400, 'refused-values'],
      [401, 'auth'],
      [404, 'routing'],
      [405, 'routing'],
      [415, 'media-type'],
      [400, 'json'],
      [400, 'schema'],
      [413, 'body-limit'],
      [400, 'prefer'],
    ]);
    expect(m.mock.control.requests({ status: 401 })[0]!.why).toBe('Unauthorized: Invalid API key or session');
  });

  it('finds a parameter the operation does not have, with its near miss, and says each kind once', async () => {
    const warn = vi.fn();
    const m = useApp({}, warn);
    for (let i = 0; i < 3; i++) await m.fetch(m.url('/servers/find?sortBy=users&MaxAge=3'));
    await m.fetch(m.url('/servers/find?favicons=true'), { headers: { Authorization: 'Token abc' } });
    const [last, first] = [m.mock.control.requests()[0]!, m.mock.control.requests().at(-1)!];
    expect(first.findings).toEqual([
      {
        judge: 'unknown-parameter',
        level: 'warning',
        why: "'sortBy' is not a parameter of findServers; the real service ignores it",
        hint: "did you mean 'sort'?",
      },
      {
        judge: 'unknown-parameter',
        level: 'warning',
        why: "'MaxAge' is not a parameter of findServers; the real service ignores it",
        hint: "did you mean 'maxAge'?",
      },
    ]);
    expect(last.findings.map((f) => [f.judge, f.hint])).toEqual([
      ['unknown-parameter', "did you mean 'favicon'?"],
      ['malformed-credential', "send 'Authorization: Bearer <API key>'"],
    ]);
    // Three requests with the same two findings: said twice, not six times.
    const said = warn.mock.calls.map(([line]) => String(line));
    expect(said.filter((l) => l.includes("'sortBy'"))).toHaveLength(1);
    expect(said.filter((l) => l.includes("'MaxAge'"))).toHaveLength(1);
    expect(said[0]).toBe(
      "mock: GET /api/v0.1/servers/find?sortBy=users&MaxAge=3: 'sortBy' is not a parameter of findServers; " +
        "the real service ignores it: did you mean 'sort'? (said once; GET /__mock/requests?findings=true " +
        'lists every such request)',
    );
    // A parameter of another operation says whose it is.
    await m.fetch(m.url('/metadata/regions?sort=users'));
    expect(m.mock.control.requests()[0]!.findings[0]!.why).toBe(
      "'sort' is not a parameter of listRegions (it is one of findServers); the real service ignores it",
    );
  });

  it('stays within its size under a flood, and a reset empties it', async () => {
    const m = useApp({ journal: 50 });
    for (let i = 0; i < 2000; i++) await m.fetch(m.url(`/servers/find?motd=flood${i}&limit=1`));
    const kept = m.mock.control.requests();
    expect(kept).toHaveLength(50);
    expect(kept[0]!.request.target).toBe('/api/v0.1/servers/find?motd=flood1999&limit=1');
    expect(m.mock.control.journal()).toEqual({ size: 50, dropped: 1950 });
    const reset = await m.fetch(`${m.origin()}/__mock/reset`, { method: 'POST' });
    expect(reset.status).toBe(200);
    expect(m.mock.control.requests()).toEqual([]);
  });

  it('a request still pending as the ring comes round answers into its own entry, not its slot', async () => {
    const m = useApp({ journal: 2 });
    const delayed = await m.fetch(`${m.origin()}/__mock/overrides`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ operationId: 'listRegions', delay: 50, times: 1 }),
    });
    expect(delayed.status).toBe(201);
    const slow = m.fetch(m.url('/metadata/regions'));
    await vi.waitFor(() => expect(m.mock.control.requests()[0]).toMatchObject({ pending: true }));
    // Two more: the second takes the slot of the one still pending.
    await m.fetch(m.url('/servers/find?limit=1'));
    await m.fetch(m.url('/servers/find?limit=2'));
    expect((await slow).status).toBe(200);
    const kept = m.mock.control.requests();
    expect(kept.map((r) => [r.request.target, r.operationId, r.status, r.pending === true, r.override])).toEqual([
      ['/api/v0.1/servers/find?limit=2', 'findServers', 200, false, undefined],
      ['/api/v0.1/servers/find?limit=1', 'findServers', 200, false, undefined],
    ]);
  });

  it('is off with a size of 0: nothing kept, the answers the same', async () => {
    const m = useApp({ journal: 0 });
    expect((await m.fetch(m.url('/servers/find?limit=1'))).status).toBe(200);
    expect(m.mock.control.requests()).toEqual([]);
  });

  // Every answer's headers hold whether the journal's stage runs after the first stage or not at all.
  it.each([
    ['on', {}],
    ['off, quiet', { journal: 0 }],
    ['off, logging', { journal: 0, quiet: false }],
  ])('leaves every answer its own headers with the journal %s', async (_name, options) => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const m = useApp(options);
    for (const path of ['/servers/find?limit=1', '/servers/find?limit=x', '/nowhere']) {
      const res = await m.fetch(m.url(path));
      for (const [name, value] of Object.entries(EVERY_ANSWER_HEADERS)) expect(res.headers.get(name)).toBe(value);
    }
  });

  it(
    'filters by operation, method, status, a class of ' + 'statuses, path, findings, and says what a bad filter is',
    async () => {
      const m = useApp();
      await m.fetch(m.url('/servers/find?limit=1'));
      await m.fetch(m.url('/servers/find?limit=x'));
      await m.fetch(m.url('/metadata/regions?x=1'));
      const ids = (filter: object) =>
        m.mock.control.requests(filter).map((r) => r.request.target.replace('/api/v0.1', ''));
      expect(ids({ operationId: 'findServers' })).toEqual(['/servers/find?limit=x', '/servers/find?limit=1']);
      expect(ids({ status: '4xx' })).toEqual(['/servers/find?limit=x']);
      expect(ids({ status: 200, limit: 1 })).toEqual(['/metadata/regions?x=1']);
      expect(ids({ findings: true })).toEqual(['/metadata/regions?x=1']);
      expect(ids({ path: 'limit=1' })).toEqual(['/servers/find?limit=1']);
      expect(() => m.mock.control.requests({ operationId: 'findServer', stauts: 2 })).toThrow(
        'invalid request filter: operationId "findServer" is not an operation of the spec: did you mean ' +
          "'findServers'?; " +
          "unknown filter 'stauts': did you mean 'status'?",
      );
      const res = await m.fetch(`${m.origin()}/__mock/requests?status=abc`);
      expect(res.status).toBe(400);
      expect((await json(res)).message).toBe('Bad Request: status is a whole number from 100, got "abc"');
    },
  );
});
