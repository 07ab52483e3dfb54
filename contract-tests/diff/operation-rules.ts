// Changes to operations as a whole: added or removed (paths and methods), renamed,
// deprecated, and who may call them: the security requirement, `x-permission` and
// `x-credentials`, as spec/model.ts reads them.
import type { Change } from './change.ts';
import type { Context, Group, Matcher } from './match.ts';
import type { View } from './view.ts';

const keysOf = (v: unknown): string[] => (v && typeof v === 'object' ? Object.keys(v) : []);

function added(group: Group, ctx: Context): Change[] {
  return group.differences.map((d) => {
    const where = 'the operation';
    if (d.type === 'CREATE') {
      return ctx.change('endpoint-added', { at: group.at, where, message: `${d.value.operationId} added` });
    }
    const deprecated = Boolean(d.oldValue.deprecated);
    return ctx.change(deprecated ? 'api-removed-with-deprecation' : 'api-removed-without-deprecation', {
      at: group.at,
      where,
      message: `${d.oldValue.operationId} removed`,
      touches: [{ operationId: d.oldValue.operationId }],
    });
  });
}

function security(group: Group, ctx: Context): Change[] {
  const route = String(group.at[1]);
  const operationId = ctx.operationIdAt(route);
  const before = keysOf(group.before);
  const after = keysOf(group.after);
  const out: Change[] = [];
  for (const alt of before.filter((a) => !after.includes(a))) {
    out.push(
      ctx.change(alt === '(none)' ? 'api-became-protected' : 'api-security-removed', {
        at: group.at,
        where: `${route} security`,
        message: alt === '(none)' ? `now needs ${after.join(' or ')}` : `${alt} no longer admits callers`,
        touches: [{ operationId, credential: ctx.credentialKind(alt) }],
      }),
    );
  }
  for (const alt of after.filter((a) => !before.includes(a))) {
    out.push(
      ctx.change(alt === '(none)' ? 'api-became-public' : 'api-security-added', {
        at: group.at,
        where: `${route} security`,
        message: alt === '(none)' ? 'anyone may call it' : `${alt} now admits callers`,
      }),
    );
  }
  return out;
}

function permission(group: Group, ctx: Context): Change[] {
  const route = String(group.at[1]);
  const operationId = ctx.operationIdAt(route);
  const [d] = group.differences;
  const rule =
    d!.type === 'CREATE'
      ? 'api-permission-added'
      : d!.type === 'REMOVE'
        ? 'api-permission-removed'
        : 'api-permission-changed';
  return [
    ctx.change(rule, {
      at: group.at,
      where: `${route} x-permission`,
      message: `${group.before ?? '(none)'} -> ${group.after ?? '(none)'}`,
      before: group.before,
      after: group.after,
      touches: d!.type === 'REMOVE' ? [] : [{ operationId }],
    }),
  ];
}

/**
 * `x-credentials`, among the schemes the operation admits in both versions (a scheme added or removed is security's).
 */
function credentials(group: Group, ctx: Context): Change[] {
  const route = String(group.at[1]);
  const op = (v: View) => v.operations[route];
  const schemesOf = (o: View | undefined) => new Set(keysOf(o?.security).flatMap((a) => a.split('+')));
  const inBoth = [...schemesOf(op(ctx.base.view))].filter((s) => schemesOf(op(ctx.head.view)).has(s));
  const before = keysOf(group.before);
  const after = keysOf(group.after);
  const operationId = ctx.operationIdAt(route);
  const out: Change[] = [];
  for (const s of inBoth.filter((s) => before.includes(s) && !after.includes(s)))
    out.push(
      ctx.change('api-credentials-narrowed', {
        at: group.at,
        where: `${route} x-credentials`,
        message: `valid ${s} credentials may no longer perform it`,
        touches: [{ operationId, credential: ctx.credentialKind(s) }],
      }),
    );
  for (const s of inBoth.filter((s) => !before.includes(s) && after.includes(s)))
    out.push(
      ctx.change('api-credentials-widened', {
        at: group.at,
        where: `${route} x-credentials`,
        message: `valid ${s} credentials may now perform it`,
      }),
    );
  return out;
}

function renamedOrDeprecated(group: Group, ctx: Context): Change[] {
  const route = String(group.at[1]);
  const key = String(group.at[2]);
  const [d] = group.differences;
  if (key === 'operationId')
    return [
      ctx.change('api-operation-id-updated', {
        at: group.at,
        where: route,
        message: `operationId ${d!.oldValue} -> ${d!.value}`,
        before: d!.oldValue,
        after: d!.value,
      }),
    ];
  const now = d!.type !== 'REMOVE' && d!.value === true;
  return [
    ctx.change(now ? 'endpoint-deprecated' : 'endpoint-reactivated', {
      at: group.at,
      where: route,
      message: now ? 'deprecated' : 'no longer deprecated',
    }),
  ];
}

export const OPERATION_RULES: Matcher[] = [
  { pattern: ['operations', '*'], handle: added },
  { pattern: ['operations', '*', 'operationId'], handle: renamedOrDeprecated },
  { pattern: ['operations', '*', 'deprecated'], handle: renamedOrDeprecated },
  { pattern: ['operations', '*', 'security', '**'], handle: security },
  { pattern: ['operations', '*', 'x-permission'], handle: permission },
  { pattern: ['operations', '*', 'credentials', '**'], handle: credentials },
];
