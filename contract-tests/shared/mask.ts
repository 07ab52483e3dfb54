// The one mask every output of the suite and the proxy goes through (reports, logs, the
// summary, a recording): secrets never reach one in full, yet each stays recognisable: a
// fixture credential shows as its name in fixtures/auth.json (the valid, expired and
// revoked fixture keys share their first and last characters), any other secret as a
// short prefix and its last 4 characters, so two keys of one format still print
// differently. Requests and answers are shown to people only through here.
//
// Two ways, so that what is hidden never depends on memory alone (decision 0043):
//  - by shape, with no memory: what the spec says is a credential or a secret wherever it
//    stands (a bearer token, the session cookie's value, a `format: password` field, even
//    cut short with no closing quote);
//  - by value: the secrets requests presented and answers created, found anywhere, whole,
//    cut inside (an excerpt that ends in one), or encoded as a client would send them
//    (percent-encoded in any mix, base64 at any alignment). Held as the REMEMBERED most
//    recently seen: learning never stops, memory is bounded, and a secret is seen again
//    (so made recent again) by the exchange that shows it.
import { isTokenLike } from '../../spec/judges/credentials.ts';
import { loadModel, type SpecModel } from '../../spec/model.ts';
import { tolerantlyDecoded } from '../../spec/percent-decode.ts';
import { excerpt, type HttpRequest } from '../transport/http.ts';
import { SecretFinder, WINDOW } from './secret-finder.ts';

/** Secrets remembered by value at most, the least recently seen forgotten first. */
export const REMEMBERED = 4096;

const named = new Map<string, string>();
const recent = new Map<string, string[]>();
const finder = new SecretFinder();
/** Field names the spec gives `format: password`, and the session cookie's name: hidden by shape. */
let shapes: { fields?: RegExp; cookie?: RegExp } | undefined;

/**
 * At least this long to show 8 + 4 characters (a quarter or less of the secret once its format prefix is discounted).
 */
const LONG = 32;
const SHORT = 16;

export function mask(secret: string): string {
  const name = named.get(secret);
  if (name) return name;
  if (secret.length >= LONG) return `${secret.slice(0, 8)}…${secret.slice(-4)}`;
  if (secret.length >= SHORT) return `${secret.slice(0, 4)}…${secret.slice(-2)}`;
  return '…';
}

/**
 * A value the shapes say is secret, masked: left as it is when it is a mask's output
 * already (or a fixture's name); cut short (`sls_live_0123…`), the part before the cut.
 */
function hideValue(value: string): string {
  // A repro line's variable (`${CONTRACT_API_KEY}`) names a secret without holding it.
  if (value.startsWith('$')) return value;
  if (/^\[fixture [^\]]*\]$/.test(value) || /^[^…]{0,8}…[^…]{0,4}$/.test(value)) return value;
  const cut = value.indexOf('…');
  return cut === -1 ? mask(value) : `${mask(value.slice(0, cut))}${value.slice(cut)}`;
}

/**
 * The forms a secret travels in besides itself: percent-encoded (as a URL or
 * fully), JSON-escaped, base64 at every alignment.
 */
export function encodingsOf(secret: string): string[] {
  const out = new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]);
  const bytes = Buffer.from(secret, 'utf8');
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0'));
  out.add(hex.map((h) => `%${h.toUpperCase()}`).join(''));
  out.add(hex.map((h) => `%${h}`).join(''));
  // Inside a longer base64 text (a Basic credential, a token) the secret starts at one of
  // three offsets; the characters that hold only its bytes are the same whatever surrounds it.
  for (const shift of [0, 1, 2]) {
    const b64 = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const core = b64.slice([0, 2, 3][shift], Math.floor((shift + bytes.length) / 3) * 4);
    out.add(core);
    out.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...out].filter((p) => p.length >= WINDOW);
}

/** Registers a value that must be masked wherever it later shows up in text (a placeholder like `null` is none). */
export function rememberSecret(secret: string | undefined): void {
  if (!secret || secret.length < WINDOW || !isTokenLike(secret) || named.has(secret)) return;
  const patterns = recent.get(secret);
  if (patterns) {
    // Seen again: the most recent now.
    recent.delete(secret);
    recent.set(secret, patterns);
    return;
  }
  const added = encodingsOf(secret);
  for (const p of added) finder.add(p, secret);
  recent.set(secret, added);
  if (recent.size > REMEMBERED) {
    const [oldest, its] = recent.entries().next().value as [string, string[]];
    recent.delete(oldest);
    for (const p of its) finder.delete(p);
  }
}

/** Fixture credentials print as `[fixture <name>]`: fake, public, and told apart by name. */
export function nameSecrets(credentials: readonly { name: string; value: string }[]): void {
  for (const c of credentials) {
    named.set(c.value, `[fixture ${c.name}]`);
    for (const p of encodingsOf(c.value)) finder.add(p, c.value);
  }
}

/** The spec's shapes of a secret: its `format: password` fields and its session cookie, hidden wherever they stand. */
export function hideSpecSecrets(model: SpecModel): void {
  const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const fields = [...model.secretFields].map(literal);
  shapes = {
    // The value runs to its closing quote, or to the end of a text cut inside it.
    ...(fields.length ? { fields: new RegExp(`("(?:${fields.join('|')})"\\s*:\\s*")((?:[^"\\\\]|\\\\.)*)`, 'g') } : {}),
    ...(model.cookieName
      ? { cookie: new RegExp(`(\\b${literal(model.cookieName)}=)([^;\\s"',&()<>[\\]{}]+)`, 'g') }
      : {}),
  };
}

/** Whether text holds a secret remembered by value (or a piece of one, cut). */
export function holdsSecret(text: string): boolean {
  return finder.find(text).length > 0 || (text.includes('%') && decodedPieces(text).some((p) => p.found));
}

/** Percent-decoding, tolerant of malformed escapes (left as they are). */
function percentDecoded(piece: string): string {
  return tolerantlyDecoded(piece, decodeURIComponent);
}

/**
 * The pieces of a URL-ish text with escapes in them, decoded, and whether a
 * secret is among them (an encoding mixed by hand).
 */
function decodedPieces(text: string): { start: number; end: number; decoded: string; found: boolean }[] {
  const out: { start: number; end: number; decoded: string; found: boolean }[] = [];
  for (const m of text.matchAll(/[^\s"'<>&?=;,()[\]]*%[0-9A-Fa-f]{2}[^\s"'<>&?=;,()[\]]*/g)) {
    const decoded = percentDecoded(m[0]);
    out.push({ start: m.index, end: m.index + m[0].length, decoded, found: finder.find(decoded).length > 0 });
  }
  return out;
}

function replaceFound(text: string): string {
  const found = finder.find(text);
  if (!found.length) return text;
  let out = '';
  let at = 0;
  for (const f of found) {
    out += text.slice(at, f.start) + mask(f.owner);
    at = f.end;
  }
  return out + text.slice(at);
}

/** Replaces every secret remembered by value in text (a repro line names credentials by their variables already). */
export function redactKnown(text: string): string {
  let out = replaceFound(text);
  if (out.includes('%')) {
    let rebuilt = '';
    let at = 0;
    for (const p of decodedPieces(out)) {
      if (!p.found) continue;
      rebuilt += out.slice(at, p.start) + replaceFound(p.decoded);
      at = p.end;
    }
    if (at) out = rebuilt + out.slice(at);
  }
  return out;
}

/**
 * Replaces every secret remembered by value, and every one the spec's shapes show
 * (a bearer token, a password field, the session cookie).
 */
export function redact(text: string): string {
  let out = redactKnown(text).replace(/(Bearer\s+)([^\s"',;…[\]]{9,})/gi, (m, p: string, v: string) =>
    isTokenLike(v) && !v.startsWith('$') ? p + mask(v) : m,
  );
  if (!shapes) hideSpecSecrets(loadModel());
  const { fields, cookie } = shapes!;
  if (fields) out = out.replace(fields, (m, p: string, v: string) => (v ? p + hideValue(v) : m));
  if (cookie) out = out.replace(cookie, (_m, p: string, v: string) => p + hideValue(v));
  return out;
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
  return redact(`${req.method} ${path} (${describeHeaders(req.headers)})${body}`);
}

/** Characters of a body read to show its start: a secret straddling the cut is still found whole. */
const SHOWN_FROM = 16_384;

/** An answer as a person should see it: status, Content-Type, the start of the body, masked before it is cut. */
export function describeResponse(res: { status: number; headers: Record<string, string>; text: string }): string {
  const head = res.text.length > SHOWN_FROM ? res.text.slice(0, SHOWN_FROM) : res.text;
  return redact(
    `${res.status} ${res.headers['content-type'] ?? '(no Content-Type)'} ` +
      `${excerpt(redact(head), 300, res.text.length)}`,
  );
}
