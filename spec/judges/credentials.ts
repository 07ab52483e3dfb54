// What credentials a request carries, read by the spec's security schemes (a bearer
// token in Authorization, the session cookie by its name): the one reading the mock's
// journal, the suite's judges and the proxy share. What only looks like a credential is
// not one: `Bearer undefined` or `Bearer null` (a logged-out page's classic), a `Basic`
// header, an Authorization without a token, an empty session cookie. A request with
// only those carries no credential (so a protected operation owes it a 401), and their
// values are no secrets to hide.
import type { SecurityScheme, SpecModel } from '../model.ts';

export interface Presented {
  /** The spec's security scheme it presents itself with (`apiKey`, `session`). */
  scheme: string;
  kind: SecurityScheme['kind'];
  /** The token or cookie value. */
  secret: string;
}

export interface Carried {
  /** The credentials it presents the way a scheme of the spec reads them. */
  presented: Presented[];
  /** What it sent that looks like a credential but is none, for people (`Authorization: Basic ...`). */
  malformed: string[];
}

/** Values a program writes where it has no credential: never a secret. */
const PLACEHOLDERS = new Set(['undefined', 'null', 'false', 'true', 'nan', '[object object]', 'bearer', 'token']);

/** Whether a token could be a credential at all: printable, no spaces, not a placeholder. */
export function isTokenLike(token: string): boolean {
  return /^[\x21-\x7e]+$/.test(token) && !PLACEHOLDERS.has(token.toLowerCase());
}

/** What a scheme's name looks like (`Basic`, `Token`, `Digest`, `AWS4-HMAC-SHA256`). */
const SCHEME_WORD = /^[A-Za-z][A-Za-z0-9-]{0,19}$/;

/**
 * A malformed Authorization as people may read it: its scheme word when it has one; a value
 * of a single word is the credential itself, sent without `Bearer ` (the commonest slip), and
 * says only its length.
 */
function shownAuthorization(auth: string): string {
  const words = auth.trim().split(/\s+/);
  const first = words[0] ?? '';
  if (first === '') return 'Authorization: (empty)';
  const scheme = (words.length > 1 && SCHEME_WORD.test(first)) || PLACEHOLDERS.has(first.toLowerCase());
  return scheme ? `Authorization: ${first} …` : `Authorization: <${first.length} characters, no scheme word>`;
}

/** The value of a named cookie in a Cookie header (the first, as servers read it). */
export function cookieValue(cookieHeader: string | undefined, name: string | undefined): string | undefined {
  if (!cookieHeader || !name) return undefined;
  const prefix = `${name}=`;
  for (const c of cookieHeader.split(/;\s*/)) if (c.startsWith(prefix)) return c.slice(prefix.length);
  return undefined;
}

/** The credentials a request carries; `headers` has lower-cased names. */
export function carriedCredentials(model: SpecModel, headers: Record<string, string>): Carried {
  const out: Carried = { presented: [], malformed: [] };
  for (const scheme of model.schemes.values()) {
    if (scheme.kind === 'bearer') {
      const auth = headers.authorization;
      if (auth === undefined) continue;
      const m = /^Bearer +(\S+)\s*$/i.exec(auth);
      if (m && isTokenLike(m[1]!)) out.presented.push({ scheme: scheme.name, kind: 'bearer', secret: m[1]! });
      else out.malformed.push(shownAuthorization(auth));
    } else {
      const value = cookieValue(headers.cookie, scheme.cookieName);
      if (value === undefined) continue;
      if (isTokenLike(value)) out.presented.push({ scheme: scheme.name, kind: 'cookie', secret: value });
      else out.malformed.push(`Cookie: ${scheme.cookieName}=${value === '' ? '(empty)' : '…'}`);
    }
  }
  return out;
}
