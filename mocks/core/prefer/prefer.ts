// `Prefer: code=404, example=name` (as in Prism): answer one of the operation's declared
// responses with its example instead of calling the handler, so a frontend can see its
// error states on demand. It runs after authorize and the parameters: Prefer never gets
// a request past authentication (a protected operation is still 401 without
// credentials) or past a bad parameter. An example of the success body that counts rows
// (`total`, `filtered`: the properties the spec's `x-meaning` names as counts) carries
// the mock's own counts for the request, so `example=empty` on 1,000 servers does not
// claim 1,834 of them.
import type { Context, MiddlewareHandler } from 'hono';
import { countsOf } from '../../../spec/meaning.ts';
import type { Operation } from '../../../spec/model.ts';
import type { Answers } from '../answers.ts';
import type { AppEnv } from '../env.ts';
import { printable } from '../printable.ts';

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

/** The operation's real answer to this request (its handler's body), for its counts. */
export type LiveAnswer = (c: Context<AppEnv>) => unknown;

/** The success body's properties that count rows, by the spec's `x-meaning` of the operation's parameters. */
function countProperties(op: Operation): string[] {
  return [...new Set(op.parameters.flatMap((p) => (p.meaning ? countsOf(p.meaning) : [])))];
}

/** `example` with the counts of the live answer in place of its own (a count the live answer lacks is dropped). */
function withLiveCounts(example: unknown, counts: string[], live: unknown): unknown {
  if (!example || typeof example !== 'object' || Array.isArray(example) || !live || typeof live !== 'object')
    return example;
  const out: Record<string, unknown> = { ...(example as Record<string, unknown>) };
  for (const name of counts) {
    if (name in live) out[name] = (live as Record<string, unknown>)[name];
    else delete out[name];
  }
  return out;
}

/** A status or example the operation does not declare is 400, listing those it does. */
export function preferredAnswer(op: Operation, answers: Answers, live?: LiveAnswer): MiddlewareHandler<AppEnv> {
  const { reply, fail } = answers;
  const counts = live && op.method === 'GET' ? countProperties(op) : [];
  return (c, next) => {
    const prefer = parsePrefer(c.req.header('prefer'));
    if (!prefer) return next();
    const code = prefer.code ?? op.responses.keys().next().value!;
    const declared = op.responses.get(code);
    if (!declared) {
      return Promise.resolve(
        fail(
          c,
          400,
          `Prefer code=${printable(String(code))} is not a declared response of ${op.operationId} (declared: ${[...op.responses.keys()].join(', ')})`,
        ),
      );
    }
    const example = declared.examples.get(prefer.example ?? 'default');
    if (example === undefined) {
      const names = [...declared.examples.keys()].filter((k) => k !== 'default').join(', ') || 'default';
      return Promise.resolve(
        fail(
          c,
          400,
          `Prefer example=${printable(prefer.example ?? '')} is not an example of ${op.operationId}'s ${code} response (examples: ${names})`,
        ),
      );
    }
    const headers = declared.headers.has('Retry-After') ? { 'Retry-After': '45' } : undefined;
    const body = counts.length && code === op.successStatus ? withLiveCounts(example, counts, live!(c)) : example;
    return Promise.resolve(reply(c, op, code, body, headers));
  };
}
