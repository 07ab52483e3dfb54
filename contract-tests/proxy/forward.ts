// Forwarding one request to the upstream and its answer back, unchanged: the status and
// its reason phrase, every end-to-end header (case, order and repeats kept), the body's
// bytes as they stream, keep-alive on both sides. Only what RFC 9110 section 7.6.1 says
// a gateway must not pass on is dropped: the Connection header, every field it names,
// and the fields that only mean something on one connection (Keep-Alive, TE,
// Transfer-Encoding, Upgrade, Proxy-Connection, Trailer, and the proxy credentials
// Proxy-Authorization and Proxy-Authenticate, meant for a proxy that asked for them).
// The request goes out with the upstream's Host and a Via line (section 7.6.3: a gateway
// MUST send Via on the requests it forwards); the answer gets no Via, so it stays as the
// upstream sent it. Node writes its own Connection and Keep-Alive for the client's hop.
//
// While bytes pass through, a copy of each side is kept up to a size, for the judge
// that runs once the answer is complete (`onExchange`), never in the way of the bytes.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** RFC 9110 7.6.1: fields of one connection, dropped whether or not Connection names them. */
const HOP_BY_HOP = new Set(['connection', 'proxy-connection', 'keep-alive', 'te', 'transfer-encoding', 'upgrade', 'trailer', 'proxy-authorization', 'proxy-authenticate']);

export const VIA = '1.1 server-listing-proxy';

/** A flat raw header list (`[name, value, name, value, ...]`) without the hop-by-hop fields and those its Connection header names. */
export function endToEnd(raw: readonly string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === 'connection') for (const token of raw[i + 1]!.split(',')) named.add(token.trim().toLowerCase());
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
    return this.bytes > this.limit ? undefined : this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.bytes);
  }
}

/** One request and what became of it, as the judge and the recorder get it. */
export interface Exchange {
  method: string;
  /** The path and query as the client sent them to the proxy. */
  path: string;
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

/** Where a request path of the proxy goes: the API's paths under the upstream's base, anything else to the upstream's origin as it is. */
export function upstreamPath(upstream: Upstream, path: string): string {
  const base = upstream.url.pathname.replace(/\/+$/, '');
  const { basePath } = upstream;
  if (path === basePath || path.startsWith(`${basePath}/`) || path.startsWith(`${basePath}?`)) return `${base}${path.slice(basePath.length)}`;
  return path;
}

export interface Forwarder {
  forward(req: IncomingMessage, res: ServerResponse): void;
  close(): void;
}

/**
 * Forwards each request to the upstream; `onExchange` gets the whole exchange once the
 * answer is sent (or failed), with each body kept up to `limit` bytes.
 */
export function forwarder(upstream: Upstream, limit: number, onExchange: (ex: Exchange) => void): Forwarder {
  const https = upstream.url.protocol === 'https:';
  const agent = https ? new HttpsAgent({ keepAlive: true, maxSockets: 128 }) : new HttpAgent({ keepAlive: true, maxSockets: 128 });
  const send = https ? httpsRequest : httpRequest;
  const host = upstream.url.host;
  return {
    close: () => agent.destroy(),
    forward(req, res) {
      const startedAt = Date.now();
      const t0 = performance.now();
      const path = req.url ?? '/';
      const target = upstreamPath(upstream, path);
      const raw = endToEnd(req.rawHeaders);
      const outgoing: string[] = ['Host', host];
      for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() !== 'host' && raw[i]!.toLowerCase() !== 'via') outgoing.push(raw[i]!, raw[i + 1]!);
      const via = req.headers.via;
      outgoing.push('Via', via ? `${via}, ${VIA}` : VIA);
      const exchange: Exchange = { method: req.method ?? 'GET', path, upstreamUrl: `${upstream.url.origin}${target}`, requestHeaders: headerRecord(raw), startedAt, ms: 0 };
      const requestTap = new Tap(Math.min(limit, 64 * 1024));
      const responseTap = new Tap(limit);
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        exchange.ms = performance.now() - t0;
        const body = requestTap.body();
        if (body?.length) exchange.requestBody = body;
        const answered = responseTap.body();
        if (exchange.response) exchange.response = { ...exchange.response, bytes: responseTap.bytes, ...(answered ? { body: answered } : {}) };
        onExchange(exchange);
      };
      const out = send({ host: upstream.url.hostname, port: upstream.url.port || (https ? 443 : 80), method: req.method, path: target, headers: outgoing, agent, servername: https ? upstream.url.hostname : undefined });
      out.on('response', (answer) => {
        exchange.response = { status: answer.statusCode ?? 502, headers: headerRecord(endToEnd(answer.rawHeaders)), bytes: 0 };
        // The upstream's Date (or its lack) is part of the answer: Node must not add its own.
        res.sendDate = false;
        const headers = endToEnd(answer.rawHeaders);
        for (let i = 0; i < headers.length; i += 2) res.appendHeader(headers[i]!, headers[i + 1]!);
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage);
        answer.on('data', (chunk: Buffer) => responseTap.add(chunk));
        answer.pipe(res);
        answer.on('error', () => res.destroy());
        res.on('finish', finish);
      });
      out.on('error', (err) => {
        exchange.error = `${(err as NodeJS.ErrnoException).code ?? 'Error'}: ${err.message}`;
        if (!res.headersSent) {
          // Not the upstream's answer: said in the API's own error shape, and never judged.
          const body = JSON.stringify({ success: false, message: `Bad Gateway: the proxy got no answer from ${upstream.url.origin} (${exchange.error})` });
          res.writeHead(502, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }).end(body);
        } else res.destroy();
        finish();
      });
      res.on('close', () => {
        if (!res.writableFinished) {
          exchange.aborted = true;
          out.destroy();
          finish();
        }
      });
      req.on('data', (chunk: Buffer) => requestTap.add(chunk));
      req.pipe(out);
    },
  };
}
