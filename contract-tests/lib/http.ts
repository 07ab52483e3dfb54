// The suite's own HTTP client, for every request Dredd does not make itself (the auth
// matrix, paging, key lifecycle, the depth checks). SuiteContext.exchange wraps it with
// the request budget, the pacing and the hygiene scan.
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
}

/** One request, one answer: waiting out rate limits is the pacer's job (lib/pacing.ts). */
export async function send(req: HttpRequest, options: { timeoutMs?: number } = {}): Promise<HttpResponse> {
  const headers: Record<string, string> = { Accept: 'application/json', ...req.headers };
  let body: string | undefined;
  if (typeof req.body === 'string') body = req.body;
  else if (req.body !== undefined) {
    body = JSON.stringify(req.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const res = await fetch(req.url, {
    method: req.method,
    headers,
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
  });
  const text = await res.text();
  return { status: res.status, headers: headersObject(res.headers), text, json: parseJson(text) };
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
