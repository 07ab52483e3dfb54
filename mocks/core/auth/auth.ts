// Who is calling, and may they? Credentials are read the way the spec's security
// schemes say (bearer header, session cookie), then an operation's requirements are
// evaluated with OpenAPI's semantics: the list is OR, the schemes inside one
// requirement are AND. Missing or invalid credentials are 401; valid ones that
// lack the operation's permission or use a scheme it does not allow are 403.
import type { MiddlewareHandler } from 'hono';
import type { FixtureUser } from '../../../fixtures/load.ts';
import { errorBody } from '../../../spec/messages.ts';
import type { Operation, SchemeKind, SpecModel } from '../../../spec/model.ts';
import type { Answers } from '../answers.ts';
import type { AppEnv, Principal } from '../env.ts';
import type { KeyStore, SessionStore } from './credentials.ts';

export type { Principal } from '../env.ts';

export interface SchemeReader {
  name: string;
  kind: SchemeKind;
  /** The credential as a 403 names it: `an API key`. */
  label?: string;
  read(headers: Headers): string | undefined;
}

export interface AuthStores {
  keys: KeyStore;
  sessions: SessionStore;
  users: Map<string, FixtureUser>;
}

/** A 403 says, after the promised sentence, what is missing (`why`). */
export type AuthDecision =
  | { ok: true; principal?: Principal }
  | { ok: false; status: 401 }
  | { ok: false; status: 403; why: string };

/**
 * The value of cookie `name` in a Cookie header (quotes removed, percent-decoded), or
 * undefined. A value whose percent-encoding is broken (`%`, `%zz`, half a UTF-8
 * sequence) is no credential: it counts as no cookie, never as an error.
 */
export function cookieValue(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0 || part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (!value.includes('%')) return value;
    try {
      return decodeURIComponent(value);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** One reader per security scheme of the spec: a bearer header or a named cookie. */
export function schemeReaders(model: SpecModel): SchemeReader[] {
  return [...model.schemes.values()].map(({ name, kind, cookieName }) => ({
    name,
    kind,
    label: kind === 'bearer' ? 'an API key' : `a logged-in session (the ${cookieName} cookie)`,
    read:
      kind === 'bearer'
        ? (headers: Headers) => /^Bearer +(\S+) *$/i.exec(headers.get('authorization') ?? '')?.[1]
        : (headers: Headers) => cookieValue(headers.get('cookie'), cookieName!),
  }));
}

export class Authenticator {
  constructor(
    private readonly readers: SchemeReader[],
    private readonly stores: () => AuthStores,
  ) {}

  /** Every scheme whose credential in this request is valid, with its principal. */
  identify(headers: Headers, now: number): Map<string, Principal> {
    const valid = new Map<string, Principal>();
    const { keys, sessions, users } = this.stores();
    for (const reader of this.readers) {
      const secret = reader.read(headers);
      if (!secret) continue;
      const key = reader.kind === 'bearer' ? keys.authenticate(secret, now) : undefined;
      const record = key ?? (reader.kind === 'cookie' ? sessions.authenticate(secret, now) : undefined);
      const user = record && users.get(record.userId);
      if (!user) continue;
      valid.set(reader.name, {
        user,
        scheme: reader.name,
        kind: reader.kind,
        id: `user:${user.id}`,
        credential: record,
      });
    }
    return valid;
  }

  /**
   * Is the credential that authenticated `principal` still the live one this request
   * presents: not logged out, revoked or expired since, nor swept away by a reset (which
   * stores the fixtures afresh, so even a fixture credential is another record after it)?
   */
  stillValid(principal: Principal, headers: Headers, now: number): boolean {
    const reader = this.readers.find((r) => r.name === principal.scheme);
    const secret = reader?.read(headers);
    if (!secret) return false;
    const { keys, sessions } = this.stores();
    const record = reader!.kind === 'bearer' ? keys.authenticate(secret, now) : sessions.authenticate(secret, now);
    return record === principal.credential;
  }

  /** Evaluates the operation's security with OR-of-AND semantics, then its authorization. */
  authorize(op: Operation, valid: Map<string, Principal>): AuthDecision {
    const anyone = valid.values().next().value as Principal | undefined;
    if (op.isPublic) return { ok: true, principal: anyone };
    const satisfied = op.security.filter((req) => Object.keys(req).every((scheme) => valid.has(scheme)));
    if (satisfied.length === 0) return { ok: false, status: 401 };
    const allowed = satisfied.filter((req) => Object.keys(req).every((scheme) => op.allowedSchemes.includes(scheme)));
    const chosen = allowed[0] ?? satisfied[0]!;
    const principal = valid.get(Object.keys(chosen)[0]!)!;
    const lacks =
      op.permission && !principal.user.permissions.includes(op.permission)
        ? `This account lacks the '${op.permission}' permission.`
        : undefined;
    if (!allowed[0])
      return {
        ok: false,
        status: 403,
        why: [this.credentialsNeeded(op, Object.keys(chosen)), lacks].filter(Boolean).join(' '),
      };
    if (lacks) return { ok: false, status: 403, why: lacks };
    return { ok: true, principal };
  }

  /** `x-credentials` refused the schemes in hand: which ones the operation takes, and how to get a session. */
  private credentialsNeeded(op: Operation, used: string[]): string {
    const label = (scheme: string) => this.readers.find((r) => r.name === scheme)?.label ?? scheme;
    const session = op.allowedSchemes.some((s) => this.readers.find((r) => r.name === s)?.kind === 'cookie');
    return (
      `This operation takes ${op.allowedSchemes.map(label).join(' or ')}, not ` +
      `${used.map(label).join(' and ')}${session ? '; log in first (on this mock: POST /__mock/login)' : ''}.`
    );
  }
}

/**
 * Who is calling, on every request (the rate limits count by it, authorize decides by
 * it), and the clock it came in at. An invalid credential is simply no identity here:
 * public operations ignore it, protected ones answer 401 in authorize.
 */
export function identifyCaller(auth: Authenticator, clock: () => number): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const now = clock();
    c.set('now', now);
    c.set('identity', auth.identify(c.req.raw.headers, now));
    return next();
  };
}

/**
 * For an operation that reads a body: authorization is decided when the headers arrive,
 * and the body may take as long as the request timeout allows. Before the handler acts,
 * the credential must still be the live one it was (Authenticator.stillValid), or the
 * answer is 401: nothing is created for a session logged out, or a mock reset, while the
 * body trickled in.
 */
export function stillAuthorized(
  op: Operation,
  auth: Authenticator,
  clock: () => number,
  answers: Answers,
): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const principal = c.get('principal');
    if (!principal || auth.stillValid(principal, c.req.raw.headers, clock())) return next();
    c.set('refusedBy', 'auth');
    return Promise.resolve(answers.reply(c, op, 401, errorBody(401)));
  };
}

/**
 * An operation's security, before anything else of it: 401 or 403 with the
 * spec's messages, else its principal is handed on.
 */
export function authorize(op: Operation, auth: Authenticator, answers: Answers): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const decision = auth.authorize(op, c.get('identity'));
    if (!decision.ok) {
      c.set('refusedBy', 'auth');
      const body = decision.status === 401 ? errorBody(401) : errorBody(403, decision.why);
      return Promise.resolve(answers.reply(c, op, decision.status, body));
    }
    c.set('principal', decision.principal);
    return next();
  };
}
