// The mock in process, for frontend unit tests (MSW handlers or a stubbed `fetch`): the
// app the server runs (mocks/core/app.ts, built by load.ts from the same options, so the
// same seed, data, fixture credentials, auth, errors and headers), answering a
// web-standard Request with a Response, without a socket. This module is the package's
// library entry: `import { createMock } from 'server-listing-mock'`.
import { optionsInCode } from '../../cli/options-in-code.ts';
import type { MockApp } from '../core/app.ts';
import type { CreateMockOptions } from './create-mock-options.gen.ts';
import { STOP_GRACE_MS } from './lifetime.ts';
import { buildMock } from './load.ts';
import { FLAGS, type MockOptions } from './options.ts';

// The options' interface, with a doc comment each, is written from the flag table (FLAGS's
// `inCode` flags) by `npm run docs:flags`; mocks/node/options.test.ts fails while it is stale.
export type { CreateMockOptions } from './create-mock-options.gen.ts';

/** A mock in this process. */
export interface InProcessMock {
  /** The API's base path (`/api/v0.1`): a request to `<any origin>/api/v0.1/...` is the API's. */
  readonly basePath: string;
  /**
   * The answer the server would give to this request (`fetch`'s arguments: a Request, or
   * a URL and its init; a relative URL resolves against the page's location, in a DOM
   * environment). Routes, auth and rate limits read the path, headers
   * and body; the origin only shapes what points back at the mock (the docs page's
   * `servers`, the login cookie's attributes).
   */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  /** Back to the seeded state, as `POST /__mock/reset`: fixture keys and sessions only, fresh rate-limit counters. */
  reset(): void;
  /**
   * Stops taking requests (a later `fetch` rejects) and waits for the answers in flight,
   * at most `graceMs` (2000, as the server's stop); a request still unanswered then (its
   * body never finished arriving, `latency` held it) is ended: its body is let go and its
   * `fetch` rejects, saying so. Resolves once every `fetch` has settled.
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * The server's options for these: the same defaults, and the same checks as the flags (a
 * bad value throws, naming the option).
 */
function mockOptions(options: CreateMockOptions = {}): MockOptions {
  // No environment: the MOCK_* variables configure the server, not a mock a test builds.
  const { help, version, ...parsed } = optionsInCode(FLAGS, options as Record<string, unknown>, 'createMock');
  // No socket, so no page can reach it by a rebound name: it answers whatever host the
  // app under test calls (the real API's, under MSW), as the host check is about sockets.
  return { ...parsed, allowedHosts: ['*'] };
}

/**
 * fetch's arguments as one Request. A relative URL (an app that calls `/api/v0.1/...` on
 * its page's origin) resolves against the page's location, where a DOM environment
 * (jsdom, happy-dom) has one, as the browser's fetch does.
 */
function toRequest(input: Request | string | URL, init: RequestInit | undefined): Request {
  if (input instanceof Request) return init === undefined ? input : new Request(input, init);
  const page = (globalThis as { location?: { href?: string } }).location?.href;
  let url: URL;
  try {
    url = new URL(String(input), page);
  } catch {
    throw new TypeError(
      `createMock: fetch needs an absolute URL${page ? '' : ' (there is no page location to resolve a relative one against)'}, got '${String(input)}'`,
    );
  }
  return new Request(url, init);
}

/**
 * The answer as the socket sends it: with the Content-Length node:http sets on a body it
 * has whole (a header a page may read, even cross-origin). Every answer of the mock is small.
 */
async function withLength(answer: Response | Promise<Response>): Promise<Response> {
  const res = await answer;
  if (!res.body || res.headers.has('content-length')) return res;
  const body = await res.arrayBuffer();
  const headers = new Headers(res.headers);
  headers.set('content-length', String(body.byteLength));
  return new Response(body, { status: res.status, statusText: res.statusText, headers });
}

/** A request the app is answering, and how close() ends it. */
interface InFlight {
  answer: Promise<Response>;
  end(why: TypeError): void;
}

/**
 * The app's answer to `request`, which `end` can cut short: its body reaches the app
 * through a pipe that ending cuts (the app then reads a body cut off, as when a client's
 * connection closes under the server's stop), and its answer rejects with `why`.
 */
function answer(app: MockApp['app'], request: Request): InFlight {
  let reject!: (why: TypeError) => void;
  const ended = new Promise<never>((_, r) => {
    reject = r;
  });
  const cut = new AbortController();
  const fed = request.body
    ? new Request(request, {
        body: request.body.pipeThrough(new TransformStream(), { signal: cut.signal }),
        duplex: 'half',
      } as RequestInit)
    : request;
  return {
    answer: Promise.race([withLength(app.fetch(fed)), ended]),
    end(why) {
      // ECONNRESET: the app answers a body cut off as one whose connection closed (mocks/core/app.ts).
      cut.abort(Object.assign(new Error(why.message), { code: 'ECONNRESET' }));
      reject(why);
    },
  };
}

/**
 * A mock in this process, built now (the dataset generated or loaded: about as long as
 * the server takes to start). Throws on a bad option, naming it.
 */
export function createMock(options: CreateMockOptions = {}): InProcessMock {
  let mock: MockApp | undefined = buildMock(mockOptions(options));
  const basePath = mock.basePath;
  const inFlight = new Set<InFlight>();
  const settled = () => Promise.allSettled([...inFlight].map((f) => f.answer));
  return {
    basePath,
    fetch(input, init) {
      if (!mock) return Promise.reject(new TypeError('createMock: fetch after close()'));
      let request: Request;
      try {
        request = toRequest(input, init);
      } catch (err) {
        return Promise.reject(err as Error);
      }
      const flight = answer(mock.app, request);
      inFlight.add(flight);
      void flight.answer.finally(() => inFlight.delete(flight)).catch(() => undefined);
      return flight.answer;
    },
    reset() {
      mock?.state.reset();
    },
    async close(graceMs = STOP_GRACE_MS) {
      mock = undefined;
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      });
      await Promise.race([settled(), graceOver]);
      clearTimeout(timer);
      for (const flight of inFlight)
        flight.end(
          new TypeError(
            `createMock: close() ended this request after ${graceMs} ms: its answer was not ready ` +
              '(its body had not all arrived, or latency held it)',
          ),
        );
      await settled();
    },
  };
}
