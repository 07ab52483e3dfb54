// MSW 2 request handlers that hand the API and the mock's own routes to a mock in process:
// `setupServer(...mockHandlers(mock))`. They route `<origin>/api/v0.1/*` and
// `<origin>/__mock/*` (any origin by default, as an app under test may call the real API's
// host or its page's own), so `/__mock/login` works in a unit test and the cookie it sets
// is kept (the mock's own jar: mocks/node/cookie-jar.ts), and an override's fault reaches
// the app as MSW makes a network error (`HttpResponse.error()`). The package's
// `server-listing-mock/msw` export; `msw` is the app's own (an optional peer dependency).
import { http, HttpResponse, type HttpHandler } from 'msw';
import type { InProcessMock } from './in-process.ts';

export interface MockHandlersOptions {
  /** Where the app sends its requests (`https://api.example.com`); default: any origin. */
  origin?: string;
}

/** A network failure of the mock's own making (a reset connection), as MSW shows one. */
const isNetworkError = (err: unknown) => err instanceof TypeError && err.message === 'fetch failed';

/** Handlers for MSW's setupServer (Node) that answer the API and /__mock/* with `mock`. */
export function mockHandlers(mock: InProcessMock, options: MockHandlersOptions = {}): HttpHandler[] {
  const origin = options.origin?.replace(/\/+$/, '') ?? '*';
  const answer = async ({ request }: { request: Request }) => {
    try {
      return await mock.fetch(request);
    } catch (err) {
      if (isNetworkError(err)) return HttpResponse.error();
      throw err;
    }
  };
  return [
    http.all(`${origin}${mock.basePath}/*`, answer),
    http.all(`${origin}${mock.basePath}`, answer),
    http.all(`${origin}/__mock/*`, answer),
  ];
}
