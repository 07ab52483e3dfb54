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
// While bytes pass through, a copy of each side is kept up to a size, for the judge
// that runs once the answer is complete (`onExchange`), never in the way of the bytes.
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

/** A flat raw header list (`[name, value, name, value, ...]`) without the hop-by-hop fields and those its Connection header names. */
export function endToEnd(raw: readonly string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === 'connection')
      for (const token of raw[i + 1]!.split(',')) named.add(token.trim().toLowerCase());
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (!HOP_BY_HOP.has(name) && !named.has(name)) out.push(raw[i]!, raw[i + 1]!);
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

/** Bytes kept while they pass: all of them up to `limit`, then only the count. */
class Tap {
  private chunks: Buffer[] = [];
  bytes = 0;
  constructor(private readonly limit: number) {}
  add(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.bytes <= this.limit) this.chunks.push(chunk);
    else this.chunks = [];
  }
  /** The whole body, or undefined when it was over the limit. */
  body(): Buffer | undefined {
    return this.bytes > this.limit
      ? undefined
      : this.chunks.length === 1
        ? this.chunks[0]
        : Buffer.concat(this.chunks, this.bytes);
  }
}

/** One request and what became of it, as the judge and the recorder get it. */
export interface Exchange {
  method: string;
  /** The path and query as the client sent them to the proxy. */
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
    /** The body as sent (maybe compressed), or undefined when it was over the limit. */
    body?: Buffer;
    bytes: number;
  };
  error?: string;
  /** The client went away before the whole answer was sent. */
  aborted?: boolean;
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

export interface Forwarder {
  forward(req: IncomingMessage, res: ServerResponse): void;
  close(): Promise<void>;
}

/** The request has a body to send on (a length above 0, or one sent in chunks). */
const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/**
 * Forwards each request to the upstream; `onExchange` gets the whole exchange once the
 * answer is sent (or failed), with each body kept up to `limit` bytes. The upstream is
 * asked through undici's connection pool (keep-alive, no pipelining: one slow answer
 * never holds up another), which costs the proxy less than node:http's client.
 */
export function forwarder(upstream: Upstream, limit: number, onExchange: (ex: Exchange) => void): Forwarder {
  // No timeouts of its own: an answer takes as long as the upstream takes, and streams as it comes.
  const pool = new Pool(upstream.url.origin, { connections: 128, pipelining: 1, headersTimeout: 0, bodyTimeout: 0 });
  return {
    close: () => pool.destroy(),
    forward(req, res) {
      const startedAt = Date.now();
      const t0 = performance.now();
      const path = req.url ?? '/';
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
        startedAt,
        ms: 0,
      };
      // Outside the API nothing is judged: its bytes are not kept.
      const requestTap = new Tap(inApi ? Math.min(limit, 64 * 1024) : 0);
      const responseTap = new Tap(inApi ? limit : 0);
      let done = false;
      let abort: ((err?: Error) => void) | undefined;
      const finish = () => {
        if (done) return;
        done = true;
        exchange.ms = performance.now() - t0;
        const body = requestTap.body();
        if (body?.length) exchange.requestBody = body;
        const answered = responseTap.body();
        if (exchange.response)
          exchange.response = {
            ...exchange.response,
            bytes: responseTap.bytes,
            ...(answered ? { body: answered } : {}),
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
            exchange.response = { status, headers: headerRecord(kept), bytes: 0 };
            // The upstream's Date (or its lack) is part of the answer: Node must not add its own.
            res.sendDate = false;
            // A flat raw list keeps each header's case, order and repeats (two Set-Cookie lines stay two).
            res.writeHead(status, statusText, kept);
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
          onComplete() {
            if (res.writableCorked) res.uncork();
            res.end(() => finish());
          },
          onError(err) {
            if (done || exchange.aborted) return;
            exchange.error = `${(err as NodeJS.ErrnoException).code ?? err.name}: ${err.message}`;
            if (!res.headersSent) {
              // Not the upstream's answer: said in the API's own error shape, and never judged.
              const text = JSON.stringify({
                success: false,
                message: `Bad Gateway: the proxy got no answer from ${upstream.url.origin} (${exchange.error})`,
              });
              res
                .writeHead(502, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) })
                .end(text);
            } else res.destroy();
            finish();
          },
        },
      );
    },
  };
}
