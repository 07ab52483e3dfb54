// The key and session stores on their own: secrets are kept only as hashes, found by
// prefix, and a key lives through create, use, expiry and revocation.
import { describe, expect, it } from 'vitest';
import type { FixtureCredential } from '../../../fixtures/load.ts';
import { KeyStore, MAX_SESSIONS_PER_USER, SessionStore } from './credentials.ts';
import { NOW } from '../../../testing/instants.ts';

const DAY = 86_400_000;
const key = (over: Partial<FixtureCredential>): FixtureCredential => ({
  name: 'k',
  type: 'apiKey',
  value: 'sls_test_aaaa000000000000000000000000000000000001',
  user: 'u1',
  keyId: 'key_aaaaaa01',
  expect: 200,
  ...over,
});

describe('KeyStore', () => {
  const fixtures = [
    key({}),
    key({
      value: 'sls_test_aaaa000000000000000000000000000000000002',
      keyId: 'key_aaaaaa02',
      createdAt: '2026-05-01T00:00:00.000Z',
      expiresAt: '2026-05-02T00:00:00.000Z',
    }),
    key({ value: 'sls_test_aaaa000000000000000000000000000000000003', keyId: 'key_aaaaaa03', revoked: true }),
    key({
      value: 'sls_test_nobody00000000000000000000000000000000000',
      keyId: undefined,
      user: undefined,
      expect: 401,
    }),
  ];

  it('authenticates a live key (sharing its prefix with others) and records its use', () => {
    const store = new KeyStore(fixtures);
    const record = store.authenticate(fixtures[0]!.value, NOW);
    expect(record?.id).toBe('key_aaaaaa01');
    expect(record?.lastUsedAt).toBe(NOW);
  });

  it.each([
    ['an expired key', fixtures[1]!.value],
    ['a revoked key', fixtures[2]!.value],
    ['a key nobody issued', fixtures[3]!.value],
    ['a secret that only shares the prefix', 'sls_test_aaaa999999999999999999999999999999999999'],
    ['an empty secret', ''],
  ])('refuses %s', (_name, secret) => {
    expect(new KeyStore(fixtures).authenticate(secret, NOW)).toBeUndefined();
  });

  it('keeps no secret in memory, only its prefix and SHA-256', () => {
    const store = new KeyStore(fixtures);
    const record = store.authenticate(fixtures[0]!.value, NOW)!;
    expect(JSON.stringify(record)).not.toContain(fixtures[0]!.value);
    expect(record.prefix).toBe(fixtures[0]!.value.slice(0, 13));
    expect(record.hash).toHaveLength(32);
  });

  it("creates keys that work at once, lists a user's live keys newest first, revokes only the owner's", () => {
    const store = new KeyStore(fixtures);
    const { record, secret } = store.create('u1', 'ci', 30, NOW + 1000);
    expect(secret).toMatch(/^sls_test_[0-9a-f]{40}$/);
    expect(record).toMatchObject({ userId: 'u1', name: 'ci', createdAt: NOW + 1000, expiresAt: NOW + 1000 + 30 * DAY });
    expect(store.authenticate(secret, NOW + 2000)?.id).toBe(record.id);
    expect(store.list('u1').map((r) => r.id)).toEqual([record.id, 'key_aaaaaa02', 'key_aaaaaa01']);
    expect(store.revoke('u2', record.id)).toBe(false);
    expect(store.revoke('u1', record.id)).toBe(true);
    expect(store.revoke('u1', record.id)).toBe(false);
    expect(store.authenticate(secret, NOW + 3000)).toBeUndefined();
    expect(store.list('u1').map((r) => r.id)).not.toContain(record.id);
  });

  it('deletes a revoked key: thousands of create-and-revoke cycles leave the store as it was', () => {
    const store = new KeyStore(fixtures);
    const before = store.size;
    const secrets: string[] = [];
    for (let i = 0; i < 5000; i++) {
      const { record, secret } = store.create('u1', `k${i}`, null, NOW + i);
      secrets.push(secret);
      expect(store.revoke('u1', record.id)).toBe(true);
    }
    expect(store.size).toBe(before);
    expect(store.authenticate(secrets[4999]!, NOW + DAY)).toBeUndefined();
    expect(store.list('u1').map((r) => r.id)).toEqual(['key_aaaaaa02', 'key_aaaaaa01']);
  });

  it('makes a key without expiry live forever', () => {
    const store = new KeyStore([]);
    const { secret } = store.create('u1', null, null, NOW);
    expect(store.authenticate(secret, NOW + 3650 * DAY)).toBeDefined();
  });
});

describe('SessionStore', () => {
  const sessions: FixtureCredential[] = [
    { name: 's', type: 'session', value: 'sess_test_live_000000000000000001', user: 'u1', expect: 200 },
    {
      name: 'e',
      type: 'session',
      value: 'sess_test_old_0000000000000000002',
      user: 'u1',
      expiresAt: '2026-01-01T00:00:00.000Z',
      expect: 401,
    },
  ];

  it('authenticates a live session, not an expired or unknown one', () => {
    const store = new SessionStore(sessions);
    expect(store.authenticate(sessions[0]!.value, NOW)?.userId).toBe('u1');
    expect(store.authenticate(sessions[1]!.value, NOW)).toBeUndefined();
    expect(store.authenticate('sess_test_unknown_00000000000000', NOW)).toBeUndefined();
  });

  it('creates a session that lasts its time to live, and ends it on logout', () => {
    const store = new SessionStore([]);
    const { secret, expiresAt } = store.create('u2', NOW, DAY);
    expect(expiresAt).toBe(NOW + DAY);
    expect(store.authenticate(secret, NOW + DAY - 1)?.userId).toBe('u2');
    expect(store.authenticate(secret, NOW + DAY)).toBeUndefined();
    expect(store.end(secret)).toBe(true);
    expect(store.end(secret)).toBe(false);
    expect(store.authenticate(secret, NOW)).toBeUndefined();
  });

  it(
    'keeps at most MAX_SESSIONS_PER_USER login sessions per user: a login past it ends the oldest login, never ' +
      'a fixture session',
    () => {
      const store = new SessionStore(sessions);
      const made = Array.from(
        { length: MAX_SESSIONS_PER_USER + 50 },
        (_, i) => store.create('u1', NOW + i, DAY).secret,
      );
      // The two fixture sessions stay (the live one still authenticates); the oldest logins went.
      expect(store.size).toBe(MAX_SESSIONS_PER_USER + sessions.length);
      expect(store.authenticate(sessions[0]!.value, NOW + 2000)?.userId).toBe('u1');
      expect(store.authenticate(made[0]!, NOW + 2000)).toBeUndefined();
      expect(store.authenticate(made[49]!, NOW + 2000)).toBeUndefined();
      expect(store.authenticate(made[50]!, NOW + 2000)?.userId).toBe('u1');
      expect(store.authenticate(made.at(-1)!, NOW + 2000)?.userId).toBe('u1');
      // Another user's sessions are not touched.
      const other = store.create('u2', NOW, DAY).secret;
      expect(store.authenticate(other, NOW)?.userId).toBe('u2');
    },
  );

  it("drops a user's expired sessions at their next login", () => {
    const store = new SessionStore([]);
    for (let i = 0; i < 100; i++) store.create('u1', NOW, 1000);
    store.create('u1', NOW + 1000, DAY);
    expect(store.size).toBe(1);
  });
});
