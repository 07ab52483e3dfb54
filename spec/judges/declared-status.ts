// `declared-status`: an operation answers a status it declares. Any request may get a 4xx
// the operation does not list (400, 413, 429, ...: the routing and the limits of the whole
// document), but a success it does not declare is a drift, and a 404 from a route the spec
// has, which declares no 404 of its own, says the route is missing. A 304 to a conditional
// GET (If-None-Match) is HTTP's answer to the client's cache, declared or not.
import type { Exchange } from './exchange.ts';
import { judge, type JudgeContext } from './judge.ts';
import { notModified } from './owed-status.ts';

export const declaredStatus = judge({
  name: 'declared-status',
  promise: 'a status the operation declares',
  applies: (ex, ctx) => ctx.operation(ex) !== undefined,
  level: (ex: Exchange, ctx: JudgeContext) => ctx.operation(ex)!.provenance,
  judge: (ex, ctx) => {
    const op = ctx.operation(ex)!;
    const { status } = ex.answer;
    // A 304 to a conditional request is the client's cache's, not the operation's.
    if (op.responses.has(status) || notModified(ex)) return [];
    const base = { judge: 'declared-status', level: op.provenance, evidence: { expectedStatus: op.successStatus } };
    if (status < 400) {
      return [
        {
          ...base,
          why: `${op.operationId} does not declare ${status}`,
          expected: `one of ${[...op.responses.keys()].join(', ')}`,
          defect: `answers ${status}, which the operation does not declare`,
        },
      ];
    }
    if (status !== 404) return [];
    return [
      {
        ...base,
        why: `status 404, which ${op.method} ${op.path} does not declare: the route is missing`,
        expected: `${op.successStatus} as the spec says`,
        defect: 'a route of the spec answers 404',
      },
    ];
  },
});
