// The one way the mock writes an answer: JSON with the spec's content type. Under
// `--self-check` every answer is first held against the spec (self-check/), so a
// handler that drifts answers 500 and says so instead of teaching clients a wrong shape.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { errorBody } from '../../spec/messages.ts';
import type { Operation } from '../../spec/model.ts';
import type { RuntimeBindings } from './env.ts';
import { printable } from './printable.ts';
import type { ResponseChecker } from './self-check/self-check.ts';

export type Headers = Record<string, string | string[]>;

/**
 * What every answer says besides its content, the app's and those the Node adapter writes
 * itself (mocks/node/protocol-errors.ts): a browser must not guess HTML or script in a
 * JSON body that repeats client text (`nosniff`), and no site may frame a page of the
 * mock (the docs page, whose buttons log in), by today's rule and by the older one.
 */
export const EVERY_ANSWER_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
};

/** What a handler answers (handlers/). */
export interface HandlerResult {
  status: number;
  body?: unknown;
  /** The body already serialised (UTF-8 bytes or text), for hot paths that build JSON from cached rows. */
  json?: string | Uint8Array;
}

export interface Answers {
  /** `body` as the answer of `op` (undefined: a request that reached no operation). */
  reply(c: Context, op: Operation | undefined, status: number, body: unknown, headers?: Headers): Response;
  /** The spec's error body, `detail` in its message. */
  fail(c: Context, status: number, detail?: string, headers?: Headers): Response;
  /** A handler's answer; a pre-serialised one (the search's fast path) is parsed only to self-check it. */
  handled(c: Context, op: Operation, result: HandlerResult): Response;
}

/** JSON with the spec's content type; a header given as a list is one line per value (two Set-Cookie lines, say). */
export function sendJson(c: Context, status: number, body: unknown, headers?: Headers): Response {
  c.header('Content-Type', 'application/json');
  if (headers)
    for (const [k, v] of Object.entries(headers)) for (const one of [v].flat()) c.header(k, one, { append: true });
  return whole(c, JSON.stringify(body), status);
}

/** The message of an error body, kept on the request for the journal (mocks/core/journal/). */
export function noteWhy(c: Context, body: unknown): void {
  const message = (body as { message?: unknown } | null)?.message;
  if (typeof message === 'string') c.set('why', message);
}

/**
 * A body whole in hand, as the runtime takes it best: on a socket as it is (node's adapter
 * writes a string or bytes at once), in process as `RuntimeBindings.heldBody` makes it.
 */
function whole(c: Context, body: string | Uint8Array, status: number): Response {
  const held = (c.env as RuntimeBindings | undefined)?.heldBody?.(body) ?? body;
  return c.body(held as string | Uint8Array<ArrayBuffer> | ReadableStream, status as ContentfulStatusCode);
}

export function createAnswers(checker: ResponseChecker | undefined): Answers {
  const reply: Answers['reply'] = (c, op, status, body, headers) => {
    // An error's message is what the journal shows as its why.
    if (status >= 400) noteWhy(c, body);
    const drift = checker?.check(op, status, body, {
      method: c.req.method,
      path: c.req.path,
      query: new URL(c.req.url).searchParams,
    });
    if (drift) {
      console.error(`MOCK DRIFT: ${printable(c.req.method)} ${printable(c.req.path)} -> ${status}: ${drift}`);
      return sendJson(c, 500, errorBody(500, `mock answer drifted from the spec: ${drift}`));
    }
    return sendJson(c, status, body, headers);
  };
  return {
    reply,
    fail: (c, status, detail, headers) => reply(c, undefined, status, errorBody(status, detail), headers),
    handled(c, op, result) {
      if (result.json === undefined) return reply(c, op, result.status, result.body);
      if (checker) {
        const text = typeof result.json === 'string' ? result.json : Buffer.from(result.json).toString('utf8');
        return reply(c, op, result.status, JSON.parse(text));
      }
      c.header('Content-Type', 'application/json');
      // Bytes in hand: their length is said here, so no adapter reads the body again to learn it.
      if (typeof result.json !== 'string') c.header('Content-Length', String(result.json.byteLength));
      return whole(c, result.json, result.status);
    },
  };
}
