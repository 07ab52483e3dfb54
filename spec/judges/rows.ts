// Rows as the judges read them: the array of an answer that holds them (`results`,
// `versions`, ... as spec/model.ts finds it), who a row is, how firm a promise about a
// parameter's meaning is, whether two rows come in an order, and which rows break the
// filters of a query. What each rule means is spec/rules.ts; this module only applies it
// to an answer's rows.
import { countsOf, fieldsOf } from '../meaning.ts';
import type { Meaning, Operation, Parameter, SortOrder } from '../model.ts';
import { weakest, type Provenance } from '../provenance.ts';
import { isRowRule, rowTest, says } from '../rules.ts';
import { COMPARATORS } from '../sort-compare.ts';
import { wildcardMatcher } from '../wildcard.ts';

export type Row = Record<string, unknown>;
/** A query as parameter -> the one value it was sent with. */
export type Query = Record<string, string>;

/**
 * The rows of an answer, or undefined when the body holds no such array. Only rows that
 * are objects: a `null` or a number in the array is the schema's finding, and every rule
 * about a row's fields would trip over it.
 */
export function rowsOf(op: Operation, body: unknown): Row[] | undefined {
  const rows = op.rows && (body as Record<string, unknown> | undefined)?.[op.rows.property];
  return Array.isArray(rows)
    ? (rows.filter((r) => r !== null && typeof r === 'object' && !Array.isArray(r)) as Row[])
    : undefined;
}

/** How many rows an answer holds, whatever they are (a `null` row counts against `limit` too). */
export function rowCountOf(op: Operation, body: unknown): number | undefined {
  const rows = op.rows && (body as Record<string, unknown> | undefined)?.[op.rows.property];
  return Array.isArray(rows) ? rows.length : undefined;
}

/** A top-level integer of an answer (`total`, `unique_versions`, ...). */
export function countOf(body: unknown, name: string): number | undefined {
  const v = (body as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'number' ? v : undefined;
}

/** The count of all matching rows (the `page` rule's `total`), if the operation pages. */
export function totalOf(op: Operation, body: unknown): number | undefined {
  const page = op.parameters.find((p) => p.meaning?.rule === 'page')?.meaning;
  return page?.rule === 'page' ? countOf(body, page.total) : undefined;
}

/**
 * The fields a row is told apart by: those its operation's sort breaks ties by (`address`, `port`), which the spec
 * makes unique.
 */
export function identityFields(op: Operation): string[] {
  for (const p of op.parameters) if (p.meaning?.rule === 'sort') return p.meaning.tieBreak;
  return [];
}

/** Who a row is (`1.2.3.4:25565`); the whole row where the spec names no identity, or the row lacks part of it. */
export function identityOf(op: Operation, row: Row): string {
  const fields = identityFields(op);
  if (!fields.length || fields.some((f) => row[f] === null || row[f] === undefined)) return JSON.stringify(row);
  return fields.map((f) => String(row[f])).join(':');
}

/** Whether a row can be told apart from others: it holds every field of its identity. */
export function hasIdentity(op: Operation, row: Row): boolean {
  const fields = identityFields(op);
  return fields.length > 0 && fields.every((f) => row[f] !== null && row[f] !== undefined);
}

/** A few rows by who they are, and how many more. */
export function someRows(op: Operation, rows: readonly Row[]): string {
  const ids = rows.slice(0, 3).map((r) => identityOf(op, r));
  return `${ids.join(', ')}${rows.length > 3 ? ` and ${rows.length - 3} more` : ''}`;
}

/**
 * How firm a promise about a parameter's `x-meaning` is: the softest of the operation, the parameter and every part of
 * the rows it reads.
 */
export function meaningLevel(op: Operation, param: Parameter, m: Meaning): Provenance {
  const rows = op.rows;
  return weakest(
    op.provenance,
    param.provenance,
    rows?.provenance,
    ...fieldsOf(m).map((f) => rows?.fields.get(f)?.provenance),
    ...countsOf(m).map((c) => rows?.siblings.get(c)),
  );
}

/**
 * Why `next` may not follow `prev` in this order, or undefined when it may. Values compare
 * by the spec's comparators (spec/sort-compare.ts, the mock's sort); rows whose values
 * cannot be compared are the schema's to report, not the order's.
 */
export function orderProblem(order: SortOrder, tieBreak: string[], prev: Row, next: Row): string | undefined {
  const c = COMPARATORS[order.compare](prev[order.field], next[order.field]);
  if (c === undefined) return undefined;
  const signed = order.direction === 'asc' ? c : -c;
  const show = (r: Row, f: string) => `${f} ${JSON.stringify(r[f])}`;
  if (signed > 0) {
    const expected = order.direction === 'asc' ? 'ascending' : 'descending';
    return `${show(next, order.field)} comes after ${show(prev, order.field)} (${expected} expected)`;
  }
  // Equal for the comparison but not as written (one instant written two ways): which comes first is not pinned down.
  if (signed < 0 || prev[order.field] !== next[order.field]) return undefined;
  for (const f of tieBreak) {
    const t = COMPARATORS.natural(prev[f], next[f]);
    if (t === undefined || t < 0) return undefined;
    if (t > 0) {
      const ties = tieBreak.join(', ');
      const after = `${show(next, f)} comes after ${show(prev, f)}`;
      return `on equal ${order.field}, ${after} (ties break by ${ties}, ascending)`;
    }
  }
  return undefined;
}

/** A row an answer holds though a filter of the query it answered lets it not through. */
export interface RowBreak {
  parameter: string;
  value: string;
  row: Row;
  /** What every row should have had, for people: `players_online >= 37`. */
  says: string;
}

/** Every row against every row rule of the query sent (spec/rules.ts `rowTest`). */
export function rowsBreaking(op: Operation, query: Query, rows: readonly Row[], now: number): RowBreak[] {
  const out: RowBreak[] = [];
  for (const p of op.parameters) {
    const value = query[p.name];
    if (value === undefined || !p.meaning || !isRowRule(p.meaning)) continue;
    const m = p.meaning;
    const test = rowTest(m, value, now);
    for (const row of rows) if (!test(row)) out.push({ parameter: p.name, value, row, says: says(m, value) });
  }
  return out;
}

/** Why a row that satisfies a filter was not answered, in words every failure of that defect shares. */
export interface LostRow {
  defect: string;
  /** The same defect whichever parameter showed it (`*` read literally by every text filter). */
  acrossSubjects?: boolean;
}

/** The defects a lost row can show across every filter of a kind: one cause each, whichever parameter met it. */
export const LOST = {
  inclusive: 'an inclusive bound is read as strict: the row at the bound is lost',
  ageEdge: 'an age filter loses the row at its boundary (off by a day)',
  literalStar: 'a * in a text filter is matched literally, not as a wildcard',
  caseSensitive: 'text filters compare case-sensitively where the spec says any case',
} as const;

const DAY = 86_400_000;

/**
 * What a row that satisfies `param=value` but is not answered says about the target,
 * read from the value and the row alone: a bound equal to the row's value was read as
 * strict; a `*` was matched literally; the value matches only ignoring case; else the
 * filter lost a row it should keep.
 */
export function lostRow(param: Parameter, value: string, row: Row, now: number): LostRow {
  const m = param.meaning;
  const generic = { defect: `a row that matches ${param.name} is not answered` };
  if (!m) return generic;
  if (m.rule === 'atLeast' || m.rule === 'atMost')
    return typeof row[m.field] === 'number' && row[m.field] === Number(value)
      ? { defect: LOST.inclusive, acrossSubjects: true }
      : generic;
  if (m.rule === 'ageAtLeastDays' || m.rule === 'ageAtMostDays') {
    const age = (now - Date.parse(String(row[m.field]))) / DAY;
    return Math.abs(age - Number(value)) <= 1 ? { defect: LOST.ageEdge, acrossSubjects: true } : generic;
  }
  // The text the value is matched against (`motd_stripped`, not the raw `motd` beside it).
  const fields = m.rule === 'substringWildcard' ? [m.field] : fieldsOf(m);
  const texts = fields.map((f) => row[f]).filter((v): v is string => typeof v === 'string');
  if (!texts.length) return generic;
  // Matched against the text with its colour codes: the value (a pattern or not) finds no part of it.
  if (m.rule === 'substringWildcard' && m.raw && typeof row[m.raw] === 'string') {
    const raw = (row[m.raw] as string).toLowerCase();
    if (!wildcardMatcher(value.toLowerCase(), { whole: false })(raw))
      return { defect: `${param.name} does not match across the § colour codes of ${m.raw}` };
  }
  // Two letters the code matches: read as a name, not as the ISO code it is.
  if (
    m.rule === 'nameOrCode' &&
    /^[a-z]{2}$/i.test(value) &&
    String(row[m.codeField]).toLowerCase() === value.toLowerCase()
  )
    return { defect: `${param.name} of two letters is not read as ${m.codeField}` };
  if (value.includes('*') && !texts.some((t) => t.toLowerCase().includes(value.toLowerCase())))
    return { defect: LOST.literalStar, acrossSubjects: true };
  const caseOnly = (t: string) => {
    const lower = t.toLowerCase();
    const v = value.toLowerCase();
    const sensitive = m.rule === 'substringWildcard' ? t.includes(value) : t === value;
    return !sensitive && (m.rule === 'substringWildcard' ? lower.includes(v) : lower === v);
  };
  if (!value.includes('*') && texts.some(caseOnly)) return { defect: LOST.caseSensitive, acrossSubjects: true };
  return generic;
}
