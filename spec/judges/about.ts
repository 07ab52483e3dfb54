// `about`: an answer about one thing is about the thing asked for. The sender says which
// object of the body names it and what it must hold (a ping of `1.2.3.4:25565` answers a
// `server` whose address and port are those); text compares in any case (host names do).
import type { Exchange } from './exchange.ts';
import { judge, type JudgeContext } from './judge.ts';

const level = (ex: Exchange, ctx: JudgeContext) => ctx.operation(ex)?.provenance ?? 'assumed';

function same(a: unknown, b: unknown): boolean {
  return typeof a === 'string' && typeof b === 'string' ? a.toLowerCase() === b.toLowerCase() : a === b;
}

export const about = judge({
  name: 'about',
  promise: 'an answer about one thing is about the thing asked for',
  applies: (ex) => ex.known?.about !== undefined && ex.answer.status < 300,
  level,
  judge: (ex, ctx) => {
    const { field, values } = ex.known!.about!;
    const object = (ex.answer.json as Record<string, unknown> | undefined)?.[field] as
      | Record<string, unknown>
      | undefined;
    // An answer without that object is the schema's to report.
    if (!object || typeof object !== 'object') return [];
    const differs = Object.entries(values).filter(([k, v]) => object[k] !== undefined && !same(object[k], v));
    if (!differs.length) return [];
    const asked = Object.values(values).join(':');
    const got = Object.keys(values)
      .map((k) => String(object[k]))
      .join(':');
    return [
      {
        judge: 'about',
        level: level(ex, ctx),
        why: `the answer is about ${got}, not ${asked}`,
        expected: `${field} ${asked}`,
        defect: `the ${field} answered is not the one asked for`,
        subject: { field },
      },
    ];
  },
});
