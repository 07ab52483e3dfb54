// The mock as a Hono app: environment-neutral (request in, response out), so tests
// can call `app.request()` without a socket and the same app runs on any runtime.
// The pipeline for an API request, in order:
//   CORS -> identify caller + rate limit -> body limit -> route (404 / 405)
//   -> security (401 / 403) -> Prefer -> parameters and body (400 / 415) -> handler
// Public and protected operations differ only in their spec-given security, applied
// in one place (`authorize`), never in the handlers.
import type { Context, MiddlewareHandler } from 'hono';
import { Hono } from 'hono';
import { methodNotAllowed } from 'hono/method-not-allowed';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { errorBody, FORBIDDEN_MESSAGE, rateLimitedBody, UNAUTHORIZED_MESSAGE } from '../../spec/messages.ts';
import type { Operation, SpecModel } from '../../spec/model.ts';
import { describeErrors } from '../../spec/validator.ts';
import { Authenticator, schemeReaders, type Principal } from './auth/auth.ts';
import { limitBody } from './body-limit/body-limit.ts';
import { clientAddress, type NodeBindings } from './rate-limit/client-identity.ts';
import type { HandlerResult, Handlers } from './handlers/handlers.ts';
import { mountApiIndex } from '../docs-page/api-index.ts';
import { CORS_REFUSED, corsMiddleware } from './cors/cors-policy.ts';
import { mountDevRoutes } from './dev-routes/dev-routes.ts';
import { DOCS_PATH, mountDocs } from '../docs-page/docs-page.ts';
import { compileOperations } from './operations.ts';
import type { MockOptions } from '../node/options.ts';
import { ResponseChecker } from './self-check/self-check.ts';
import type { MockState } from './state.ts';

export type AppEnv = { Bindings: NodeBindings | undefined; Variables: { identity: Map<string, Principal>; now: number; [CORS_REFUSED]: string } };

export interface MockApp {
  app: Hono<AppEnv>;
  state: MockState;
  model: SpecModel;
  basePath: string;
}

/** What an app is made of: nothing is read from disk or from module state in here. */
export interface AppParts {
  options: MockOptions;
  /** The loaded inputs (spec model, fixtures, dataset) and what changes at run time. */
  state: MockState;
  /** One handler per operationId of the spec (createHandlers, or a test's own). */
  handlers: Handlers;
  /** Where warnings go; console.warn by default. */
  warn?: (line: string) => void;
}


/** The one way answers are written: JSON, with the spec's content type. */
function sendJson(c: Context, status: number, body: unknown, headers?: Record<string, string | string[]>): Response {
  c.header('Content-Type', 'application/json');
  // A list is one header line per value (two Set-Cookie lines, say).
  if (headers) for (const [k, v] of Object.entries(headers)) for (const one of [v].flat()) c.header(k, one, { append: true });
  return c.body(JSON.stringify(body), status as ContentfulStatusCode);
}

/** `Prefer: code=404, example=name` (Prism-compatible): which declared response to answer. */
function parsePrefer(header: string | undefined): { code?: number; example?: string } | undefined {
  if (!header) return undefined;
  const out: { code?: number; example?: string } = {};
  for (const part of header.split(/[,;]/)) {
    const [k, v] = part.split('=').map((s) => s?.trim());
    if (k === 'code' && v) out.code = Number(v);
    if (k === 'example' && v) out.example = v.replace(/^"|"$/g, '');
  }
  return out.code === undefined && out.example === undefined ? undefined : out;
}

export function createApp(parts: AppParts): MockApp {
  const { options, state, handlers } = parts;
  const { model } = state;
  const app = new Hono<AppEnv>();
  const basePath = model.basePath;
  const ops = compileOperations(model);
  const auth = new Authenticator(schemeReaders(model), () => state);
  const checker = options.selfCheck ? new ResponseChecker(model) : undefined;
  const maxBodyBytes = model.limits.maxBodyBytes;
  // Warnings (a refused origin, a cookie that will not stick) go to stderr even with
  // --quiet: they explain a failure the developer is looking at.
  const warn = parts.warn ?? ((line: string) => console.warn(line));

  /** Answers and, under self-check, refuses to let an answer that breaks the spec out. */
  const reply = (c: Context, op: Operation | undefined, status: number, body: unknown, headers?: Record<string, string>) => {
    const drift = checker?.check(op, status, body);
    if (drift) {
      console.error(`MOCK DRIFT: ${c.req.method} ${c.req.path} -> ${status}: ${drift}`);
      return sendJson(c, 500, errorBody(500, `mock answer drifted from the spec: ${drift}`));
    }
    return sendJson(c, status, body, headers);
  };
  /** A handler's answer; a pre-serialised one (the search fast path) is parsed only to self-check it. */
  const answer = (c: Context, op: Operation, result: HandlerResult) => {
    if (result.json === undefined) return reply(c, op, result.status, result.body);
    if (checker) {
      const text = typeof result.json === 'string' ? result.json : Buffer.from(result.json).toString('utf8');
      return reply(c, op, result.status, JSON.parse(text));
    }
    c.header('Content-Type', 'application/json');
    return c.body(result.json as string | Uint8Array<ArrayBuffer>, result.status as ContentfulStatusCode);
  };
  const fail = (c: Context, status: number, detail?: string, headers?: Record<string, string>) =>
    reply(c, undefined, status, errorBody(status, detail), headers);

  if (!options.quiet) {
    app.use('*', async (c, next) => {
      const start = performance.now();
      await next();
      const ms = (performance.now() - start).toFixed(1);
      const url = new URL(c.req.url);
      const refused = c.get(CORS_REFUSED);
      console.log(`${c.req.method} ${url.pathname}${url.search} ${c.res.status} ${ms}ms${refused ? ` (CORS: origin ${refused} refused)` : ''}`);
    });
  }

  app.use('*', corsMiddleware(options.corsOrigins, warn));

  if (options.latency.max > 0) {
    const { min, max } = options.latency;
    app.use('*', async (_c, next) => {
      await new Promise((r) => setTimeout(r, min + Math.random() * (max - min)));
      await next();
    });
  }

  // Who is calling (for rate limits and for authorization later) and how much they
  // have left. Invalid credentials are simply not an identity here: public endpoints
  // ignore them, protected ones answer 401 in `authorize`.
  const identifyAndLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
    const now = state.now();
    const identity = auth.identify(c.req.raw.headers, now);
    c.set('identity', identity);
    c.set('now', now);
    const principal = identity.values().next().value as Principal | undefined;
    const key = principal?.id ?? `ip:${clientAddress(c.env, c.req.header('x-forwarded-for'), options.trustProxy)}`;
    const path = c.req.path.startsWith(basePath) ? c.req.path.slice(basePath.length) : c.req.path;
    const decision = state.rates.hit(key, principal?.scheme ?? 'anonymous', path, now);
    c.header('X-RateLimit-Limit', String(decision.limit));
    c.header('X-RateLimit-Remaining', String(decision.remaining));
    c.header('X-RateLimit-Reset', String(decision.reset));
    if (decision.retryAfter !== undefined && options.rateLimit) {
      return reply(c, undefined, 429, rateLimitedBody(decision.retryAfter), { 'Retry-After': String(decision.retryAfter) });
    }
    await next();
  };
  app.use('*', identifyAndLimit);

  app.use('*', limitBody(maxBodyBytes, (c, headers) => fail(c, 413, `the request body is over ${maxBodyBytes} bytes`, headers)));
  app.use(
    '*',
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        fail(c, 405, `${c.req.method} is not allowed on ${c.req.path}; use ${methods.join(', ')}`, { Allow: methods.join(', ') }),
    }),
  );

  mountDevRoutes(app, state, { cookieName: model.cookieName, reply: sendJson, fail, warn, dataset: { seed: options.seed, data: options.data } });
  mountDocs(app, { model, fixtures: state.fixtures, fail });
  mountApiIndex(app, model, sendJson);

  for (const { op, routePath, parseParams, validateBody } of ops) {
    const handler = handlers[op.operationId];
    if (!handler) throw new Error(`no handler for operationId '${op.operationId}'`);
    app.on(op.method, routePath, async (c) => {
      const now = c.get('now');
      const decision = auth.authorize(op, c.get('identity'));
      if (!decision.ok) {
        return reply(c, op, decision.status, {
          success: false,
          message: decision.status === 401 ? UNAUTHORIZED_MESSAGE : FORBIDDEN_MESSAGE,
        });
      }

      const prefer = parsePrefer(c.req.header('prefer'));
      if (prefer) {
        const code = prefer.code ?? op.responses.keys().next().value!;
        const declared = op.responses.get(code);
        if (!declared) {
          return fail(c, 400, `Prefer code=${code} is not a declared response of ${op.operationId} (declared: ${[...op.responses.keys()].join(', ')})`);
        }
        const example = declared.examples.get(prefer.example ?? 'default');
        if (example === undefined) {
          return fail(c, 400, `Prefer example=${prefer.example} is not an example of ${op.operationId}'s ${code} response (examples: ${[...declared.examples.keys()].filter((k) => k !== 'default').join(', ') || 'default'})`);
        }
        const headers = declared.headers.has('Retry-After') ? { 'Retry-After': '45' } : undefined;
        return reply(c, op, code, example, headers);
      }

      const url = c.req.url;
      const q = url.indexOf('?');
      const params = parseParams(q === -1 ? '' : url.slice(q + 1), c.req.param() as Record<string, string>);
      if (!params.ok) return fail(c, 400, params.message);

      let body: unknown;
      if (op.requestBody && validateBody) {
        const text = await c.req.text();
        if (text.trim() === '') {
          if (op.requestBody.required) return fail(c, 400, 'a JSON request body is required');
        } else {
          const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
          if (!op.requestBody.mediaTypes.includes(type)) {
            return reply(c, op, 415, errorBody(415, `send the body as ${op.requestBody.mediaTypes.join(' or ')}, not '${type || 'no content type'}'`));
          }
          try {
            body = JSON.parse(text);
          } catch (err) {
            return fail(c, 400, `the request body is not valid JSON: ${(err as Error).message}`);
          }
          if (!validateBody(body)) {
            return fail(c, 400, describeErrors(validateBody.errors?.slice(0, 1), 'body'));
          }
        }
      }

      const result = handler({ query: params.query, path: params.path, body, principal: decision.principal, state, now });
      return answer(c, op, result);
    });
  }

  app.notFound((c) => fail(c, 404, `no route for ${c.req.method} ${c.req.path}; the API lives under ${basePath} (GET ${basePath} lists every operation; docs at ${DOCS_PATH})`));
  app.onError((err, c) => {
    // The client went away while its body was being read (or sent a body the parser
    // refused): nobody is left to answer, and it is no bug of the mock.
    if ((err as NodeJS.ErrnoException).code === 'ECONNRESET') return fail(c, 400, 'the connection closed before the request body was complete');
    // A bug, never a crash: say so in the log and answer the spec's error body.
    console.error(`mock: ${c.req.method} ${c.req.path} failed:`, err);
    return sendJson(c, 500, errorBody(500, 'the mock failed to answer; see its log'));
  });

  return { app, state, model, basePath };
}
