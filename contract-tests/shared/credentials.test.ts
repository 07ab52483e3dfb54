// Which credentials a run uses, and how each is presented.
import { describe, expect, test } from 'vitest';
import { loadFixtures } from '../../fixtures/load.ts';
import { loadModel } from '../../spec/model.ts';
import { CredentialSet, resolveCredentials } from './credentials.ts';

const model = loadModel();
const fixtureValue = (name: string) => loadFixtures().credentials.find((c) => c.name === name)!.value;

describe('credentials', () => {
  test('the fixture credentials only for a target that identifies as the mock; the environment first', () => {
    expect(resolveCredentials({}, false, model)).toEqual({ source: 'none' });
    expect(resolveCredentials({}, true, model)).toEqual({
      apiKey: fixtureValue('valid-key'),
      session: fixtureValue('valid-session'),
      forbiddenKey: fixtureValue('forbidden-key'),
      expiredKey: fixtureValue('expired-key'),
      expiredSession: fixtureValue('expired-session'),
      source: 'fixtures/auth.json',
    });
    expect(
      resolveCredentials({ CONTRACT_SESSION_COOKIE: 'sls_session=sess_real_1234567890abcdef' }, true, model),
    ).toEqual({ session: 'sess_real_1234567890abcdef', source: 'environment' });
  });

  test("presented as the spec's schemes say; an operation gets the first credential its x-credentials allow", () => {
    const set = new CredentialSet(model, resolveCredentials({}, true, model));
    expect(set.headers('apiKey')).toEqual({ Authorization: `Bearer ${fixtureValue('valid-key')}` });
    expect(set.headers('session')).toEqual({ Cookie: `sls_session=${fixtureValue('valid-session')}` });
    expect(set.headers('malformed')).toEqual({ Authorization: fixtureValue('valid-key') });
    expect(set.headers('unknownKey')!.Authorization).toMatch(/^Bearer sls_test_[0-9a-f]+$/);
    expect(set.forOperation(model.byId.get('createApiKey')!)).toEqual(set.headers('session'));
    expect(set.forOperation(model.byId.get('listApiKeys')!)).toEqual(set.headers('apiKey'));
    expect(set.forOperation(model.byId.get('findServers')!)).toEqual({});
    expect(set.carriedBy(set.headers('forbidden'))).toBe('forbidden');
    expect(set.carriedBy(set.headers('session'))).toBe('session');
    expect(set.carriedBy(set.headers('unknownKey'))).toBeUndefined();
    const none = new CredentialSet(model, { source: 'none' });
    expect(none.forOperation(model.byId.get('listApiKeys')!)).toBeUndefined();
  });
});
