// The mock as a Hono app: environment-neutral (request in, answer out), so tests can
// call `app.request()` without a socket and the same app runs on any runtime; the Node
// adapter (mocks/node/) binds it to a socket. The pipeline, in order, one stage per
// folder here:
//   every answer's headers -> journal/ (the journal and the request log) -> host-check/ -> cors/
//   -> latency -> auth/ (who is calling) -> rate-limit/ -> body-limit/ -> route (404 / 405)
//   -> per operation: auth/ (401 / 403) -> parameters/ (400 / 415)
//      -> auth/ again once a body is in (401) -> overrides/ -> prefer/ -> handlers/
// Each stage that refuses a request says which rule it is (`refusedBy`, for the journal).
// The stages up to the route run as one Hono middleware, and an operation's as one route
// (`inOrder`), not a Hono level each: a stage that answers before the route makes its answer
// the request's (`c.res`) at once, for the stages around it to read (decision 0054).
// Public and protected operations differ only in their spec-given security, applied in
// one place (authorize), never in the handlers. Every answer is written by answers.ts.
import type { Context, MiddlewareHandler } from 'hono';
import { Hono } from 'hono';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { LinearRouter } from 'hono/router/linear-router';
import { errorBody } from '../../spec/messages.ts';
import type { Operation, SpecModel } from '../../spec/model.ts';
import { mountApiIndex } from '../docs-page/api-index.ts';
import { DOCS_PATH, mountDocs } from '../docs-page/docs-page.ts';
import { createAnswers, EVERY_ANSWER_HEADERS, sendJson, type Answers, type HandlerResult } from './answers.ts';
import { Authenticator, authorize, identifyCaller, schemeReaders, stillAuthorized } from './auth/auth.ts';
import { limitBody } from './body-limit/body-limit.ts';
import { corsMiddleware } from './cors/cors-policy.ts';
import { createControl, type MockControl } from './control.ts';
import { type FindingsOf, mockFindings } from './journal/findings.ts';
import { JudgeContext } from '../../spec/judges/judge.ts';
import type { Reparse } from './journal/entry-view.ts';
import { recordRequests } from './journal/record.ts';
import { applyOverrides } from './overrides/override-stage.ts';
import { hostCheck } from './host-check/host-check.ts';
import { mountDevRoutes } from './dev-routes/dev-routes.ts';
import type { AppEnv } from './env.ts';
import type { Handler, Handlers } from './handlers/handlers.ts';
import { type CompiledOperation, compileOperations, operationCompiler, routePathOf } from './operations.ts';
import { parameters } from './parameters/parameters.ts';
import { preferredAnswer } from './prefer/prefer.ts';
import { printable } from './printable.ts';
import { rateLimit, uncountedLimitHeaders } from './rate-limit/rate-limit.ts';
import { ResponseChecker } from './self-check/self-check.ts';
import type { MockState } from './state.ts';
import type { Rule } from './journal/findings.ts';

export type { AppEnv } from './env.ts';

/** The settings the app reads (mocks/node/options.ts's MockOptions carries them, with the Node adapter's own). */
export interface AppOptions {
  /** No request log. */
  quiet: boolean;
  /** Allowed CORS origins; `*` in an entry matches any run of characters except `/`. */
  corsOrigins: string[];
  /** Host names answered besides loopback names and IP addresses (host-check/); `.x.test` a domain, `*` any. */
  allowedHosts: string[];
  /** Every answer delayed by a random time in [min, max] ms. */
  latency: { min: number; max: number };
  /**
   * Count requests and refuse over the rate limits with 429; otherwise the headers report each limit without
   * counting.
   */
  rateLimit: boolean;
  /** Count anonymous callers by the last X-Forwarded-For address (behind a reverse proxy), not the socket's peer. */
  trustProxy: boolean;
  /** Validate every answer against the spec and fail loudly on drift. */
  selfCheck: boolean;
  /** Where the servers come from, for /__mock/info: the seed, or the `--data` file (then the seed means nothing). */
  seed: number;
  data?: string;
}

export interface MockApp {
  app: Hono<AppEnv>;
  state: MockState;
  model: SpecModel;
  basePath: string;
  /** Overrides and the journal, as /__mock/overrides and /__mock/requests serve them. */
  control: MockControl;
}

/** What an app is made of: nothing is read from disk or from module state in here. */
export interface AppParts {
  options: AppOptions;
  /** The loaded inputs (spec model, fixtures, dataset) and what changes at run time. */
  state: MockState;
  /** One handler per operationId of the spec (createHandlers, or a test's own). */
  handlers: Handlers;
  /** Where warnings go; console.warn by default. */
  warn?: (line: string) => void;
  /** What the journal finds about each request (journal/findings.ts, the mock's own by default). */
  findings?: FindingsOf;
  /**
   * Start fast rather than route fast: Hono's LinearRouter, which builds nothing ahead, for
   * a mock made per test (createMock); a server keeps the default router, which compiles its
   * routes into one expression on the first request and matches fastest after. With it, an
   * operation's stages (its parameter parser compiled among them) are built on its first
   * request, not all at start: a test's mock builds only the operations it is asked for.
   */
  quickStart?: boolean;
  /** The V8 flags the process serving the app has set (GET /__mock/info says them). */
  v8Flags?: readonly string[];
}

/** The request's path as the client sent it (percent-encoded), as the mock repeats it (printable). */
function requestPath(c: Context): string {
  return printable(new URL(c.req.url).pathname);
}

/** Every answer says what it is and that no site may frame it (EVERY_ANSWER_HEADERS). */
const everyAnswerHeaders = Object.entries(EVERY_ANSWER_HEADERS);
const everyAnswer: MiddlewareHandler<AppEnv> = (c, next) => {
  for (const [name, value] of everyAnswerHeaders) c.header(name, value);
  return next();
};

/** `--latency`: every answer waits a random time within [min, max] ms. */
function latency({ min, max }: { min: number; max: number }): MiddlewareHandler<AppEnv> {
  return async (_c, next) => {
    await new Promise((r) => setTimeout(r, min + Math.random() * (max - min)));
    await next();
  };
}

/**
 * An operation's stages as one route: each answers or hands on to the next, in order;
 * the Response a stage answers with travels back through these promises to Hono. (The
 * same as listing them on the route, without a round through Hono's dispatcher per
 * stage on the hottest path.)
 */
function inOrder(...stages: MiddlewareHandler<AppEnv>[]): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    let i = 0;
    const step = (): Promise<void> => (i < stages.length ? (stages[i++]!(c, step) as Promise<void>) : next());
    return step();
  };
}

/** The operation's handler, on what the stages before it found. */
function run(handler: Handler, state: MockState, c: Context<AppEnv>): HandlerResult {
  const { query, path } = c.get('params');
  return handler({ query, path, body: c.get('body'), principal: c.get('principal'), state, now: c.get('now') });
}

/** The last stage: the operation's handler answers. */
function handle(op: Operation, handler: Handler, state: MockState, answers: Answers): MiddlewareHandler<AppEnv> {
  return (c) => {
    const result = run(handler, state, c);
    if (result.status >= 400 && result.status < 500) c.set('refusedBy', 'operation');
    return Promise.resolve(answers.handled(c, op, result));
  };
}

/** The route's first stage: which operation the request is (for the journal and the stages after). */
function routedTo(op: Operation): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    c.set('op', op);
    const entry = c.get('entry');
    if (entry) entry.op = op;
    return next();
  };
}

/** Reads an operation's parameters again from a URL it received, as its route and parameters stage did. */
function reparser(compiledOf: (op: Operation) => CompiledOperation | undefined, basePath: string): Reparse {
  return (op, url) => {
    const c = compiledOf(op);
    if (!c) return undefined;
    const start = url.indexOf('/', url.indexOf('//') + 2);
    const q = url.indexOf('?');
    const segments = url
      .slice(start, q === -1 ? undefined : q)
      .slice(basePath.length)
      .split('/');
    const path: Record<string, string> = {};
    op.path.split('/').forEach((t, i) => {
      const name = /^\{(.+)\}$/.exec(t)?.[1];
      if (name && segments[i] !== undefined) {
        try {
          path[name] = decodeURIComponent(segments[i]!);
        } catch {
          path[name] = segments[i]!;
        }
      }
    });
    const parsed = c.parseParams(q === -1 ? '' : url.slice(q + 1), path);
    return parsed.ok ? { query: parsed.query, path: parsed.path } : undefined;
  };
}

/**
 * A route whose stages are built on its first request (`build` once): a mock made per test
 * builds only the operations it is asked for.
 */
function onFirstRequest(build: () => MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  let stages: MiddlewareHandler<AppEnv> | undefined;
  return (c, next) => (stages ??= build())(c, next);
}

/**
 * Each operation of `model` compiled: all now (a server), or each on first use (quickStart),
 * shared by its route and the journal's reparse.
 */
function compiledOperations(model: SpecModel, quickStart: boolean): (op: Operation) => CompiledOperation | undefined {
  const known = new Set(model.operations);
  if (!quickStart) {
    const byOp = new Map(compileOperations(model).map((c) => [c.op, c]));
    return (op) => byOp.get(op);
  }
  const compile = operationCompiler(model);
  const byOp = new Map<Operation, CompiledOperation>();
  return (op) => {
    if (!known.has(op)) return undefined;
    let c = byOp.get(op);
    if (!c) byOp.set(op, (c = compile(op)));
    return c;
  };
}

/**
 * A refusal: its rule (for the journal), and its answer made the request's at once (`c.res`), as
 * Hono makes the Response a middleware returns when each is a level of its own. The stages before
 * the route run as one (`everyRequest`): a stage around a later one (the journal, CORS) reads
 * `c.res` once that one is done. (The 404 and the 405, answered where Hono sets `c.res` anyway, set
 * it again to the same answer.)
 */
function refusing<A extends unknown[]>(rule: Rule, answer: (c: Context, ...rest: A) => Response) {
  return (c: Context, ...rest: A): Response => {
    c.set('refusedBy', rule);
    c.res = answer(c, ...rest);
    return c.res;
  };
}

export function createApp(parts: AppParts): MockApp {
  const { options, state, handlers } = parts;
  const { model } = state;
  const app = new Hono<AppEnv>(parts.quickStart ? { router: new LinearRouter() } : {});
  const basePath = model.basePath;
  const auth = new Authenticator(schemeReaders(model), () => state);
  const answers = createAnswers(options.selfCheck ? new ResponseChecker(model) : undefined);
  const { fail } = answers;
  /** The answer to an error a stage threw (Hono's onError, and the journal's for a stage after it). */
  const answerError = (err: Error, c: Context<AppEnv>): Response => {
    // The client went away while its body was being read (or sent a body the parser
    // refused): nobody is left to answer, and it is no bug of the mock.
    if ((err as NodeJS.ErrnoException).code === 'ECONNRESET')
      return fail(c, 400, 'the connection closed before the request body was complete');
    // A bug, never a crash: say so in the log and answer the spec's error body.
    console.error(`mock: ${printable(c.req.method)} ${requestPath(c)} failed:`, err);
    return sendJson(c, 500, errorBody(500, 'the mock failed to answer; see its log'));
  };
  const maxBodyBytes = model.limits.maxBodyBytes;
  // Warnings (a refused origin, a cookie that will not stick) go to stderr even with
  // --quiet: they explain a failure the developer is looking at.
  const warn = parts.warn ?? ((line: string) => console.warn(line));

  const compiledOf = compiledOperations(model, parts.quickStart === true);
  const control = createControl(() => state, reparser(compiledOf, basePath));

  // Every request's stages, before its route: one Hono middleware running them in order (as an
  // operation's stages are), not one each: each of Hono's levels is an async dispatch of its own
  // (together about 4% of the mock's throughput, decision 0054).
  const everyRequest: MiddlewareHandler<AppEnv>[] = [everyAnswer];
  if (!options.quiet || state.journal.enabled || state.usage)
    everyRequest.push(
      recordRequests(state, {
        log: !options.quiet,
        findings: parts.findings ?? mockFindings(JudgeContext.of(model)),
        warn,
        failed: answerError,
      }),
    );
  // A refused host is answered before anyone is identified or counted: as an anonymous caller, counted nowhere.
  everyRequest.push(
    hostCheck(
      options.allowedHosts,
      refusing('host-check', (c, detail: string) =>
        fail(c, 403, detail, uncountedLimitHeaders(state.rates, basePath, c.req.path, state.now())),
      ),
    ),
    corsMiddleware(model, options.corsOrigins, warn),
  );
  if (options.latency.max > 0) everyRequest.push(latency(options.latency));
  everyRequest.push(
    identifyCaller(auth, () => state.now()),
    rateLimit({
      limiter: () => state.rates,
      basePath,
      trustProxy: options.trustProxy,
      enforce: options.rateLimit,
      answers,
    }),
    limitBody(
      maxBodyBytes,
      refusing('body-limit', (c, headers?: Record<string, string>) =>
        fail(c, 413, `the request body is over ${maxBodyBytes} bytes`, headers),
      ),
    ),
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        refusing('routing', fail)(
          c,
          405,
          `${printable(c.req.method)} is not allowed on ${requestPath(c)}; use ${methods.join(', ')}`,
          {
            Allow: methods.join(', '),
          },
        ),
    }),
  );
  app.use('*', inOrder(...everyRequest));

  mountDevRoutes(app, state, {
    cookieName: model.cookieName,
    reply: sendJson,
    fail,
    warn,
    dataset: { seed: options.seed, ...(options.data !== undefined ? { data: options.data } : {}) },
    control,
    v8Flags: parts.v8Flags ?? [],
  });
  mountDocs(app, { model, fixtures: state.fixtures, fail });
  mountApiIndex(app, model, sendJson);

  for (const op of model.operations) {
    const handler = handlers[op.operationId];
    if (!handler) throw new Error(`no handler for operationId '${op.operationId}'`);
    const stages = (): MiddlewareHandler<AppEnv> => {
      // A body may take its time: an operation that reads one checks its caller again once it is in.
      const recheck = op.requestBody && !op.isPublic ? [stillAuthorized(op, auth, () => state.now(), answers)] : [];
      return inOrder(
        routedTo(op),
        authorize(op, auth, answers),
        parameters(compiledOf(op)!, answers),
        ...recheck,
        applyOverrides(op, state, answers, warn),
        preferredAnswer(op, answers),
        handle(op, handler, state, answers),
      );
    };
    app.on(op.method, routePathOf(model, op), parts.quickStart ? onFirstRequest(stages) : stages());
  }

  app.notFound((c) =>
    refusing('routing', fail)(
      c,
      404,
      `no route for ${printable(c.req.method)} ${requestPath(c)}; the API lives under ${basePath} ` +
        `(GET ${basePath} lists every operation; docs at ${DOCS_PATH})`,
    ),
  );
  app.onError(answerError);

  return { app, state, model, basePath, control };
}
