// An operation's parameters and body as the spec declares them, through the app: a bad
// one is 400 naming the parameter and the rule, an empty one no filter, a body of
// another media type 415.
import { describe, expect, it } from 'vitest';
import { authHeaders, credential, expectError, json, useApp } from '../../testing/test-app.ts';

const m = useApp();

describe('parameters and bodies', () => {
  it.each([
    ['limit=abc', /^Bad Request: query parameter 'limit' must be integer$/],
    ['limit=0', /^Bad Request: query parameter 'limit' must be >= 1$/],
    ['limit=501', /^Bad Request: query parameter 'limit' must be <= 500$/],
    ['page=-1', /^Bad Request: query parameter 'page' must be >= 1$/],
    ['region=XX', /^Bad Request: query parameter 'region' must be one of "NA", "EU"/],
    ['sort=random', /^Bad Request: query parameter 'sort' must be one of "users", "version"/],
    ['favicon=maybe', /^Bad Request: query parameter 'favicon' must be boolean$/],
    ['country_code=USA', /^Bad Request: query parameter 'country_code' must be two letters, like "DE"; got "USA"$/],
    ['minUsers=1.5', /^Bad Request: query parameter 'minUsers' must be integer$/],
    [`version=${'x'.repeat(65)}`, /^Bad Request: query parameter 'version' must NOT have more than 64 characters$/],
  ])('/servers/find?%s is 400 naming the parameter and the rule', async (query, message) => {
    await expectError(await m.fetch(m.url(`/servers/find?${query}`)), 400, message);
  });

  it('an address that cannot be one is 400, naming the parameter', async () => {
    await expectError(
      await m.fetch(m.url('/status/ping/not_a*host')),
      400,
      new RegExp(
        `^Bad Request: path parameter 'address' must be a hostname or IPv4 address, optionally` +
          String.raw` followed by :port \(1 to 65535\), like "148\.198\.53\.190:25565"; got "not_a\*host"$`,
      ),
    );
    await expectError(await m.fetch(m.url('/status/ping/example.org:70000')), 400, /path parameter 'address'/);
    await expectError(
      await m.fetch(m.url('/status/ping/example.org/0')),
      400,
      /^Bad Request: path parameter 'port' must be >= 1$/,
    );
  });

  it('an enum the service compares as text takes any case (region=eu), and the rows are as stored', async () => {
    const upper = await json(await m.fetch(m.url('/servers/find?region=EU&limit=50')));
    expect(upper.total).toBeGreaterThan(0);
    for (const region of ['eu', 'Eu', 'eU'])
      expect(await json(await m.fetch(m.url(`/servers/find?region=${region}&limit=50`)))).toEqual(upper);
    expect(upper.results.every((r: { region: string }) => r.region === 'EU')).toBe(true);
    expect(await json(await m.fetch(m.url('/metadata/regions?region=na')))).toEqual(
      await json(await m.fetch(m.url('/metadata/regions?region=NA'))),
    );
    // A sort picks an order: its enum is exact.
    await expectError(await m.fetch(m.url('/servers/find?sort=Users')), 400, /query parameter 'sort' must be one of/);
  });

  it('empty values mean no filter and unknown parameters are ignored', async () => {
    const plain = await json(await m.fetch(m.url('/servers/find?limit=5')));
    const empties = await json(
      await m.fetch(m.url('/servers/find?limit=5&motd=&version=&region=&page=&sort%3Dupdated=1&whatever=x')),
    );
    expect(empties).toEqual(plain);
  });

  it('malformed JSON, a wrong body, a non-JSON body and an oversized body are refused clearly', async () => {
    const headers = { ...authHeaders(credential('valid-session')), 'Content-Type': 'application/json' };
    const post = (body: string, h: Record<string, string> = headers) =>
      m.fetch(m.url('/user/apikeys'), { method: 'POST', headers: h, body });
    await expectError(await post('{"name": '), 400, /^Bad Request: the request body is not valid JSON/);
    // What the parser says, without the copy of the body it quotes (client text).
    await expectError(
      await post('{"name": <script>alert(1)</script>}'),
      400,
      /^Bad Request: the request body is not valid JSON: Unexpected token '\\u003c'$/,
    );
    await expectError(
      await post('{"<img src=x onerror=alert(1)>": 1}'),
      400,
      /^Bad Request: body has unknown property '\\u003cimg src=x onerror=alert\(1\)\\u003e'$/,
    );
    await expectError(
      await post('{"expires_in_days": 9999}'),
      400,
      /^Bad Request: body\.expires_in_days must be <= 365$/,
    );
    await expectError(await post('{"colour": "red"}'), 400, /^Bad Request: body has unknown property 'colour'$/);
    await expectError(await post('[1,2]'), 400, /^Bad Request: body must be object$/);
    await expectError(
      await post('name=x', { ...headers, 'Content-Type': 'text/plain' }),
      415,
      /^Unsupported Media Type: send the body as application\/json/,
    );
    await expectError(
      await post(JSON.stringify({ name: 'x'.repeat(20_000) })),
      413,
      /^Payload Too Large: the request body is over 16384 bytes$/,
    );
  });
});
