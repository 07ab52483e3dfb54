// `error-body`: every 4xx and 5xx answer is the spec's one error body,
// `{"success": false, "message": "..."}`, its message starting with the status's reason
// phrase ("Not Found: ...", ErrorBody.message says so; 429 carries the real service's own
// text). A status the operation declares is held to its declared schema by `schema`;
// this judge holds the others (404 of an unknown path, 405, 413, 429...) to the error
// body, and every error to the reason phrase, which no schema states.
import { reasonPhrase } from '../messages.ts';
import { weakest } from '../provenance.ts';
import type { Exchange } from './exchange.ts';
import { judge, type JudgeContext } from './judge.ts';
import { asBody } from './schemas.ts';
import { routeLevel } from './server-error.ts';

function level(ex: Exchange, ctx: JudgeContext) {
  return weakest(routeLevel(ex, ctx), ctx.schemas.errorBodyLevel() ?? 'assumed');
}

export const errorBody = judge({
  name: 'error-body',
  promise: 'every error answer is the error body, its message starting with the reason phrase',
  applies: (ex, ctx) =>
    ex.answer.status >= 400 &&
    ex.answer.json !== undefined &&
    ctx.read(ex).route.kind !== 'outside-api' &&
    ctx.schemas.errorBodyLevel() !== undefined,
  level,
  judge: (ex, ctx) => {
    const { status, json } = ex.answer;
    const base = { judge: 'error-body', level: level(ex, ctx) };
    const op = ctx.operation(ex);
    if (!op?.responses.has(status)) {
      const verdict = ctx.schemas.errorBody(asBody(ex.answer));
      if (verdict.problems.length) {
        return [
          {
            ...base,
            why: `${status}: ${verdict.problems.join('; ')}`,
            defect: `schema: ${verdict.schemaErrors[0] ?? 'the error body'}`,
            evidence: { schemaErrors: verdict.schemaErrors },
          },
        ];
      }
    }
    const message = (json as { message?: unknown }).message;
    if (status === 429 || typeof message !== 'string' || message.startsWith(reasonPhrase(status))) return [];
    return [
      {
        ...base,
        why: `${status} message does not start with "${reasonPhrase(status)}": ${JSON.stringify(message)}`,
        expected: `a message starting with "${reasonPhrase(status)}"`,
        defect: 'error messages do not start with their status reason phrase',
      },
    ];
  },
});
