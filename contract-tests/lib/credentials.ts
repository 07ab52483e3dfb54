// Which credentials the suite uses, and the deliberately bad ones the auth matrix sends.
import { randomBytes } from 'node:crypto';
import { loadFixtures, type FixtureCredential } from '../../mocks/fixtures.ts';
import { DEFAULT_OPTIONS } from '../../mocks/options.ts';
import type { Credentials } from './config.ts';
import { securityScheme, type ContractModel } from './spec-model.ts';

/** Environment first; the fixture credentials only for a loopback target with none set. */
export function resolveCredentials(env: NodeJS.ProcessEnv, loopback: boolean, cookieName: string): Credentials {
  const fromEnv: Credentials = {
    apiKey: env.CONTRACT_API_KEY || undefined,
    session: stripCookieName(env.CONTRACT_SESSION_COOKIE || undefined, cookieName),
    forbiddenKey: env.CONTRACT_FORBIDDEN_API_KEY || undefined,
    source: 'environment',
  };
  if (fromEnv.apiKey || fromEnv.session || fromEnv.forbiddenKey) return fromEnv;
  if (!loopback) return { source: 'none' };
  const fixtures = loadFixtures(DEFAULT_OPTIONS.fixtures);
  const pick = (type: FixtureCredential['type'], expect: number) => fixtures.credentials.find((c) => c.type === type && c.expect === expect)?.value;
  return { apiKey: pick('apiKey', 200), session: pick('session', 200), forbiddenKey: pick('apiKey', 403), source: 'fixtures/auth.json' };
}

/** CONTRACT_SESSION_COOKIE may be the bare value or `name=value` as copied from a browser. */
function stripCookieName(value: string | undefined, cookieName: string): string | undefined {
  return value?.startsWith(`${cookieName}=`) ? value.slice(cookieName.length + 1) : value;
}

/** The cookie the spec's cookie security scheme names (`sls_session`). */
export function sessionCookieName(model: ContractModel): string {
  for (const name of Object.keys(model.doc.components.securitySchemes ?? {})) {
    const scheme = securityScheme(model, name);
    if (scheme?.type === 'apiKey' && scheme.in === 'cookie') return scheme.name;
  }
  throw new Error('the spec declares no cookie security scheme');
}

/** Which spec security scheme is a bearer API key and which is the session cookie. */
export function schemeKind(model: ContractModel, name: string): 'bearer' | 'cookie' | 'other' {
  const scheme = securityScheme(model, name);
  if (scheme?.type === 'http' && String(scheme.scheme).toLowerCase() === 'bearer') return 'bearer';
  if (scheme?.type === 'apiKey' && scheme.in === 'cookie') return 'cookie';
  return 'other';
}

/** A key of the same shape as a real one that nobody issued. */
export function unknownKeyLike(key: string | undefined): string {
  const hex = randomBytes(24).toString('hex');
  const prefix = key?.match(/^([a-z]+_[a-z]+_)/)?.[1] ?? 'sls_contract_';
  return `${prefix}${hex}`.slice(0, Math.max(key?.length ?? 0, 40));
}

export function unknownSessionLike(session: string | undefined): string {
  return `${session?.match(/^([a-z]+_)/)?.[1] ?? 'sess_'}contract_${randomBytes(16).toString('hex')}`;
}
