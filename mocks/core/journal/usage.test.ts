// The usage profile of a named consumer, as the app counts it: operations, parameters and
// the kinds of values sent, enum values, numbers' range, credentials' kinds, statuses;
// served bare at /__mock/usage (a file `diff --usage` reads), kept by a reset, started
// afresh by DELETE; never a secret or free text; off without a consumer.
import { describe, expect, it } from 'vitest';
import { readUsageProfile } from '../../../spec/usage-profile.ts';
import { authHeaders, credential, expectError, json, useApp } from '../../testing/test-app.ts';

describe('the usage profile of a named consumer', () => {
  it('counts what the consumer sent and met, and a reset keeps it: a test run is one profile', async () => {
    const m = useApp({ consumer: 'web' });
    await m.fetch(m.url('/servers/find?country=Germany&limit=5&sort=users'));
    await m.fetch(m.url('/servers/find?limit=50&minUsers=3&motd=*craft*'));
    await m.fetch(m.url('/servers/find?limit=abc'));
    await m.fetch(m.url('/user/apikeys'));
    await m.fetch(m.url('/user/apikeys'), { headers: authHeaders(credential('valid-key')) });
    await m.fetch(`${m.origin()}/nowhere`);
    expect((await m.fetch(`${m.origin()}/__mock/reset`, { method: 'POST' })).status).toBe(200);
    await m.fetch(m.url('/user/apikeys'), { headers: authHeaders(credential('valid-session')) });

    const res = await m.fetch(`${m.origin()}/__mock/usage`);
    expect(res.status).toBe(200);
    const text = await res.text();
    const profile = readUsageProfile(text, '/__mock/usage');
    expect(profile).toMatchObject({ consumer: 'web', recordedBy: 'mock', requests: 6 });
    expect(profile.from).toBe(new Date(m.mock.state.now()).toISOString());
    const find = profile.operations.findServers!;
    expect(find.requests).toBe(3);
    expect(find.statuses).toEqual({ 200: 2, 400: 1 });
    expect(find.credentials).toEqual({ none: 3 });
    expect(find.parameters.limit).toEqual({
      in: 'query',
      requests: 3,
      kinds: { number: 2, text: 1 },
      numbers: { min: 5, max: 50 },
    });
    expect(find.parameters.country).toEqual({ in: 'query', requests: 1, kinds: { text: 1 } });
    expect(find.parameters.sort).toMatchObject({ requests: 1, values: { users: 1 } });
    expect(find.parameters.motd).toMatchObject({ kinds: { wildcard: 1 } });
    // Defaults the mock filled in are not what the consumer used.
    expect(Object.keys(find.parameters).sort()).toEqual(['country', 'limit', 'minUsers', 'motd', 'sort']);
    expect(profile.operations.listApiKeys).toMatchObject({
      requests: 3,
      credentials: { none: 1, bearer: 1, cookie: 1 },
      statuses: { 401: 1, 200: 2 },
    });
    // The journal was emptied by the reset; the profile was not.
    expect(m.mock.control.requests()).toHaveLength(1);
  });

  it('DELETE /__mock/usage starts it afresh', async () => {
    const m = useApp({ consumer: 'web' });
    await m.fetch(m.url('/metadata/regions'));
    const cleared = await m.fetch(`${m.origin()}/__mock/usage`, { method: 'DELETE' });
    expect(await json(cleared)).toEqual({ success: true, message: 'The usage profile starts afresh' });
    await m.fetch(m.url('/servers/find'));
    const profile = await json(await m.fetch(`${m.origin()}/__mock/usage`));
    expect(profile.requests).toBe(1);
    expect(Object.keys(profile.operations)).toEqual(['findServers']);
  });

  it('never keeps a credential, a secret or free text: only their kinds', async () => {
    const m = useApp({ consumer: 'web' });
    const key = credential('valid-key').value;
    const session = credential('valid-session').value;
    const typed = 'my-password-hunter2';
    await m.fetch(m.url(`/servers/find?motd=${typed}&country=${typed}`), {
      headers: authHeaders(credential('valid-key')),
    });
    await m.fetch(m.url('/user/apikeys'), { headers: { Authorization: `Bearer ${typed}-token` } });
    await m.fetch(m.url('/user/apikeys'), {
      method: 'POST',
      headers: { ...authHeaders(credential('valid-session')), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: typed }),
    });
    await m.fetch(m.url(`/user/apikeys/${typed}`), { method: 'DELETE', headers: { Cookie: `sls_session=${session}` } });
    const text = await (await m.fetch(`${m.origin()}/__mock/usage`)).text();
    expect(text).toContain('"bearer"');
    expect(text).toContain('"cookie"');
    for (const secret of [key, session, typed, 'hunter2']) expect(text).not.toContain(secret);
    const profile = readUsageProfile(text, 'usage');
    expect(profile.operations.createApiKey?.body.name).toEqual({ requests: 1, kinds: { text: 1 } });
    expect(Object.keys(profile.operations)).toEqual(['findServers', 'listApiKeys', 'createApiKey', 'revokeApiKey']);
  });

  it('is off without a consumer: /__mock/usage says how to turn it on', async () => {
    const m = useApp();
    await m.fetch(m.url('/servers/find'));
    expect(m.mock.state.usage).toBeUndefined();
    expect(m.mock.control.usage()).toBeUndefined();
    for (const method of ['GET', 'DELETE'])
      await expectError(
        await m.fetch(`${m.origin()}/__mock/usage`, { method }),
        404,
        /^Not Found: no usage profile is recorded: start the mock with --consumer NAME \(createMock\(\{ consumer/,
      );
  });
});
