// Which credentials the suite uses, and the deliberately bad ones the auth matrix sends.
import { randomBytes } from 'node:crypto';
import { fixtureCredential, loadFixtures } from '../../fixtures/load.ts';
import type { SpecModel } from '../../spec/model.ts';
import type { Credentials } from './config.ts';
import { nameSecrets } from './mask.ts';

/**
 * Environment first; the fixture credentials only for a target that identifies as the
 * mock, with none set. Any other server, even one on 127.0.0.1, may be a real one.
 */
export function resolveCredentials(env: NodeJS.ProcessEnv, isMock: boolean, model: SpecModel): Credentials {
  const cookieName = model.cookieName ?? '';
  const fromEnv: Credentials = {
    apiKey: env.CONTRACT_API_KEY || undefined,
    session: stripCookieName(env.CONTRACT_SESSION_COOKIE || undefined, cookieName),
    forbiddenKey: env.CONTRACT_FORBIDDEN_API_KEY || undefined,
    source: 'environment',
  };
  if (fromEnv.apiKey || fromEnv.session || fromEnv.forbiddenKey) return fromEnv;
  if (!isMock) return { source: 'none' };
  const fixtures = loadFixtures(undefined, model);
  const [bearer, cookie] = (['bearer', 'cookie'] as const).map((kind) => [...model.schemes.values()].find((s) => s.kind === kind)?.name as 'apiKey' | 'session');
  return {
    apiKey: bearer && fixtureCredential(fixtures, bearer, 200)?.value,
    session: cookie && fixtureCredential(fixtures, cookie, 200)?.value,
    forbiddenKey: bearer && fixtureCredential(fixtures, bearer, 403)?.value,
    source: 'fixtures/auth.json',
  };
}

/** CONTRACT_SESSION_COOKIE may be the bare value or `name=value` as copied from a browser. */
function stripCookieName(value: string | undefined, cookieName: string): string | undefined {
  return cookieName && value?.startsWith(`${cookieName}=`) ? value.slice(cookieName.length + 1) : value;
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

/** Every fixture credential prints as its name wherever it shows up (a fake, public value, told apart by name). */
export function nameFixtureSecrets(model: SpecModel): void {
  nameSecrets(loadFixtures(undefined, model).credentials);
}
