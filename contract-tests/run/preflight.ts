// Before any check: can the target be tested, and what is it? A mistake in the setup
// must not read as a contract regression, so each of these stops the run (exit 2) with
// its cause instead of a page of failures:
// - no answer at all: the connection is refused, the host has no DNS record, its TLS
//   certificate is not trusted, it times out (each named, with its code);
// - every public route of the spec answers 404 (or an HTML page): the base URL misses
//   the spec's server path (`/api/v0.1`), and the URL that does answer is suggested.
// Then it asks the target whether it is this project's mock (GET /__mock/info): only
// the mock gets the fixture credentials and writes without being told.
import type { Operation, SpecModel } from '../../spec/model.ts';
import { mediaType } from '../../spec/judges/exchange.ts';
import { describeNetworkError, send, type Fetch, type HttpResponse } from '../transport/http.ts';

export class PreflightError extends Error {}

/** What the mock says about itself (mocks/core/dev-routes/dev-routes.ts). */
export interface MockInfo {
  name: string;
  version: string;
  seed: number | null;
  data: string | null;
  servers: number;
}

export interface Target {
  baseUrl: string;
  /** Set when the target identifies as this project's mock. */
  mock?: MockInfo;
  /** Requests the pre-flight sent. */
  requests: number;
}

const MOCK_NAME = 'server-listing-mock';
const TIMEOUT_MS = 10_000;

/** What to do about each way a target cannot be reached. */
const ADVICE: [RegExp, string][] = [
  [/^ECONNREFUSED$/, 'Is the server running, and are the host and port in --base-url right?'],
  [/^(ENOTFOUND|EAI_AGAIN|EAI_NONAME)$/, 'Is the host name in --base-url right?'],
  [
    /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/,
    'For a certificate of your own CA, give Node the CA: NODE_EXTRA_CA_CERTS=/path/to/ca.pem',
  ],
  [
    /SSL|EPROTO|UND_ERR_SOCKET|ECONNRESET/,
    'Is the scheme in --base-url (http or https) the one the server speaks on that port?',
  ],
  [
    /TimeoutError|ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT/,
    `The target did not answer within ${TIMEOUT_MS / 1000} s: is it up, and reachable from here?`,
  ],
];

/** The public GET operations that need no path parameter: each answers at a fixed URL unless its route is missing. */
function probes(model: SpecModel): Operation[] {
  return model.operations.filter(
    (o) => o.isPublic && o.method === 'GET' && !o.parameters.some((p) => p.in === 'path' || p.required),
  );
}

/** An answer from the API, as opposed to a 404 or a web page served at that URL. */
function answersAsApi(res: HttpResponse): boolean {
  const html = mediaType(res.headers['content-type']) === 'text/html' || /^\s*<(!doctype|html)/i.test(res.text);
  return res.status !== 404 && !html;
}

/** Base URLs the user may have meant: the spec's server path added, or the path cut after it. */
export function candidateBases(baseUrl: string, basePath: string): string[] {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  const out: string[] = [];
  const at = path.indexOf(basePath);
  if (at >= 0) out.push(url.origin + path.slice(0, at + basePath.length));
  else out.push(url.origin + path + basePath);
  out.push(url.origin + basePath);
  return [...new Set(out)].filter((c) => c !== baseUrl);
}

export async function preflight(baseUrl: string, model: SpecModel, fetch: Fetch): Promise<Target> {
  let requests = 0;
  const get = async (url: string): Promise<HttpResponse> => {
    requests++;
    try {
      return await send(fetch, { method: 'GET', url }, { timeoutMs: TIMEOUT_MS });
    } catch (err) {
      const { code, text } = describeNetworkError(err);
      const advice = ADVICE.find(([re]) => re.test(code))?.[1];
      throw new PreflightError(`cannot reach ${baseUrl}: ${text}${advice ? `. ${advice}` : ''}`);
    }
  };

  const routes = probes(model);
  const missed: string[] = [];
  for (const op of routes) {
    const res = await get(`${baseUrl}${op.path}`);
    if (answersAsApi(res)) break;
    missed.push(
      `GET ${op.path}: ${res.status}${mediaType(res.headers['content-type']) === 'text/html' ? ' HTML' : ''}`,
    );
  }
  if (routes.length && missed.length === routes.length) {
    for (const candidate of candidateBases(baseUrl, model.basePath)) {
      const res = await send(
        fetch,
        { method: 'GET', url: `${candidate}${routes[0]!.path}` },
        { timeoutMs: TIMEOUT_MS },
      ).catch(() => undefined);
      requests++;
      if (res && answersAsApi(res)) {
        throw new PreflightError(
          `every public route of the spec answers 404 or HTML under ${baseUrl} (${missed.join(', ')}), but ` +
            `${candidate}${routes[0]!.path} answers ${res.status}: did you mean --base-url ${candidate}?`,
        );
      }
    }
    throw new PreflightError(
      `no public route of the spec answers under ${baseUrl} (${missed.join(', ')}): is it the base URL of the ` +
        `Server Listing API, ending in its server path (e.g. https://host${model.basePath})?`,
    );
  }
  requests++;
  return { baseUrl, mock: await identify(baseUrl, model.basePath, fetch), requests };
}

/** The mock's /__mock/info sits beside the API's base path (`<origin>/__mock/info`), wherever the mock is mounted. */
async function identify(baseUrl: string, basePath: string, fetch: Fetch): Promise<MockInfo | undefined> {
  const root = baseUrl.endsWith(basePath) ? baseUrl.slice(0, -basePath.length) : new URL(baseUrl).origin;
  const res = await send(fetch, { method: 'GET', url: `${root}/__mock/info` }, { timeoutMs: TIMEOUT_MS }).catch(
    () => undefined,
  );
  const info = res?.status === 200 ? (res.json as Partial<MockInfo> | undefined) : undefined;
  return info?.name === MOCK_NAME && typeof info.version === 'string' ? (info as MockInfo) : undefined;
}
