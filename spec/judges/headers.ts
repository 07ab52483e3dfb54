// `headers`: an answer carries the headers its status declares (`X-RateLimit-*`,
// `Retry-After`), each with a value its schema allows (as it travels: "20" is an integer).
// One finding per answer, naming every header it lacks: a family of headers goes missing
// together and is one defect.
import type { Operation } from '../model.ts';
import { type Provenance, weakest } from '../provenance.ts';
import type { Exchange } from './exchange.ts';
import { judge, type JudgeContext } from './judge.ts';

/** A header an answer's status declares, its name as judges read it (lower case), its level on its operation. */
interface Declared {
  name: string;
  lower: string;
  schema: Record<string, any>;
  provenance: Provenance;
  /** The weaker of its operation's and its own provenance: the level it is judged at. */
  level: Provenance;
}

/** The headers each operation's status declares at each context's level, worked out once (asked per answer). */
const DECLARED = new WeakMap<JudgeContext, Map<Operation, Map<number, Declared[]>>>();

function declared(ex: Exchange, ctx: JudgeContext): Declared[] {
  const op = ctx.operation(ex);
  if (!op) return [];
  let byOp = DECLARED.get(ctx);
  if (!byOp) DECLARED.set(ctx, (byOp = new Map()));
  let byStatus = byOp.get(op);
  if (!byStatus) byOp.set(op, (byStatus = new Map()));
  const { status } = ex.answer;
  let list = byStatus.get(status);
  if (!list) {
    const headers = op.responses.get(status)?.headers;
    list = headers
      ? [...headers.values()]
          .map((h) => ({ ...h, lower: h.name.toLowerCase(), level: weakest(op.provenance, h.provenance) }))
          .filter((h) => ctx.wants(h.level))
      : [];
    // Bounded: the statuses an operation meets are few, but an upstream may send any.
    if (byStatus.size > 100) byStatus.clear();
    byStatus.set(status, list);
  }
  return list;
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
      const value = ex.answer.headers[h.lower];
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
        level: h.level,
        why:
          `${op.operationId} ${ex.answer.status}: header ${h.name} is ${JSON.stringify(value)}, which its ` +
          `schema does not allow`,
        defect: `header ${h.name} has a value its schema does not allow`,
        subject: { header: h.name },
      });
    }
    return out;
  },
});
