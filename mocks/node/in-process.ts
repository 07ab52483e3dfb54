// The mock in process, for frontend unit tests (MSW handlers or a stubbed `fetch`): the
// app the server runs (mocks/core/app.ts, built by load.ts from the same options, so the
// same seed, data, fixture credentials, auth, errors and headers), answering a
// web-standard Request with a Response, without a socket. This module is the package's
// library entry: `import { createMock } from 'server-listing-mock'`. Besides answering, a
// mock here is steered and asked as over HTTP under /__mock/ (mocks/core/control.ts: the
// same overrides, journal and reset), keeps the cookies its answers set as a browser would
// (cookie-jar.ts), and takes its servers as an array (mocks/dataset/server-builder.ts).
import { optionsInCode } from '../../cli/options-in-code.ts';
import { FIXTURE_CREDENTIALS, FIXTURE_USERS, type FixtureCredentialName } from '../../fixtures/auth.gen.ts';
import type { MockApp } from '../core/app.ts';
import type { RuntimeBindings } from '../core/env.ts';
import type { OverrideView } from '../core/control.ts';
import type { JournalEntry, RequestFilter } from '../core/journal/entry-view.ts';
import type { OverrideInput } from '../core/overrides/override.ts';
import type { Transport } from '../core/overrides/transport.ts';
import { checkRows } from '../dataset/data-file.ts';
import { rowsAt, server, type ServerFields } from '../dataset/server-builder.ts';
import { CookieJar } from './cookie-jar.ts';
import type { CreateMockFlags } from './create-mock-options.gen.ts';
import { STOP_GRACE_MS } from './lifetime.ts';
import { buildMock, loadInputs } from './load.ts';
import { FLAGS, type MockOptions } from './options.ts';
import { credentialHeaders, loadModel } from '../../spec/model.ts';
import { loadFixtures } from '../../fixtures/load.ts';
import type { MockInputs } from '../core/state.ts';
import type { UsageProfile } from '../../spec/usage-profile.ts';

export type { OverrideView, JournalInfo } from '../core/control.ts';
export type { JournalEntry, RequestFilter } from '../core/journal/entry-view.ts';
export type { Finding, Rule } from '../core/journal/findings.ts';
export type { OverrideInput } from '../core/overrides/override.ts';
export type { FaultKind } from '../core/overrides/transport.ts';
export type { Ago, ServerFields, ServerFixture } from '../dataset/server-builder.ts';
export type { FixtureCredentialName, FixtureUserId } from '../../fixtures/auth.gen.ts';
export type { UsageProfile } from '../../spec/usage-profile.ts';
export { server };

const NO_USAGE = "createMock: no usage profile is recorded: name the consumer, createMock({ consumer: 'web' })";

/** The shipped fixture credentials (fixtures/auth.json), by name: `credentials['valid-key'].value`. */
export const credentials = FIXTURE_CREDENTIALS;
/** The shipped fixture users, by id. */
export const users = FIXTURE_USERS;

/**
 * createMock's options: the server's flags that mean something without a socket (their
 * interface, with a doc comment each, is written from the flag table by `npm run docs:flags`),
 * and `servers` given as rows.
 */
export type CreateMockOptions = Omit<CreateMockFlags, 'servers'> & {
  /**
   * How many servers to generate (`--servers`, default 1000); or the servers themselves, each
   * a `server()` or its fields (every field not given is filled with a value the spec allows,
   * its time relative to the mock's clock), checked as a `--data` file's rows are.
   */
  servers?: number | readonly ServerFields[];
};

/** A mock in this process. */
export interface InProcessMock {
  /** The API's base path (`/api/v0.1`): a request to `<any origin>/api/v0.1/...` is the API's. */
  readonly basePath: string;
  /**
   * The answer the server would give to this request (`fetch`'s arguments: a Request, or
   * a URL and its init; a relative URL resolves against the page's location, in a DOM
   * environment). Routes, auth and rate limits read the path, headers
   * and body; the origin only shapes what points back at the mock (the docs page's
   * `servers`, the login cookie's attributes). Like a browser, it sends the cookies earlier
   * answers set (a request with its own Cookie header, or `credentials: 'omit'`, gets none),
   * and a credential chosen with `useCredential`. An override's fault shows as fetch shows a
   * broken network: `reset` rejects (`TypeError: fetch failed`, cause ECONNRESET), `truncate`
   * answers a body whose reading fails, `no-answer` waits until the request's signal aborts
   * or `close()`.
   */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  /**
   * Overrides, newest first (the last given is tried first), as `POST /__mock/overrides`:
   * `mock.use({ operationId: 'findServers', status: 500, times: 1 })`. Each is checked against
   * the spec; a bad one throws, naming every problem, and none is added. Returns them with ids.
   */
  use(...overrides: OverrideInput[]): OverrideView[];
  /** The overrides held, newest first, with how often each was used (`GET /__mock/overrides`). */
  overrides(): OverrideView[];
  /** Removes one override by id (false: none had it), or, without an id, every one. */
  removeOverrides(id?: number): boolean;
  /**
   * The requests the mock received, newest first, as `GET /__mock/requests` lists them: each
   * with its operation, parameters as parsed, body, who it authenticated as (masked), status,
   * the rule that refused it, findings. `filter` narrows (`{ operationId: 'findServers' }`).
   */
  requests(filter?: RequestFilter): JournalEntry[];
  /**
   * Throws when a request the mock received has findings (a parameter the operation does not
   * have, a malformed credential), listing each with its near miss; for `afterEach`.
   */
  assertNoFindings(): void;
  /**
   * Logs in as a fixture user (id or email; default the first) through `/__mock/login`: later requests carry the
   * cookie.
   */
  signIn(user?: string): Promise<void>;
  /**
   * Later requests carry this fixture credential (a session as its cookie, a key as `Authorization`), unless they
   * carry their own.
   */
  useCredential(name: FixtureCredentialName): void;
  /** Forgets the cookies kept and the credential chosen. */
  signOut(): void;
  /**
   * The headers that present a fixture credential: `{ Authorization: 'Bearer ...' }` or
   * `{ Cookie: 'sls_session=...' }`.
   */
  credentialHeaders(name: FixtureCredentialName): Record<string, string>;
  /**
   * What the app used since the mock was made (or `clearUsage()`), as `GET /__mock/usage`:
   * the usage profile of the `consumer` option (operations, parameters and the kinds of
   * values sent, credentials' kinds, statuses; never a secret or free text), for
   * `contract diff --usage`. Throws when no `consumer` was given. `reset()` keeps it.
   */
  usage(): UsageProfile;
  /** Starts the usage profile afresh (`DELETE /__mock/usage`). */
  clearUsage(): void;
  /**
   * Back to the seeded state, as `POST /__mock/reset`: fixture keys and sessions only, fresh
   * rate-limit counters, no overrides, an empty journal; and signed out. The usage profile stays.
   */
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
function mockOptions(options: Omit<CreateMockOptions, 'servers'> & { servers?: number }): MockOptions {
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
      `createMock: fetch needs an absolute URL${
        page ? '' : ' (there is no page location to resolve a relative one against)'
      }, got '${String(input)}'`,
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
  return new Response(heldBody(new Uint8Array(body)), { status: res.status, statusText: res.statusText, headers });
}

/**
 * A body of these bytes as fetch's own are (a byte stream: a BYOB reader works), holding a
 * copy of them from the start (a byte stream takes the buffer it is given, and a small Buffer
 * is a view of node's shared pool). Undici's body for bytes given to a Response makes its
 * stream pull them at the first read: a process's first read of such a body took 1.5 ms here,
 * of this one 0.75 (decision 0053).
 */
function heldBody(body: string | Uint8Array): ReadableStream<Uint8Array> {
  const bytes = typeof body === 'string' ? encoder.encode(body) : new Uint8Array(body);
  return new ReadableStream({
    type: 'bytes',
    start(controller) {
      if (bytes.byteLength) controller.enqueue(bytes);
      controller.close();
    },
  });
}

const encoder = new TextEncoder();

/** A request the app is answering, and how close() ends it. */
interface InFlight {
  answer: Promise<Response>;
  end(why: TypeError): void;
}

/** What fetch rejects with when the connection is reset (as undici words it). */
function connectionReset(): TypeError {
  return new TypeError('fetch failed', {
    cause: Object.assign(new Error('read ECONNRESET (an override reset the connection)'), { code: 'ECONNRESET' }),
  });
}

/**
 * An override's faults for a fetch in process, as fetch shows a broken network: a reset
 * rejects it, a truncated answer's body fails half-way (as undici's `terminated`), no answer
 * waits for the request's signal or close().
 */
function inProcessFaults(fault: (why: TypeError) => void): Transport {
  return {
    reset() {
      fault(connectionReset());
      return new Response(null);
    },
    async truncate(_env, answer) {
      const bytes = new Uint8Array(await answer.arrayBuffer());
      const headers = new Headers(answer.headers);
      headers.set('content-length', String(bytes.byteLength));
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.subarray(0, Math.floor(bytes.byteLength / 2)));
          controller.error(
            new TypeError('terminated', {
              cause: Object.assign(new Error('other side closed (an override truncated the answer)'), {
                code: 'UND_ERR_SOCKET',
              }),
            }),
          );
        },
      });
      return new Response(body, { status: answer.status, statusText: answer.statusText, headers });
    },
    hang: () => new Promise<Response>(() => undefined),
  };
}

/** Every header as a list (name, value, name, value...), as node lists a socket's. */
function listed(headers: Headers): string[] {
  const list: string[] = [];
  headers.forEach((value, name) => void list.push(name, value));
  return list;
}

/**
 * The app's answer to `request`, which `end` can cut short: its body reaches the app
 * through a pipe that ending cuts (the app then reads a body cut off, as when a client's
 * connection closes under the server's stop), and its answer rejects with `why`. An
 * override's fault rejects it too, or cuts its body; the request's own signal aborts it.
 */
function answer(
  app: MockApp['app'],
  request: Request,
  headerList: readonly string[],
  callers: readonly AbortSignal[] = [],
): InFlight {
  let reject!: (why: unknown) => void;
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
  // The caller's own signals, not the Request's: a Request's signal follows the one it was made from through a weak
  // reference, so when an intermediate Request is collected (made by toRequest, copied by asBrowser) the caller's
  // abort never reached it, and a request nobody answers (the `no-answer` fault) hung. The Request's signal follows
  // only these (no caller's signal: nothing can abort it, and listening costs a first fetch 0.2 ms).
  for (const signal of callers) {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  }
  let faulted: TypeError | undefined;
  // The journal keeps the list (shared with the last request that sent the same) rather than
  // the Request's Headers, and judges a repeat once.
  const env: RuntimeBindings = { transport: inProcessFaults((why) => void (faulted = why)), headerList, heldBody };
  const answered = Promise.resolve(app.fetch(fed, env)).then((res) => {
    if (faulted) throw faulted;
    return withLength(res);
  });
  return {
    answer: Promise.race([answered, ended]),
    end(why) {
      // ECONNRESET: the app answers a body cut off as one whose connection closed (mocks/core/app.ts).
      cut.abort(Object.assign(new Error(why.message), { code: 'ECONNRESET' }));
      reject(why);
    },
  };
}

/** The rows given in code, checked as a file's are; their times fixed against the mock's clock. */
function rowsOf(fields: readonly ServerFields[], options: MockOptions): MockInputs['servers'] {
  if (!Array.isArray(fields))
    throw new TypeError("createMock: option 'servers' must be a number or an array of servers");
  let rows: Record<string, unknown>[];
  try {
    rows = rowsAt(fields, options.now ?? Date.now());
  } catch (err) {
    throw new TypeError(`createMock: ${(err as Error).message}`);
  }
  return checkRows(rows, loadModel(options.spec).doc, 'createMock');
}

/**
 * A mock in this process, built now (the dataset generated or loaded: about as long as
 * the server takes to start). Throws on a bad option, naming it.
 */
export function createMock(options: CreateMockOptions = {}): InProcessMock {
  const { servers, ...rest } = options;
  const given = Array.isArray(servers) ? (servers as readonly ServerFields[]) : undefined;
  if (given && rest.data !== undefined)
    throw new TypeError('createMock: give the servers as rows (servers) or as a file (data), not both');
  const settings = mockOptions(
    given ? rest : { ...rest, ...(servers !== undefined ? { servers: servers as number } : {}) },
  );
  const warn = (line: string) => console.warn(line);
  let inputs: MockInputs;
  if (given) {
    const model = loadModel(settings.spec);
    const fixtures = loadFixtures(settings.fixtures, model);
    inputs = { model, fixtures, servers: rowsOf(given, settings), source: { kind: 'code' } };
  } else inputs = loadInputs(settings);
  // A mock per test file, or per test: it starts fast rather than routes fast.
  let mock: MockApp | undefined = buildMock(settings, inputs, warn, true);
  const built = mock;
  for (const line of built.state.hiding?.lines(built.state.now()) ?? []) warn(`createMock: ${line}`);
  const { control, basePath, model } = built;
  const inFlight = new Set<InFlight>();
  const settled = () => Promise.allSettled([...inFlight].map((f) => f.answer));
  const jar = new CookieJar();
  let chosen: Record<string, string> | undefined;

  const headersOf = (name: FixtureCredentialName): Record<string, string> => {
    const c = FIXTURE_CREDENTIALS[name];
    const scheme = c && model.schemes.get(c.type);
    if (!scheme)
      throw new TypeError(
        `createMock: no fixture credential '${String(name)}' (${Object.keys(FIXTURE_CREDENTIALS).join(', ')})`,
      );
    return credentialHeaders(scheme, c.value);
  };

  /**
   * fetch's arguments as a browser sends them (the jar's cookies, the chosen credential, each
   * unless the request has its own), and its headers listed as node lists a socket's.
   */
  const asBrowser = (input: Request | string | URL, init: RequestInit | undefined) => {
    let request = toRequest(input, init);
    const extra: Record<string, string> = {};
    if (request.credentials !== 'omit') {
      const cookie = request.headers.has('cookie') ? undefined : jar.header();
      if (cookie) extra.cookie = cookie;
      for (const [name, value] of Object.entries(chosen ?? {}))
        if (!request.headers.has(name) && !(name.toLowerCase() === 'cookie' && cookie)) extra[name] = value;
    }
    const added = Object.entries(extra);
    if (added.length) {
      const headers = new Headers(request.headers);
      for (const [name, value] of added) headers.set(name, value);
      request = new Request(request, { headers });
    }
    // A request made here from a URL, with no headers or body (a body may bring its type), has
    // only those added: listed without reading its Headers (their first reading costs a
    // process's first answer 0.3 ms).
    const headerList =
      input instanceof Request || init?.headers !== undefined || init?.body != null
        ? listed(request.headers)
        : added.flatMap(([name, value]) => [name.toLowerCase(), value]);
    return { request, headerList };
  };

  const fetch: InProcessMock['fetch'] = (input, init) => {
    if (!mock) return Promise.reject(new TypeError('createMock: fetch after close()'));
    let sent: ReturnType<typeof asBrowser>;
    try {
      sent = asBrowser(input, init);
    } catch (err) {
      return Promise.reject(err as Error);
    }
    const { request, headerList } = sent;
    const callers = [init?.signal, input instanceof Request ? input.signal : undefined].filter((x) => x != null);
    const flight = answer(mock.app, request, headerList, callers);
    inFlight.add(flight);
    void flight.answer.finally(() => inFlight.delete(flight)).catch(() => undefined);
    if (request.credentials === 'omit') return flight.answer;
    return flight.answer.then((res) => {
      for (const line of res.headers.getSetCookie()) jar.set(line);
      return res;
    });
  };

  return {
    basePath,
    fetch,
    use: (...overrides) => control.use(overrides),
    overrides: () => control.overrides(),
    removeOverrides(id) {
      if (id !== undefined) return control.removeOverride(id);
      const any = control.overrides().length > 0;
      control.clearOverrides();
      return any;
    },
    requests: (filter) => control.requests(filter),
    assertNoFindings() {
      const found = control.requests({ findings: true });
      if (!found.length) return;
      const lines = found
        .reverse()
        .flatMap((r) =>
          r.findings.map((f) => `  ${r.request.method} ${r.request.target}: ${f.why}${f.hint ? `: ${f.hint}` : ''}`),
        );
      throw new Error(
        `createMock: ${found.length} request${found.length === 1 ? '' : 's'} ` +
          `the real service would not take as meant:\n${lines.join('\n')}`,
      );
    },
    async signIn(user) {
      const res = await fetch(`http://mock.test/__mock/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(user === undefined ? {} : { user }),
      });
      if (res.status !== 200)
        throw new Error(`createMock: signIn failed: ${((await res.json()) as { message: string }).message}`);
    },
    useCredential(name) {
      chosen = headersOf(name);
    },
    signOut() {
      jar.clear();
      chosen = undefined;
    },
    credentialHeaders: headersOf,
    usage() {
      const profile = control.usage();
      if (!profile) throw new TypeError(NO_USAGE);
      return profile;
    },
    clearUsage() {
      if (!control.clearUsage()) throw new TypeError(NO_USAGE);
    },
    reset() {
      control.reset();
      jar.clear();
      chosen = undefined;
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
