// The numbers and statuses only this spec states, as extensions the mock and the suite
// read (spec/model.ts `limits`, `routing`): `x-max-*` limits, `x-rate-limits`,
// `x-routing`, and any other `x-` value (a default port, a window in days); the base
// path, the security schemes, and `x-provenance` wherever it changed.
import type { Change, Touch } from './change.ts';
import { same, type Context, type Group, type Matcher, type Path } from './match.ts';

const show = (v: unknown): string => (v === undefined ? '(none)' : JSON.stringify(v));
const keysOf = (v: unknown): string[] => (v && typeof v === 'object' ? Object.keys(v) : []);

/** An `x-max-*` value, a number or a number per plan: lower is tighter (for the clients it limits). */
function limitChanges(
  ctx: Context,
  at: Path,
  where: string,
  before: unknown,
  after: unknown,
  touches: Touch[],
): Change[] {
  if (typeof before === 'number' || typeof after === 'number' || before === undefined || after === undefined) {
    if (typeof before === 'object' || typeof after === 'object')
      return keysOf(before ?? after).flatMap((k) =>
        limitChanges(ctx, [...at, k], `${where}.${k}`, (before as any)?.[k], (after as any)?.[k], touches),
      );
    const lower = after === undefined ? false : before === undefined ? true : (after as number) < (before as number);
    return [
      ctx.change(lower ? 'limit-decreased' : 'limit-increased', {
        at,
        where,
        message: `${show(before)} -> ${show(after)}`,
        before,
        after,
        touches,
      }),
    ];
  }
  return [...new Set([...keysOf(before), ...keysOf(after)])]
    .filter((k) => !same((before as any)?.[k], (after as any)?.[k]))
    .flatMap((k) => limitChanges(ctx, [...at, k], `${where}.${k}`, (before as any)?.[k], (after as any)?.[k], touches));
}

/** The `x-` extensions of one part (an operation's, a parameter's), each compared on its own. */
export function extensionChanges(group: Group, ctx: Context, where: string, touches: Touch[]): Change[] {
  const names = [...new Set([...keysOf(group.before), ...keysOf(group.after)])];
  return names.flatMap((name) => {
    const before = group.before?.[name];
    const after = group.after?.[name];
    if (same(before, after)) return [];
    const at = [...group.at, name];
    if (name.startsWith('x-max-')) return limitChanges(ctx, at, `${where} ${name}`, before, after, touches);
    return [
      ctx.change('extension-changed', {
        at,
        where: `${where} ${name}`,
        message: `${show(before)} -> ${show(after)}`,
        before,
        after,
        touches,
      }),
    ];
  });
}

function bodyBytes(group: Group, ctx: Context): Change[] {
  return limitChanges(
    ctx,
    group.at,
    'x-max-body-bytes',
    group.before,
    group.after,
    ctx.everyOperation((_, op) => Boolean(op.requestBody)),
  );
}

/** Each tier's limit per window, and each path group's: fewer requests allowed is tighter for clients. */
function rateLimits(group: Group, ctx: Context): Change[] {
  const out: Change[] = [];
  const compare = (path: string[], where: string, touches: () => Touch[]) => {
    const before = path.reduce<any>((n, k) => n?.[k], group.before);
    const after = path.reduce<any>((n, k) => n?.[k], group.after);
    for (const key of new Set([...keysOf(before), ...keysOf(after)])) {
      const from = before?.[key];
      const to = after?.[key];
      if (same(from, to)) continue;
      if (typeof from === 'object' || typeof to === 'object') {
        compare([...path, key], `${where} ${key}`, touches);
        continue;
      }
      const rule =
        from === undefined
          ? 'rate-limit-added'
          : to === undefined
            ? 'rate-limit-removed'
            : to < from
              ? 'rate-limit-decreased'
              : 'rate-limit-increased';
      out.push(
        ctx.change(rule, {
          at: [...group.at, ...path, key],
          where: `${where} ${key}`,
          message: `${show(from)} -> ${show(to)} requests`,
          before: from,
          after: to,
          touches: rule === 'rate-limit-removed' || rule === 'rate-limit-increased' ? [] : touches(),
        }),
      );
    }
  };
  for (const tier of new Set([...keysOf(group.before?.tiers), ...keysOf(group.after?.tiers)]))
    compare(['tiers', tier], `x-rate-limits tier ${tier}`, () =>
      ctx.everyOperation().map((t) => ({ ...t, credential: ctx.credentialKind(tier) })),
    );
  for (const prefix of new Set([...keysOf(group.before?.groups), ...keysOf(group.after?.groups)]))
    compare(['groups', prefix], `x-rate-limits group ${prefix}`, () =>
      ctx.everyOperation((route) => route.split(' ')[1]!.startsWith(prefix)),
    );
  return out;
}

function routing(group: Group, ctx: Context): Change[] {
  return group.differences.map((d) =>
    ctx.change('routing-status-changed', {
      at: group.at,
      where: `x-routing ${group.at.at(-1)}`,
      message: `${show(d.oldValue)} -> ${show(d.value)}`,
      before: d.oldValue,
      after: d.value,
    }),
  );
}

function basePath(group: Group, ctx: Context): Change[] {
  return [
    ctx.change('base-path-changed', {
      at: group.at,
      where: 'base path (servers[0].url)',
      message: `${show(group.before)} -> ${show(group.after)}`,
      before: group.before,
      after: group.after,
      touches: ctx.everyOperation(),
    }),
  ];
}

function schemes(group: Group, ctx: Context): Change[] {
  const name = String(group.at[1]);
  const d = group.differences[0]!;
  if (group.before === undefined || group.after === undefined)
    return [
      ctx.change(group.after === undefined ? 'api-security-component-removed' : 'api-security-component-added', {
        at: group.at,
        where: `security scheme ${name}`,
        message: group.after === undefined ? 'removed' : 'declared',
      }),
    ];
  return [
    ctx.change('api-security-component-changed', {
      at: [...group.at, ...d.path],
      where: `security scheme ${name}`,
      message: group.differences.map((x) => `${x.path.join('.')} ${show(x.oldValue)} -> ${show(x.value)}`).join('; '),
      touches: ctx.everyOperation().map((t) => ({ ...t, credential: group.before.kind })),
    }),
  ];
}

function provenance(group: Group, ctx: Context): Change[] {
  return group.differences.map((d) => {
    const owner = d.path.slice(0, -1);
    const where = owner[0] === 'operations' ? owner.slice(1).join(' ') : owner.join(' ') || 'the document';
    return ctx.change('provenance-changed', {
      at: d.path,
      where,
      message: `x-provenance ${d.oldValue ?? '(none)'} -> ${d.value ?? '(none)'}`,
      before: d.oldValue,
      after: d.value,
    });
  });
}

/** Claims `x-provenance` wherever it is, before any other rule reads the path. */
export const PROVENANCE_RULE: Matcher = {
  pattern: ['**'],
  when: (path) => path.at(-1) === 'x-provenance',
  handle: provenance,
};

export const LIMIT_RULES: Matcher[] = [
  { pattern: ['basePath'], handle: basePath },
  { pattern: ['schemes', '*', '**'], handle: schemes },
  { pattern: ['limits', 'x-max-body-bytes'], handle: bodyBytes },
  { pattern: ['limits', 'x-rate-limits', '**'], handle: rateLimits },
  { pattern: ['limits', 'x-routing', '*'], handle: routing },
];
