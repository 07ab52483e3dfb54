// Changes to an operation's parameters: added, removed, required or not, how they are
// serialised, their schema (schema-rules.ts), their `x-` limits (limit-rules.ts), and
// what they mean (`x-meaning`): a filter that compares differently breaks its clients
// even when its schema is the same.
import { fieldsOf, type Meaning } from '../../spec/meaning.ts';
import type { Change, Touch } from './change.ts';
import { extensionChanges } from './limit-rules.ts';
import { same, type Context, type Group, type Matcher } from './match.ts';
import { schemaChanges } from './schema-rules.ts';

/** `query parameter country` and the requests that sent it. */
function parameterOf(group: Group, ctx: Context): { where: string; name: string; touch: Touch } {
  const route = String(group.at[1]);
  const [location, name] = String(group.at[3]).split(' ') as [string, string];
  return {
    where: `${location} parameter ${name}`,
    name,
    touch: { operationId: ctx.operationIdAt(route), parameter: name },
  };
}

function addedOrRemoved(group: Group, ctx: Context): Change[] {
  const { where, touch } = parameterOf(group, ctx);
  const d = group.differences[0]!;
  if (d.type === 'CREATE') {
    const required = Boolean(d.value.required);
    return [
      ctx.change(required ? 'new-required-request-parameter' : 'new-optional-request-parameter', {
        at: group.at,
        where,
        message: `${required ? 'required' : 'optional'} parameter added`,
        // Requests without it are the ones a new required parameter refuses.
        touches: required ? [{ ...touch, absent: true }] : [],
      }),
    ];
  }
  const meaning = d.oldValue.meaning as Meaning | undefined;
  const filters = meaning && meaning.rule !== 'ignored';
  return [
    ctx.change('request-parameter-removed', {
      at: group.at,
      where,
      message: filters
        ? `removed: a client that still sends it gets rows unfiltered by it (unknown query parameters are ` +
          `ignored; it was ${describe(meaning)})`
        : 'removed',
      touches: [touch],
    }),
  ];
}

function required(group: Group, ctx: Context): Change[] {
  const { where, touch } = parameterOf(group, ctx);
  const now = group.after === true;
  return [
    ctx.change(now ? 'request-parameter-became-required' : 'request-parameter-became-optional', {
      at: group.at,
      where,
      message: now ? 'became required' : 'became optional',
      touches: now ? [{ ...touch, absent: true }] : [],
    }),
  ];
}

/** `nameOrCode(country, country_code)`: a meaning in a few words. */
export function describe(m: Meaning | undefined): string {
  if (!m) return '(no x-meaning)';
  const fields = fieldsOf(m);
  const extra = m.rule === 'flag' ? `, ${JSON.stringify(m.value)} unless ${JSON.stringify(m.off)}` : '';
  return `${m.rule}(${fields.join(', ')}${extra})`;
}

function meaning(group: Group, ctx: Context): Change[] {
  const { where, touch } = parameterOf(group, ctx);
  const before = group.before as Meaning | undefined;
  const after = group.after as Meaning | undefined;
  const fields = { at: group.at, where, before, after, touches: [touch] };
  if (!before)
    return [ctx.change('request-parameter-meaning-added', { ...fields, message: describe(after), touches: [] })];
  if (!after)
    return [ctx.change('request-parameter-meaning-removed', { ...fields, message: `${describe(before)} removed` })];
  if (before.rule === 'sort' && after.rule === 'sort') {
    // An order for a new enum value is the enum's change; only an order that sorts differently is a new meaning.
    const changed = Object.keys(before.orders).filter(
      (k) => k in after.orders && !same(before.orders[k], after.orders[k]),
    );
    if (!changed.length && same(before.tieBreak, after.tieBreak)) return [];
    const what = changed.length ? `order ${changed.join(', ')} sorts differently` : 'ties are broken differently';
    return [ctx.change('request-parameter-meaning-changed', { ...fields, message: what })];
  }
  return [
    ctx.change('request-parameter-meaning-changed', {
      ...fields,
      message: `${describe(before)} -> ${describe(after)}: the same value now selects other rows`,
    }),
  ];
}

function schema(group: Group, ctx: Context): Change[] {
  const { where, touch } = parameterOf(group, ctx);
  return schemaChanges(group, ctx, { where: 'request-parameter', side: 'request', location: where, touch });
}

function extensions(group: Group, ctx: Context): Change[] {
  const { where, touch } = parameterOf(group, ctx);
  return extensionChanges(group, ctx, where, [{ operationId: touch.operationId }]);
}

/** Everything else on a parameter object: deprecated, style, explode, allowEmptyValue. */
function other(group: Group, ctx: Context): Change[] {
  const { where, touch } = parameterOf(group, ctx);
  const key = String(group.at[4]);
  if (key === 'deprecated') {
    const now = group.after === true;
    return [
      ctx.change(now ? 'request-parameter-deprecated' : 'request-parameter-reactivated', {
        at: group.at,
        where,
        message: now ? 'deprecated' : 'no longer deprecated',
      }),
    ];
  }
  return [
    ctx.change(
      ['style', 'explode', 'allowEmptyValue'].includes(key)
        ? 'request-parameter-serialization-updated'
        : 'unclassified-change',
      {
        at: group.at,
        where,
        message: `${key} ${JSON.stringify(group.before) ?? '(none)'} -> ${JSON.stringify(group.after) ?? '(none)'}`,
        touches: [touch],
      },
    ),
  ];
}

const P = ['operations', '*', 'parameters', '*'];

export const PARAMETER_RULES: Matcher[] = [
  { pattern: P, handle: addedOrRemoved },
  { pattern: [...P, 'required'], handle: required },
  { pattern: [...P, 'meaning', '**'], handle: meaning },
  { pattern: [...P, 'schema', '**'], handle: schema },
  { pattern: [...P, 'extensions', '**'], handle: extensions },
  { pattern: [...P, '*'], handle: other },
];
