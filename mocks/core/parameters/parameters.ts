// An operation's parameters and body, read the way the spec declares them (ajv, compiled
// once in core/operations.ts: coercion, the schemas' defaults): a bad one is 400 naming
// it, a body of another media type 415. What passes is handed on as `params` and `body`.
import type { MiddlewareHandler } from 'hono';
import { errorBody } from '../../../spec/messages.ts';
import { describeErrors } from '../../../spec/validator.ts';
import type { Answers } from '../answers.ts';
import type { AppEnv } from '../env.ts';
import type { CompiledOperation } from '../operations.ts';

export function parameters(compiled: CompiledOperation, answers: Answers): MiddlewareHandler<AppEnv> {
  const { op, parseParams, validateBody } = compiled;
  const { reply, fail } = answers;
  return async (c, next) => {
    const url = c.req.url;
    const q = url.indexOf('?');
    const params = parseParams(q === -1 ? '' : url.slice(q + 1), c.req.param() as Record<string, string>);
    if (!params.ok) return fail(c, 400, params.message);
    c.set('params', params);

    if (op.requestBody && validateBody) {
      const text = await c.req.text();
      if (text.trim() === '') {
        if (op.requestBody.required) return fail(c, 400, 'a JSON request body is required');
      } else {
        const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
        if (!op.requestBody.mediaTypes.includes(type)) {
          return reply(c, op, 415, errorBody(415, `send the body as ${op.requestBody.mediaTypes.join(' or ')}, not '${type || 'no content type'}'`));
        }
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch (err) {
          return fail(c, 400, `the request body is not valid JSON: ${(err as Error).message}`);
        }
        if (!validateBody(body)) return fail(c, 400, describeErrors(validateBody.errors?.slice(0, 1), 'body'));
        c.set('body', body);
      }
    }
    return next();
  };
}
