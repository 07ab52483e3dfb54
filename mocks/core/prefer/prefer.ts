// `Prefer: code=404, example=name` (as in Prism): answer one of the operation's declared
// responses with its example instead of calling the handler, so a frontend can see its
// error states on demand. It runs after authorize and the parameters: Prefer never gets
// a request past authentication (a protected operation is still 401 without
// credentials) or past a bad parameter. An example of the success body that counts rows
// (`total`, `filtered`: the properties the spec's `x-meaning` names as counts) counts its
// own rows, so `example=empty` says 0 of 0, not 0 of the spec's 1,834 (consistentExample).
import type { MiddlewareHandler } from 'hono';
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

/** The success body's properties that count rows, by the spec's `x-meaning` of the operation's parameters. */
function countProperties(op: Operation): string[] {
  return [...new Set(op.parameters.flatMap((p) => (p.meaning ? countsOf(p.meaning) : [])))];
}

/**
 * An example of `op`'s answer made consistent with itself for this request: its counts (what
 * the spec's `x-meaning` names as counts: `total`, `filtered`, `unique_versions`) are those of
 * its own rows, as if they were the whole listing. An empty listing counts 0; a page of one
 * row counts 1; a count of hidden rows (`filtered`, revealed by `noFilter`) is 0, or absent
 * when the request reveals them, as the operation answers then. An example without rows, or
 * another status's, is as the spec writes it.
 */
export function consistentExample(
  op: Operation,
  status: number,
  example: unknown,
  query?: Record<string, unknown>,
): unknown {
  const rows = op.rows?.property;
  if (status !== op.successStatus || !rows || !example || typeof example !== 'object' || Array.isArray(example))
    return example;
  const listed = (example as Record<string, unknown>)[rows];
  if (!Array.isArray(listed)) return example;
  const out: Record<string, unknown> = { ...(example as Record<string, unknown>) };
  const hidden = new Set<string>();
  for (const p of op.parameters) {
    if (p.meaning?.rule !== 'revealsHidden') continue;
    hidden.add(p.meaning.hidden);
    if (query?.[p.name] === true) delete out[p.meaning.hidden];
  }
  for (const name of countProperties(op)) if (name in out) out[name] = hidden.has(name) ? 0 : listed.length;
  return out;
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
      c.set('refusedBy', 'prefer');
      return Promise.resolve(
        fail(
          c,
          400,
          `Prefer code=${printable(String(code))} is not a declared response of ${op.operationId} (declared: ` +
            `${[...op.responses.keys()].join(', ')})`,
        ),
      );
    }
    const example = declared.examples.get(prefer.example ?? 'default');
    if (example === undefined) {
      c.set('refusedBy', 'prefer');
      const names = [...declared.examples.keys()].filter((k) => k !== 'default').join(', ') || 'default';
      return Promise.resolve(
        fail(
          c,
          400,
          `Prefer example=${printable(prefer.example ?? '')} is not an example of ${op.operationId}'s ${code} ` +
            `response (examples: ${names})`,
        ),
      );
    }
    const headers = declared.headers.has('Retry-After') ? { 'Retry-After': '45' } : undefined;
    return Promise.resolve(reply(c, op, code, consistentExample(op, code, example, c.get('params')?.query), headers));
  };
}
