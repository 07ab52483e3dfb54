// One request, one answer, through whatever `fetch` the run was given: the global one
// (a real socket) or a Hono app's `app.fetch` (in process, no socket). Waiting out rate
// limits, the budget and watching answers are the Transport's (transport.ts). An answer
// whose body a client could not use (cut short, not decodable) is an answer, said so.
import type { Unreadable } from '../../spec/judges/exchange.ts';

export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  /** JSON-encoded unless it is a string, which is sent as it is (with the Content-Type the headers give). */
  body?: unknown;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed body; undefined when it is not JSON. */
  json: unknown;
  /** Why the body could not be read as a client reads it (then `text` is ''): the `readable` judge fails it. */
  unreadable?: Unreadable;
}

/** The codings fetch decodes, as a browser does. */
const DECODED = new Set(['gzip', 'x-gzip', 'deflate', 'br', 'identity']);

/** Why fetch could not read a body whose head it had: cut short, or not decodable. */
function unreadableOf(err: unknown): Unreadable {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (err as Error).name;
  return /^Z_|ZlibError|BrotliDecoder/i.test(`${code} ${cause?.message ?? ''}`)
    ? { kind: 'undecodable', detail: `its body does not decode as its Content-Encoding says (${code})` }
    : { kind: 'cut', detail: `the connection closed inside its body (${code})` };
}

/** The fetch the run sends with: `(Request) => Promise<Response>`, as `globalThis.fetch` and Hono's `app.fetch` are. */
export type Fetch = (request: Request) => Promise<Response>;

/** A request as it goes on the wire: JSON asked for, an object body encoded as JSON and said so. */
export function onTheWire(req: HttpRequest): { headers: Record<string, string>; body: string | undefined } {
  const headers: Record<string, string> = { Accept: 'application/json', ...req.headers };
  let body: string | undefined;
  if (typeof req.body === 'string') body = req.body;
  else if (req.body !== undefined) {
    body = JSON.stringify(req.body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['Content-Type'] = 'application/json';
  }
  return { headers, body };
}

export async function send(
  fetch: Fetch,
  req: HttpRequest,
  options: { timeoutMs?: number } = {},
): Promise<HttpResponse> {
  const { headers, body } = onTheWire(req);
  const res = await fetch(
    new Request(req.url, {
      method: req.method,
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    }),
  );
  const answered = headersObject(res.headers);
  const coding = (answered['content-encoding'] ?? '')
    .toLowerCase()
    .split(',')
    .map((c) => c.trim())
    .find((c) => c && !DECODED.has(c));
  if (coding) {
    await res.body?.cancel();
    const detail = `its body is encoded as ${JSON.stringify(coding.slice(0, 40))}, which clients do not decode`;
    return {
      status: res.status,
      headers: answered,
      text: '',
      json: undefined,
      unreadable: { kind: 'unknown-encoding', detail },
    };
  }
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    // The head came and the body did not, whole: an answer the client cannot use, not a network failure.
    if ((err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError') throw err;
    return { status: res.status, headers: answered, text: '', json: undefined, unreadable: unreadableOf(err) };
  }
  return { status: res.status, headers: answered, text, json: parseJson(text) };
}

/** Words a person can act on for each way a request gets no answer, by the code Node reports. */
const NO_ANSWER: [RegExp, string][] = [
  [/^ECONNREFUSED$/, 'connection refused: nothing listens on that host and port'],
  [/^(ENOTFOUND|EAI_AGAIN|EAI_NONAME)$/, 'DNS lookup failed: no such host'],
  [/^(ETIMEDOUT|TimeoutError|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT)$/, 'timed out waiting for an answer'],
  [/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/, "TLS: the server's certificate is not trusted"],
  [/SSL|EPROTO/, 'TLS handshake failed (is it https on an http port, or the reverse?)'],
  [/^(ECONNRESET|UND_ERR_SOCKET|EPIPE)$/, 'the connection was closed without an answer (is it http on an https port?)'],
  [/^(EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL)$/, 'the host cannot be reached from here'],
  [/^bad port$/, 'fetch refuses this port (one browsers block, such as 1 or 6000): use another'],
];

/** Why a request got no answer: the system's code (ECONNREFUSED, ENOTFOUND, a TLS code) and what it means. */
export function describeNetworkError(err: unknown): { code: string; text: string } {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string; name?: string } };
  const cause = e.cause;
  const code =
    cause?.code ??
    (e.name === 'TimeoutError'
      ? 'TimeoutError'
      : cause?.message === 'bad port'
        ? 'bad port'
        : (cause?.name ?? e.name ?? 'Error'));
  const words = NO_ANSWER.find(([re]) => re.test(code))?.[1];
  const detail = cause?.message ?? e.message ?? String(err);
  return { code, text: words ? `${words} (${code}: ${detail.split('\n')[0]})` : `${code}: ${detail.split('\n')[0]}` };
}

export function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A short, single-line excerpt of a body for people; `length`: the whole body's, when `text` is its start. */
export function excerpt(text: string, max = 300, length = text.length): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max || length > text.length
    ? `${flat.slice(0, max)}… (${length} chars)`
    : flat || '(empty body)';
}

function headersObject(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}
