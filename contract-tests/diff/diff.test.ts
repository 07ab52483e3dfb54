// Every rule of the diff, from pairs of copies of the spec that differ by one edit, in
// both directions: the edit names its rule one way and the inverse rule the other. The
// last test holds the table to it: a rule no case names fails.
import { describe, expect, test } from 'vitest';
import { loadSpec, type OpenApiDoc } from '../../spec/load.ts';
import type { Change } from './change.ts';
import { diffDocuments } from './diff.ts';
import { RULES } from './rules.ts';

const SPEC = loadSpec();
const copy = (): OpenApiDoc => structuredClone(SPEC);
const edited = (edit: (doc: any) => void): OpenApiDoc => {
  const doc = copy();
  edit(doc);
  return doc;
};

const named = new Set<string>();
const rulesOf = (changes: Change[]) => changes.map((c) => c.rule);

interface Case {
  name: string;
  /** Applied to both copies: the state both start from. */
  given?: (doc: any) => void;
  edit: (doc: any) => void;
  forward: string[];
  backward: string[];
  /** Rules that must not appear either way. */
  not?: string[];
}

function check(c: Case): { forward: Change[]; backward: Change[] } {
  const base = edited((d) => c.given?.(d));
  const head = edited((d) => {
    c.given?.(d);
    c.edit(d);
  });
  const forward = diffDocuments(base, head);
  const backward = diffDocuments(head, base);
  for (const r of c.forward) expect(rulesOf(forward), `${c.name}: base -> head`).toContain(r);
  for (const r of c.backward) expect(rulesOf(backward), `${c.name}: head -> base`).toContain(r);
  for (const r of c.not ?? []) {
    expect(rulesOf(forward)).not.toContain(r);
    expect(rulesOf(backward)).not.toContain(r);
  }
  for (const r of [...c.forward, ...c.backward]) named.add(r);
  return { forward, backward };
}

const op = (d: any, path: string, method = 'get') => d.paths[path][method];

test('the spec against itself: no change', () => {
  expect(diffDocuments(SPEC, copy())).toEqual([]);
});

test('words for people (descriptions, examples, summaries) change no contract', () => {
  const head = edited((d) => {
    d.info.description = 'another text';
    op(d, '/servers/find').summary = 'Find servers';
    d.components.parameters.limit.example = 7;
    d.components.schemas.Server.description = 'a row';
  });
  expect(diffDocuments(SPEC, head)).toEqual([]);
});

describe('schema keywords, wherever a schema sits', () => {
  const SITES: { where: string; set: (d: any, schema: object) => void }[] = [
    { where: 'request-parameter', set: (d, s) => (d.components.parameters.order.schema = s) },
    { where: 'request-property', set: (d, s) => (d.components.schemas.NewApiKey.properties.name = s) },
    { where: 'response-property', set: (d, s) => (d.components.schemas.Revoked.properties.message = s) },
    { where: 'response-header', set: (d, s) => (d.components.headers['X-RateLimit-Limit'].schema = s) },
  ];
  const KEYWORDS: { name: string; from: object; to: object; forward: string; backward: string }[] = [
    {
      name: 'type',
      from: { type: 'integer' },
      to: { type: 'string' },
      forward: 'type-changed',
      backward: 'type-changed',
    },
    {
      name: 'integer to number',
      from: { type: 'integer' },
      to: { type: 'number' },
      forward: 'type-generalized',
      backward: 'type-specialized',
    },
    {
      name: 'format',
      from: { type: 'string' },
      to: { type: 'string', format: 'date-time' },
      forward: 'format-added',
      backward: 'format-removed',
    },
    {
      name: 'another format',
      from: { type: 'string', format: 'date' },
      to: { type: 'string', format: 'date-time' },
      forward: 'format-changed',
      backward: 'format-changed',
    },
    {
      name: 'nullable',
      from: { type: 'string' },
      to: { type: 'string', nullable: true },
      forward: 'became-nullable',
      backward: 'became-not-nullable',
    },
    {
      name: 'an enum value',
      from: { type: 'string', enum: ['a', 'b'] },
      to: { type: 'string', enum: ['a', 'b', 'c'] },
      forward: 'enum-value-added',
      backward: 'enum-value-removed',
    },
    {
      name: 'an enum',
      from: { type: 'string' },
      to: { type: 'string', enum: ['a'] },
      forward: 'became-enum',
      backward: 'became-not-enum',
    },
    {
      name: 'maximum',
      from: { type: 'integer', maximum: 10 },
      to: { type: 'integer', maximum: 5 },
      forward: 'max-decreased',
      backward: 'max-increased',
    },
    {
      name: 'maxLength set',
      from: { type: 'string' },
      to: { type: 'string', maxLength: 5 },
      forward: 'max-decreased',
      backward: 'max-increased',
    },
    {
      name: 'minimum',
      from: { type: 'integer', minimum: 1 },
      to: { type: 'integer', minimum: 2 },
      forward: 'min-increased',
      backward: 'min-decreased',
    },
    {
      name: 'pattern',
      from: { type: 'string' },
      to: { type: 'string', pattern: '^a' },
      forward: 'pattern-added',
      backward: 'pattern-removed',
    },
    {
      name: 'another pattern',
      from: { type: 'string', pattern: '^a' },
      to: { type: 'string', pattern: '^b' },
      forward: 'pattern-changed',
      backward: 'pattern-changed',
    },
    {
      name: 'default',
      from: { type: 'string', default: 'a' },
      to: { type: 'string', default: 'b' },
      forward: 'default-value-changed',
      backward: 'default-value-changed',
    },
    {
      name: 'additionalProperties',
      from: { type: 'object' },
      to: { type: 'object', additionalProperties: false },
      forward: 'additional-properties-changed',
      backward: 'additional-properties-changed',
    },
  ];
  for (const site of SITES) {
    for (const k of KEYWORDS) {
      test(`${site.where}: ${k.name}`, () => {
        check({
          name: `${site.where} ${k.name}`,
          given: (d) => site.set(d, k.from),
          edit: (d) => site.set(d, k.to),
          forward: [`${site.where}-${k.forward}`],
          backward: [`${site.where}-${k.backward}`],
        });
      });
    }
  }

  test('whom a narrowed or widened schema breaks depends on the side it is on', () => {
    const breaksOf = (where: string, from: object, to: object) => {
      const site = SITES.find((s) => s.where === where)!;
      const { forward } = check({
        name: where,
        given: (d) => site.set(d, from),
        edit: (d) => site.set(d, to),
        forward: [],
        backward: [],
      });
      return forward.find((c) => c.rule.startsWith(where))!.breaks;
    };
    const max = [
      { type: 'integer', maximum: 10 },
      { type: 'integer', maximum: 5 },
    ] as const;
    const moreValues = [
      { type: 'string', enum: ['a'] },
      { type: 'string', enum: ['a', 'b'] },
    ] as const;
    // A request that may carry less breaks clients; an answer that may carry less breaks implementations.
    expect(breaksOf('request-parameter', ...max)).toBe('clients');
    expect(breaksOf('response-property', ...max)).toBe('implementations');
    // A new value in an answer breaks clients (they may not handle it); in a request, implementations.
    expect(breaksOf('response-property', ...moreValues)).toBe('clients');
    expect(breaksOf('request-property', ...moreValues)).toBe('implementations');
    expect(breaksOf('response-header', { type: 'integer' }, { type: 'string' })).toBe('both');
  });
});

const CASES: Case[] = [
  // Paths and methods
  {
    name: 'an operation removed',
    edit: (d) => delete d.paths['/metadata/regions'],
    forward: ['api-removed-without-deprecation'],
    backward: ['endpoint-added'],
  },
  {
    name: 'a deprecated operation removed',
    given: (d) => (op(d, '/metadata/regions').deprecated = true),
    edit: (d) => delete d.paths['/metadata/regions'],
    forward: ['api-removed-with-deprecation'],
    backward: ['endpoint-added'],
  },
  {
    name: 'an operation renamed',
    edit: (d) => (op(d, '/metadata/regions').operationId = 'listContinents'),
    forward: ['api-operation-id-updated'],
    backward: ['api-operation-id-updated'],
  },
  {
    name: 'an operation deprecated',
    edit: (d) => (op(d, '/metadata/regions').deprecated = true),
    forward: ['endpoint-deprecated'],
    backward: ['endpoint-reactivated'],
  },
  {
    name: 'a level lowered',
    edit: (d) => (op(d, '/servers/find')['x-provenance'] = 'observed'),
    forward: ['provenance-changed'],
    backward: ['provenance-changed'],
  },
  // Security, x-permission, x-credentials
  {
    name: 'a public operation protected',
    edit: (d) => (op(d, '/metadata/regions').security = [{ apiKey: [] }]),
    forward: ['api-became-protected'],
    backward: ['api-became-public'],
    not: ['api-credentials-narrowed', 'api-credentials-widened'],
  },
  {
    name: 'a session no longer admitted',
    edit: (d) => (op(d, '/user/apikeys').security = [{ apiKey: [] }]),
    forward: ['api-security-removed'],
    backward: ['api-security-added'],
    not: ['api-credentials-narrowed', 'api-credentials-widened'],
  },
  {
    name: 'a permission dropped',
    edit: (d) => delete op(d, '/user/apikeys/{id}', 'delete')['x-permission'],
    forward: ['api-permission-removed'],
    backward: ['api-permission-added'],
  },
  {
    name: 'another permission',
    edit: (d) => (op(d, '/user/apikeys/{id}', 'delete')['x-permission'] = 'admin'),
    forward: ['api-permission-changed'],
    backward: ['api-permission-changed'],
  },
  {
    name: 'an API key may no longer list keys',
    edit: (d) => (op(d, '/user/apikeys')['x-credentials'] = ['session']),
    forward: ['api-credentials-narrowed'],
    backward: ['api-credentials-widened'],
  },
  {
    name: 'a scheme declared',
    edit: (d) =>
      (d.components.securitySchemes.partnerKey = { type: 'http', scheme: 'bearer', 'x-provenance': 'assumed' }),
    forward: ['api-security-component-added'],
    backward: ['api-security-component-removed'],
  },
  {
    name: 'the session cookie renamed',
    edit: (d) => (d.components.securitySchemes.session.name = 'sls_sid'),
    forward: ['api-security-component-changed'],
    backward: ['api-security-component-changed'],
  },
  {
    name: 'the base path moved',
    edit: (d) => (d.servers[0].url = 'http://127.0.0.1:4010/api/v0.2'),
    forward: ['base-path-changed'],
    backward: ['base-path-changed'],
  },
  // Parameters
  {
    name: 'a required parameter added',
    edit: (d) =>
      op(d, '/metadata/versions').parameters.push({
        name: 'token',
        in: 'query',
        required: true,
        schema: { type: 'string' },
        'x-provenance': 'assumed',
      }),
    forward: ['new-required-request-parameter'],
    backward: ['request-parameter-removed'],
  },
  {
    name: 'an optional parameter added',
    edit: (d) =>
      op(d, '/metadata/versions').parameters.push({
        name: 'since',
        in: 'query',
        schema: { type: 'integer' },
        'x-provenance': 'assumed',
      }),
    forward: ['new-optional-request-parameter'],
    backward: ['request-parameter-removed'],
  },
  {
    name: 'a parameter became required',
    edit: (d) => (op(d, '/metadata/versions').parameters[0].required = true),
    forward: ['request-parameter-became-required'],
    backward: ['request-parameter-became-optional'],
  },
  {
    name: 'a filter compares differently (x-meaning), its schema the same',
    edit: (d) => (d.components.parameters.countryFilter['x-meaning'] = { rule: 'wholeWildcard', field: 'country' }),
    forward: ['request-parameter-meaning-changed'],
    backward: ['request-parameter-meaning-changed'],
  },
  {
    name: 'x-meaning dropped',
    edit: (d) => delete d.components.parameters.order['x-meaning'],
    forward: ['request-parameter-meaning-removed'],
    backward: ['request-parameter-meaning-added'],
  },
  {
    name: 'a sort order reversed',
    edit: (d) => (d.components.parameters.sort['x-meaning'].orders.users.direction = 'asc'),
    forward: ['request-parameter-meaning-changed'],
    backward: ['request-parameter-meaning-changed'],
  },
  {
    name: 'a sort order added with its enum value (the enum says it, the meaning of the others is the same)',
    edit: (d) => {
      d.components.parameters.sort.schema.enum.push('city');
      d.components.parameters.sort['x-meaning'].orders.city = { field: 'city', direction: 'asc' };
    },
    forward: ['request-parameter-enum-value-added'],
    backward: ['request-parameter-enum-value-removed'],
    not: ['request-parameter-meaning-changed'],
  },
  {
    name: 'empty values no longer allowed',
    edit: (d) => delete d.components.parameters.order.allowEmptyValue,
    forward: ['request-parameter-serialization-updated'],
    backward: ['request-parameter-serialization-updated'],
  },
  {
    name: 'a parameter deprecated',
    edit: (d) => (d.components.parameters.order.deprecated = true),
    forward: ['request-parameter-deprecated'],
    backward: ['request-parameter-reactivated'],
  },
  // Request bodies
  {
    name: 'the optional body removed',
    edit: (d) => delete op(d, '/user/apikeys', 'post').requestBody,
    forward: ['request-body-removed'],
    backward: ['request-body-added-optional'],
  },
  {
    name: 'a required body removed',
    given: (d) => (op(d, '/user/apikeys', 'post').requestBody.required = true),
    edit: (d) => delete op(d, '/user/apikeys', 'post').requestBody,
    forward: ['request-body-removed'],
    backward: ['request-body-added-required'],
  },
  {
    name: 'the body became required',
    edit: (d) => (op(d, '/user/apikeys', 'post').requestBody.required = true),
    forward: ['request-body-became-required'],
    backward: ['request-body-became-optional'],
  },
  {
    name: 'the body also as a form',
    edit: (d) =>
      (op(d, '/user/apikeys', 'post').requestBody.content['application/x-www-form-urlencoded'] = {
        schema: { $ref: '#/components/schemas/NewApiKey' },
      }),
    forward: ['request-body-media-type-added'],
    backward: ['request-body-media-type-removed'],
  },
  {
    name: 'an optional request property added',
    edit: (d) => (d.components.schemas.NewApiKey.properties.label = { type: 'string', 'x-provenance': 'assumed' }),
    forward: ['new-optional-request-property'],
    backward: ['request-property-removed'],
  },
  {
    name: 'a required request property added',
    edit: (d) => {
      d.components.schemas.NewApiKey.properties.label = { type: 'string', 'x-provenance': 'assumed' };
      d.components.schemas.NewApiKey.required = ['label'];
    },
    forward: ['new-required-request-property'],
    backward: ['request-property-removed'],
  },
  {
    name: 'a request property became required',
    edit: (d) => (d.components.schemas.NewApiKey.required = ['name']),
    forward: ['request-property-became-required'],
    backward: ['request-property-became-optional'],
  },
  // Responses
  {
    name: 'another success status',
    edit: (d) => (op(d, '/metadata/regions').responses['202'] = { description: 'accepted' }),
    forward: ['response-success-status-added'],
    backward: ['response-success-status-removed'],
  },
  {
    name: 'an error status no longer declared',
    edit: (d) => delete op(d, '/metadata/regions').responses['400'],
    forward: ['response-non-success-status-removed'],
    backward: ['response-non-success-status-added'],
  },
  {
    name: 'an answer also as text',
    edit: (d) => (op(d, '/metadata/regions').responses['200'].content['text/plain'] = { schema: { type: 'string' } }),
    forward: ['response-media-type-added'],
    backward: ['response-media-type-removed'],
  },
  {
    name: 'Retry-After no longer sent',
    edit: (d) => delete d.components.responses.TooManyRequests.headers['Retry-After'],
    forward: ['response-header-removed'],
    backward: ['response-header-added'],
  },
  {
    name: 'an optional response property added (a field renamed is one removed and one added)',
    edit: (d) => (d.components.schemas.Revoked.properties.at = { type: 'string', 'x-provenance': 'assumed' }),
    forward: ['response-optional-property-added'],
    backward: ['response-optional-property-removed'],
  },
  {
    name: 'a required response property added',
    edit: (d) => {
      d.components.schemas.Revoked.properties.at = { type: 'string', 'x-provenance': 'assumed' };
      d.components.schemas.Revoked.required.push('at');
    },
    forward: ['response-required-property-added'],
    backward: ['response-required-property-removed'],
  },
  {
    name: 'a response property no longer always there',
    edit: (d) => (d.components.schemas.Revoked.required = ['success', 'id']),
    forward: ['response-property-became-optional'],
    backward: ['response-property-became-required'],
  },
  {
    name: 'a property marked read-only',
    edit: (d) => (d.components.schemas.Revoked.properties.id.readOnly = true),
    forward: ['schema-annotation-changed'],
    backward: ['schema-annotation-changed'],
  },
  // Limits, routing, the spec's other extensions
  {
    name: 'a smaller body limit',
    edit: (d) => (d['x-max-body-bytes'] = 8192),
    forward: ['limit-decreased'],
    backward: ['limit-increased'],
  },
  {
    name: 'fewer keys per user',
    edit: (d) => (op(d, '/user/apikeys', 'post')['x-max-keys-per-user'] = 10),
    forward: ['limit-decreased'],
    backward: ['limit-increased'],
  },
  {
    name: 'a smaller page for paying callers',
    edit: (d) => (d.components.parameters.limit['x-max-by-plan'].paid = 100),
    forward: ['limit-decreased'],
    backward: ['limit-increased'],
  },
  {
    name: 'a lower anonymous rate limit',
    edit: (d) => (d['x-rate-limits'].tiers.anonymous[0] = 10),
    forward: ['rate-limit-decreased'],
    backward: ['rate-limit-increased'],
  },
  {
    name: 'a rate-limit group of its own for the search',
    edit: (d) => d['x-rate-limits'].groups.push({ pathPrefix: '/servers/', windowSeconds: 1, limit: 5 }),
    forward: ['rate-limit-added'],
    backward: ['rate-limit-removed'],
  },
  {
    name: 'an unknown path answered 400',
    edit: (d) => (d['x-routing'].unknownPath = 400),
    forward: ['routing-status-changed'],
    backward: ['routing-status-changed'],
  },
  {
    name: 'another default port',
    edit: (d) => (op(d, '/status/ping/{address}').parameters[0]['x-default-port'] = 25566),
    forward: ['extension-changed'],
    backward: ['extension-changed'],
  },
  {
    name: 'a part no rule reads (a response header marked required)',
    edit: (d) => (d.components.headers['Retry-After'].required = true),
    forward: ['unclassified-change'],
    backward: ['unclassified-change'],
  },
];

describe('rules, both directions', () => {
  for (const c of CASES) test(c.name, () => check(c));
});

describe('what the changes say', () => {
  test('a removed filter says clients that send it silently get unfiltered rows; its touch is the parameter', () => {
    const head = edited((d) => {
      op(d, '/servers/find').parameters = op(d, '/servers/find').parameters.filter(
        (p: any) => p.$ref !== '#/components/parameters/countryFilter',
      );
    });
    const [change] = diffDocuments(SPEC, head);
    expect(change).toMatchObject({
      rule: 'request-parameter-removed',
      severity: 'breaking',
      breaks: 'clients',
      level: 'observed',
      operationId: 'findServers',
      route: 'GET /servers/find',
      where: 'query parameter country',
      touches: [{ operationId: 'findServers', parameter: 'country' }],
    });
    expect(change!.message).toMatch(/gets rows unfiltered by it .*it was nameOrCode\(country, country_code\)/);
  });

  test(
    'a level is the softest x-provenance along the change: an observed field of an interface operation is ' +
      'observed',
    () => {
      const head = edited((d) => (d.components.schemas.ServerCore.properties.port.maximum = 1000));
      const find = diffDocuments(SPEC, head).find((c) => c.operationId === 'findServers')!;
      expect(find).toMatchObject({
        rule: 'response-property-max-decreased',
        level: 'observed',
        where: 'response 200 body results[].port',
      });
      const limit = diffDocuments(
        SPEC,
        edited((d) => (d.components.parameters.limit.schema.maximum = 100)),
      ).find((c) => c.rule === 'request-parameter-max-decreased')!;
      expect(limit).toMatchObject({
        level: 'interface',
        message: 'maximum 500 -> 100',
        touches: [{ parameter: 'limit', above: 100 }],
      });
    },
  );

  test('a removed enum value of a request touches only requests that sent it', () => {
    const head = edited(
      (d) => (d.components.schemas.Region.enum = d.components.schemas.Region.enum.filter((r: string) => r !== 'AN')),
    );
    const removed = diffDocuments(SPEC, head).filter((c) => c.rule === 'request-parameter-enum-value-removed');
    expect(removed.map((c) => c.operationId).sort()).toEqual(['findServers', 'listRegions']);
    expect(removed[0]!.touches[0]).toMatchObject({ parameter: 'region', value: 'AN' });
  });

  test('a retyped value is one change: the bounds of its old type go with it', () => {
    const head = edited(
      (d) => (d.components.schemas.ServerCore.properties.port = { type: 'string', 'x-provenance': 'observed' }),
    );
    const changes = diffDocuments(SPEC, head);
    expect(changes.map((c) => `${c.operationId} ${c.rule}`)).toEqual([
      'findServers response-property-type-changed',
      'pingServer response-property-type-changed',
      'pingServerHostPort response-property-type-changed',
    ]);
    expect(changes[0]!.message).toBe('type "integer" -> "string"');
  });

  test('changes come worst first', () => {
    const head = edited((d) => {
      op(d, '/metadata/regions').deprecated = true;
      d['x-max-body-bytes'] = 8192;
      op(d, '/metadata/versions').parameters.push({ name: 'since', in: 'query', schema: { type: 'integer' } });
    });
    expect(diffDocuments(SPEC, head).map((c) => c.severity)).toEqual(['breaking', 'warning', 'info']);
  });
});

test('every rule of the table is named by a case above, so each has its test', () => {
  const untested = [...RULES.keys()].filter((id) => !named.has(id));
  expect(untested).toEqual([]);
});
