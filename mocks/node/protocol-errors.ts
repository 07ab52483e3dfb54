// Answers for requests the app never sees, in the spec's error shape. Node's HTTP
// parser refuses some requests outright (a lowercase method, a bad header, broken
// chunking, a URL or headers over its 16 KiB limit) and by default answers them with
// an empty 400 or 431; @hono/node-server refuses others (an invalid Host) with an
// empty 400. The spec promises `{"success": false, "message"}` for every 4xx, and a
// client's error handling should not have to special-case these.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody } from '../../spec/messages.ts';
import { EVERY_ANSWER_HEADERS } from '../core/answers.ts';
import { printable } from '../core/printable.ts';

/** A parser error as Node hands it to 'clientError'. */
interface ParserError extends Error {
  code?: string;
  /** llhttp's own words: "Transfer-Encoding can't be present with Content-Length". */
  reason?: string;
  bytesParsed?: number;
  rawPacket?: Buffer;
}

const LINE_FEED = 0x0a;
const REQUEST_LINE_START = /^[A-Za-z]+ /;

/**
 * Over the header limit, either the URL or the headers are too long, and Node says
 * which of them only by the bytes it was parsing. When those start with the request
 * line and no line ended before the limit struck, the URL is what is too long (414).
 * Otherwise it is the headers (431), or, when the request line was split across
 * reads and cannot be seen whole, one of the two.
 */
function overflow(err: ParserError, limitBytes: number): { status: number; detail: string } {
  const raw = err.rawPacket;
  const upTo = Math.min(raw?.length ?? 0, err.bytesParsed ?? Infinity);
  if (
    raw &&
    REQUEST_LINE_START.test(raw.subarray(0, 16).toString('latin1')) &&
    raw.subarray(0, upTo).indexOf(LINE_FEED) === -1
  ) {
    return { status: 414, detail: `the URL is over the ${limitBytes / 1024} KiB this server reads` };
  }
  const lineEnded = raw ? raw.subarray(0, upTo).indexOf(LINE_FEED) !== -1 : false;
  return {
    status: 431,
    detail: lineEnded
      ? `the request headers are over ${limitBytes / 1024} KiB`
      : `the request line or headers are over ${limitBytes / 1024} KiB`,
  };
}

/** What the common parser errors (llhttp's HPE_* codes) mean, said for people. */
const PARSER_ERRORS: Record<string, string> = {
  HPE_INVALID_METHOD: 'the method is not a valid HTTP method (methods are case-sensitive: GET, not get)',
  HPE_INVALID_URL: 'the request target is not a valid URL',
  HPE_INVALID_CONSTANT: 'the request line is not METHOD TARGET HTTP/1.1',
  HPE_INVALID_VERSION: 'the HTTP version is not one this server speaks (HTTP/1.0 or HTTP/1.1)',
  HPE_INVALID_HEADER_TOKEN: 'a header name or value holds a character headers may not',
  HPE_INVALID_CHUNK_SIZE: 'the chunked body is malformed',
  HPE_INVALID_TRANSFER_ENCODING: 'the Transfer-Encoding is not one this server reads',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'the Content-Length header contradicts Transfer-Encoding',
  HPE_INVALID_CONTENT_LENGTH: 'the Content-Length header is not a number',
};

/** Status and message for a parser error: its code, with the parser's own reason for the detail. */
export function describeParserError(err: ParserError, limitBytes: number): { status: number; detail: string } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return overflow(err, limitBytes);
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, detail: 'the chunk extensions are too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, detail: 'the request did not arrive in time' };
    default: {
      const reason = err.reason ?? err.message;
      const said = (err.code && PARSER_ERRORS[err.code]) ?? 'the request is not valid HTTP/1.1';
      return { status: 400, detail: reason ? `${said} (${reason})` : said };
    }
  }
}

/** A complete HTTP/1.1 answer that closes the connection: after a parser error nothing on it can be trusted. */
export function closingResponse(status: number, detail: string, headers: Record<string, string> = {}): string {
  const body = JSON.stringify(errorBody(status, detail));
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
    'Content-Type: application/json\r\n' +
    Object.entries({ ...EVERY_ANSWER_HEADERS, ...headers })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('') +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

/**
 * Answers Node's parser errors in the error shape, as Node would have answered them
 * (only when no answer on that connection has started going out), then closes.
 */
export function answerParserErrors(server: Server): void {
  server.on('clientError', (err: ParserError, socket: Duplex) => {
    // An answer half-written, or a client already gone: there is nobody to tell.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const { status, detail } = describeParserError(err, maxHeaderSize);
    socket.end(closingResponse(status, detail));
  });
}

/**
 * A request @hono/node-server could not turn into a web Request (a Host header that
 * is no host, a URL it refuses): 400 in the error shape, for its `errorHandler`.
 */
export function requestErrorResponse(err: unknown): Response {
  const request = err instanceof Error && err.name === 'RequestError';
  if (!request) console.error('mock: request failed before the app:', err);
  const status = request ? 400 : 500;
  const detail = request
    ? (REQUEST_ERRORS[(err as Error).message] ?? printable((err as Error).message.toLowerCase()))
    : 'the mock failed to answer; see its log';
  return new Response(JSON.stringify(errorBody(status, detail)), {
    status,
    headers: { 'Content-Type': 'application/json', ...EVERY_ANSWER_HEADERS },
  });
}

/** @hono/node-server's RequestError messages, said the way this mock's other errors are. */
const REQUEST_ERRORS: Record<string, string> = {
  'Invalid host header': 'the Host header is not a valid host',
  'Invalid URL': 'the Host header and the request target do not make a valid URL',
  'Missing host header': 'the request has no Host header',
  'Backslash in request path': 'the request path holds a backslash',
  'Invalid absolute URL': 'the absolute request target is not a valid URL',
};

/**
 * HTTP/1.1 requires a Host header and Node would answer its absence with an empty
 * 400; this answers it in the error shape instead (with `requireHostHeader: false`).
 * True when it answered.
 */
export function refuseMissingHost(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.headers.host !== undefined || req.httpVersion !== '1.1') return false;
  const body = JSON.stringify(errorBody(400, 'an HTTP/1.1 request needs a Host header'));
  res.writeHead(400, {
    'Content-Type': 'application/json',
    ...EVERY_ANSWER_HEADERS,
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
  });
  res.end(body);
  return true;
}

/**
 * The most header lines a request may have. Node's own limit (`maxHeadersCount`, 2000)
 * drops the lines past it without a word, so the server lifts it (the 16 KiB header
 * limit still bounds them) and this refuses them instead, naming the limit.
 */
export const MAX_HEADER_LINES = 2000;

/**
 * What Node lets through of a request's head but HTTP forbids: more than one Host line
 * (RFC 9112, section 3.2: a 400), or more header lines than MAX_HEADER_LINES (431).
 * Both close the connection. True when it answered.
 */
export function refuseMalformedHead(req: IncomingMessage, res: ServerResponse): boolean {
  const raw = req.rawHeaders;
  let refusal: { status: number; detail: string } | undefined;
  if (raw.length > 2 * MAX_HEADER_LINES) {
    refusal = {
      status: 431,
      detail: `the request has ${raw.length / 2} header lines; this server reads at most ${MAX_HEADER_LINES}`,
    };
  } else {
    let hosts = 0;
    for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') hosts++;
    if (hosts > 1) refusal = { status: 400, detail: `the request has ${hosts} Host headers; HTTP allows one` };
  }
  if (!refusal) return false;
  const body = JSON.stringify(errorBody(refusal.status, refusal.detail));
  res.writeHead(refusal.status, {
    'Content-Type': 'application/json',
    ...EVERY_ANSWER_HEADERS,
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
  });
  res.end(body);
  return true;
}

/** The methods the mock answers (a 405's Allow). */
const METHODS = 'GET, HEAD, POST, DELETE, OPTIONS';

/**
 * The two requests Node answers by itself with no body, or not at all: an `Expect`
 * other than `100-continue` (an empty 417) and `CONNECT` (the connection closed with
 * no byte). Both get the error shape, and their connection closes.
 */
export function answerExpectAndConnect(server: Server): void {
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify(
      errorBody(
        417,
        `this server meets no expectation but 100-continue; the request said Expect: ` +
          `${printable(String(req.headers.expect)).slice(0, 200)}`,
      ),
    );
    res.writeHead(417, {
      'Content-Type': 'application/json',
      ...EVERY_ANSWER_HEADERS,
      'Content-Length': Buffer.byteLength(body),
      Connection: 'close',
    });
    res.end(body);
  });
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    if (!socket.writable) return void socket.destroy();
    // Read and drop what the client still sends while the answer goes out (lingering-close.ts ends it).
    socket.on('error', () => {});
    socket.resume();
    socket.end(
      closingResponse(405, `CONNECT is not allowed: this is an API server, not a proxy; use ${METHODS}`, {
        Allow: METHODS,
      }),
    );
  });
}
