// The one reading of spec/openapi.yaml: operations, security, extensions, limits and
// defaults as the mock and the contract suite consume them.
import { describe, expect, it } from 'vitest';
import { loadSpec } from './load.ts';
import {
  buildModel,
  credentialHeaders,
  examplesOf,
  loadModel,
  operationFor,
  parameterDefaults,
  SpecError,
} from './model.ts';

const model = loadModel();
const fresh = () => loadSpec();

describe('operations', () => {
  it('covers every operation the service has, in document order', () => {
    expect(model.operations.map((o) => `${o.method} ${o.path} ${o.operationId}`)).toEqual([
      'GET /servers/find findServers',
      'GET /status/ping/{address} pingServer',
      'GET /status/ping/{host}/{port} pingServerHostPort',
      'GET /metadata/versions listVersions',
      'GET /metadata/countries listCountries',
      'GET /metadata/regions listRegions',
      'GET /user/apikeys listApiKeys',
      'POST /user/apikeys createApiKey',
      'DELETE /user/apikeys/{id} revokeApiKey',
    ]);
  });

  it('lists every /servers/find parameter the real service documents', () => {
    expect(
      model.byId
        .get('findServers')!
        .parameters.map((p) => p.name)
        .sort(),
    ).toEqual(
      [
        'limit',
        'page',
        'version',
        'minUsers',
        'maxUsers',
        'minAge',
        'maxAge',
        'region',
        'country',
        'country_code',
        'city',
        'motd',
        'org',
        'asn',
        'modpack',
        'sort',
        'order',
        'favicon',
        'relativeTime',
        'noFilter',
        'offlineOnly',
      ].sort(),
    );
  });

  it('reads security: public operations, protected ones with a bearer key OR the session cookie', () => {
    for (const op of model.operations) {
      if (op.path.startsWith('/user/')) {
        expect(op.security, op.operationId).toEqual([{ apiKey: [] }, { session: [] }]);
        expect(op.isPublic).toBe(false);
        expect(op.schemes).toEqual(['apiKey', 'session']);
        expect(op.permission).toBe('apikeys');
      } else {
        expect(op.isPublic, op.operationId).toBe(true);
        expect(op.schemes).toEqual([]);
      }
    }
    expect(model.schemes.get('apiKey')).toMatchObject({ kind: 'bearer' });
    expect(model.schemes.get('session')).toMatchObject({ kind: 'cookie', cookieName: 'sls_session' });
    expect(model.cookieName).toBe('sls_session');
  });

  it('reads x-credentials, falling back to every scheme the operation names', () => {
    expect(model.byId.get('createApiKey')!.allowedSchemes).toEqual(['session']);
    expect(model.byId.get('listApiKeys')!.allowedSchemes).toEqual(['apiKey', 'session']);
  });

  it("knows each operation's success status, writes and body", () => {
    expect(model.byId.get('createApiKey')).toMatchObject({
      successStatus: 201,
      isWrite: true,
      requestBody: { required: false, mediaTypes: ['application/json'] },
    });
    expect(model.byId.get('revokeApiKey')).toMatchObject({ successStatus: 200, isWrite: true });
    expect(model.byId.get('findServers')).toMatchObject({ successStatus: 200, isWrite: false });
  });

  it("reads a response's examples by name, `default` first", () => {
    const ok = model.byId.get('findServers')!.responses.get(200)!;
    expect([...ok.examples.keys()]).toEqual(['default', 'page', 'gaps', 'empty']);
    expect(ok.examples.get('default')).toBe(ok.examples.get('page'));
    expect((ok.examples.get('empty') as { results: unknown[] }).results).toEqual([]);
    expect([...examplesOf(model.doc, { example: 1, examples: { a: { value: 2 } } })]).toEqual([
      ['default', 1],
      ['a', 2],
    ]);
  });

  it('maps a request path to its operation', () => {
    expect(operationFor(model, 'GET', '/status/ping/a.example:25565?x=1')?.operationId).toBe('pingServer');
    expect(operationFor(model, 'get', '/status/ping/a.example/25565')?.operationId).toBe('pingServerHostPort');
    expect(operationFor(model, 'DELETE', '/user/apikeys/key_1')?.operationId).toBe('revokeApiKey');
    expect(operationFor(model, 'DELETE', '/user/apikeys/')).toBeUndefined();
    expect(operationFor(model, 'PUT', '/servers/find')).toBeUndefined();
  });
});

describe('limits and defaults come from the spec', () => {
  it('reads every x- limit', () => {
    expect(model.limits).toEqual({
      maxBodyBytes: 16384,
      rateLimits: {
        windowsSeconds: [60, 3600, 86400],
        tiers: { anonymous: [20, 600, 5000], session: [60, 2000, 20000], apiKey: [100, 3000, 50000] },
        groups: [{ pathPrefix: '/metadata/', windowSeconds: 1, limit: 1 }],
        provenance: 'observed',
      },
      maxKeysPerUser: 25,
      pageSizeByPlan: { anonymous: 20, free: 20, paid: 500 },
      defaultPort: 25565,
      refreshAfterMs: 30 * 60_000,
      countryWindowMs: 30 * 86_400_000,
    });
  });

  it('reads each declared response header with its provenance', () => {
    const headers = model.byId.get('findServers')!.responses.get(429)!.headers;
    expect([...headers.keys()]).toEqual([
      'Retry-After',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
    ]);
    expect(headers.get('Retry-After')).toEqual({
      name: 'Retry-After',
      schema: { type: 'integer', minimum: 0 },
      provenance: 'observed',
    });
  });

  it("gives the parameters' schema defaults", () => {
    expect(parameterDefaults(model.byId.get('findServers')!)).toEqual({
      limit: 50,
      page: 1,
      version: '*',
      maxAge: 30,
      sort: 'updated',
      favicon: false,
      relativeTime: false,
      noFilter: false,
      offlineOnly: 'off',
    });
  });

  it('names the limit that is missing or malformed', () => {
    const missing = fresh();
    delete missing.paths['/user/apikeys']!.post['x-max-keys-per-user'];
    expect(() => buildModel(missing)).toThrow(
      new SpecError(
        'expected exactly one x-max-keys-per-user in the spec (on findServers or pingServer or ' +
          'pingServerHostPort or listVersions or listCountries or listRegions or listApiKeys or createApiKey or ' +
          'revokeApiKey), found 0',
      ),
    );
    const bad = fresh();
    (bad['x-rate-limits'] as { tiers: Record<string, number[]> }).tiers.session = [60, 2000];
    expect(() => buildModel(bad)).toThrow('x-rate-limits.tiers.session must list one limit per window (3)');
    const negative = fresh();
    negative['x-max-body-bytes'] = -1;
    expect(() => buildModel(negative)).toThrow('x-max-body-bytes must be a positive number, got -1');
  });

  it('refuses a security scheme it cannot present, or one an operation names without declaring it', () => {
    const oauth = fresh();
    oauth.components.securitySchemes!.oauth = { type: 'oauth2', flows: {} };
    expect(() => buildModel(oauth)).toThrow(
      /security scheme 'oauth' \(oauth2\/undefined\) is not one this project understands/,
    );
    const undeclared = fresh();
    undeclared.paths['/user/apikeys']!.get.security = [{ token: [] }];
    expect(() => buildModel(undeclared)).toThrow(
      "listApiKeys names security scheme 'token', which components.securitySchemes does not declare",
    );
  });

  it('follows each $ref as the document is when the model is built, not as an earlier build saw it', () => {
    const doc = fresh();
    const before = buildModel(doc);
    // The parameter's object replaced, not changed in place: a ref remembered past a build
    // would still lead to the old one.
    const limit = doc.components.parameters!.limit as { schema: object };
    doc.components.parameters!.limit = { ...limit, schema: { ...limit.schema, default: 7 } };
    const after = buildModel(doc);
    const defaultOf = (m: typeof model) => parameterDefaults(m.byId.get('findServers')!).limit;
    expect([defaultOf(before), defaultOf(after)]).toEqual([50, 7]);
    // A ref that leads back to itself is refused, whether the build has followed it before or not.
    const circular = fresh();
    circular.components.schemas!.Loop = { $ref: '#/components/schemas/Loop' };
    (circular.components.schemas!.FindResponse as { properties: Record<string, unknown> }).properties.loop = {
      $ref: '#/components/schemas/Loop',
    };
    expect(() => buildModel(circular)).toThrow('circular $ref #/components/schemas/Loop');
  });

  it('presents a credential the way its scheme says', () => {
    expect(credentialHeaders(model.schemes.get('apiKey')!, 'k')).toEqual({ Authorization: 'Bearer k' });
    expect(credentialHeaders(model.schemes.get('session')!, 's')).toEqual({ Cookie: 'sls_session=s' });
  });
});

describe('what each parameter means (x-meaning) and what unrouted requests get (x-routing)', () => {
  it('finds the rows each operation answers: the one array property of its success body', () => {
    expect(Object.fromEntries(model.operations.map((o) => [o.operationId, o.rows?.property]))).toEqual({
      findServers: 'results',
      pingServer: undefined,
      pingServerHostPort: undefined,
      listVersions: 'versions',
      listCountries: 'countries',
      listRegions: 'regions',
      listApiKeys: 'keys',
      createApiKey: undefined,
      revokeApiKey: undefined,
    });
    const rows = model.byId.get('findServers')!.rows!;
    expect(rows.fields.get('players_online')).toMatchObject({ schema: { type: 'integer' }, provenance: 'observed' });
    expect(model.byId.get('listRegions')!.rows!.fields.get('region')!.schema.enum).toContain('EU'); // through the $ref
    expect([...rows.siblings.keys()]).toEqual(['displayed', 'total', 'filtered']);
  });

  it('reads a meaning for every query parameter that filters, sorts or pages rows', () => {
    const meaning = (op: string, name: string) => model.byId.get(op)!.parameters.find((p) => p.name === name)!.meaning;
    expect(meaning('findServers', 'minUsers')).toEqual({ rule: 'atLeast', field: 'players_online' });
    expect(meaning('findServers', 'modpack')).toEqual({
      rule: 'equals',
      fields: ['detected_mod_pack', 'detected_mod_pack_short'],
    });
    expect(meaning('findServers', 'motd')).toEqual({ rule: 'substringWildcard', field: 'motd_stripped', raw: 'motd' });
    expect(meaning('findServers', 'offlineOnly')).toEqual({
      rule: 'flag',
      field: 'offline_mode',
      value: 1,
      off: 'off',
    });
    expect(meaning('findServers', 'sort')).toMatchObject({
      rule: 'sort',
      tieBreak: ['address', 'port'],
      orders: { version: { field: 'version', direction: 'desc', compare: 'version' }, port: { compare: 'natural' } },
    });
    expect(meaning('listVersions', 'limit')).toEqual({ rule: 'limitsRows', counts: ['unique_versions'] });
    for (const op of model.operations.filter((o) => o.rows && o.operationId !== 'listApiKeys')) {
      for (const p of op.parameters.filter((x) => x.in === 'query'))
        expect(p.meaning, `${op.operationId} ${p.name}`).toBeDefined();
    }
  });

  it('names what is wrong with a meaning', () => {
    const cases: [(d: ReturnType<typeof fresh>) => void, string | RegExp][] = [
      [
        (d) => (d.components.parameters!.minUsers['x-meaning'] = { rule: 'moreThan', field: 'players_online' }),
        /findServers parameter 'minUsers' x-meaning must have a rule, one of atLeast/,
      ],
      [
        (d) => (d.components.parameters!.minUsers['x-meaning'] = { rule: 'atLeast', field: 'players' + 'Online' }),
        "findServers parameter 'minUsers' x-meaning names field 'playersOnline', which a row of 'results' " +
          'does not have',
      ],
      [
        (d) =>
          (d.components.parameters!.noFilter['x-meaning'] = {
            rule: 'revealsHidden',
            hidden: 'hidden',
            total: 'total',
          }),
        "findServers parameter 'noFilter' x-meaning names 'hidden', which the success body does not have " +
          "beside 'results'",
      ],
      [
        (d) => delete d.components.parameters!.sort['x-meaning'].orders.port,
        "findServers parameter 'sort' x-meaning (sort) must give an order to every value of the enum; missing port",
      ],
      [
        (d) => (d.paths['/status/ping/{host}/{port}']!.get.parameters[1]['x-meaning'] = { rule: 'ignored' }),
        "pingServerHostPort parameter 'port' has x-meaning, but its operation answers no rows (no array " +
          'property in its success body)',
      ],
    ];
    for (const [breakIt, message] of cases) {
      const doc = fresh();
      breakIt(doc);
      expect(() => buildModel(doc)).toThrow(message);
    }
  });

  it('reads x-cors: credentials, the allowed origins, the preflight, the exposed headers, each with its level', () => {
    expect(model.cors).toEqual({
      credentials: true,
      provenance: 'interface',
      origins: { allowed: ['http://localhost:*', 'http://127.0.0.1:*'], provenance: 'assumed' },
      preflight: {
        status: 204,
        allowHeaders: ['Authorization', 'Content-Type'],
        maxAgeSeconds: 600,
        provenance: 'assumed',
      },
      exposeHeaders: {
        names: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'Allow'],
        provenance: 'assumed',
      },
    });
    const cases: [(d: Record<string, any>) => void, string][] = [
      [(d) => delete d['x-cors'], 'the document has no x-cors'],
      [(d) => (d['x-cors'].credentials = 'yes'), 'x-cors.credentials must be true or false, got "yes"'],
      [
        (d) => (d['x-cors'].origins.allowed = ['http://localhost:5173/']),
        "x-cors.origins.allowed: 'http://localhost:5173/' has a path; " +
          "a browser's Origin never does: use http://localhost:5173",
      ],
      [(d) => (d['x-cors'].preflight.status = 302), 'x-cors.preflight.status must be a 2xx status, got 302'],
      [
        (d) => (d['x-cors'].preflight.maxAgeSeconds = -1),
        'x-cors.preflight.maxAgeSeconds must be a whole number of seconds, got -1',
      ],
      [
        (d) => (d['x-cors'].exposeHeaders.names = ['X-RateLimit-Limit, Retry-After']),
        'x-cors.exposeHeaders.names must be a list of header names, got ["X-RateLimit-Limit, Retry-After"]',
      ],
    ];
    for (const [breakIt, message] of cases) {
      const doc = fresh();
      breakIt(doc as Record<string, any>);
      expect(() => buildModel(doc)).toThrow(message);
    }
  });

  it('reads x-routing: 404 for an unknown path, 405 for a wrong method, and how firm that is', () => {
    expect(model.routing).toEqual({ unknownPath: 404, wrongMethod: 405, provenance: 'assumed' });
    const bad = fresh();
    (bad['x-routing'] as Record<string, unknown>).wrongMethod = 200;
    expect(() => buildModel(bad)).toThrow('x-routing.wrongMethod must be a 4xx status, got 200');
  });
});
