// Secrets never reach a report in full, yet each stays recognisable.
import { describe, expect, test } from 'vitest';
import { loadFixtures } from '../../fixtures/load.ts';
import { loadModel } from '../../spec/model.ts';
import { nameFixtureSecrets } from './credentials.ts';
import {
  describeHeaders,
  describeRequest,
  describeResponse,
  holdsSecret,
  redact,
  REMEMBERED,
  rememberSecret,
} from './mask.ts';

const fixtureValue = (name: string) => loadFixtures().credentials.find((c) => c.name === name)!.value;

describe('masking', () => {
  test('secrets are masked to a short prefix and their last 4 characters', () => {
    rememberSecret('sls_live_0123456789abcdef0123456789abcdef01234567');
    expect(redact('key sls_live_0123456789abcdef0123456789abcdef01234567 used')).toBe('key sls_live…4567 used');
    expect(redact('"secret":"sls_other_99999999999"')).toBe('"secret":"sls_…99"');
    expect(
      describeHeaders({ Authorization: 'Bearer sls_live_0123456789', Cookie: 'sls_session=sess_abcdefghijkl' }),
    ).toBe('Authorization: Bearer sls_…89, Cookie: sls_session=sess…kl');
    expect(describeHeaders({ Authorization: 'Bearer short' })).toBe('Authorization: Bearer …');
    expect(describeHeaders({ Authorization: 'Bearer sls_live_0123456789abcdef0123456789abcdef01234567' })).toBe(
      'Authorization: Bearer sls_live…4567',
    );
    expect(
      describeRequest({
        method: 'POST',
        url: 'http://h/api/v0.1/user/apikeys?x=1',
        headers: { Cookie: 'sls_session=sess_abcdefghijkl' },
        body: { name: 'n' },
      }),
    ).toBe('POST /api/v0.1/user/apikeys?x=1 (Cookie: sls_session=sess…kl) body {"name":"n"}');
  });

  test('two credentials that share a prefix print differently, and neither is revealed', () => {
    const [a, b] = [
      'sls_live_7f3a9c0e11d24b6f8a5c3e7d9b1f2a4c6e8d0b2f',
      'sls_live_7f3a9c0e11d24b6f8a5c3e7d9b1f2a4c6e8d9e1a',
    ];
    rememberSecret(a);
    rememberSecret(b);
    const shown = redact(`first ${a}, then ${b}`);
    expect(shown).toBe('first sls_live…0b2f, then sls_live…9e1a');
    expect(shown).not.toContain('7f3a9c0e');
  });

  test('fixture credentials print as their names, so the valid, expired and revoked keys are told apart', () => {
    nameFixtureSecrets(loadModel());
    const keys = ['valid-key', 'expired-key', 'revoked-key'].map((name) => fixtureValue(name));
    // Same prefix and same last characters: only the name tells them apart.
    expect(new Set(keys.map((k) => `${k.slice(0, 8)}${k.slice(-4)}`)).size).toBe(1);
    expect(keys.map((k) => redact(`Bearer ${k}`))).toEqual([
      'Bearer [fixture valid-key]',
      'Bearer [fixture expired-key]',
      'Bearer [fixture revoked-key]',
    ]);
    expect(describeHeaders({ Cookie: `sls_session=${fixtureValue('valid-session')}` })).toBe(
      'Cookie: sls_session=[fixture valid-session]',
    );
  });
});

describe('what is cut or encoded is masked all the same', () => {
  const key = 'sls_live_c0ffee00112233445566778899aabbccddeeff0011';

  test('an excerpt cut inside a secret, and a password field cut before its closing quote', () => {
    rememberSecret(key);
    expect(redact(`no user for key ${key.slice(0, 20)}… (900 chars)`)).toBe(
      'no user for key sls_live…0011… (900 chars)',
    );
    // A field the spec marks format: password, masked by its shape even when nobody remembered its value.
    const created = `{"id":"k1","secret":"sls_live_9999888877776666555544443333222211110000"}`;
    expect(redact(created)).toBe('{"id":"k1","secret":"sls_live…0000"}');
    expect(redact(created.slice(0, 40))).toBe('{"id":"k1","secret":"sls_…77');
    // The field's value is masked before the excerpt is cut: no prefix longer than a mask's is left.
    const answer = describeResponse({
      status: 201,
      headers: { 'content-type': 'application/json' },
      text: `{"pad":"${'x'.repeat(280)}",${created.slice(1)}`,
    });
    expect(answer).not.toMatch(/sls_live_9999/);
    expect(redact(redact(created))).toBe(redact(created));
  });

  test('percent-encoded in any mix, JSON-escaped, base64 at any alignment', () => {
    rememberSecret(key);
    const fully = [...Buffer.from(key)].map((b) => `%${b.toString(16)}`).join('');
    const mixed = key.replace(/_/g, '%5F').replace(/c/g, '%63');
    for (const query of [encodeURIComponent(key), fully, mixed]) {
      const shown = redact(`GET /api/v0.1/servers/find?key=${query}&limit=3`);
      expect(shown, query).toBe('GET /api/v0.1/servers/find?key=sls_live…0011&limit=3');
    }
    for (const user of ['', 'a', 'ab', 'abc:']) {
      const basic = Buffer.from(`${user}${key}`).toString('base64');
      expect(redact(`x ${basic} y`), user).not.toContain(basic.slice(8, 40));
    }
    expect(holdsSecret(`{"motd":"${Buffer.from(`me:${key}`).toString('base64url')}"}`)).toBe(true);
  });

  test('placeholders are no secrets: Bearer null masks nothing else', () => {
    rememberSecret('null');
    rememberSecret('undefined');
    expect(redact('{"favicon":null,"motd":"undefined"}')).toBe('{"favicon":null,"motd":"undefined"}');
    expect(holdsSecret('null')).toBe(false);
  });

  test(`learning never stops: after ${REMEMBERED} other secrets a new one is masked, and the oldest forgotten`, () => {
    const first = 'sls_live_first0000000000000000000000000000000000';
    rememberSecret(first);
    for (let i = 0; i < REMEMBERED + 10; i++) rememberSecret(`junk_${String(i).padStart(40, '0')}`);
    const late = 'sls_live_late11111111111111111111111111111111111';
    rememberSecret(late);
    expect(redact(`echo ${late}`)).toBe('echo sls_live…1111');
    expect(holdsSecret(first)).toBe(false);
  });
});
