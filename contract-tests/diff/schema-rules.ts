// What a change inside a schema does, wherever the schema sits (a parameter, a request
// body, a response body, a response header): which keyword changed, at which property,
// and whether it narrows or widens the values allowed; rules.ts says whom that breaks on
// that side of the exchange.
import type { Change, Touch } from './change.ts';
import type { Context, Difference, Group } from './match.ts';
import { RULES, type Side } from './rules.ts';
import { REQUIRED } from './view.ts';

/** Where a schema sits: its rules' prefix, its side, how to name it, and whose requests it touches. */
export interface SchemaPlace {
  /** `request-parameter`, `request-property`, `response-property` or `response-header`. */
  where: string;
  side: Side;
  /** `query parameter limit`, `request body`, `response 200 body`, `response 200 header x-ratelimit-limit`. */
  location: string;
  touch: Touch;
  /** A request body: a change below a top-level property touches requests that sent that field. */
  body?: boolean;
}

const UPPER = new Set(['maximum', 'maxLength', 'maxItems', 'maxProperties', 'exclusiveMaximum']);
const LOWER = new Set(['minimum', 'minLength', 'minItems', 'minProperties', 'exclusiveMinimum']);
const ANNOTATIONS = new Set(['readOnly', 'writeOnly', 'deprecated']);
/** Keywords that only mean something for one type. */
const TYPED = new Set([...UPPER, ...LOWER, 'format', 'pattern', 'enum', 'multipleOf', 'uniqueItems']);
/** Keys whose change replaces what the schema is rather than bounding it. */
const STRUCTURE = new Set(['items', 'anyOf', 'oneOf', 'not', 'recursive', 'properties']);

const show = (v: unknown): string => (v === undefined ? '(none)' : JSON.stringify(v));

interface Spot {
  /** `results[].country`, empty at the schema's root. */
  property: string;
  /** The top-level property it is under (a request body's field). */
  top?: string;
  /** The keys below the property: the keyword and what follows it. */
  rest: (string | number)[];
}

/** Splits a path inside a schema into the property it is about and the keyword that changed. */
function spotOf(path: readonly (string | number)[]): Spot {
  let property = '';
  let top: string | undefined;
  let i = 0;
  while (i < path.length) {
    const key = String(path[i]);
    if (key === 'properties' && i + 2 < path.length) {
      const name = String(path[i + 1]);
      top ??= name;
      property += property ? `.${name}` : name;
      i += 2;
    } else if (key === 'items' && i + 1 < path.length) {
      property += '[]';
      i += 1;
    } else if ((key === 'anyOf' || key === 'oneOf') && i + 2 < path.length) {
      property += `(${key})`;
      i += 2;
    } else if ((key === 'not' || key === 'additionalProperties') && i + 1 < path.length) {
      property += key === 'not' ? '(not)' : '{*}';
      i += 1;
    } else break;
  }
  return { property, ...(top ? { top } : {}), rest: path.slice(i) };
}

/** Every change in one schema (a group at the schema's root). */
export function schemaChanges(group: Group, ctx: Context, place: SchemaPlace): Change[] {
  // A value whose type changed is another value: its old type's bounds, format
  // and pattern going with it are part of that one change.
  const retyped = new Set(
    group.differences
      .map((d) => spotOf(d.path))
      .filter((s) => s.rest.length === 1 && s.rest[0] === 'type')
      .map((s) => s.property),
  );
  return group.differences
    .filter((d) => {
      const s = spotOf(d.path);
      return !retyped.has(s.property) || !TYPED.has(String(s.rest[0]));
    })
    .flatMap((d) => oneChange(d, group, ctx, place));
}

function oneChange(d: Difference, group: Group, ctx: Context, place: SchemaPlace): Change[] {
  const spot = spotOf(d.path);
  const [keyword, sub] = spot.rest.map(String);
  const at = [...group.at, ...d.path];
  const named = (p: string) => (p ? `${place.location} ${p}` : place.location);
  const touch: Touch = { ...place.touch, ...(place.body && spot.top ? { field: spot.top } : {}) };
  const make = (what: string, message: string, extra: Partial<Touch> = {}, property = spot.property): Change =>
    ctx.change(RULES.has(`${place.where}-${what}`) ? `${place.where}-${what}` : what, {
      at,
      where: named(property),
      message,
      before: d.oldValue,
      after: d.value,
      touches: [{ ...touch, ...extra }],
    });
  const side = place.side;
  const prop = (p: string) => (p ? p : '(root)');

  // A property added or removed: [properties, name].
  if (keyword === 'properties' && sub !== undefined && spot.rest.length === 2) {
    const property = spot.property ? `${spot.property}.${sub}` : sub;
    const required = Boolean((d.type === 'CREATE' ? d.value : d.oldValue)?.[REQUIRED]);
    const fieldTouch = place.body && !spot.top ? { field: sub } : {};
    if (d.type === 'CREATE') {
      const rule =
        side === 'request'
          ? required
            ? 'new-required-request-property'
            : 'new-optional-request-property'
          : required
            ? 'response-required-property-added'
            : 'response-optional-property-added';
      return [
        make(
          rule,
          `${required ? 'required' : 'optional'} property ${sub} added`,
          side === 'request' && required ? { ...fieldTouch, absent: true } : fieldTouch,
          property,
        ),
      ];
    }
    const rule =
      side === 'request'
        ? 'request-property-removed'
        : required
          ? 'response-required-property-removed'
          : 'response-optional-property-removed';
    return [make(rule, `${required ? 'required' : 'optional'} property ${sub} removed`, fieldTouch, property)];
  }
  if (keyword === REQUIRED) {
    const became = d.type === 'CREATE' ? 'required' : 'optional';
    const rule = `${side === 'request' ? 'request' : 'response'}-property-became-${became}`;
    return [
      make(
        rule,
        `${prop(spot.property)} became ${became}`,
        became === 'required' && side === 'request' ? { absent: true } : {},
      ),
    ];
  }
  if (keyword === undefined || STRUCTURE.has(keyword)) {
    return [make('type-changed', `the schema's ${keyword ?? 'whole definition'} changed`)];
  }
  if (keyword === 'type') {
    const from = d.oldValue;
    const to = d.value;
    if (from === 'integer' && to === 'number') return [make('type-generalized', 'type integer -> number')];
    if (from === 'number' && to === 'integer') return [make('type-specialized', 'type number -> integer')];
    return [make('type-changed', `type ${show(from)} -> ${show(to)}`)];
  }
  if (keyword === 'format') {
    const what = d.type === 'CREATE' ? 'format-added' : d.type === 'REMOVE' ? 'format-removed' : 'format-changed';
    return [make(what, `format ${show(d.oldValue)} -> ${show(d.value)}`)];
  }
  if (keyword === 'nullable') {
    return [
      make(
        d.type === 'CREATE' ? 'became-nullable' : 'became-not-nullable',
        d.type === 'CREATE' ? 'may now be null' : 'may no longer be null',
      ),
    ];
  }
  if (keyword === 'enum') {
    if (sub === undefined) {
      const values = Object.keys(d.type === 'CREATE' ? d.value : d.oldValue).join(', ');
      return [
        make(
          d.type === 'CREATE' ? 'became-enum' : 'became-not-enum',
          `${d.type === 'CREATE' ? 'restricted to' : 'no longer restricted to'} ${values}`,
        ),
      ];
    }
    const value = JSON.parse(sub) as unknown;
    const shown = typeof value === 'string' ? value : JSON.stringify(value);
    // Requests that sent a value now refused: only they break (a request-side removal).
    return d.type === 'CREATE'
      ? [make('enum-value-added', `enum value ${JSON.stringify(value)} added`)]
      : [
          make(
            'enum-value-removed',
            `enum value ${JSON.stringify(value)} removed`,
            side === 'request' ? { value: shown } : {},
          ),
        ];
  }
  if (UPPER.has(keyword) || LOWER.has(keyword)) {
    const upper = UPPER.has(keyword);
    const from = d.type === 'CREATE' ? undefined : d.oldValue;
    const to = d.type === 'REMOVE' ? undefined : d.value;
    // Set where there was none: tighter; removed: looser. A boolean exclusive bound: true is tighter.
    const tighter =
      typeof from === 'number' && typeof to === 'number'
        ? upper
          ? to < from
          : to > from
        : to !== undefined && to !== false;
    const what = upper ? (tighter ? 'max-decreased' : 'max-increased') : tighter ? 'min-increased' : 'min-decreased';
    const bound =
      tighter &&
      typeof to === 'number' &&
      side === 'request' &&
      !keyword.includes('Length') &&
      !keyword.includes('Items')
        ? upper
          ? { above: to }
          : { below: to }
        : {};
    return [make(what, `${keyword} ${show(from)} -> ${show(to)}`, bound)];
  }
  if (keyword === 'pattern') {
    const what = d.type === 'CREATE' ? 'pattern-added' : d.type === 'REMOVE' ? 'pattern-removed' : 'pattern-changed';
    return [make(what, `pattern ${show(d.oldValue)} -> ${show(d.value)}`)];
  }
  if (keyword === 'default') {
    return [
      make(
        'default-value-changed',
        `default ${show(d.oldValue)} -> ${show(d.value)}`,
        side === 'request' ? { absent: true } : {},
      ),
    ];
  }
  if (keyword === 'additionalProperties') {
    return [make('additional-properties-changed', `additionalProperties ${show(d.oldValue)} -> ${show(d.value)}`)];
  }
  if (ANNOTATIONS.has(keyword)) {
    return [
      ctx.change('schema-annotation-changed', {
        at,
        where: named(spot.property),
        message: `${keyword} ${show(d.oldValue)} -> ${show(d.value)}`,
      }),
    ];
  }
  if (keyword.startsWith('x-')) {
    return [
      ctx.change('extension-changed', {
        at,
        where: named(spot.property),
        message: `${keyword} ${show(d.oldValue)} -> ${show(d.value)}`,
        before: d.oldValue,
        after: d.value,
        touches: [touch],
      }),
    ];
  }
  return [
    ctx.change('unclassified-change', {
      at,
      where: named(spot.property),
      message: `${spot.rest.join('.')} ${show(d.oldValue)} -> ${show(d.value)}`,
      touches: [touch],
    }),
  ];
}
