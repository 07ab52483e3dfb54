// Forwarding one request to the upstream and its answer back, unchanged: the status and
// its reason phrase, every end-to-end header (case, order and repeats kept), the body's
// bytes as they stream, keep-alive on both sides. Only what RFC 9110 section 7.6.1 says
// a gateway must not pass on is dropped: the Connection header, every field it names,
// and the fields that only mean something on one connection (Keep-Alive, TE,
// Transfer-Encoding, Upgrade, Proxy-Connection, Trailer, and the proxy credentials
// Proxy-Authorization and Proxy-Authenticate, meant for a proxy that asked for them).
// The request goes out with the upstream's Host and a Via line (section 7.6.3: a gateway
// MUST send Via on the requests it forwards); the answer gets no Via, so it stays as the
// upstream sent it. Node writes its own Connection and Keep-Alive for the client's hop,
// and answers a client's `Expect: 100-continue` itself before the body is read.
//
// What HTTP lets pass, passes: a 1xx before the answer (103 Early Hints, 102 Processing),
// a reason phrase in any bytes (sent on as they came; a byte Node cannot write becomes
// `?`), a 304 or 204 whose Content-Length describes a body it does not carry. The upstream
// has timeouts, for its headers and for each pause in its body: a slow answer gives its
// connection back to the pool (the client gets 504, or its connection closed mid-body),
// so slow answers cannot hold every connection for ever.
//
// While bytes pass through, a copy of each side is kept up to a size, for the judge that
// runs once the answer is complete (`onExchange`), never in the way of the bytes. Every
// copy is charged to one budget (HeldBytes), shared with the answers waiting for the
// judge, so a hundred big answers in flight hold no more than it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Transform } from 'node:stream';
import { Pool, type Dispatcher } from 'undici';
import { joinHeader } from '../../spec/header-list.ts';

/** RFC 9110 7.6.1: fields of one connection, dropped whether or not Connection names them. */
const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'te',
  'transfer-encoding',
  'upgrade',
  'trailer',
  'proxy-authorization',
  'proxy-authenticate',
]);

export const VIA = '1.1 server-listing-proxy';

/**
 * Sent on by the proxy itself: the upstream's Host (from its URL), a Via line
 * of its own; the client's Expect was answered by Node.
 */
const NOT_FORWARDED = new Set(['host', 'via', 'expect']);

/** An upstream answer's headers, or the next bytes of its body, wait at most this long by default. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;

/** Connections to the upstream at most. */
const CONNECTIONS = 128;

/** What the proxy makes of a header's name: lower-cased, hop-by-hop or not, one it sends on itself or not. */
interface FieldName {
  /** As it was spelled (the same string each time it comes again: one a keyed store has seen). */
  name: string;
  lower: string;
  hop: boolean;
  /** Sent on by the proxy itself (Host, Via, Expect): never forwarded as the client wrote it. */
  own: boolean;
}

/**
 * Names worked out before, by their spelling: an upstream and its clients send the same
 * dozen names on every message, and lower-casing each and looking it up twice was a
 * quarter of what the proxy spends on an answer beside forwarding it. Names come from
 * clients: at most this many are kept, each at most NAME_KEPT_LENGTH long; past that a
 * name is worked out each time.
 */
const NAMES_KEPT = 512;
const NAME_KEPT_LENGTH = 64;
const names = new Map<string, FieldName>();

/** How many names are remembered (for a test of the bound). */
export const namesKept = (): number => names.size;

function fieldName(name: string): FieldName {
  let n = names.get(name);
  if (n === undefined) {
    const lower = name.toLowerCase();
    n = { name, lower, hop: HOP_BY_HOP.has(lower), own: NOT_FORWARDED.has(lower) };
    if (names.size < NAMES_KEPT && name.length <= NAME_KEPT_LENGTH) names.set(name, n);
  }
  return n;
}

/**
 * Whether a name can be one of `names` (lower-case, each starting with a letter), by its
 * length and its first letter in either case: most fields (Content-Type, Date, the
 * rate-limit headers) are passed on without being looked up at all.
 */
function mayBeOneOf(names: ReadonlySet<string>): (name: string) => boolean {
  // For each length, a bit for each first letter a name of that length has (a = bit 0).
  const firsts = new Uint32Array(Math.max(...[...names].map((n) => n.length)) + 1);
  for (const name of names) firsts[name.length]! |= 1 << (name.charCodeAt(0) - 97);
  return (name) => {
    if (name.length >= firsts.length) return false;
    // ASCII letters lower-cased by their 0x20 bit; anything else falls outside 0-25.
    const letter = (name.charCodeAt(0) | 0x20) - 97;
    return letter >= 0 && letter < 26 && (firsts[name.length]! & (1 << letter)) !== 0;
  };
}
const mayBeHop = mayBeOneOf(HOP_BY_HOP);
const mayBeOwn = mayBeOneOf(NOT_FORWARDED);

/**
 * `named` with the fields a Connection header's value names beyond the hop-by-hop ones.
 * The usual values (`keep-alive`, `close`) name none: they are not split.
 */
function namedBy(value: string, named: string[] | undefined): string[] | undefined {
  const lower = value.toLowerCase();
  if (lower === 'keep-alive' || lower === 'close') return named;
  for (const token of lower.split(',')) {
    const t = token.trim();
    if (!HOP_BY_HOP.has(t)) (named ??= []).push(t);
  }
  return named;
}

/**
 * A flat raw header list (`[name, value, name, value, ...]`, as strings or as undici's
 * bytes) without the hop-by-hop fields and those its Connection header names. One pass:
 * a second only when Connection names a field that is not hop-by-hop already. The judge
 * reads the list as a record (headerRecord) only when it judges the answer: an answer that
 * repeats the last clean one is recognised by this list (verdict-cache.ts).
 */
export function endToEnd(raw: readonly (string | Buffer)[]): string[] {
  let named: string[] | undefined;
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const n = raw[i]!;
    const v = raw[i + 1]!;
    const name = typeof n === 'string' ? n : n.toString('latin1');
    const value = typeof v === 'string' ? v : v.toString('latin1');
    if (mayBeHop(name)) {
      const field = fieldName(name);
      if (field.hop) {
        if (field.lower === 'connection') named = namedBy(value, named);
        continue;
      }
    }
    out.push(name, value);
  }
  if (!named) return out;
  const drop = new Set(named);
  const kept: string[] = [];
  for (let i = 0; i < out.length; i += 2) if (!drop.has(fieldName(out[i]!).lower)) kept.push(out[i]!, out[i + 1]!);
  return kept;
}

/** Headers as the judge reads them: names lower-cased, repeats joined as Node joins them. */
export function headerRecord(raw: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = fieldName(raw[i]!).lower;
    out[name] = joinHeader(name, out[name], raw[i + 1]!);
  }
  return out;
}

/** The value of the field `lower` (a lower-cased name) in a raw list, repeats joined; undefined when absent. */
export function rawField(raw: readonly string[], lower: string): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === lower.length && fieldName(name).lower === lower) found = joinHeader(lower, found, raw[i + 1]!);
  }
  return found;
}

/** Bytes Node writes in a status line or a header value (HTTP's field-vchar, obs-text and tab). */
const UNWRITABLE = /[^\t\u0020-\u007e\u0080-\u00ff]/g;

/**
 * A reason phrase as the upstream sent it, in the one-byte characters Node writes: undici
 * reads it as UTF-8, so it is turned back into its bytes; a byte Node refuses (a control)
 * becomes `?`. Node throws on anything else, and the client would wait for an answer.
 */
export function writableReason(statusText: string): string {
  // Nearly every reason phrase is plain ASCII: as it is.
  if (/^[\t\x20-\x7e]*$/.test(statusText)) return statusText;
  return Buffer.from(statusText, 'utf8').toString('latin1').replace(UNWRITABLE, '?');
}

/**
 * The bytes of copies the proxy holds (bodies passing through, answers waiting for the
 * judge): one budget, so what it holds is bounded however many answers are in flight.
 */
export class HeldBytes {
  held = 0;
  constructor(readonly limit: number) {}
  take(n: number): boolean {
    if (this.held + n > this.limit) return false;
    this.held += n;
    return true;
  }
  give(n: number): void {
    this.held -= n;
  }
}

/** Why a body's copy was not kept: over the size limit, or over the budget of what the proxy holds. */
export type NotKept = 'size' | 'budget';

/** Bytes kept while they pass: all of them up to `limit` and within the budget, then only the count. */
class Tap {
  private chunks: Buffer[] = [];
  private kept = 0;
  bytes = 0;
  dropped: NotKept | undefined;
  constructor(
    private readonly limit: number,
    private readonly budget: HeldBytes,
  ) {}
  add(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.dropped) return;
    if (this.bytes > this.limit) this.drop('size');
    else if (!this.budget.take(chunk.length)) this.drop('budget');
    else {
      this.chunks.push(chunk);
      this.kept += chunk.length;
    }
  }
  /** Lets the copy go (its bytes back to the budget), saying why. */
  drop(why: NotKept): void {
    if (this.dropped) return;
    this.dropped = why;
    this.budget.give(this.kept);
    this.kept = 0;
    this.chunks = [];
  }
  /** The whole body, its bytes still charged (whoever takes it gives them back), or undefined when it was not kept. */
  take(): Buffer | undefined {
    if (this.dropped) return undefined;
    const body = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.kept);
    this.chunks = [];
    return body;
  }
}

/** The upstream's answer to an exchange. */
export interface Answer {
  status: number;
  /** Its headers as the judges read them (headerRecord). */
  readonly headers: Record<string, string>;
  /** Its end-to-end headers as sent on (name, value, ...), when the proxy forwarded it. */
  readonly raw?: readonly string[];
  /** The body as sent (maybe compressed), or undefined when it was not kept (`notKept` says why). */
  body?: Buffer;
  bytes: number;
  notKept?: NotKept;
}

/** One request and what became of it, as the judge and the recorder get it. */
export interface Exchange {
  method: string;
  /** The path and query as the client sent them to the proxy (in origin form). */
  path: string;
  /** Under the API's base path (judged); anything else is forwarded to the upstream's origin, its bytes not kept. */
  inApi: boolean;
  /** The URL it was forwarded to. */
  upstreamUrl: string;
  /** The request's headers as the judges read them (headerRecord). */
  readonly requestHeaders: Record<string, string>;
  /** The request's end-to-end headers as sent (name, value, ...), when the proxy forwarded it. */
  readonly requestRaw?: readonly string[];
  /** The request body, when it was within the limit. */
  requestBody?: Buffer;
  /** The upstream's answer; undefined when there was none (`error` says why). */
  response?: Answer;
  /** Why the exchange did not end as HTTP says (no answer, or the body cut short), with the code undici gave. */
  error?: { code: string; message: string; connecting: boolean };
  /** The client went away before the whole answer was sent. */
  aborted?: boolean;
  /** Bytes of the budget its copies hold: the taker gives them back once judged. */
  held: number;
  startedAt: number;
  ms: number;
}

/**
 * An answer as the proxy forwarded it: its header record is made from the list it sent on
 * when a judge first reads it, so an answer only counted (verdict-cache.ts) never makes one.
 */
class ForwardedAnswer implements Answer {
  body: Buffer | undefined = undefined;
  bytes = 0;
  notKept: NotKept | undefined = undefined;
  private record: Record<string, string> | undefined = undefined;

  constructor(
    readonly status: number,
    readonly raw: readonly string[],
  ) {}

  get headers(): Record<string, string> {
    return (this.record ??= headerRecord(this.raw));
  }
}

/** An exchange as the proxy forwarded it: the request's header record, too, is made when first read. */
class ForwardedExchange implements Exchange {
  requestBody: Buffer | undefined = undefined;
  response: ForwardedAnswer | undefined = undefined;
  error: Exchange['error'] = undefined;
  aborted: boolean | undefined = undefined;
  held = 0;
  ms = 0;
  readonly startedAt = Date.now();
  private record: Record<string, string> | undefined = undefined;

  constructor(
    readonly method: string,
    readonly path: string,
    readonly inApi: boolean,
    readonly upstreamUrl: string,
    readonly requestRaw: readonly string[],
  ) {}

  get requestHeaders(): Record<string, string> {
    return (this.record ??= headerRecord(this.requestRaw));
  }
}

export interface Upstream {
  /** `https://staging.example.com/api/v0.1`, as the suite's --base-url. */
  url: URL;
  /** The spec's base path (`/api/v0.1`): the proxy serves the API under it. */
  basePath: string;
}

/**
 * Where a request path of the proxy goes: the API's paths under the upstream's base
 * (`inApi`), anything else to the upstream's origin as it is.
 */
export function upstreamPath(
  upstream: Upstream,
  path: string,
  base = upstream.url.pathname.replace(/\/+$/, ''),
): { target: string; inApi: boolean } {
  const { basePath } = upstream;
  const next = path.charCodeAt(basePath.length);
  // The base path alone, or followed by `/` or `?` (47, 63).
  if (path.startsWith(basePath) && (Number.isNaN(next) || next === 47 || next === 63))
    return { target: `${base}${path.slice(basePath.length)}`, inApi: true };
  return { target: path, inApi: false };
}

/**
 * A request target in origin form, and the authority an absolute-form one names
 * (`GET http://host/path HTTP/1.1`, RFC 9112 3.2.2: that authority, not Host, is the
 * host asked for). The path alone is forwarded: the authority never reaches the upstream.
 */
export function originForm(target: string): { path: string; authority?: string } {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)([^#]*)/i.exec(target);
  if (!m) return { path: target };
  const rest = m[2] ?? '';
  return { path: rest.startsWith('/') ? rest : `/${rest}`, authority: m[1]!.replace(/^[^@]*@/, '') };
}

export interface Forwarder {
  /** Forwards one request; `path` is its target in origin form. */
  forward(req: IncomingMessage, res: ServerResponse, path: string): void;
  close(): Promise<void>;
}

/** The request has a body to send on (a length above 0, or one sent in chunks). */
const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/** undici's codes for an upstream that could not be reached at all (the request never left). */
const CONNECTING = new RegExp(
  `^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EAI_NONAME|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL|UND_ERR_C` +
    `ONNECT_TIMEOUT)$|CERT|SSL|TLS|EPROTO`,
);

/** Answers whose Content-Length describes a body they do not carry (RFC 9110 8.6): undici counts it as a short body. */
const NO_BODY = new Set([204, 304]);

export interface ForwardOptions {
  /** Bodies up to this size are kept for the judge. */
  limit: number;
  /** The budget every copy is charged to. */
  held: HeldBytes;
  /** How long the upstream's headers, or the next bytes of its body, may take. */
  timeoutMs?: number;
  onExchange: (ex: Exchange) => void;
}

/** What every forwarding shares: where answers come from, the budget, who gets the exchanges. */
interface Shared {
  /** The upstream's origin and its base path without a trailing slash, worked out once. */
  origin: string;
  base: string;
  limit: number;
  held: HeldBytes;
  timeout: number;
  onExchange: (ex: Exchange) => void;
}

/** The forwarding an answer to the client belongs to, on the answer itself: its listeners are shared functions. */
const FORWARDING = Symbol('forwarding');
type ClientAnswer = ServerResponse & { [FORWARDING]?: Forwarding };

/**
 * The client's answer is done: sent whole (Node emits `close` after `finish`), or cut off
 * because the client went away first, and then the upstream is not asked any further.
 */
function onClientClose(this: ClientAnswer): void {
  const f = this[FORWARDING]!;
  if (!this.writableFinished) {
    f.exchange.aborted = true;
    f.abort?.();
  }
  f.finish();
}

/**
 * One request forwarded: undici's handler of the upstream's answer, which it writes on to
 * the client as it comes, keeping the copies the judge reads. One object a request, its
 * methods shared (no closures made per request: the proxy forwards thousands a second).
 */
class Forwarding implements Dispatcher.DispatchHandler {
  abort: ((err?: Error) => void) | undefined;
  requestTap: Tap | undefined;
  readonly responseTap: Tap;
  /** undici's: reads the upstream's body on, once the client has taken what it was sent. */
  private resume: (() => void) | undefined;
  private done = false;
  private readonly t0 = performance.now();

  constructor(
    private readonly shared: Shared,
    private readonly res: ClientAnswer,
    readonly exchange: ForwardedExchange,
  ) {
    // Outside the API nothing is judged: its bytes are not kept.
    this.responseTap = new Tap(exchange.inApi ? shared.limit : 0, shared.held);
  }

  onConnect(abort: (err?: Error) => void): void {
    this.abort = abort;
    // The client left before the upstream was reached: do not ask it at all.
    if (this.exchange.aborted) abort();
  }

  onHeaders(status: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean {
    const { res } = this;
    const kept = endToEnd(rawHeaders);
    if (status < 200) {
      // An interim answer goes on before the final one, as Node can write it; others are the hop's.
      if (res.headersSent) return true;
      try {
        if (status === 103) res.writeEarlyHints(headerRecord(kept));
        else if (status === 102) res.writeProcessing();
      } catch {
        // Hints Node will not write (a malformed Link) are hints the client does without.
      }
      return true;
    }
    this.exchange.response = new ForwardedAnswer(status, kept);
    // The upstream's Date (or its lack) is part of the answer: Node must not add its own.
    res.sendDate = false;
    // A flat raw list keeps each header's case, order and repeats (two Set-Cookie lines stay two).
    try {
      res.writeHead(status, writableReason(statusText), kept);
    } catch {
      // A header value Node will not write (a control character): written with it as `?`.
      res.writeHead(
        status,
        writableReason(statusText),
        kept.map((v, i) => (i % 2 ? v.replace(UNWRITABLE, '?') : v)),
      );
    }
    this.resume = resume;
    // The head goes out with the first bytes of the body, in one write (Node writes it alone otherwise).
    res.cork();
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.responseTap.add(chunk);
    const { res } = this;
    const more = res.write(chunk);
    if (res.writableCorked) res.uncork();
    // undici holds the next bytes until the client has taken these (a listener only then: most answers never wait).
    if (!more) res.once('drain', this.resume!);
    return more;
  }

  onComplete(): void {
    const { res } = this;
    if (res.writableCorked) res.uncork();
    // The exchange is complete once the client's answer closes (onClientClose).
    res.end();
  }

  onError(err: Error): void {
    const { exchange, res } = this;
    if (this.done || exchange.aborted) return;
    const code = (err as NodeJS.ErrnoException).code ?? err.name;
    const status = exchange.response?.status;
    // undici counts a 304's (or 204's) Content-Length as a body that never came: HTTP says it has none.
    if (
      status !== undefined &&
      NO_BODY.has(status) &&
      code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' &&
      this.responseTap.bytes === 0
    ) {
      this.onComplete();
      return;
    }
    exchange.error = { code, message: err.message, connecting: CONNECTING.test(code) };
    if (!res.headersSent) {
      // Not the upstream's answer: said in the API's own error shape, and never judged.
      const { origin, timeout } = this.shared;
      const timedOut = code === 'UND_ERR_HEADERS_TIMEOUT';
      const text = JSON.stringify({
        success: false,
        message: timedOut
          ? `Gateway Timeout: ${origin} sent no answer within ${timeout} ms`
          : `Bad Gateway: the proxy got no answer from ${origin} (${code}: ${err.message})`,
      });
      res
        .writeHead(timedOut ? 504 : 502, {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(text),
        })
        .end(text);
    } else res.destroy();
    this.finish();
  }

  /** The exchange is over: its copies go to the judge (or back to the budget when it was not answered whole). */
  finish(): void {
    if (this.done) return;
    this.done = true;
    const { exchange, responseTap } = this;
    exchange.ms = performance.now() - this.t0;
    const body = this.requestTap?.take();
    if (body?.length) exchange.requestBody = body;
    // An answer that is not judged whole needs no copy (a client that left, no answer).
    const response = exchange.response;
    if (exchange.aborted || !response) responseTap.drop('size');
    const answered = responseTap.take();
    exchange.held = (body?.length ?? 0) + (answered?.length ?? 0);
    if (response) {
      response.bytes = responseTap.bytes;
      if (answered) response.body = answered;
      if (responseTap.dropped) response.notKept = responseTap.dropped;
    }
    this.shared.onExchange(exchange);
  }
}

/**
 * Forwards each request to the upstream; `onExchange` gets the whole exchange once the
 * answer is sent (or failed), with each body kept up to the limit and within the budget.
 * The upstream is asked through undici's connection pool (keep-alive, no pipelining: one
 * slow answer never holds up another), which costs the proxy less than node:http's client.
 */
export function forwarder(upstream: Upstream, options: ForwardOptions): Forwarder {
  const timeout = options.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const pool = new Pool(upstream.url.origin, {
    connections: CONNECTIONS,
    pipelining: 1,
    headersTimeout: timeout,
    bodyTimeout: timeout,
  });
  const shared: Shared = {
    origin: upstream.url.origin,
    base: upstream.url.pathname.replace(/\/+$/, ''),
    limit: options.limit,
    held: options.held,
    timeout,
    onExchange: options.onExchange,
  };
  return {
    close: () => pool.destroy(),
    forward(req, res: ClientAnswer, path) {
      const { target, inApi } = upstreamPath(upstream, path, shared.base);
      const raw = endToEnd(req.rawHeaders);
      const outgoing: string[] = [];
      let via: string | undefined;
      // Host is the upstream's (undici sets it); an Expect was the client's hop: Node answered it already.
      for (let i = 0; i < raw.length; i += 2) {
        const name = raw[i]!;
        const field = mayBeOwn(name) ? fieldName(name) : undefined;
        if (!field?.own) outgoing.push(name, raw[i + 1]!);
        else if (field.lower === 'via') via = joinHeader('via', via, raw[i + 1]!);
      }
      outgoing.push('Via', via ? `${via}, ${VIA}` : VIA);
      const method = req.method ?? 'GET';
      const exchange = new ForwardedExchange(method, path, inApi, `${shared.origin}${target}`, raw);
      const forwarding = new Forwarding(shared, res, exchange);
      let body: Transform | null = null;
      if (hasBody(req)) {
        const tap = new Tap(inApi ? Math.min(shared.limit, 64 * 1024) : 0, shared.held);
        forwarding.requestTap = tap;
        body = new Transform({
          transform(chunk: Buffer, _enc, next) {
            tap.add(chunk);
            next(null, chunk);
          },
        });
        req.pipe(body);
      }
      res[FORWARDING] = forwarding;
      res.on('close', onClientClose);
      pool.dispatch({ method: method as Dispatcher.HttpMethod, path: target, headers: outgoing, body }, forwarding);
    },
  };
}
