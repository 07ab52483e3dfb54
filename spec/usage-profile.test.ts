// The usage profile on its own: requests noted one at a time as the mock, the proxy and
// the suite will note them; the profile it writes validates against its schema and reads
// back; profiles merge; a file that is not a profile is refused, saying why.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import { loadModel } from './model.ts';
import {
  mergeProfiles,
  readUsageProfile,
  UsageAccumulator,
  UsageProfileError,
  usageNoteOf,
  valueKind,
  USAGE_FORMAT,
} from './usage-profile.ts';

const model = loadModel();
const schema = JSON.parse(readFileSync(new URL('./usage-profile.schema.json', import.meta.url), 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: true });
(addFormats as unknown as (a: Ajv) => void)(ajv);
const valid = ajv.compile(schema);

/** What a browser session of the web frontend sends, as requests a recorder sees. */
function webSession(): UsageAccumulator {
  const web = new UsageAccumulator('web', { recordedBy: 'mock', model });
  const send = (
    url: string,
    status: number,
    extra: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
  ) =>
    web.note({
      ...usageNoteOf(model, { method: extra.method ?? 'GET', url, ...extra }, status)!,
      at: '2026-01-02T03:04:05.000Z',
    });
  send('/api/v0.1/servers/find?country=Germany&limit=20&version=1.20*', 200);
  send('/api/v0.1/servers/find?country=&limit=50&region=eu', 200);
  send('/api/v0.1/servers/find?limit=900', 400);
  send('/api/v0.1/status/ping/148.198.53.190:25565', 200);
  send('/api/v0.1/user/apikeys', 201, {
    method: 'POST',
    headers: { Cookie: 'theme=dark; sls_session=sess_x' },
    body: JSON.stringify({ name: 'ci', expires_in_days: 90 }),
  });
  send('/api/v0.1/user/apikeys', 200, { headers: { authorization: 'Bearer sls_test_x' } });
  return web;
}

describe('UsageAccumulator', () => {
  test('counts operations, parameters and the kinds of their values, credentials and statuses', () => {
    const profile = webSession().toJSON();
    expect(valid(profile), JSON.stringify(valid.errors)).toBe(true);
    expect(profile).toMatchObject({ format: USAGE_FORMAT, consumer: 'web', recordedBy: 'mock', requests: 6 });
    const find = profile.operations.findServers!;
    expect(find.requests).toBe(3);
    expect(find.parameters.country).toEqual({ in: 'query', requests: 2, kinds: { text: 1, empty: 1 } });
    expect(find.parameters.limit).toEqual({
      in: 'query',
      requests: 3,
      kinds: { number: 3 },
      numbers: { min: 20, max: 900 },
    });
    expect(find.parameters.version).toEqual({ in: 'query', requests: 1, kinds: { wildcard: 1 } });
    // An enum value is kept as the spec writes it; free text (Germany) never is.
    expect(find.parameters.region).toEqual({ in: 'query', requests: 1, kinds: { text: 1 }, values: { EU: 1 } });
    expect(JSON.stringify(profile)).not.toContain('Germany');
    expect(find.statuses).toEqual({ '200': 2, '400': 1 });
    expect(find.credentials).toEqual({ none: 3 });
    expect(profile.operations.pingServer!.parameters.address).toMatchObject({
      in: 'path',
      requests: 1,
      kinds: { text: 1 },
    });
    const create = profile.operations.createApiKey!;
    expect(create.credentials).toEqual({ cookie: 1 });
    expect(create.body).toEqual({
      name: { requests: 1, kinds: { text: 1 } },
      expires_in_days: { requests: 1, kinds: { number: 1 }, numbers: { min: 90, max: 90 } },
    });
    expect(profile.operations.listApiKeys!.credentials).toEqual({ bearer: 1 });
    expect(profile).toMatchObject({ from: '2026-01-02T03:04:05.000Z', to: '2026-01-02T03:04:05.000Z' });
  });

  test('a request outside the spec is no operation of it', () => {
    expect(usageNoteOf(model, { method: 'GET', url: '/api/v0.1/nope' })).toBeUndefined();
    expect(usageNoteOf(model, { method: 'DELETE', url: '/api/v0.1/servers/find' })).toBeUndefined();
  });

  test('a consumer has a name', () => {
    expect(() => new UsageAccumulator('')).toThrow(/consumer/);
  });

  test('value kinds on the wire and in JSON', () => {
    expect(['', '1.2*', '-3', 'true', 'abc'].map((v) => valueKind(v, true))).toEqual([
      'empty',
      'wildcard',
      'number',
      'boolean',
      'text',
    ]);
    expect([null, [], {}, 3, false, 'x'].map((v) => valueKind(v, false))).toEqual([
      'null',
      'array',
      'object',
      'number',
      'boolean',
      'text',
    ]);
  });
});

describe('profiles as files', () => {
  test('a profile reads back as written, and two merge into one that adds up', () => {
    const one = webSession().toJSON();
    const again = readUsageProfile(JSON.stringify(one), 'web.json');
    expect(again).toEqual(one);
    const later = new UsageAccumulator('web', { recordedBy: 'proxy', model });
    later.note({ operationId: 'findServers', query: { limit: '5' }, status: 200, at: '2026-02-01T00:00:00.000Z' });
    const merged = mergeProfiles([one, later.toJSON()]);
    expect(valid(merged)).toBe(true);
    expect(merged).toMatchObject({
      consumer: 'web',
      recordedBy: 'mock+proxy',
      requests: 7,
      to: '2026-02-01T00:00:00.000Z',
    });
    expect(merged.operations.findServers!.parameters.limit).toEqual({
      in: 'query',
      requests: 4,
      kinds: { number: 4 },
      numbers: { min: 5, max: 900 },
    });
  });

  test('what is not a profile is refused, naming the file and what is wrong', () => {
    expect(() => readUsageProfile('{', 'a.json')).toThrow(UsageProfileError);
    expect(() => readUsageProfile('{', 'a.json')).toThrow(/^a\.json: not JSON/);
    expect(() =>
      readUsageProfile(
        JSON.stringify({ format: USAGE_FORMAT, consumer: 'web', requests: -1, operations: {} }),
        'b.json',
      ),
    ).toThrow(/b\.json: not a usage profile .*\/requests must be >= 0/);
    expect(() => readUsageProfile(JSON.stringify({ format: 'server-listing-usage-profile/2' }), 'c.json')).toThrow(
      /c\.json: a usage profile of format server-listing-usage-profile\/2; this version reads/,
    );
  });
});
