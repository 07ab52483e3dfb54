// `headers`: an answer carries the headers its status declares (`X-RateLimit-*`,
// `Retry-After`), each with a value its schema allows (as it travels: "20" is an integer).
// One finding per answer, naming every header it lacks: a family of headers goes missing
// together and is one defect.
import { weakest } from '../provenance.ts';
import type { Exchange } from './exchange.ts';
import { judge, type JudgeContext } from './judge.ts';

function declared(ex: Exchange, ctx: JudgeContext) {
  const op = ctx.operation(ex);
  const headers = op?.responses.get(ex.answer.status)?.headers;
  return op && headers ? [...headers.values()].filter((h) => ctx.wants(weakest(op.provenance, h.provenance))) : [];
}

export const headers = judge({
  name: 'headers',
  promise: 'every answer carries the headers its status declares, with values their schemas allow',
  applies: (ex, ctx) => declared(ex, ctx).length > 0,
  level: (ex, ctx) => weakest(ctx.operation(ex)!.provenance, ...declared(ex, ctx).map((h) => h.provenance)),
  judge: (ex, ctx) => {
    const op = ctx.operation(ex)!;
    const missing = [];
    const refused = [];
    for (const h of declared(ex, ctx)) {
      const value = ex.answer.headers[h.name.toLowerCase()];
      if (value === undefined) missing.push(h);
      else if (!ctx.schemas.accepts(h.schema, value)) refused.push({ h, value });
    }
    const out = [];
    if (missing.length) {
      const names = missing.map((h) => h.name);
      out.push({
        judge: 'headers',
        level: weakest(op.provenance, ...missing.map((h) => h.provenance)),
        why: `${op.operationId} ${ex.answer.status}: ${names.join(', ')} missing`,
        expected: `${names.join(', ')} on every ${ex.answer.status} answer`,
        defect: `response headers ${[...names].sort().join(', ')} missing`,
        subject: { header: names.join(', ') },
        evidence: { missingHeaders: names },
      });
    }
    for (const { h, value } of refused) {
      out.push({
        judge: 'headers',
        level: weakest(op.provenance, h.provenance),
        why: `${op.operationId} ${ex.answer.status}: header ${h.name} is ${JSON.stringify(value)}, which its schema does not allow`,
        defect: `header ${h.name} has a value its schema does not allow`,
        subject: { header: h.name },
      });
    }
    return out;
  },
});
