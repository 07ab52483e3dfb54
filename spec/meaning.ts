// What a query parameter does to the rows an operation answers, as the spec states it
// in `x-meaning` (see "What a parameter means" in spec/openapi.yaml). Read once here,
// for spec/model.ts: the contract suite turns each rule into a check, so a new filter
// of a known kind is one line of spec and no code.
import type { Provenance } from './provenance.ts';

/** How a sort order compares its field: numbers and plain text, numeric-aware versions, or timestamps. */
export type Comparison = 'natural' | 'version' | 'time';

/** The words a sort order's direction is written in. */
export const DIRECTIONS = ['asc', 'desc'] as const;

export interface SortOrder {
  field: string;
  direction: (typeof DIRECTIONS)[number];
  compare: Comparison;
}

export type Meaning =
  | {
      rule: 'atLeast' | 'atMost' | 'ageAtLeastDays' | 'ageAtMostDays' | 'wholeWildcard' | 'addsField' | 'relativeTime';
      field: string;
    }
  | { rule: 'substringWildcard'; field: string; raw?: string }
  | { rule: 'nameOrCode'; field: string; codeField: string }
  | { rule: 'equals'; fields: string[] }
  | { rule: 'flag'; field: string; value: unknown; off: string }
  | { rule: 'revealsHidden'; hidden: string; total: string }
  | { rule: 'limitsRows'; counts: string[] }
  | { rule: 'page'; total: string; counts: string[] }
  | { rule: 'sort'; orders: Record<string, SortOrder>; tieBreak: string[] }
  | { rule: 'ignored' };

export type Rule = Meaning['rule'];

/** The rows an operation answers: the one array property of its success body. */
export interface Rows {
  /** e.g. `results`. */
  property: string;
  provenance: Provenance;
  /** Each field of a row with its schema (`$ref` followed) and provenance. */
  fields: Map<string, { schema: Record<string, any>; provenance: Provenance }>;
  /** The other top-level properties of the success body (counts such as `total`), with their provenance. */
  siblings: Map<string, Provenance>;
}

export const RULES: readonly Rule[] = [
  'atLeast',
  'atMost',
  'ageAtLeastDays',
  'ageAtMostDays',
  'wholeWildcard',
  'substringWildcard',
  'nameOrCode',
  'equals',
  'flag',
  'addsField',
  'relativeTime',
  'revealsHidden',
  'limitsRows',
  'page',
  'sort',
  'ignored',
];

const COMPARISONS: readonly Comparison[] = ['natural', 'version', 'time'];

/** The row fields a meaning reads. */
export function fieldsOf(m: Meaning): string[] {
  switch (m.rule) {
    case 'equals':
      return m.fields;
    case 'nameOrCode':
      return [m.field, m.codeField];
    case 'substringWildcard':
      return m.raw ? [m.field, m.raw] : [m.field];
    case 'sort':
      return [...new Set([...Object.values(m.orders).map((o) => o.field), ...m.tieBreak])];
    case 'revealsHidden':
    case 'limitsRows':
    case 'page':
    case 'ignored':
      return [];
    default:
      return [m.field];
  }
}

/** The top-level properties of the success body a meaning reads (counts). */
export function countsOf(m: Meaning): string[] {
  if (m.rule === 'revealsHidden') return [m.hidden, m.total];
  if (m.rule === 'page') return [m.total, ...m.counts];
  return m.rule === 'limitsRows' ? m.counts : [];
}

/**
 * Reads one `x-meaning`. `where` names the parameter for errors; `rows` is what the
 * operation answers (undefined when it answers no rows); `enumValues` is the
 * parameter's enum (a sort must give each value an order). Throws a message on a
 * malformed meaning.
 */
export function readMeaning(
  raw: unknown,
  where: string,
  rows: Rows | undefined,
  enumValues: unknown[] | undefined,
): Meaning {
  const m = raw as Record<string, any> | null;
  if (!m || typeof m !== 'object' || !RULES.includes(m.rule)) {
    throw new Error(`${where} x-meaning must have a rule, one of ${RULES.join(', ')}; got ${JSON.stringify(raw)}`);
  }
  const text = (key: string): string => {
    if (typeof m[key] !== 'string' || m[key] === '')
      throw new Error(`${where} x-meaning (${m.rule}) needs '${key}', a name`);
    return m[key];
  };
  const list = (key: string): string[] => {
    const v = typeof m[key] === 'string' ? [m[key]] : m[key];
    if (!Array.isArray(v) || v.length === 0 || v.some((x) => typeof x !== 'string'))
      throw new Error(`${where} x-meaning (${m.rule}) needs '${key}', a name or a list of names`);
    return v;
  };
  let meaning: Meaning;
  switch (m.rule as Rule) {
    case 'substringWildcard':
      meaning = {
        rule: 'substringWildcard',
        field: text('field'),
        ...(m.raw !== undefined ? { raw: text('raw') } : {}),
      };
      break;
    case 'nameOrCode':
      meaning = { rule: 'nameOrCode', field: text('field'), codeField: text('codeField') };
      break;
    case 'equals':
      meaning = { rule: 'equals', fields: list('field') };
      break;
    case 'flag':
      if (!('value' in m))
        throw new Error(`${where} x-meaning (flag) needs 'value', what the field holds when the flag is on`);
      meaning = { rule: 'flag', field: text('field'), value: m.value, off: text('off') };
      break;
    case 'revealsHidden':
      meaning = { rule: 'revealsHidden', hidden: text('hidden'), total: text('total') };
      break;
    case 'limitsRows':
      meaning = { rule: 'limitsRows', counts: m.counts === undefined ? [] : list('counts') };
      break;
    case 'page':
      meaning = { rule: 'page', total: text('total'), counts: m.counts === undefined ? [] : list('counts') };
      break;
    case 'sort':
      meaning = readSort(m, where, enumValues);
      break;
    case 'ignored':
      meaning = { rule: 'ignored' };
      break;
    default:
      meaning = { rule: m.rule, field: text('field') } as Meaning;
  }
  if (!rows)
    throw new Error(
      `${where} has x-meaning, but its operation answers no rows (no array property in its success body)`,
    );
  for (const f of fieldsOf(meaning))
    if (!rows.fields.has(f))
      throw new Error(`${where} x-meaning names field '${f}', which a row of '${rows.property}' does not have`);
  for (const c of countsOf(meaning))
    if (!rows.siblings.has(c))
      throw new Error(
        `${where} x-meaning names '${c}', which the success body does not have beside '${rows.property}'`,
      );
  return meaning;
}

function readSort(m: Record<string, any>, where: string, enumValues: unknown[] | undefined): Meaning {
  const orders: Record<string, SortOrder> = {};
  for (const [value, o] of Object.entries<any>(m.orders ?? {})) {
    if (!o || typeof o.field !== 'string' || !DIRECTIONS.includes(o.direction)) {
      throw new Error(`${where} x-meaning order '${value}' needs a field and a direction (asc or desc)`);
    }
    const compare = o.compare ?? 'natural';
    if (!COMPARISONS.includes(compare))
      throw new Error(`${where} x-meaning order '${value}' compare must be one of ${COMPARISONS.join(', ')}`);
    orders[value] = { field: o.field, direction: o.direction, compare };
  }
  const missing = (enumValues ?? []).filter((v) => !(String(v) in orders));
  if (Object.keys(orders).length === 0 || missing.length)
    throw new Error(
      `${where} x-meaning (sort) must give an order to every value of the enum; missing ${missing.join(', ') || 'all'}`,
    );
  const tieBreak = m.tieBreak ?? [];
  if (!Array.isArray(tieBreak) || tieBreak.some((x) => typeof x !== 'string'))
    throw new Error(`${where} x-meaning (sort) tieBreak must be a list of fields`);
  return { rule: 'sort', orders, tieBreak };
}
