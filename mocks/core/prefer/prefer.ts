// `Prefer: code=404, example=name` (as in Prism): answer one of the operation's declared
// responses with its example instead of calling the handler, so a frontend can see its
// error states on demand. It runs after authorize: Prefer never gets a request past
// authentication (a protected operation is still 401 without credentials).
import type { MiddlewareHandler } from 'hono';
import type { Operation } from '../../../spec/model.ts';
import type { Answers } from '../answers.ts';
import type { AppEnv } from '../env.ts';

/** The header's `code` and `example`; undefined when it names neither. */
export function parsePrefer(header: string | undefined): { code?: number; example?: string } | undefined {
  if (!header) return undefined;
  const out: { code?: number; example?: string } = {};
  for (const part of header.split(/[,;]/)) {
    const [k, v] = part.split('=').map((s) => s?.trim());
    if (k === 'code' && v) out.code = Number(v);
    if (k === 'example' && v) out.example = v.replace(/^"|"$/g, '');
  }
  return out.code === undefined && out.example === undefined ? undefined : out;
}

/** A status or example the operation does not declare is 400, listing those it does. */
export function preferredAnswer(op: Operation, answers: Answers): MiddlewareHandler<AppEnv> {
  const { reply, fail } = answers;
  return (c, next) => {
    const prefer = parsePrefer(c.req.header('prefer'));
    if (!prefer) return next();
    const code = prefer.code ?? op.responses.keys().next().value!;
    const declared = op.responses.get(code);
    if (!declared) {
      return Promise.resolve(fail(c, 400, `Prefer code=${code} is not a declared response of ${op.operationId} (declared: ${[...op.responses.keys()].join(', ')})`));
    }
    const example = declared.examples.get(prefer.example ?? 'default');
    if (example === undefined) {
      const names = [...declared.examples.keys()].filter((k) => k !== 'default').join(', ') || 'default';
      return Promise.resolve(fail(c, 400, `Prefer example=${prefer.example} is not an example of ${op.operationId}'s ${code} response (examples: ${names})`));
    }
    const headers = declared.headers.has('Retry-After') ? { 'Retry-After': '45' } : undefined;
    return Promise.resolve(reply(c, op, code, example, headers));
  };
}
