// `meaning:` and `default:` one request per parameter, checked for what its `x-meaning`
// in the spec says. `MEANINGS` is the one table from each rule to its check, so a new
// filter of a known kind is one line of spec. Probe values come from rows the suite has
// already seen, so each probe is known to match at least one row (a filter that matches
// nothing proves nothing). Besides: every parameter set to its default (a boolean to
// false) must answer as if it were left out.
import { fieldsOf, type Rule } from '../../../spec/meaning.ts';
import { says } from '../../../spec/rules.ts';
import type { Meaning, Operation, Parameter } from '../../../spec/model.ts';
import { weakest } from '../../../spec/provenance.ts';
import type { CheckResult } from '../../kit/recorder.ts';
import type { Scope } from '../../kit/scope.ts';
import type { HttpResponse } from '../../transport/http.ts';
import { expectAnswer, skip } from '../expect.ts';
import { family, type GivenFor } from '../run-kit.ts';
import { scopeOf, totalOf } from './combinations.ts';
import { shapeProblems, stableCompare } from './compare.ts';
import { meaningProvenance } from './levels.ts';
import { ROW_RULES, rowsBreaking, type RowMeaning, type RowRule } from './row-rules.ts';
import { countOf, identityOf, rowCountOf, rowsOf, type Row, type SeenRow } from './answer-rows.ts';

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

/** The clock of the target (its Date header) for age rules; this machine's when it sends none. */
function serverNow(res: HttpResponse): number {
  const date = Date.parse(res.headers.date ?? '');
  return Number.isNaN(date) ? Date.now() : date;
}

/** The name of a row (its identity, e.g. `1.2.3.4:25565`) and the fields a rule reads. */
function showRow(op: Operation, row: Row, fields: string[]): string {
  return `${identityOf(op, row)} (${fields.map((f) => `${f} ${JSON.stringify(row[f])}`).join(', ')})`;
}

/** Every row of an answer satisfies the parameter at `value`, and the witness is not lost. */
export function rowProblems(
  op: Operation,
  probe: { param: Parameter; value: string; witness?: Row },
  res: HttpResponse,
): string[] {
  const rows = rowsOf(op, res.json);
  if (!rows) return [`the body has no '${op.rows?.property}' array`];
  const fields = fieldsOf(probe.param.meaning!);
  const bad = rowsBreaking(op, { [probe.param.name]: probe.value }, rows, serverNow(res));
  const problems: string[] = [];
  if (bad.length)
    problems.push(`${bad.length} of ${rows.length} rows break it, e.g. ${showRow(op, bad[0]!.row, fields)}`);
  const witness = probe.witness;
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

async function checkRows({ run, op, param, meaning, seen }: MeaningProbe): Promise<CheckResult[]> {
  const m = meaning as RowMeaning;
  const rule = ROW_RULES[m.rule] as RowRule;
  const level = meaningProvenance(op, param, m);
  if (!run.scope.wants(level)) return [];
  const probes = rule.probes(m, seen, param).filter((p) => run.judging.ctx.schemas.accepts(param.schema, p.value));
  if (!probes.length) {
    return skip(run.scope, {
      op,
      check: `meaning: ${param.name} filters rows`,
      level,
      reason: `no row seen carries a value to probe ${param.name} with (${fieldsOf(m).join(', ')} empty or null in every row seen)`,
    });
  }
  const out: CheckResult[] = [];
  for (const probe of probes) {
    const exchange = await run.reads.get(op, { ...scopeOf(op, probe.witness?.query ?? {}), [param.name]: probe.value });
    out.push(
      expectAnswer(run, {
        op,
        check: `meaning: ${param.name} ${probe.label}`,
        level,
        exchange,
        status: op.successStatus,
        schema: false,
        subject: param.name,
        expected: `${op.successStatus}, every row with ${says(m, probe.value)}${probe.witness ? `, ${identityOf(op, probe.witness.row)} among them` : ''}`,
        extra: (res) =>
          res.status === op.successStatus
            ? rowProblems(op, { param, value: probe.value, witness: probe.witness?.row }, res)
            : [],
      }),
    );
  }
  return out;
}

async function checkRevealsHidden({ run, op, param, meaning }: MeaningProbe): Promise<CheckResult[]> {
  if (meaning.rule !== 'revealsHidden') return [];
  const { hidden, total } = meaning;
  const level = meaningProvenance(op, param, meaning);
  if (!run.scope.wants(level)) return [];
  const { exchange, problems } = await stableCompare(run.reads, {
    op,
    without: {},
    with: { [param.name]: 'true' },
    compare: (without, withIt) => {
      const out: string[] = [];
      const h = countOf(without, hidden);
      if (h === undefined) out.push(`without ${param.name}, the answer has no '${hidden}'`);
      if (withIt && typeof withIt === 'object' && hidden in withIt)
        out.push(`with ${param.name}=true, '${hidden}' is still there`);
      const [t0, t1] = [countOf(without, total), countOf(withIt, total)];
      if (h !== undefined && t0 !== undefined && t1 !== undefined && t1 !== t0 + h)
        out.push(`${total} is ${t1} with ${param.name}=true, but ${t0} + ${hidden} ${h} = ${t0 + h} without it`);
      return out;
    },
  });
  const check = `meaning: ${param.name}=true shows the hidden rows: '${hidden}' is gone and ${total} grows by it`;
  // A count that does not add up is about the count (the sample's paging may show it too); a hidden field still there, about the parameter.
  const subject = problems.some((p) => p.startsWith(`${total} is `)) ? total : param.name;
  return [
    expectAnswer(run, {
      op,
      check,
      level,
      exchange,
      status: op.successStatus,
      schema: false,
      subject,
      extra: () => problems,
    }),
  ];
}

async function checkLimitsRows({ run, op, param, meaning }: MeaningProbe): Promise<CheckResult[]> {
  if (meaning.rule !== 'limitsRows') return [];
  const { counts } = meaning;
  const level = meaningProvenance(op, param, meaning);
  if (!run.scope.wants(level)) return [];
  const all = await run.reads.get(op, {});
  const rows = rowCountOf(op, all.response?.json) ?? 0;
  const minimum = typeof param.schema.minimum === 'number' ? param.schema.minimum : 1;
  const n = Math.max(minimum, Math.floor(rows / 2));
  const { exchange, problems } = await stableCompare(run.reads, {
    op,
    without: {},
    with: { [param.name]: String(n) },
    compare: (without, limited) => {
      const out: string[] = [];
      const got = rowCountOf(op, limited);
      if (got !== undefined && got > n) out.push(`${got} rows, more than ${param.name}=${n}`);
      for (const c of counts) {
        const [x, y] = [countOf(without, c), countOf(limited, c)];
        if (x !== undefined && y !== x)
          out.push(`${c} is ${y} with ${param.name}=${n} but ${x} without: it must not depend on ${param.name}`);
      }
      return out;
    },
  });
  const check = `meaning: ${param.name} cuts the rows${counts.length ? ` and leaves ${counts.join(', ')} alone` : ''}`;
  return [
    expectAnswer(run, {
      op,
      check,
      level,
      exchange,
      status: op.successStatus,
      schema: false,
      subject: param.name,
      extra: () => problems,
    }),
  ];
}

/** `param=value` answers like the parameter left out: the `ignored` rule, and every default. */
async function checkLikeLeftOut(
  { run, op, param }: MeaningProbe,
  asked: { value: string; check?: string },
): Promise<CheckResult[]> {
  const level = weakest(op.provenance, param.provenance, op.rows?.provenance);
  if (!run.scope.wants(level) || !run.judging.ctx.schemas.accepts(param.schema, asked.value)) return [];
  const label = `${param.name}=${asked.value}`;
  const { exchange, problems } = await stableCompare(run.reads, {
    op,
    without: {},
    with: { [param.name]: asked.value },
    compare: (a, b) => shapeProblems(op, { without: a, with: b }, label),
  });
  const check = asked.check ?? `meaning: ${param.name} is ignored: ${label} answers like ${param.name} left out`;
  // A boolean's false that does not answer like "left out" is one finding, whichever parameter: the target reads the value's presence.
  const finding = param.schema.type === 'boolean' && asked.value === 'false' ? FALSE_NOT_NEUTRAL : undefined;
  const result = expectAnswer(run, {
    op,
    check,
    level,
    exchange,
    status: op.successStatus,
    schema: false,
    subject: param.name,
    finding,
    extra: () => problems,
    expected: `${op.successStatus}, the same keys, row fields and counts as ${param.name} left out`,
  });
  // A parameter set to its default is a check of its own group, `default:`.
  return [asked.check ? { family: 'default', ...result } : result];
}

/** The finding of every `default:` check of a boolean set to false that answers otherwise than left out. */
export const FALSE_NOT_NEUTRAL =
  'a boolean parameter set to false does not answer like the parameter left out (read as true?)';

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
  ignored: (p) => checkLikeLeftOut(p, { value: String(p.param.example ?? 'x') }),
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
      (scope.wants(meaningProvenance(op, p, p.meaning)) ||
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
