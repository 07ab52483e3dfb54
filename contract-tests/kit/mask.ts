// Secrets never reach a summary, a report or a log in full, yet each must stay
// recognisable: a fixture credential shows as its name in fixtures/auth.json (the valid,
// expired and revoked fixture keys share their first and last characters), any other
// secret as a short prefix and its last 4 characters, so two keys of one format still
// print differently. Requests and answers are shown to people only through here.
import { excerpt, type HttpRequest } from '../transport/http.ts';

const named = new Map<string, string>();
const known = new Set<string>();
/** Secrets remembered at most (each redact() call looks for every one). */
const KNOWN_MAX = 2000;

/** At least this long to show 8 + 4 characters (a quarter or less of the secret once its format prefix is discounted). */
const LONG = 32;
const SHORT = 16;

export function mask(secret: string): string {
  const name = named.get(secret);
  if (name) return name;
  if (secret.length >= LONG) return `${secret.slice(0, 8)}…${secret.slice(-4)}`;
  if (secret.length >= SHORT) return `${secret.slice(0, 4)}…${secret.slice(-2)}`;
  return '…';
}

/** Registers a value that must be masked wherever it later shows up in text. */
export function rememberSecret(secret: string | undefined): void {
  // Bounded: a proxy remembers what its clients send (one client's keys and session in practice).
  if (secret && secret.length >= SHORT && known.size < KNOWN_MAX) known.add(secret);
}

/** Fixture credentials print as `[fixture <name>]`: fake, public, and told apart by name. */
export function nameSecrets(credentials: readonly { name: string; value: string }[]): void {
  for (const c of credentials) {
    named.set(c.value, `[fixture ${c.name}]`);
    known.add(c.value);
  }
}

/** Replaces every registered secret in text, and nothing else (a repro line names credentials by their variables already). */
export function redactKnown(text: string): string {
  let out = text;
  for (const secret of [...known].sort((a, b) => b.length - a.length)) out = out.split(secret).join(mask(secret));
  return out;
}

/** Replaces every registered secret (and anything that looks like a bearer token or a cookie value) in text. */
export function redact(text: string): string {
  return redactKnown(text)
    .replace(/(Bearer\s+)([^\s"',;…[\]]{9,})/gi, (_m, p: string, v: string) => p + mask(v))
    .replace(/("secret"\s*:\s*")([^"…[\]]{9,})"/g, (_m, p: string, v: string) => `${p}${mask(v)}"`);
}

/** Request headers that tell requests apart: credentials, the body's type, a browser's Origin, a preflight's asks. */
const SHOWN_HEADERS = [
  'authorization',
  'cookie',
  'content-type',
  'origin',
  'access-control-request-method',
  'access-control-request-headers',
];

/** Request headers as a person should see them. */
export function describeHeaders(headers: Record<string, string> | undefined): string {
  const parts = Object.entries(headers ?? {})
    .filter(([name]) => SHOWN_HEADERS.includes(name.toLowerCase()))
    .map(([name, value]) => {
      const lower = name.toLowerCase();
      if (lower === 'authorization') {
        const [scheme, ...rest] = value.split(' ');
        return `${name}: ${rest.length ? `${scheme} ${mask(rest.join(' '))}` : mask(value)}`;
      }
      if (lower === 'cookie')
        return `${name}: ${value
          .split(/;\s*/)
          .map((c) => c.replace(/=(.*)$/, (_m, v: string) => `=${mask(v)}`))
          .join('; ')}`;
      return `${name}: ${value}`;
    });
  return parts.length ? parts.join(', ') : 'no credentials';
}

/** A request as a person should see it: method, path and query, credentials masked, the body. */
export function describeRequest(req: HttpRequest): string {
  let path = req.url;
  try {
    const url = new URL(req.url);
    path = url.pathname + url.search;
  } catch {
    // a relative URL shows as it is
  }
  const body = req.body === undefined ? '' : ` body ${JSON.stringify(req.body)}`;
  return `${req.method} ${path} (${describeHeaders(req.headers)})${body}`;
}

/** An answer as a person should see it: status, Content-Type, the start of the body. */
export function describeResponse(res: { status: number; headers: Record<string, string>; text: string }): string {
  return `${res.status} ${res.headers['content-type'] ?? '(no Content-Type)'} ${excerpt(res.text)}`;
}
