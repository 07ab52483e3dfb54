// What each rule of `x-meaning` is and does, written once for every reader: whether it
// picks rows (a filter) or shapes the answer, its kind, its case rule, how a value
// compares with a row, what a null field does, the one predicate "does this row satisfy
// this value" and the words that say it to people. The mock builds its index asks from a
// filter's `ask` (mocks/search/) and reads any-case enums by `letterCase`
// (mocks/core/operations.ts); the contract suite and the validation proxy judge rows
// with `holds` and `says` (contract-tests/checks/meaning/). So a parameter the spec adds
// with a known rule works everywhere with no code, and a rule means one thing.
import type { Meaning, Rule } from './meaning.ts';
import type { Operation, Parameter } from './model.ts';
import { wildcardMatcher } from './wildcard.ts';

/** A row as an answer or the mock's dataset holds it. */
export type Row = Readonly<Record<string, unknown>>;
/** The meaning of one rule (the spec groups rules of one shape in one type). */
export type MeaningOf<R extends Rule> = Meaning & { rule: R };

/**
 * `filter`: the value picks rows; `shape`: it shapes the answer (which rows are hidden,
 * how many, their order, their fields).
 */
export type Role = 'filter' | 'shape';
/**
 * Filters: `text` (a value matched against text: wildcards, equality), `range` (a bound
 * on a number or on a timestamp's age), `flag` (any value but one keeps the rows holding
 * a constant). Shapes: `switch` (a boolean, on when `true`), `paging`, `order`, `ignored`.
 */
export type Kind = 'text' | 'range' | 'flag' | 'switch' | 'paging' | 'order' | 'ignored';

/** One field's test, asked once per distinct value of the field. */
export interface FieldTest {
  field: string;
  /** Names what the test asks (the mock caches the rows it picks under it). */
  key: string;
  /** Does a field's value pass? Never asked of a null (or missing) field: it passes nothing. */
  test: (value: unknown) => boolean;
  /** The same test over text already lower-cased (the wildcards: the mock's index keeps text lower-cased). */
  lowerText?: (lower: string) => boolean;
  /** Every text passes (a pattern of stars alone). */
  anyText?: boolean;
}

/** A bound on a field: numbers, or timestamps in ms (`time`, the age rules). */
export interface Range {
  field: string;
  lo: number;
  hi: number;
  time: boolean;
  /**
   * What a judge tolerates either side (ms): the spec does not pin an age's day boundary
   * (calendar day or 24 hours, whose clock), so a row up to a day past it is no defect.
   * The mock cuts at `lo` and `hi` exactly.
   */
  slack: number;
}

/** What one value of a filter asks of a row: any of some field tests (equals over several fields), or a range. */
export type Ask = { tests: FieldTest[] } | { range: Range };

interface Described {
  role: Role;
  kind: Kind;
  /**
   * How the parameter's text compares with a row's: `any` case (the real service compares
   * text case-insensitively, so an enum on such a parameter takes any case of a value:
   * `region=eu` is `EU`), or `exact` (a sort's enum names an order).
   */
  letterCase: 'any' | 'exact';
  /** How a value compares with the row's field, for people. */
  compares: string;
}

interface FilterDescriptor<R extends Rule> extends Described {
  role: 'filter';
  kind: 'text' | 'range' | 'flag';
  /** A row whose field is null satisfies no value of a filter (the spec, assumed). */
  nullField: 'passes nothing';
  /** What `value` (typed by the parameter's schema, or as sent) asks; undefined: nothing (a flag's off value). */
  ask(m: MeaningOf<R>, value: unknown, now: number): Ask | undefined;
  /** What every row must have, for people: `players_online >= 37`. */
  says(m: MeaningOf<R>, value: string): string;
}

interface ShapeDescriptor<R extends Rule> extends Described {
  role: 'shape';
  kind: 'switch' | 'paging' | 'order' | 'ignored';
  /** A switch that marks every row when on: whether a row carries the mark, and the words for it. */
  marks?: { holds(m: MeaningOf<R>, row: Row): boolean; says(m: MeaningOf<R>): string };
}

export type Descriptor<R extends Rule = Rule> = FilterDescriptor<R> | ShapeDescriptor<R>;

const DAY = 86_400_000;
/** A number written as text (`asn_number` is a string of digits). */
const NUMERIC = /^-?\d+(?:\.\d+)?$/;
/** A date and a time, ISO 8601's order, with or without a zone: a timestamp, right or wrong, not relative text. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;
/** Exactly two letters: `nameOrCode` reads them as an ISO code. */
const TWO_LETTERS = /^[A-Za-z]{2}$/;

const num = (value: unknown): number | undefined => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && NUMERIC.test(value) ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

function wildcard(field: string, value: unknown, whole: boolean): Ask {
  const pattern = String(value).toLowerCase();
  // Made on first use: a set the mock has cached needs no matcher.
  let match: ((lower: string) => boolean) | undefined;
  const lowerText = (lower: string) => (match ??= wildcardMatcher(pattern, { whole }))(lower);
  return {
    tests: [
      {
        field,
        key: `${whole ? 'w' : 's'}${pattern}`,
        test: (v) => typeof v === 'string' && lowerText(v.toLowerCase()),
        lowerText,
        anyText: /^\*+$/.test(pattern),
      },
    ],
  };
}

/** Equal, ignoring case; a number also equals the same number written as text. */
function equal(field: string, value: unknown): FieldTest {
  if (typeof value === 'number') {
    return {
      field,
      key: `#${value}`,
      test: (v) =>
        typeof v === 'number' ? v === value : typeof v === 'string' && NUMERIC.test(v) && Number(v) === value,
    };
  }
  const want = String(value).toLowerCase();
  return { field, key: `=${want}`, test: (v) => typeof v !== 'object' && String(v).toLowerCase() === want };
}

const range = (field: string, lo: number | undefined, hi: number | undefined, time: boolean): Ask | undefined =>
  lo === undefined || hi === undefined ? undefined : { range: { field, lo, hi, time, slack: time ? DAY : 0 } };

const bound = (sign: '>=' | '<='): FilterDescriptor<'atLeast' | 'atMost'> => ({
  role: 'filter',
  kind: 'range',
  letterCase: 'exact',
  compares: `the field (a number) ${sign} the value`,
  nullField: 'passes nothing',
  ask: (m, value) => {
    const n = num(value);
    return sign === '>=' ? range(m.field, n, Infinity, false) : range(m.field, -Infinity, n, false);
  },
  says: (m, value) => `${m.field} ${sign} ${value}`,
});

const age = (words: 'at least' | 'at most'): FilterDescriptor<'ageAtLeastDays' | 'ageAtMostDays'> => ({
  role: 'filter',
  kind: 'range',
  letterCase: 'exact',
  compares: `the field (a timestamp) ${words} the value's days before now`,
  nullField: 'passes nothing',
  ask: (m, value, now) => {
    const days = num(value);
    const at = days === undefined ? undefined : now - days * DAY;
    return words === 'at least' ? range(m.field, -Infinity, at, true) : range(m.field, at, Infinity, true);
  },
  says: (m, value) => `${m.field} ${words} ${value} days ago`,
});

const shape = (kind: ShapeDescriptor<Rule>['kind'], compares: string) =>
  ({ role: 'shape', kind, letterCase: 'exact', compares }) as const;

/** The rules that pick rows (the table below holds each to a filter's descriptor). */
export type FilterRule =
  | 'atLeast'
  | 'atMost'
  | 'ageAtLeastDays'
  | 'ageAtMostDays'
  | 'wholeWildcard'
  | 'substringWildcard'
  | 'nameOrCode'
  | 'equals'
  | 'flag';
/** The switches that mark every row when on. */
export type MarkRule = 'addsField' | 'relativeTime';
/** The rules that say something of each row: `holds` judges a row by them. */
export type RowRule = FilterRule | MarkRule;
export type FilterMeaning = MeaningOf<FilterRule>;
export type RowMeaning = MeaningOf<RowRule>;

/** Every rule of `x-meaning`, by its name (a rule added to spec/meaning.ts does not compile until it is here). */
export const RULE_DESCRIPTORS: { readonly [R in FilterRule]: FilterDescriptor<R> } & {
  readonly [R in MarkRule]: ShapeDescriptor<R> & { marks: object };
} & { readonly [R in Exclude<Rule, RowRule>]: ShapeDescriptor<R> } = {
  atLeast: bound('>='),
  atMost: bound('<='),
  ageAtLeastDays: age('at least'),
  ageAtMostDays: age('at most'),
  wholeWildcard: {
    role: 'filter',
    kind: 'text',
    letterCase: 'any',
    compares: 'the whole field matches the pattern, `*` any run',
    nullField: 'passes nothing',
    ask: (m, value) => wildcard(m.field, value, true),
    says: (m, value) => `${m.field} matching '${value}' as a whole (case-insensitive, * any run)`,
  },
  substringWildcard: {
    role: 'filter',
    kind: 'text',
    letterCase: 'any',
    compares: 'a part of the field matches the pattern, `*` any run',
    nullField: 'passes nothing',
    ask: (m, value) => wildcard(m.field, value, false),
    says: (m, value) => {
      const raw = m.raw ? ` (the ${m.raw} without § colour codes)` : '';
      return `${m.field} containing '${value}'${raw} (case-insensitive, * any run)`;
    },
  },
  nameOrCode: {
    role: 'filter',
    kind: 'text',
    letterCase: 'any',
    compares: 'two letters equal the code field; anything else matches the whole name, `*` any run',
    nullField: 'passes nothing',
    ask: (m, value) =>
      TWO_LETTERS.test(String(value)) ? { tests: [equal(m.codeField, value)] } : wildcard(m.field, value, true),
    says: (m, value) =>
      TWO_LETTERS.test(value)
        ? `${m.codeField} '${value}' (a 2-letter value is an ISO code)`
        : `${m.field} matching '${value}' as a whole (case-insensitive)`,
  },
  equals: {
    role: 'filter',
    kind: 'text',
    letterCase: 'any',
    compares: 'the field, or one of the fields, equals the value (a number also as its digits)',
    nullField: 'passes nothing',
    ask: (m, value) => ({ tests: m.fields.map((f) => equal(f, value)) }),
    says: (m, value) => `${m.fields.join(' or ')} '${value}' (case-insensitive)`,
  },
  flag: {
    role: 'filter',
    kind: 'flag',
    letterCase: 'exact',
    compares: 'any value but `off`: the field holds `value`',
    nullField: 'passes nothing',
    ask: (m, value) =>
      String(value) === m.off
        ? undefined
        : { tests: [{ field: m.field, key: `==${JSON.stringify(m.value)}`, test: (v) => v === m.value }] },
    says: (m) => `${m.field} ${JSON.stringify(m.value)}`,
  },
  addsField: {
    ...shape('switch', 'true adds the field to every row'),
    marks: { holds: (m, row) => m.field in row, says: (m) => `a '${m.field}' field` },
  },
  relativeTime: {
    ...shape('switch', 'true gives the field as relative text'),
    marks: {
      // Relative text is no timestamp at all: one without its zone is a wrong timestamp (the schema's), not relative
      // text.
      holds: (m, row) => typeof row[m.field] === 'string' && !TIMESTAMP.test(row[m.field] as string),
      says: (m) => `${m.field} as relative text, not an ISO 8601 timestamp`,
    },
  },
  revealsHidden: shape('switch', 'true includes the hidden rows'),
  limitsRows: shape('paging', 'at most this many rows'),
  page: shape('paging', 'this page of rows'),
  sort: shape('order', 'the rows in the order the value names'),
  ignored: shape('ignored', 'nothing'),
};

/** The descriptor of a meaning's rule. */
export const descriptorOf = (m: Meaning): Descriptor<Rule> => RULE_DESCRIPTORS[m.rule] as Descriptor<Rule>;

export const isFilter = (m: Meaning): m is FilterMeaning => descriptorOf(m).role === 'filter';

/** Whether a rule says something of each row: a filter, or a switch that marks rows. */
export function isRowRule(m: Meaning): m is RowMeaning {
  const d = descriptorOf(m);
  return d.role === 'filter' || d.marks !== undefined;
}

/** The one value that turns a switch on, as servers read a boolean in a URL. */
export const isOn = (value: unknown): boolean => value === true || value === 'true';

/**
 * The row fields whose schema `format` is not the schema's to hold on an answer to this
 * query: a `relativeTime` switch sent on gives its field as relative text ("2 hours
 * ago"), which is no ISO 8601 instant; sent off, what the field must be is the switch's
 * promise (it answers as left out), which its own judge holds. `sentValue` reads a query
 * parameter as sent (undefined: left out).
 */
export function formatsReplaced(op: Operation, sentValue: (name: string) => string | undefined): string[] {
  return op.parameters.flatMap((p) =>
    p.in === 'query' && p.meaning?.rule === 'relativeTime' && sentValue(p.name) !== undefined ? [p.meaning.field] : [],
  );
}

/** Does a field's value pass a range? With `slack`, a judge's tolerance either side. */
export function inRange(r: Range, v: unknown, slack = 0): boolean {
  const x = r.time ? (typeof v === 'string' ? Date.parse(v) : NaN) : typeof v === 'number' ? v : NaN;
  return x >= r.lo - slack && x <= r.hi + slack;
}

/** Does a row pass what a value asks? `tolerant`: with the range's slack, as a judge reads it. */
export function passes(ask: Ask, row: Row, tolerant = false): boolean {
  if ('range' in ask) return inRange(ask.range, row[ask.range.field], tolerant ? ask.range.slack : 0);
  for (const t of ask.tests) {
    const v = row[t.field];
    if (v !== null && v !== undefined && t.test(v)) return true;
  }
  return false;
}

/**
 * Does a row satisfy the parameter of meaning `m` at `value`, as a judge reads it (an
 * age's day boundary with its slack)? A filter: the row passes what the value asks (a
 * value that asks nothing holds for every row). A switch that marks rows: the row
 * carries the mark. Any other rule says nothing of a row: true. The test is made once
 * for many rows.
 */
export function rowTest(m: Meaning, value: unknown, now: number): (row: Row) => boolean {
  const d = descriptorOf(m);
  if (d.role === 'shape') {
    const marks = d.marks;
    return marks ? (row) => marks.holds(m, row) : () => true;
  }
  const ask = d.ask(m, value, now);
  return ask === undefined ? () => true : (row) => passes(ask, row, true);
}

/** rowTest for one row. */
export function holds(m: Meaning, row: Row, value: unknown, now: number): boolean {
  return rowTest(m, value, now)(row);
}

/** What every row must have for `m` at `value`, for people: `players_online >= 37`. */
export function says(m: Meaning, value: string): string {
  const d = descriptorOf(m);
  if (d.role === 'filter') return d.says(m, value);
  return d.marks ? d.marks.says(m) : `${m.rule} ${value}`;
}

/**
 * The one any-case reading: for a parameter whose rule compares text in any case and
 * whose schema lists words (an enum, or enums in an `anyOf`), each word lower-cased ->
 * as the spec writes it; undefined for every other parameter (a sort's enum is exact).
 */
export function anyCaseWords(p: Parameter): ReadonlyMap<string, string> | undefined {
  let words = anyCase.get(p);
  if (words === undefined) anyCase.set(p, (words = readWords(p)));
  return words ?? undefined;
}

/** Each parameter's any-case words, read once (a proxy asks on every exchange). */
const anyCase = new WeakMap<Parameter, ReadonlyMap<string, string> | null>();

function readWords(p: Parameter): ReadonlyMap<string, string> | null {
  if (!p.meaning || RULE_DESCRIPTORS[p.meaning.rule].letterCase !== 'any') return null;
  const s = p.schema;
  const listed: unknown[] = Array.isArray(s.enum)
    ? s.enum
    : Array.isArray(s.anyOf)
      ? s.anyOf.flatMap((x: Record<string, any>) => x.enum ?? [])
      : [];
  const words = listed.filter((v): v is string => typeof v === 'string');
  return words.length ? new Map(words.map((w) => [w.toLowerCase(), w])) : null;
}

/** A parameter's value as the spec reads it: an any-case word as the spec writes it, anything else as sent. */
export function specWord(p: Parameter, value: string): string {
  return anyCaseWords(p)?.get(value.toLowerCase()) ?? value;
}

/** The parameter of `op` that carries `rule` (the first; a shape rule is carried once). */
export function parameterWith<R extends Rule>(
  op: Operation,
  rule: R,
): (Parameter & { meaning: MeaningOf<R> }) | undefined {
  return op.parameters.find((p) => p.meaning?.rule === rule) as (Parameter & { meaning: MeaningOf<R> }) | undefined;
}
