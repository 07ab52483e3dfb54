// `true-when`: a boolean property marked `x-true-when: {other: value}` in the body's
// schema is true exactly when its sibling `other` holds `value` (PingResponse.refresh is
// true exactly when status is `refreshing`). Read off the declared schema of the answer's
// status, top-level properties.
import { deref } from '../load.ts';
import { objectProperties } from '../model.ts';
import { weakest } from '../provenance.ts';
import { provenanceOf } from '../provenance.ts';
import type { Exchange } from './exchange.ts';
import { judge, type JudgeContext } from './judge.ts';

interface Rule {
  property: string;
  other: string;
  value: unknown;
  level: ReturnType<typeof weakest>;
}

const cache = new WeakMap<object, Rule[]>();

function rulesOf(ex: Exchange, ctx: JudgeContext): Rule[] {
  const op = ctx.operation(ex);
  const schema = op?.responses.get(ex.answer.status)?.schema;
  if (!op || !schema || typeof schema !== 'object') return [];
  let rules = cache.get(schema);
  if (!rules) {
    rules = [];
    for (const [property, raw] of objectProperties(ctx.model.doc, schema)) {
      const prop = deref<Record<string, any>>(ctx.model.doc, raw);
      const when = prop?.['x-true-when'] as Record<string, unknown> | undefined;
      for (const [other, value] of Object.entries(when ?? {})) {
        rules.push({ property, other, value, level: weakest(op.provenance, provenanceOf(prop)) });
      }
    }
    cache.set(schema, rules);
  }
  return rules.filter((r) => ctx.wants(r.level));
}

export const trueWhen = judge({
  name: 'true-when',
  promise: 'a field marked x-true-when is true exactly when its sibling holds the value',
  applies: (ex, ctx) => ex.answer.json !== undefined && rulesOf(ex, ctx).length > 0,
  level: (ex, ctx) => weakest(...rulesOf(ex, ctx).map((r) => r.level)),
  judge: (ex, ctx) => {
    const body = ex.answer.json as Record<string, unknown>;
    return rulesOf(ex, ctx).flatMap((r) => {
      const flag = body?.[r.property];
      const other = body?.[r.other];
      if (typeof flag !== 'boolean' || other === undefined || flag === (other === r.value)) return [];
      return [
        {
          judge: 'true-when',
          level: r.level,
          why: `${r.property} is ${flag} while ${r.other} is ${JSON.stringify(other)}`,
          expected: `${r.property} true exactly when ${r.other} is ${JSON.stringify(r.value)}`,
          defect: `${r.property} does not follow ${r.other}`,
          subject: { field: r.property },
          // The same field wherever it is answered (both pings): one defect.
          acrossSubjects: true,
        },
      ];
    });
  },
});
