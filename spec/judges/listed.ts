// `listed` and `secrets`: what the sender knows must, or must not, be in an answer. A key
// it just created is in the list and one it just revoked is gone (`known.listed`, by a
// field of the rows such as `id`); a secret it holds (a key it created) is in no answer
// but the one that created it (`known.secrets`).
import type { Exchange } from './exchange.ts';
import { judge, type JudgeContext } from './judge.ts';
import { leakOf, pathOf } from './secret-leak.ts';

function listedRows(ex: Exchange, ctx: JudgeContext): Record<string, unknown>[] | undefined {
  const op = ctx.operation(ex);
  const rows = op?.rows && (ex.answer.json as Record<string, unknown> | undefined)?.[op.rows.property];
  return Array.isArray(rows)
    ? rows.filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object')
    : undefined;
}

export const listed = judge({
  name: 'listed',
  promise: 'a created key is listed, a revoked one is gone',
  applies: (ex, ctx) => ex.known?.listed !== undefined && ex.answer.status < 300 && listedRows(ex, ctx) !== undefined,
  level: (ex, ctx) => ctx.operation(ex)!.provenance,
  judge: (ex, ctx) => {
    const op = ctx.operation(ex)!;
    const { field, present = [], absent = [] } = ex.known!.listed!;
    const ids = new Set(listedRows(ex, ctx)!.map((r) => String(r[field])));
    const base = { judge: 'listed', level: op.provenance, subject: { field: `${op.rows!.property}.*.${field}` } };
    return [
      ...present
        .filter((id) => !ids.has(id))
        .map((id) => ({
          ...base,
          why: `${id} is missing from the list`,
          defect: 'a created item is missing from the list',
        })),
      ...absent
        .filter((id) => ids.has(id))
        .map((id) => ({ ...base, why: `${id} is still listed`, defect: 'a removed item is still listed' })),
    ];
  },
});

export const secrets = judge({
  name: 'secrets',
  promise: 'a secret is in no answer but the one that created it',
  applies: (ex) => (ex.known?.secrets?.length ?? 0) > 0,
  level: (ex, ctx) => ctx.operation(ex)?.provenance ?? 'assumed',
  judge: (ex, ctx) => {
    const leaked = ex.known!.secrets!.filter((s) => ex.answer.text.includes(s));
    if (!leaked.length) return [];
    const op = ctx.operation(ex);
    // Where it sits says what leaked: the same words as the schema's, when the spec says it must not be there.
    const path = pathOf(ex.answer.json, leaked[0]!);
    const leak = op && path ? leakOf(op, path) : undefined;
    return [
      {
        judge: 'secrets',
        level: op?.provenance ?? 'assumed',
        why:
          `the answer carries ${leaked.length} secret${leaked.length === 1 ? '' : 's'} the suite created (a key's ` +
          `secret${path ? `, at ${path}` : ''})`,
        expected: 'no secret but in the answer that created it',
        defect: leak ?? "a key's secret shows again after it was created",
        ...(leak ? { evidence: { leak } } : {}),
      },
    ];
  },
});
