// One request per parameter, checked for meaning. `MEANINGS` is the suite's one table
// from each rule of the spec's `x-meaning` to its check, so a new filter of a known
// kind is one line of spec. Probe values come from rows the suite has already seen,
// so each probe is known to match at least one row (a filter that matches nothing
// proves nothing). Besides: every parameter set to its default (a boolean to false)
// must answer as if it were left out.
import type { Meaning, Operation, Parameter } from '../../spec/model.ts';
import { fieldsOf, countsOf, type Rule } from '../../spec/meaning.ts';
import { weakest, type Provenance } from '../../spec/provenance.ts';
import type { Exchange, SuiteContext } from './context.ts';
import type { HttpResponse } from './http.ts';
import type { Reader } from './reader.ts';
import { ROW_RULES, isRowRule, type RowMeaning, type RowRule } from './row-rules.ts';
import { countOf, describeQuery, identityOf, rowsOf, type Query, type Row, type SeenRow } from './rows.ts';

export interface MeaningRun {
  ctx: SuiteContext;
  reader: Reader;
  op: Operation;
  param: Parameter;
  meaning: Meaning;
  /** Rows seen so far, each with the query that answered it. */
  seen: SeenRow[];
}

type Check = (run: MeaningRun) => Promise<void>;

/** The parameters whose rule shapes pages rather than picks rows: a probe keeps none of them. */
export const PAGING: readonly Rule[] = ['limitsRows', 'page', 'sort'];

/** The query a witness came from, without paging, so a probe asks within the same scope. */
export function scopeOf(op: Operation, query: Query): Query {
  const paging = new Set(op.parameters.filter((p) => p.meaning && PAGING.includes(p.meaning.rule)).map((p) => p.name));
  return Object.fromEntries(Object.entries(query).filter(([k]) => !paging.has(k)));
}

/** How firm a meaning check is: the softest of the operation, the parameter and every row part it reads. */
export function meaningProvenance(op: Operation, param: Parameter, m: Meaning): Provenance {
  const rows = op.rows;
  return weakest(
    op.provenance,
    param.provenance,
    rows?.provenance,
    ...fieldsOf(m).map((f) => rows?.fields.get(f)?.provenance),
    ...countsOf(m).map((c) => rows?.siblings.get(c)),
  );
}

/** The clock of the target (its Date header) for age rules; this machine's when it sends none. */
function serverNow(res: HttpResponse): number {
  const date = Date.parse(res.headers.date ?? '');
  return Number.isNaN(date) ? Date.now() : date;
}

/** The name of a row (its identity, e.g. `1.2.3.4:25565`) and the fields a rule reads. */
function showRow(op: Operation, row: Row, fields: string[]): string {
  return `${identityOf(op, row)} (${fields.map((f) => `${f} ${JSON.stringify(row[f])}`).join(', ')})`;
}

/** Every row of an answer satisfies the rule at `value`, and the witness is not lost. */
export function rowProblems(op: Operation, rule: RowRule, m: RowMeaning, value: string, witness: Row | undefined, res: HttpResponse): string[] {
  const rows = rowsOf(op, res.json);
  if (!rows) return [`the body has no '${op.rows?.property}' array`];
  const now = serverNow(res);
  const fields = fieldsOf(m);
  const bad = rows.filter((r) => !rule.holds(m, r, value, now));
  const problems: string[] = [];
  if (bad.length) problems.push(`${bad.length} of ${rows.length} rows break it, e.g. ${showRow(op, bad[0]!, fields)}`);
  if (witness) {
    const total = totalOf(op, res.json);
    const id = identityOf(op, witness);
    // Only when every matching row is on this page can a missing witness be told from paging.
    if (rows.length === 0) problems.push(`no row at all, but ${showRow(op, witness, fields)} satisfies it`);
    else if ((total === undefined || total <= rows.length) && !rows.some((r) => identityOf(op, r) === id)) {
      problems.push(`${showRow(op, witness, fields)} satisfies it but is not among the ${rows.length} rows`);
    }
  }
  return problems;
}

/** The count of all matching rows (the `page` rule's `total`), if the operation pages. */
export function totalOf(op: Operation, body: unknown): number | undefined {
  const page = op.parameters.find((p) => p.meaning?.rule === 'page')?.meaning;
  return page?.rule === 'page' ? countOf(body, page.total) : undefined;
}


async function checkRows(run: MeaningRun): Promise<void> {
  const { ctx, reader, op, param } = run;
  const m = run.meaning as RowMeaning;
  const rule = ROW_RULES[m.rule] as RowRule;
  const provenance = meaningProvenance(op, param, m);
  if (!ctx.wants(provenance)) return;
  const probes = rule.probes(m, run.seen, param).filter((p) => ctx.accepts(param.schema, p.value));
  if (!probes.length) {
    ctx.skip(op, `meaning: ${param.name} filters rows`, provenance, `no row seen carries a value to probe ${param.name} with (${fieldsOf(m).join(', ')} empty or null in every row seen)`);
    return;
  }
  for (const probe of probes) {
    const query = { ...scopeOf(op, probe.witness?.query ?? {}), [param.name]: probe.value };
    const ex = await reader.get(op, query);
    ctx.verify(op, `meaning: ${param.name} ${probe.label}`, provenance, ex, {
      status: op.successStatus,
      schema: false,
      expected: `${op.successStatus}, every row with ${rule.says(m, probe.value)}${probe.witness ? `, ${identityOf(op, probe.witness.row)} among them` : ''}`,
      extra: (res) => (res.status === op.successStatus ? rowProblems(op, rule, m, probe.value, probe.witness?.row, res) : []),
    });
  }
}

/**
 * Compares two answers' counts; when they disagree, asks both again once, so a live
 * target whose counts moved between the requests is not taken for a defect.
 */
async function stableCompare(reader: Reader, op: Operation, a: Query, b: Query, compare: (x: unknown, y: unknown) => string[]): Promise<{ ex: Exchange; problems: string[] }> {
  let [ea, eb] = [await reader.get(op, a), await reader.get(op, b)];
  let problems = ea.response && eb.response ? compare(ea.response.json, eb.response.json) : [];
  if (problems.length) {
    [ea, eb] = [await reader.get(op, a, { fresh: true }), await reader.get(op, b, { fresh: true })];
    problems = ea.response && eb.response ? compare(ea.response.json, eb.response.json) : problems;
  }
  if (!ea.response && eb.response) problems.push(`the request without ${describeQuery(b)} got no answer: ${ea.skipped ?? ea.error}`);
  return { ex: eb, problems };
}

async function checkRevealsHidden(run: MeaningRun): Promise<void> {
  const { ctx, reader, op, param } = run;
  if (run.meaning.rule !== 'revealsHidden') return;
  const { hidden, total } = run.meaning;
  const provenance = meaningProvenance(op, param, run.meaning);
  if (!ctx.wants(provenance)) return;
  const { ex, problems } = await stableCompare(reader, op, {}, { [param.name]: 'true' }, (without, withIt) => {
    const out: string[] = [];
    const h = countOf(without, hidden);
    if (h === undefined) out.push(`without ${param.name}, the answer has no '${hidden}'`);
    if (withIt && typeof withIt === 'object' && hidden in withIt) out.push(`with ${param.name}=true, '${hidden}' is still there`);
    const [t0, t1] = [countOf(without, total), countOf(withIt, total)];
    if (h !== undefined && t0 !== undefined && t1 !== undefined && t1 !== t0 + h) {
      out.push(`${total} is ${t1} with ${param.name}=true, but ${t0} + ${hidden} ${h} = ${t0 + h} without it`);
    }
    return out;
  });
  ctx.verify(op, `meaning: ${param.name}=true shows the hidden rows: '${hidden}' is gone and ${total} grows by it`, provenance, ex, {
    status: op.successStatus, schema: false, extra: () => problems,
  });
}

async function checkLimitsRows(run: MeaningRun): Promise<void> {
  const { ctx, reader, op, param } = run;
  if (run.meaning.rule !== 'limitsRows') return;
  const { counts } = run.meaning;
  const provenance = meaningProvenance(op, param, run.meaning);
  if (!ctx.wants(provenance)) return;
  const all = await reader.get(op, {});
  const rows = rowsOf(op, all.response?.json)?.length ?? 0;
  const minimum = typeof param.schema.minimum === 'number' ? param.schema.minimum : 1;
  const n = Math.max(minimum, Math.floor(rows / 2));
  const { ex, problems } = await stableCompare(reader, op, {}, { [param.name]: String(n) }, (without, limited) => {
    const out: string[] = [];
    const got = rowsOf(op, limited)?.length;
    if (got !== undefined && got > n) out.push(`${got} rows, more than ${param.name}=${n}`);
    for (const c of counts) {
      const [x, y] = [countOf(without, c), countOf(limited, c)];
      if (x !== undefined && y !== x) out.push(`${c} is ${y} with ${param.name}=${n} but ${x} without: it must not depend on ${param.name}`);
    }
    return out;
  });
  ctx.verify(op, `meaning: ${param.name} cuts the rows${counts.length ? ` and leaves ${counts.join(', ')} alone` : ''}`, provenance, ex, {
    status: op.successStatus, schema: false, extra: () => problems,
  });
}

/** What an answer looks like, without its data: keys, the kind of each row field, the counts. */
export function shapeOf(op: Operation, body: unknown): { keys: string; fields: string; counts: Record<string, unknown>; rows?: number } {
  const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v) ? 'timestamp' : typeof v);
  const rows = rowsOf(op, body) ?? [];
  const fields = new Set(rows.flatMap((r) => Object.entries(r).map(([k, v]) => `${k}:${kind(v)}`)));
  const top = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  return {
    keys: Object.keys(top).sort().join(', '),
    fields: [...fields].sort().join(', '),
    counts: Object.fromEntries(Object.entries(top).filter(([, v]) => typeof v === 'number')),
    rows: rowsOf(op, body)?.length,
  };
}

/** How two answers differ in shape, for people. */
function shapeProblems(op: Operation, a: unknown, b: unknown, label: string): string[] {
  const [x, y] = [shapeOf(op, a), shapeOf(op, b)];
  const diff = (p: string, q: string) => {
    const [ps, qs] = [new Set(p.split(', ').filter(Boolean)), new Set(q.split(', ').filter(Boolean))];
    return [...[...qs].filter((k) => !ps.has(k)).map((k) => `+${k}`), ...[...ps].filter((k) => !qs.has(k)).map((k) => `-${k}`)].join(' ');
  };
  const out: string[] = [];
  if (x.keys !== y.keys) out.push(`with ${label} the body's keys change: ${diff(x.keys, y.keys)}`);
  if (x.fields !== y.fields) out.push(`with ${label} the rows change: ${diff(x.fields, y.fields)}`);
  for (const [k, v] of Object.entries(x.counts)) if (k in y.counts && y.counts[k] !== v) out.push(`with ${label} ${k} is ${y.counts[k]}, without it ${v}`);
  if (x.rows !== y.rows) out.push(`with ${label} ${y.rows} rows, without it ${x.rows}`);
  return out;
}

async function checkLikeLeftOut(run: MeaningRun, value = String(run.param.example ?? 'x'), name?: string): Promise<void> {
  const { ctx, reader, op, param } = run;
  const provenance = weakest(op.provenance, param.provenance, op.rows?.provenance);
  if (!ctx.wants(provenance) || !ctx.accepts(param.schema, value)) return;
  const label = `${param.name}=${value}`;
  const { ex, problems } = await stableCompare(reader, op, {}, { [param.name]: value }, (a, b) => shapeProblems(op, a, b, label));
  ctx.verify(op, name ?? `meaning: ${param.name} is ignored: ${label} answers like ${param.name} left out`, provenance, ex, {
    status: op.successStatus, schema: false, extra: () => problems,
  });
}

/** Paging and sorting are checked by the sample, which pages through every order (lib/sample.ts). */
const bySample: Check = async () => undefined;

/** Each rule of `x-meaning`, and the check that proves a target honours it. */
export const MEANINGS: { [R in Rule]: Check } = {
  atLeast: checkRows,
  atMost: checkRows,
  ageAtLeastDays: checkRows,
  ageAtMostDays: checkRows,
  wholeWildcard: checkRows,
  substringWildcard: checkRows,
  nameOrCode: checkRows,
  equals: checkRows,
  flag: checkRows,
  addsField: checkRows,
  relativeTime: checkRows,
  revealsHidden: checkRevealsHidden,
  limitsRows: checkLimitsRows,
  ignored: (run) => checkLikeLeftOut(run),
  page: bySample,
  sort: bySample,
};

/** The value that means "left out": the schema's default, or false for a boolean without one. */
export function neutralValue(param: Parameter): string | undefined {
  if ('default' in param) return String(param.default);
  return param.schema.type === 'boolean' ? 'false' : undefined;
}

/** Whether any meaning or default check of an operation is within the run's --provenance. */
export function meaningsWanted(ctx: SuiteContext, op: Operation): boolean {
  return op.parameters.some((p) => p.meaning && (ctx.wants(meaningProvenance(op, p, p.meaning)) || ctx.wants(weakest(op.provenance, p.provenance, op.rows?.provenance))));
}

/** Every meaning of an operation's parameters, then every default. */
export async function checkOperationMeanings(ctx: SuiteContext, reader: Reader, op: Operation, seen: SeenRow[]): Promise<void> {
  for (const param of op.parameters) {
    if (param.meaning) await MEANINGS[param.meaning.rule]({ ctx, reader, op, param, meaning: param.meaning, seen });
  }
  for (const param of op.parameters.filter((p) => p.in === 'query')) {
    const value = neutralValue(param);
    if (value !== undefined && param.meaning) {
      await checkLikeLeftOut({ ctx, reader, op, param, meaning: param.meaning, seen }, value, `default: ${param.name}=${value} answers like ${param.name} left out`);
    }
  }
}

/**
 * Filters combine with AND: a few pairs of filters, each pair taken from one seen row
 * (which satisfies both), for the sample to page through.
 */
/** The stable name of a combination check: the filters it combines (their values are data). */
export function combinationName(predicates: { param: Parameter }[]): string {
  return `meaning: filters combine with AND (${predicates.map((p) => p.param.name).join(' and ')})`;
}

export function combinations(op: Operation, seen: SeenRow[], count = 3): { query: Query; predicates: { param: Parameter; meaning: RowMeaning; value: string }[] }[] {
  const filters = op.parameters.filter((p) => p.meaning && isRowRule(p.meaning) && p.meaning.rule !== 'addsField' && p.meaning.rule !== 'relativeTime');
  const out: ReturnType<typeof combinations> = [];
  for (let i = 0; i < count && seen.length; i++) {
    const w = seen[Math.floor(((i + 1) * seen.length) / (count + 1))]!;
    const usable = filters.flatMap((p) => {
      const m = p.meaning as RowMeaning;
      const value = (ROW_RULES[m.rule] as RowRule).valueFor(m, w.row, p);
      return value === undefined ? [] : [{ param: p, meaning: m, value }];
    });
    // A different pair for each combination, spread over the filters.
    const pair = [usable[(2 * i) % Math.max(1, usable.length)], usable[(2 * i + 1) % Math.max(1, usable.length)]].filter((x, j, a) => x && a.indexOf(x) === j) as typeof usable;
    if (pair.length < 2) continue;
    out.push({ query: { ...scopeOf(op, w.query), ...Object.fromEntries(pair.map((p) => [p.param.name, p.value])) }, predicates: pair });
  }
  return out;
}
