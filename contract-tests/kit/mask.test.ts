// Secrets never reach a report in full, yet each stays recognisable.
import { describe, expect, test } from 'vitest';
import { loadFixtures } from '../../fixtures/load.ts';
import { loadModel } from '../../spec/model.ts';
import { nameFixtureSecrets } from './credentials.ts';
import { describeHeaders, describeRequest, redact, rememberSecret } from './mask.ts';

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
