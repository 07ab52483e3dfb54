// An operation's parameters and body, read the way the spec declares them (ajv, compiled
// once in core/operations.ts: coercion, the schemas' defaults): a bad one is 400 naming
// it, a body of another media type 415. What passes is handed on as `params` and `body`.
import type { ErrorObject } from 'ajv';
import type { Context, MiddlewareHandler } from 'hono';
import { errorBody } from '../../../spec/messages.ts';
import { describeErrors } from '../../../spec/validator.ts';
import type { Answers } from '../answers.ts';
import type { AppEnv } from '../env.ts';
import type { CompiledOperation } from '../operations.ts';
import { jsonProblem, printable } from '../printable.ts';

/** A property name the client made up, in an ajv error, as the mock repeats it. */
function printableNames(e: ErrorObject): ErrorObject {
  if (e.keyword !== 'additionalProperties') return e;
  return {
    ...e,
    params: { additionalProperty: printable(String((e.params as { additionalProperty: string }).additionalProperty)) },
  };
}

export function parameters(compiled: CompiledOperation, answers: Answers): MiddlewareHandler<AppEnv> {
  const { op, parseParams, validateBody } = compiled;
  const { reply, fail } = answers;
  /** The body, read and checked; a Response when it is refused. */
  const readBody = async (c: Context<AppEnv>): Promise<Response | undefined> => {
    const text = await c.req.text();
    c.set('bodyText', text);
    if (text.trim() === '') {
      if (!op.requestBody!.required) return undefined;
      c.set('refusedBy', 'schema');
      return fail(c, 400, 'a JSON request body is required');
    }
    const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!op.requestBody!.mediaTypes.includes(type)) {
      c.set('refusedBy', 'media-type');
      return reply(
        c,
        op,
        415,
        errorBody(
          415,
          `send the body as ${op.requestBody!.mediaTypes.join(' or ')}, not '` +
            `${type ? printable(type) : 'no content type'}'`,
        ),
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (err) {
      c.set('refusedBy', 'json');
      return fail(c, 400, `the request body is not valid JSON: ${jsonProblem(err)}`);
    }
    if (!validateBody!(body)) {
      c.set('refusedBy', 'schema');
      return fail(c, 400, describeErrors(validateBody!.errors?.slice(0, 1).map(printableNames), 'body'));
    }
    c.set('body', body);
    return undefined;
  };
  // Most operations take no body: they never wait for one.
  const hasBody = Boolean(op.requestBody && validateBody);
  return (c, next) => {
    const url = c.req.url;
    const q = url.indexOf('?');
    const params = parseParams(q === -1 ? '' : url.slice(q + 1), c.req.param() as Record<string, string>);
    if (params.unknown) c.set('unknownQuery', params.unknown);
    if (!params.ok) {
      c.set('refusedBy', 'refused-values');
      return Promise.resolve(fail(c, 400, params.message));
    }
    c.set('params', { query: params.query, path: params.path });
    if (!hasBody) return next();
    // biome-ignore lint/suspicious/noConfusingVoidType: Hono's middleware answers a Response or nothing (void)
    return readBody(c).then<Response | void>((refused) => refused ?? next());
  };
}
