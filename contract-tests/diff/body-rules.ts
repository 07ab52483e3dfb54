// Changes to what goes over the wire besides parameters: the request body (required,
// media types, its schema), the declared responses (statuses, media types, headers, body
// schemas), and an operation's own `x-` limits.
import type { Change } from './change.ts';
import { extensionChanges } from './limit-rules.ts';
import type { Context, Group, Matcher } from './match.ts';
import { schemaChanges } from './schema-rules.ts';

const routeOf = (group: Group) => String(group.at[1]);
const touchOf = (group: Group, ctx: Context) => ({ operationId: ctx.operationIdAt(routeOf(group)) });

function body(group: Group, ctx: Context): Change[] {
  const d = group.differences[0]!;
  const where = `${routeOf(group)} request body`;
  if (d.type === 'CREATE') {
    const required = Boolean(d.value.required);
    return [
      ctx.change(required ? 'request-body-added-required' : 'request-body-added-optional', {
        at: group.at,
        where,
        message: `${required ? 'required' : 'optional'} body added`,
        touches: required ? [touchOf(group, ctx)] : [],
      }),
    ];
  }
  return [
    ctx.change('request-body-removed', { at: group.at, where, message: 'removed', touches: [touchOf(group, ctx)] }),
  ];
}

function bodyRequired(group: Group, ctx: Context): Change[] {
  const now = group.after === true;
  return [
    ctx.change(now ? 'request-body-became-required' : 'request-body-became-optional', {
      at: group.at,
      where: `${routeOf(group)} request body`,
      message: now ? 'became required' : 'became optional',
      touches: now ? [touchOf(group, ctx)] : [],
    }),
  ];
}

function bodyMediaType(group: Group, ctx: Context): Change[] {
  const type = String(group.at[4]);
  const added = group.differences[0]!.type === 'CREATE';
  return [
    ctx.change(added ? 'request-body-media-type-added' : 'request-body-media-type-removed', {
      at: group.at,
      where: `${routeOf(group)} request body`,
      message: `${type} ${added ? 'accepted' : 'no longer accepted'}`,
      touches: added ? [] : [touchOf(group, ctx)],
    }),
  ];
}

function bodySchema(group: Group, ctx: Context): Change[] {
  return schemaChanges(group, ctx, {
    where: 'request-property',
    side: 'request',
    location: 'request body',
    touch: touchOf(group, ctx),
    body: true,
  });
}

const isSuccess = (status: string) => status.startsWith('2');

function status(group: Group, ctx: Context): Change[] {
  const code = String(group.at[3]);
  const added = group.differences[0]!.type === 'CREATE';
  const kind = isSuccess(code) ? 'success' : 'non-success';
  return [
    ctx.change(`response-${kind}-status-${added ? 'added' : 'removed'}`, {
      at: group.at,
      where: `${routeOf(group)} response ${code}`,
      message: `${code} ${added ? 'added' : 'removed'}`,
      touches: added ? [touchOf(group, ctx)] : [{ ...touchOf(group, ctx), status: Number(code) }],
    }),
  ];
}

function header(group: Group, ctx: Context): Change[] {
  const code = String(group.at[3]);
  const name = String(group.at[5]);
  const added = group.differences[0]!.type === 'CREATE';
  return [
    ctx.change(added ? 'response-header-added' : 'response-header-removed', {
      at: group.at,
      where: `${routeOf(group)} response ${code} header ${name}`,
      message: added ? 'added' : 'removed',
      touches: added ? [] : [{ ...touchOf(group, ctx), status: Number(code) }],
    }),
  ];
}

function headerSchema(group: Group, ctx: Context): Change[] {
  const code = String(group.at[3]);
  return schemaChanges(group, ctx, {
    where: 'response-header',
    side: 'response',
    location: `response ${code} header ${group.at[5]}`,
    touch: { ...touchOf(group, ctx), status: Number(code) },
  });
}

function responseMediaType(group: Group, ctx: Context): Change[] {
  const code = String(group.at[3]);
  const added = group.differences[0]!.type === 'CREATE';
  return [
    ctx.change(added ? 'response-media-type-added' : 'response-media-type-removed', {
      at: group.at,
      where: `${routeOf(group)} response ${code}`,
      message: `${group.at[5]} ${added ? 'added' : 'removed'}`,
      touches: added ? [{ ...touchOf(group, ctx), status: Number(code) }] : [],
    }),
  ];
}

function responseSchema(group: Group, ctx: Context): Change[] {
  const code = String(group.at[3]);
  return schemaChanges(group, ctx, {
    where: 'response-property',
    side: 'response',
    location: `response ${code} body`,
    touch: { ...touchOf(group, ctx), status: Number(code) },
  });
}

function operationExtensions(group: Group, ctx: Context): Change[] {
  return extensionChanges(group, ctx, routeOf(group), [touchOf(group, ctx)]);
}

const O = ['operations', '*'];

export const BODY_RULES: Matcher[] = [
  { pattern: [...O, 'requestBody'], handle: body },
  { pattern: [...O, 'requestBody', 'required'], handle: bodyRequired },
  { pattern: [...O, 'requestBody', 'content', '*'], handle: bodyMediaType },
  { pattern: [...O, 'requestBody', 'content', '*', 'schema', '**'], handle: bodySchema },
  { pattern: [...O, 'responses', '*'], handle: status },
  { pattern: [...O, 'responses', '*', 'headers', '*'], handle: header },
  { pattern: [...O, 'responses', '*', 'headers', '*', 'schema', '**'], handle: headerSchema },
  { pattern: [...O, 'responses', '*', 'content', '*'], handle: responseMediaType },
  { pattern: [...O, 'responses', '*', 'content', '*', 'schema', '**'], handle: responseSchema },
  { pattern: [...O, 'extensions', '**'], handle: operationExtensions },
];
