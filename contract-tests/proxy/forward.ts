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

/** Sent on by the proxy itself: the upstream's Host (from its URL), a Via line of its own; the client's Expect was answered by Node. */
const NOT_FORWARDED = new Set(['host', 'via', 'expect']);

/** An upstream answer's headers, or the next bytes of its body, wait at most this long by default. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;

/** Connections to the upstream at most. */
const CONNECTIONS = 128;

/** Lengths of the hop-by-hop names: a name of another length is no such field, and is not lower-cased to find out. */
const HOP_LENGTHS = new Set([...HOP_BY_HOP].map((n) => n.length));

/** A flat raw header list (`[name, value, name, value, ...]`) without the hop-by-hop fields and those its Connection header names. */
export function endToEnd(raw: readonly string[]): string[] {
  let named: Set<string> | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === 10 && raw[i]!.toLowerCase() === 'connection') {
      named ??= new Set();
      for (const token of raw[i + 1]!.split(',')) named.add(token.trim().toLowerCase());
    }
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const hop = HOP_LENGTHS.has(name.length) && HOP_BY_HOP.has(name.toLowerCase());
    if (!hop && !named?.has(name.toLowerCase())) out.push(name, raw[i + 1]!);
  }
  return out;
}

/** Headers as the judge reads them: names lower-cased, repeats joined as Node joins them. */
export function headerRecord(raw: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const value = raw[i + 1]!;
    out[name] = out[name] === undefined ? value : `${out[name]}${name === 'cookie' ? '; ' : ', '}${value}`;
  }
  return out;
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

/** One request and what became of it, as the judge and the recorder get it. */
export interface Exchange {
  method: string;
  /** The path and query as the client sent them to the proxy (in origin form). */
  path: string;
  /** Under the API's base path (judged); anything else is forwarded to the upstream's origin, its bytes not kept. */
  inApi: boolean;
  /** The URL it was forwarded to. */
  upstreamUrl: string;
  requestHeaders: Record<string, string>;
  /** The request body, when it was within the limit. */
  requestBody?: Buffer;
  /** The upstream's answer; undefined when there was none (`error` says why). */
  response?: {
    status: number;
    headers: Record<string, string>;
    /** The body as sent (maybe compressed), or undefined when it was not kept (`notKept` says why). */
    body?: Buffer;
    bytes: number;
    notKept?: NotKept;
  };
  /** Why the exchange did not end as HTTP says (no answer, or the body cut short), with the code undici gave. */
  error?: { code: string; message: string; connecting: boolean };
  /** The client went away before the whole answer was sent. */
  aborted?: boolean;
  /** Bytes of the budget its copies hold: the taker gives them back once judged. */
  held: number;
  startedAt: number;
  ms: number;
}

export interface Upstream {
  /** `https://staging.example.com/api/v0.1`, as the suite's --base-url. */
  url: URL;
  /** The spec's base path (`/api/v0.1`): the proxy serves the API under it. */
  basePath: string;
}

/** Where a request path of the proxy goes: the API's paths under the upstream's base (`inApi`), anything else to the upstream's origin as it is. */
export function upstreamPath(upstream: Upstream, path: string): { target: string; inApi: boolean } {
  const base = upstream.url.pathname.replace(/\/+$/, '');
  const { basePath } = upstream;
  if (path === basePath || path.startsWith(`${basePath}/`) || path.startsWith(`${basePath}?`))
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
const CONNECTING =
  /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EAI_NONAME|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL|UND_ERR_CONNECT_TIMEOUT)$|CERT|SSL|TLS|EPROTO/;

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

/**
 * Forwards each request to the upstream; `onExchange` gets the whole exchange once the
 * answer is sent (or failed), with each body kept up to the limit and within the budget.
 * The upstream is asked through undici's connection pool (keep-alive, no pipelining: one
 * slow answer never holds up another), which costs the proxy less than node:http's client.
 */
export function forwarder(upstream: Upstream, options: ForwardOptions): Forwarder {
  const { limit, held, onExchange } = options;
  const timeout = options.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const pool = new Pool(upstream.url.origin, {
    connections: CONNECTIONS,
    pipelining: 1,
    headersTimeout: timeout,
    bodyTimeout: timeout,
  });
  return {
    close: () => pool.destroy(),
    forward(req, res, path) {
      const startedAt = Date.now();
      const t0 = performance.now();
      const { target, inApi } = upstreamPath(upstream, path);
      const raw = endToEnd(req.rawHeaders);
      const outgoing: string[] = [];
      // Host is the upstream's (undici sets it); an Expect was the client's hop: Node answered it already.
      for (let i = 0; i < raw.length; i += 2)
        if (!NOT_FORWARDED.has(raw[i]!.toLowerCase())) outgoing.push(raw[i]!, raw[i + 1]!);
      const via = req.headers.via;
      outgoing.push('Via', via ? `${via}, ${VIA}` : VIA);
      const exchange: Exchange = {
        method: req.method ?? 'GET',
        path,
        inApi,
        upstreamUrl: `${upstream.url.origin}${target}`,
        requestHeaders: headerRecord(raw),
        held: 0,
        startedAt,
        ms: 0,
      };
      // Outside the API nothing is judged: its bytes are not kept.
      const requestTap = new Tap(inApi ? Math.min(limit, 64 * 1024) : 0, held);
      const responseTap = new Tap(inApi ? limit : 0, held);
      let done = false;
      let abort: ((err?: Error) => void) | undefined;
      const finish = () => {
        if (done) return;
        done = true;
        exchange.ms = performance.now() - t0;
        const body = requestTap.take();
        if (body?.length) exchange.requestBody = body;
        // An answer that is not judged whole needs no copy (a client that left, no answer).
        if (exchange.aborted || !exchange.response) responseTap.drop('size');
        const answered = responseTap.take();
        exchange.held = (body?.length ?? 0) + (answered?.length ?? 0);
        if (exchange.response)
          exchange.response = {
            ...exchange.response,
            bytes: responseTap.bytes,
            ...(answered ? { body: answered } : {}),
            ...(responseTap.dropped ? { notKept: responseTap.dropped } : {}),
          };
        onExchange(exchange);
      };
      let body: Transform | null = null;
      if (hasBody(req)) {
        body = new Transform({
          transform(chunk: Buffer, _enc, next) {
            requestTap.add(chunk);
            next(null, chunk);
          },
        });
        req.pipe(body);
      }
      res.on('close', () => {
        if (!res.writableFinished) {
          exchange.aborted = true;
          abort?.();
          finish();
        }
      });
      const complete = () => {
        if (res.writableCorked) res.uncork();
        res.end(() => finish());
      };
      pool.dispatch(
        { method: (req.method ?? 'GET') as Dispatcher.HttpMethod, path: target, headers: outgoing, body },
        {
          onConnect(a) {
            abort = a;
            // The client left before the upstream was reached: do not ask it at all.
            if (exchange.aborted) a();
          },
          onHeaders(status, rawHeaders, resume, statusText) {
            const headers: string[] = [];
            for (let i = 0; i < rawHeaders.length; i += 2)
              headers.push(rawHeaders[i]!.toString('latin1'), rawHeaders[i + 1]!.toString('latin1'));
            const kept = endToEnd(headers);
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
            exchange.response = { status, headers: headerRecord(kept), bytes: 0 };
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
            res.on('drain', resume);
            // The head goes out with the first bytes of the body, in one write (Node writes it alone otherwise).
            res.cork();
            return true;
          },
          onData(chunk) {
            responseTap.add(chunk);
            const more = res.write(chunk);
            if (res.writableCorked) res.uncork();
            return more;
          },
          onComplete: complete,
          onError(err) {
            if (done || exchange.aborted) return;
            const code = (err as NodeJS.ErrnoException).code ?? err.name;
            const status = exchange.response?.status;
            // undici counts a 304's (or 204's) Content-Length as a body that never came: HTTP says it has none.
            if (
              status !== undefined &&
              NO_BODY.has(status) &&
              code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' &&
              responseTap.bytes === 0
            )
              return complete();
            exchange.error = { code, message: err.message, connecting: CONNECTING.test(code) };
            if (!res.headersSent) {
              // Not the upstream's answer: said in the API's own error shape, and never judged.
              const timedOut = code === 'UND_ERR_HEADERS_TIMEOUT';
              const text = JSON.stringify({
                success: false,
                message: timedOut
                  ? `Gateway Timeout: ${upstream.url.origin} sent no answer within ${timeout} ms`
                  : `Bad Gateway: the proxy got no answer from ${upstream.url.origin} (${code}: ${err.message})`,
              });
              res
                .writeHead(timedOut ? 504 : 502, {
                  'Content-Type': 'application/json',
                  'Content-Length': Buffer.byteLength(text),
                })
                .end(text);
            } else res.destroy();
            finish();
          },
        },
      );
    },
  };
}
