// `schema`: the body of a status the operation declares matches the schema declared for
// it (cut to the judging level), every row of it included. Its errors are named without
// the row they were found in (`body.results.*.port must be integer`), so one field sent
// wrong on every row is one defect.
import { weakest } from '../provenance.ts';
import { formatsReplaced } from '../rules.ts';
import type { Exchange } from './exchange.ts';
import { judge, type JudgeContext } from './judge.ts';
import { asBody } from './schemas.ts';
import { leakOf, secretNames } from './secret-leak.ts';

/** The fields whose `format` a switch of the request replaced (`relativeTime=true`: relative text). */
export function unformattedBy(ex: Exchange, ctx: JudgeContext): string[] {
  const op = ctx.operation(ex);
  const values = ctx.read(ex).values;
  return op ? formatsReplaced(op, (name) => values.get(name)?.value) : [];
}

function level(ex: Exchange, ctx: JudgeContext) {
  const op = ctx.operation(ex)!;
  return weakest(op.provenance, ctx.schemas.bodyLevel(op, ex.answer.status) ?? 'assumed');
}

export const schema = judge({
  name: 'schema',
  promise: 'the body matches the schema its status declares',
  applies: (ex, ctx) => {
    const op = ctx.operation(ex);
    return (
      op !== undefined &&
      ex.request.method !== 'HEAD' &&
      ex.answer.json !== undefined &&
      ctx.schemas.bodyLevel(op, ex.answer.status) !== undefined
    );
  },
  level,
  judge: (ex, ctx) => {
    const op = ctx.operation(ex)!;
    const unformatted = unformattedBy(ex, ctx);
    const verdict = ctx.schemas.body(op, ex.answer.status, asBody(ex.answer), unformatted);
    if (!verdict.problems.length) return [];
    // Which rows broke it, for a reader that counts invalid rows (the suite's sample).
    const property = op.rows?.property;
    const rows = property
      ? [
          ...new Set(
            ctx.schemas
              .bodyErrors(op, ex.answer.status, ex.answer.json, unformatted)
              .flatMap((e) => new RegExp(`^/${property}/(\\d+)(?:/|$)`).exec(e.instancePath)?.[1] ?? [])
              .map(Number),
          ),
        ]
      : [];
    // A property the spec marks a secret where the spec says it must not be: what leaked, and where.
    const secrets = secretNames(ctx.model);
    const leaked = verdict.schemaErrors
      .map((e) => /^body\.(.+) must not be present$/.exec(e)?.[1])
      .find((path) => path !== undefined && secrets.has(path.split('.').at(-1)!));
    const leak = leaked ? leakOf(op, leaked) : undefined;
    return [
      {
        judge: 'schema',
        level: level(ex, ctx),
        why: `${op.operationId} ${ex.answer.status}: ${verdict.problems.join('; ')}`,
        defect: leak ?? `schema: ${verdict.schemaErrors[0] ?? 'the body'}`,
        evidence: { schemaErrors: verdict.schemaErrors, ...(rows.length ? { rows } : {}), ...(leak ? { leak } : {}) },
      },
    ];
  },
});
