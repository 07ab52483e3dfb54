// `meaning:` and `default:` one request per parameter, chosen for what its `x-meaning` in
// the spec says; `MEANINGS` is the one table from each rule to how it is probed, so a new
// filter of a known kind is one line of spec. Probe values come from rows the suite has
// already seen, so each probe is known to match at least one row (a filter that matches
// nothing proves nothing), and that row goes with the request as what the sender knows:
// the `filters` judge holds the answer to keeping it. Besides: every parameter set to its
// default (a boolean to false) must answer as if it were left out, and the rules that
// compare two answers (revealsHidden, limitsRows, ignored) are the registry's comparisons
// (spec/judges/comparisons.ts). The family judges nothing itself.
import { countsKept, leftOut, revealsHidden, witness } from '../../../spec/judges/comparisons.ts';
import { answerTime } from '../../../spec/judges/exchange.ts';
import type { Finding } from '../../../spec/judges/judge.ts';
import { allowsValue } from '../../../spec/judges/reading.ts';
import { STATUS_JUDGES } from '../../../spec/judges/registry.ts';
import { identityOf, meaningLevel, type Row, rowCountOf, rowsOf, totalOf } from '../../../spec/judges/rows.ts';
import { DIRECTIONS, fieldsOf, type Rule } from '../../../spec/meaning.ts';
import type { Meaning, Operation, Parameter } from '../../../spec/model.ts';
import { type Provenance, weakest } from '../../../spec/provenance.ts';
import { says } from '../../../spec/rules.ts';
import type { CheckResult } from '../../shared/recorder.ts';
import type { Scope } from '../../shared/scope.ts';
import type { Exchange } from '../../transport/transport.ts';
import { skip } from '../skip.ts';
import { family, type GivenFor } from '../run-parts.ts';
import type { Query, SeenRow } from './answer-rows.ts';
import { scopeOf } from './combinations.ts';
import { stableCompare } from './compare.ts';
import { ROW_RULES, type RowMeaning, type RowRule } from './row-rules.ts';

const NEEDS = ['scope', 'judging', 'credentials', 'reads', 'sample'] as const;
type Run = GivenFor<typeof NEEDS>;

/** One parameter's meaning, to check against the run's target. */
export interface MeaningProbe {
  run: Run;
  op: Operation;
  param: Parameter;
  meaning: Meaning;
  /** Rows seen so far, each with the query that answered it. */
  seen: SeenRow[];
}

type Check = (p: MeaningProbe) => Promise<CheckResult[]>;

/** What a probe's result is about: the status its request is owed, the rows against the filters sent, a switch. */
const ROWS = [...STATUS_JUDGES, 'filters', 'switches'];

async function checkRows({ run, op, param, meaning, seen }: MeaningProbe): Promise<CheckResult[]> {
  const m = meaning as RowMeaning;
  const rule = ROW_RULES[m.rule] as RowRule;
  const level = meaningLevel(op, param, m);
  if (!run.scope.wants(level)) return [];
  // A value the spec allows as it travels: `eu` for the enum of a text rule, which takes any case.
  const probes = rule.probes(m, seen, param).filter((p) => allowsValue(run.judging.ctx, param, p.value));
  if (!probes.length) {
    return skip(run.scope, {
      op,
      check: `meaning: ${param.name} filters rows`,
      level,
      reason:
        `no row seen carries a value to probe ${param.name} with (${fieldsOf(m).join(', ')} empty or null in ` +
        `every row seen)`,
    });
  }
  const out: CheckResult[] = [];
  for (const probe of probes) {
    const query = { ...scopeOf(op, probe.witness?.query ?? {}), [param.name]: probe.value };
    const exchange = await run.reads.get(op, query);
    const witness = probe.witness ? ` ${identityOf(op, probe.witness.row)} among them` : '';
    const expected = `${op.successStatus}, every row with ${says(m, probe.value)}${witness ? `,${witness}` : ''}`;
    const known = probe.witness ? { witness: probe.witness.row } : {};
    // A bound is probed on both sides: every page of its matches is read (each judged as any answer is).
    const every = m.rule === 'atLeast' || m.rule === 'atMost';
    const more = probe.witness
      ? await pagedWitness(run, op, param, probe.value, probe.witness.row, query, exchange, every)
      : [];
    out.push(
      run.judging.case(
        { op, check: `meaning: ${param.name} ${probe.label}`, level, about: ROWS, known, expected },
        exchange,
        more,
      ),
    );
  }
  return out;
}

/**
 * Pages a probe reads at most, past the first, looking for the row it was taken from (at a bound, it may match late).
 */
const WITNESS_PAGES = 8;

const byRule = (op: Operation, rule: Rule) => op.parameters.find((p) => p.meaning?.rule === rule);

/**
 * When the first page of a probe's matches lacks the row the probe was taken from (or
 * `every` page is wanted) and there are more matches than the page holds, the next
 * pages, until the row is found, every match is read or WITNESS_PAGES more were asked:
 * the `witness` comparison's findings over them (none while paging has not reached every
 * match).
 */
async function pagedWitness(
  run: Run,
  op: Operation,
  param: Parameter,
  value: string,
  row: Row,
  query: Record<string, string>,
  first: Exchange,
  every = false,
): Promise<Finding[]> {
  const pageParam = byRule(op, 'page');
  const body = first.response?.status === op.successStatus ? first.response.json : undefined;
  const rows = rowsOf(op, body);
  const total = totalOf(op, body);
  if (!pageParam || !rows || total === undefined || total <= rows.length) return [];
  const id = identityOf(op, row);
  const pages: unknown[] = [body];
  const has = (b: unknown) => (rowsOf(op, b) ?? []).some((r) => identityOf(op, r) === id);
  for (let n = 2; n <= WITNESS_PAGES + 1 && (every || !pages.some(has)); n++) {
    const seen = pages.reduce<number>((k, b) => k + (rowsOf(op, b)?.length ?? 0), 0);
    if (seen >= total) break;
    const next = await run.reads.get(op, { ...query, [pageParam.name]: String(n) });
    if (next.response?.status !== op.successStatus) break;
    pages.push(next.response.json);
    if (!rowsOf(op, next.response.json)?.length) break;
  }
  run.judging.compared(witness.name, op, param.name);
  return witness.compare(run.judging.ctx, { op, param, value }, row, pages, answerTime(first.response!.headers));
}

/** What a comparison's case is about besides the comparison: the status owed, the page, the switches. */
const COMPARED = [...STATUS_JUDGES, 'page', 'switches'];

/** A case of one exchange with a comparison's findings: the status it is owed, and what the comparison found. */
function compared(
  run: Run,
  c: {
    op: Operation;
    check: string;
    level: Provenance;
    expected?: string;
  },
  exchange: Exchange,
  findings: Finding[],
): CheckResult {
  return run.judging.case({ ...c, about: COMPARED }, exchange, findings);
}

async function checkRevealsHidden({ run, op, param, meaning }: MeaningProbe): Promise<CheckResult[]> {
  if (meaning.rule !== 'revealsHidden') return [];
  const level = meaningLevel(op, param, meaning);
  if (!run.scope.wants(level)) return [];
  const { exchange, findings, asked } = await stableCompare(run.reads, {
    op,
    without: {},
    with: { [param.name]: 'true' },
    compare: (without, withIt) => revealsHidden.compare(run.judging.ctx, { op, param }, without, withIt),
  });
  run.judging.compared(revealsHidden.name, op, param.name);
  const check =
    `meaning: ${param.name}=true shows the hidden rows: '${meaning.hidden}' is gone and ${meaning.total} ` +
    `grows by it`;
  run.judging.claim(asked, COMPARED);
  return [compared(run, { op, check, level }, exchange, findings)];
}

async function checkLimitsRows({ run, op, param, meaning }: MeaningProbe): Promise<CheckResult[]> {
  if (meaning.rule !== 'limitsRows') return [];
  const level = meaningLevel(op, param, meaning);
  if (!run.scope.wants(level)) return [];
  const all = await run.reads.get(op, {});
  const rows = rowCountOf(op, all.response?.json) ?? 0;
  const minimum = typeof param.schema.minimum === 'number' ? param.schema.minimum : 1;
  const value = String(Math.max(minimum, Math.floor(rows / 2)));
  const { exchange, findings, asked } = await stableCompare(run.reads, {
    op,
    without: {},
    with: { [param.name]: value },
    compare: (without, limited) => countsKept.compare(run.judging.ctx, { op, param, value }, without, limited),
  });
  run.judging.compared(countsKept.name, op, param.name);
  const counts = meaning.counts.length ? ` and leaves ${meaning.counts.join(', ')} alone` : '';
  run.judging.claim(asked, COMPARED);
  return [compared(run, { op, check: `meaning: ${param.name} cuts the rows${counts}`, level }, exchange, findings)];
}

/** `param=value` answers like the parameter left out: the `ignored` rule, and every default. */
async function checkLikeLeftOut(
  { run, op, param }: MeaningProbe,
  given: { value: string; check?: string; base?: Query },
): Promise<CheckResult[]> {
  const level = weakest(op.provenance, param.provenance, op.rows?.provenance);
  if (!run.scope.wants(level) || !run.judging.ctx.schemas.accepts(param.schema, given.value)) return [];
  const { value } = given;
  const base = given.base ?? {};
  const { exchange, findings, asked } = await stableCompare(run.reads, {
    op,
    without: base,
    with: { ...base, [param.name]: value },
    compare: (without, withIt) => leftOut.compare(run.judging.ctx, { op, param, value }, without, withIt),
  });
  run.judging.compared(leftOut.name, op, param.name);
  const check =
    given.check ?? `meaning: ${param.name} is ignored: ${param.name}=${value} answers like ${param.name} left out`;
  const expected = `${op.successStatus}, the same keys, row fields, counts and row order as ${param.name} left out`;
  // An ignored parameter that reorders the rows is the defect: the order judge's finding on its answer is the
  // symptom, filed with it. Rows out of order with and without it are the order's defect, judged as any answer.
  const reorders = !given.check && findings.length > 0;
  const about = reorders ? [...COMPARED, 'order'] : COMPARED;
  run.judging.claim(asked, about);
  const result = run.judging.case({ op, check, level, about, expected, comparisonFirst: reorders }, exchange, findings);
  // A parameter set to its default is a check of its own group, `default:`.
  return [given.check ? { family: 'default', ...result } : result];
}

/**
 * The `ignored` rule: the parameter's example, and each word a sort direction is written
 * in (`order=asc`, `order=desc`: what a client that thinks it works sends), with every
 * sort order of the operation and without one, each answering as the parameter left out.
 */
async function checkIgnored(p: MeaningProbe): Promise<CheckResult[]> {
  const sort = byRule(p.op, 'sort');
  const orders = sort?.meaning?.rule === 'sort' ? Object.keys(sort.meaning.orders) : [];
  const words = [...new Set([String(p.param.example ?? 'x'), ...(orders.length ? DIRECTIONS : [])])];
  const out: CheckResult[] = [];
  for (const order of [undefined, ...orders])
    for (const value of words)
      out.push(...(await checkLikeLeftOut(p, { value, ...(order ? { base: { [sort!.name]: order } } : {}) })));
  return out;
}

/** Paging and sorting are checked by the sample, which pages through every order (checks/sample/). */
const bySample: Check = async () => [];

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
  ignored: checkIgnored,
  page: bySample,
  sort: bySample,
};

/** The value that means "left out": the schema's default, or false for a boolean without one. */
export function neutralValue(param: Parameter): string | undefined {
  if ('default' in param) return String(param.default);
  return param.schema.type === 'boolean' ? 'false' : undefined;
}

/** Whether any meaning or default check of an operation is within the run's --provenance. */
export function meaningsWanted(scope: Scope, op: Operation): boolean {
  return op.parameters.some(
    (p) =>
      p.meaning &&
      (scope.wants(meaningLevel(op, p, p.meaning)) ||
        scope.wants(weakest(op.provenance, p.provenance, op.rows?.provenance))),
  );
}

/** The rows an operation's probes draw from: the search's sample, or all the rows of a lookup without paging. */
async function seenRows(op: Operation, run: Run): Promise<SeenRow[]> {
  if (op === run.sample?.op) {
    await run.sample.seed();
    return run.sample.seen;
  }
  const all = await run.reads.get(op);
  return (rowsOf(op, all.response?.json) ?? []).map((row) => ({ row, query: {} }));
}

/** Every meaning of an operation's parameters, then every default. */
async function operationMeanings(op: Operation, run: Run): Promise<CheckResult[]> {
  if (!op.rows || !meaningsWanted(run.scope, op)) return [];
  const seen = await seenRows(op, run);
  const out: CheckResult[] = [];
  for (const param of op.parameters)
    if (param.meaning)
      out.push(...(await MEANINGS[param.meaning.rule]({ run, op, param, meaning: param.meaning, seen })));
  for (const param of op.parameters.filter((p) => p.in === 'query' && p.meaning)) {
    const value = neutralValue(param);
    if (value !== undefined)
      out.push(
        ...(await checkLikeLeftOut(
          { run, op, param, meaning: param.meaning!, seen },
          { value, check: `default: ${param.name}=${value} answers like ${param.name} left out` },
        )),
      );
  }
  return out;
}

export const meaningFamily = family({ name: 'meaning', needs: NEEDS, perOperation: operationMeanings });
