// Which credentials the suite uses, how each is presented (the spec's security schemes
// say how), and the deliberately bad ones the auth matrix sends.
import { randomBytes } from 'node:crypto';
import { expiredFixtureCredential, fixtureCredential, loadFixtures } from '../../fixtures/load.ts';
import { credentialHeaders, type Operation, type SecurityScheme, type SpecModel } from '../../spec/model.ts';
import { nameSecrets, rememberSecret } from './mask.ts';
import { nameVariable } from './repro.ts';

export interface Credentials {
  apiKey?: string;
  session?: string;
  forbiddenKey?: string;
  /** A key that has expired (optional): it must get 401 as any invalid one. */
  expiredKey?: string;
  /** A session that has expired (optional). */
  expiredSession?: string;
  /** Where they came from, for the summary. */
  source: 'environment' | 'fixtures/auth.json' | 'none';
}

/** The credentials the auth matrix presents: the run's own, none, and bad ones. */
export type CredentialVariant =
  | 'none'
  | 'apiKey'
  | 'session'
  | 'forbidden'
  | 'unknownKey'
  | 'malformed'
  | 'unknownSession'
  | 'expiredKey'
  | 'expiredSession';

/** The run's own valid credentials, as a failure's evidence names the one its request carried. */
export type OwnCredential = 'apiKey' | 'session' | 'forbidden';

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
    expiredKey: env.CONTRACT_EXPIRED_API_KEY || undefined,
    expiredSession: stripCookieName(env.CONTRACT_EXPIRED_SESSION_COOKIE || undefined, cookieName),
    source: 'environment',
  };
  if (fromEnv.apiKey || fromEnv.session || fromEnv.forbiddenKey) return fromEnv;
  if (!isMock) return { source: 'none' };
  const fixtures = loadFixtures(undefined, model);
  const [bearer, cookie] = (['bearer', 'cookie'] as const).map(
    (kind) => [...model.schemes.values()].find((s) => s.kind === kind)?.name as 'apiKey' | 'session',
  );
  return {
    apiKey: bearer && fixtureCredential(fixtures, bearer, 200)?.value,
    session: cookie && fixtureCredential(fixtures, cookie, 200)?.value,
    forbiddenKey: bearer && fixtureCredential(fixtures, bearer, 403)?.value,
    expiredKey: bearer && expiredFixtureCredential(fixtures, bearer)?.value,
    expiredSession: cookie && expiredFixtureCredential(fixtures, cookie)?.value,
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

/** The run's credentials, presented the way the spec's security schemes say. */
export class CredentialSet {
  private readonly bearerScheme: SecurityScheme | undefined;
  private readonly cookieScheme: SecurityScheme | undefined;
  private readonly unknownKey: string;
  private readonly unknownSession: string;

  constructor(
    readonly model: SpecModel,
    readonly credentials: Credentials,
  ) {
    this.bearerScheme = [...model.schemes.values()].find((s) => s.kind === 'bearer');
    this.cookieScheme = [...model.schemes.values()].find((s) => s.kind === 'cookie');
    for (const s of [
      credentials.apiKey,
      credentials.session,
      credentials.forbiddenKey,
      credentials.expiredKey,
      credentials.expiredSession,
    ])
      rememberSecret(s);
    // A repro line names each by the variable it is read from (the session's may carry its cookie name).
    nameVariable(credentials.apiKey, '${CONTRACT_API_KEY}');
    nameVariable(credentials.forbiddenKey, '${CONTRACT_FORBIDDEN_API_KEY}');
    nameVariable(credentials.expiredKey, '${CONTRACT_EXPIRED_API_KEY}');
    nameVariable(
      credentials.expiredSession,
      this.cookieScheme?.cookieName
        ? `\${CONTRACT_EXPIRED_SESSION_COOKIE#${this.cookieScheme.cookieName}=}`
        : '${CONTRACT_EXPIRED_SESSION_COOKIE}',
    );
    nameVariable(
      credentials.session,
      this.cookieScheme?.cookieName
        ? `\${CONTRACT_SESSION_COOKIE#${this.cookieScheme.cookieName}=}`
        : '${CONTRACT_SESSION_COOKIE}',
    );
    this.unknownKey = unknownKeyLike(credentials.apiKey);
    this.unknownSession = unknownSessionLike(credentials.session);
  }

  /** Headers for one variant; undefined when the run has no such credential. */
  headers(variant: CredentialVariant): Record<string, string> | undefined {
    const { apiKey, session, forbiddenKey, expiredKey, expiredSession } = this.credentials;
    const present = (scheme: SecurityScheme | undefined, secret: string | undefined) =>
      scheme && secret ? credentialHeaders(scheme, secret) : undefined;
    switch (variant) {
      case 'none':
        return {};
      case 'apiKey':
        return present(this.bearerScheme, apiKey);
      case 'session':
        return present(this.cookieScheme, session);
      case 'forbidden':
        return present(this.bearerScheme, forbiddenKey);
      case 'unknownKey':
        return present(this.bearerScheme, this.unknownKey);
      // The valid key without its scheme: a server that accepts it parses the header too loosely.
      case 'malformed':
        return { Authorization: apiKey ?? this.unknownKey };
      case 'unknownSession':
        return present(this.cookieScheme, this.unknownSession);
      case 'expiredKey':
        return present(this.bearerScheme, expiredKey);
      case 'expiredSession':
        return present(this.cookieScheme, expiredSession);
    }
  }

  /** Headers presenting a key the suite holds (one it created), the way the spec's bearer scheme says. */
  bearer(secret: string): Record<string, string> {
    if (!this.bearerScheme) throw new Error('the spec declares no bearer security scheme');
    return credentialHeaders(this.bearerScheme, secret);
  }

  /** The run's own credential that authenticates with a spec security scheme. */
  variantForScheme(scheme: string): 'apiKey' | 'session' | undefined {
    const kind = this.model.schemes.get(scheme)?.kind;
    return kind === 'bearer' ? 'apiKey' : kind === 'cookie' ? 'session' : undefined;
  }

  /** Credentials an operation accepts, if the run has any (none needed for a public one). */
  forOperation(op: Operation): Record<string, string> | undefined {
    if (!op.schemes.length) return {};
    const variant = op.allowedSchemes.map((s) => this.variantForScheme(s)).find((v) => v && this.headers(v));
    return variant ? this.headers(variant) : undefined;
  }

  /** Which of the run's own credentials a request carries, if any. */
  carriedBy(headers: Record<string, string> | undefined): OwnCredential | undefined {
    const { apiKey, session, forbiddenKey } = this.credentials;
    const sent = Object.entries(headers ?? {})
      .map(([k, v]) => `${k.toLowerCase()}: ${v}`)
      .join('\n');
    if (forbiddenKey && sent.includes(`Bearer ${forbiddenKey}`)) return 'forbidden';
    if (apiKey && sent.includes(`Bearer ${apiKey}`)) return 'apiKey';
    if (session && sent.includes(`=${session}`)) return 'session';
    return undefined;
  }
}
