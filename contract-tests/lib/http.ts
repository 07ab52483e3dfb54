// The suite's own HTTP client, for every request Dredd does not make itself (the auth
// matrix, paging, key lifecycle). Waits out a 429 the way a well-behaved client does, so
// a rate-limited deployment is not mistaken for a broken one and is not hammered.
export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed body; undefined when it is not JSON. */
  json: unknown;
}

const MAX_RETRY_AFTER_S = 65;

export async function send(req: HttpRequest, options: { retries?: number; timeoutMs?: number } = {}): Promise<HttpResponse> {
  const retries = options.retries ?? 2;
  const headers: Record<string, string> = { Accept: 'application/json', ...req.headers };
  let body: string | undefined;
  if (req.body !== undefined) {
    body = JSON.stringify(req.body);
    headers['Content-Type'] ??= 'application/json';
  }
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(req.url, {
      method: req.method,
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
    const text = await res.text();
    const out: HttpResponse = { status: res.status, headers: headersObject(res.headers), text, json: parseJson(text) };
    if (res.status !== 429 || attempt >= retries) return out;
    await sleep(retryAfterSeconds(out.headers['retry-after']) * 1000);
  }
}

export function retryAfterSeconds(value: string | undefined): number {
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? Math.min(n, MAX_RETRY_AFTER_S) : 1;
}

export function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The media type of a Content-Type header, without parameters, lower case. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** A short, single-line excerpt of a body for people. */
export function excerpt(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}… (${text.length} chars)` : flat || '(empty body)';
}

function headersObject(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}
