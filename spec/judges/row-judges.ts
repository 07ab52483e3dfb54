// The judges of an answer's rows against the query that asked for them, read from the
// spec's `x-meaning` (what each rule means: spec/rules.ts): every row satisfies each
// filter sent, and keeps a row the sender knows matches (`filters`); the rows come in the
// order asked, or the default order (`order`); a page holds at most `limit` rows, none past
// the end (`page`); a switch sent off reads as left out, on as on (`switches`). A value sent
// twice, left empty or refused by its schema says nothing about rows (that answer owes a
// 400) and is passed over.
import type { Operation, Parameter } from '../model.ts';
import { firmest, type Provenance } from '../provenance.ts';
import { holds, isOn, isRowRule } from '../rules.ts';
import { fieldsOf } from '../meaning.ts';
import { FALSE_NOT_NEUTRAL } from './comparisons.ts';
import type { Exchange } from './exchange.ts';
import { type Finding, judge, type JudgeContext } from './judge.ts';
import {
  countOf,
  hasIdentity,
  identityFields,
  identityOf,
  lostRow,
  meaningLevel,
  orderProblem,
  type Row,
  rowCountOf,
  rowsBreaking,
  rowsOf,
  someRows,
  totalOf,
} from './rows.ts';

/**
 * The rows of a success that has them, with its operation. An answer chosen for the
 * request (the mock's `Prefer: example=`) owes its rows nothing of the query: none then,
 * unless `steeredToo` (a count of the body is the body's own matter).
 */
function answered(ex: Exchange, ctx: JudgeContext, steeredToo = false): { op: Operation; rows: Row[] } | undefined {
  const op = ctx.operation(ex);
  if (!op?.rows || ex.answer.status < 200 || ex.answer.status >= 300) return undefined;
  if (ex.known?.steered && !steeredToo) return undefined;
  const rows = rowsOf(op, ex.answer.json);
  return rows ? { op, rows } : undefined;
}

/** The parameters with a meaning sent once, with a value their schema allows. */
function meant(ex: Exchange, ctx: JudgeContext): { param: Parameter; value: string }[] {
  const reading = ctx.read(ex);
  const refused = new Set(reading.refused.map((r) => r.name));
  return [...reading.values.values()].filter(
    (v) => v.param.in === 'query' && v.param.meaning && !refused.has(v.param.name),
  );
}

/** A switch or flag sent at the value that means "left out". */
function isOff(param: Parameter, value: string): boolean {
  const m = param.meaning!;
  return param.schema.type === 'boolean' ? !isOn(value) : m.rule === 'flag' ? value === m.off : false;
}

function fieldsShown(row: Row, param: Parameter): string {
  return fieldsOf(param.meaning!)
    .map((f) => `${f} ${JSON.stringify(row[f])}`)
    .join(', ');
}

/** Where a pass over the rules a request sent is filed: the firmest of their levels (each finding has its own). */
function rulesLevel(ex: Exchange, ctx: JudgeContext): Provenance {
  const op = ctx.operation(ex)!;
  return firmest(...meant(ex, ctx).map((v) => meaningLevel(op, v.param, v.param.meaning!))) ?? op.provenance;
}

export const filters = judge({
  name: 'filters',
  promise: 'every row satisfies the filters sent (x-meaning), and none that matches is lost',
  applies: (ex, ctx) => {
    if (!answered(ex, ctx)) return false;
    return (
      ex.known?.witness !== undefined ||
      meant(ex, ctx).some((v) => isRowRule(v.param.meaning!) && !isOff(v.param, v.value))
    );
  },
  level: rulesLevel,
  judge: (ex, ctx) => {
    const { op, rows } = answered(ex, ctx)!;
    const out: Finding[] = [];
    const sent = meant(ex, ctx).filter((v) => isRowRule(v.param.meaning!) && !isOff(v.param, v.value));
    for (const { param, value } of sent) {
      // A row whose field the schema refuses (a null where a number is promised) is the schema's finding, not the
      // filter's.
      const fields = fieldsOf(param.meaning!);
      const valid = (row: Row) =>
        fields.every((f) => {
          const schema = op.rows!.fields.get(f)?.schema;
          return !schema || ctx.schemas.holds(schema, row[f]);
        });
      const broken = rowsBreaking(op, { [param.name]: value }, rows, ex.at).filter((b) => valid(b.row));
      if (!broken.length) continue;
      const ids = someRows(
        op,
        broken.map((b) => b.row),
      );
      out.push({
        judge: 'filters',
        level: meaningLevel(op, param, param.meaning!),
        why:
          `${broken.length} of ${rows.length} rows break it (${param.name}=${value}: every row must have ` +
          `${broken[0]!.says}), e.g. ${ids}: ${fieldsShown(broken[0]!.row, param)}`,
        expected: `every row with ${broken[0]!.says}`,
        defect: `rows break the ${param.name} filter`,
        subject: { parameter: param.name },
      });
    }
    const witness = ex.known?.witness;
    const about = sent[0]?.param;
    // A lookup's rows have no identity (no sort names one): the fields the filter reads tell its row apart.
    const keys = identityFields(op).length === 0 && about?.meaning ? fieldsOf(about.meaning) : [];
    const same = (r: Row) =>
      keys.length ? keys.every((k) => r[k] === witness![k]) : identityOf(op, r) === identityOf(op, witness!);
    // A row that cannot be told apart (its address or port missing) is the schema's to report.
    if (witness && (keys.length > 0 || hasIdentity(op, witness))) {
      const who = keys.length ? keys.map((k) => String(witness[k])).join(' / ') : identityOf(op, witness);
      const shown = `${who}${about ? ` (${fieldsShown(witness, about)})` : ''}`;
      const total = totalOf(op, ex.answer.json);
      const missing = !rows.some(same);
      // Only when every matching row is on this page can a missing witness be told from paging.
      const why =
        rows.length === 0
          ? `no row at all, but ${shown} satisfies it`
          : missing && (total === undefined || total <= rows.length)
            ? `${shown} satisfies it but is not among the ${rows.length} rows`
            : undefined;
      if (why) {
        const lost = about
          ? lostRow(about, sent[0]!.value, witness, ex.at)
          : { defect: 'a row that matches the query is not answered' };
        out.push({
          judge: 'filters',
          level: about ? meaningLevel(op, about, about.meaning!) : op.provenance,
          why,
          expected: `${who} among the rows`,
          defect: lost.defect,
          ...(about ? { subject: { parameter: about.name } } : {}),
          ...(lost.acrossSubjects ? { acrossSubjects: true } : {}),
        });
      }
    }
    return out;
  },
});

export const order = judge({
  name: 'order',
  promise: 'the rows come in the order asked (sort), or the default order',
  applies: (ex, ctx) => answered(ex, ctx) !== undefined && sortAsked(ex, ctx) !== undefined,
  level: (ex, ctx) => {
    const { param } = sortAsked(ex, ctx)!;
    return meaningLevel(ctx.operation(ex)!, param, param.meaning!);
  },
  judge: (ex, ctx) => {
    const { op, rows } = answered(ex, ctx)!;
    const { param, value, explicit } = sortAsked(ex, ctx)!;
    const m = param.meaning!;
    if (m.rule !== 'sort') return [];
    const asked = m.orders[value]!;
    for (let i = 1; i < rows.length; i++) {
      const why = orderProblem(asked, m.tieBreak, rows[i - 1]!, rows[i]!);
      if (!why) continue;
      const which = explicit ? `${param.name}=${value}` : `the default ${param.name} (${value})`;
      return [
        {
          judge: 'order',
          level: meaningLevel(op, param, m),
          why: `rows ${i - 1} and ${i} out of order for ${which}: ${why}`,
          expected: `every row after the one before it in ${which}`,
          defect: `rows out of the ${param.name} order`,
          subject: { parameter: param.name },
        },
      ];
    }
    return [];
  },
});

/** The order a request asked for: the sort parameter sent, or its default when left out. */
function sortAsked(
  ex: Exchange,
  ctx: JudgeContext,
): { param: Parameter; value: string; explicit: boolean } | undefined {
  const op = ctx.operation(ex);
  const param = op?.parameters.find((p) => p.meaning?.rule === 'sort' && p.in === 'query');
  if (param?.meaning?.rule !== 'sort') return undefined;
  const reading = ctx.read(ex);
  const sent = reading.values.get(param.name);
  if (sent)
    return param.meaning.orders[sent.value] && !reading.refused.some((r) => r.name === param.name)
      ? { param, value: sent.value, explicit: true }
      : undefined;
  if (reading.query.has(param.name)) return undefined;
  const fallback = param.default as string | undefined;
  return fallback !== undefined && param.meaning.orders[fallback]
    ? { param, value: fallback, explicit: false }
    : undefined;
}

export const page = judge({
  name: 'page',
  promise: 'a page holds at most the rows asked for, and none past the end',
  applies: (ex, ctx) =>
    answered(ex, ctx) !== undefined && (limitSent(ex, ctx) !== undefined || ex.known?.pastEnd === true),
  level: (ex, ctx) => {
    const op = ctx.operation(ex)!;
    const limit = limitSent(ex, ctx);
    return limit ? meaningLevel(op, limit.param, limit.param.meaning!) : op.provenance;
  },
  judge: (ex, ctx) => {
    const op = ctx.operation(ex)!;
    const count = rowCountOf(op, ex.answer.json) ?? 0;
    const out: Finding[] = [];
    const limit = limitSent(ex, ctx);
    if (limit && count > Number(limit.value)) {
      out.push({
        judge: 'page',
        level: meaningLevel(op, limit.param, limit.param.meaning!),
        why:
          `${op.rows!.property}.length is ${count}, more than ${limit.param.name}=${limit.value}: ` +
          `${limit.param.name} is ignored`,
        expected: `at most ${limit.value} rows`,
        defect: `more rows than ${limit.param.name} asks for`,
        subject: { parameter: limit.param.name },
      });
    }
    if (ex.known?.pastEnd && count > 0) {
      out.push({
        judge: 'page',
        level: op.provenance,
        why: `a page past the end has ${count} rows, expected none`,
        expected: 'no rows: the page is past the end',
        defect: 'a page past the end is not empty',
      });
    }
    return out;
  },
});

/** The `limitsRows` parameter sent with an allowed value. */
function limitSent(ex: Exchange, ctx: JudgeContext): { param: Parameter; value: string } | undefined {
  return meant(ex, ctx).find((v) => v.param.meaning!.rule === 'limitsRows');
}

export const switches = judge({
  name: 'switches',
  promise: 'a switch sent off answers as left out, and on as on',
  applies: (ex, ctx) =>
    answered(ex, ctx) !== undefined &&
    meant(ex, ctx).some((v) => ['addsField', 'relativeTime', 'revealsHidden'].includes(v.param.meaning!.rule)),
  level: rulesLevel,
  judge: (ex, ctx) => {
    const { op, rows } = answered(ex, ctx)!;
    const out: Finding[] = [];
    const body = ex.answer.json as Record<string, unknown>;
    for (const { param, value } of meant(ex, ctx)) {
      const m = param.meaning!;
      const level = meaningLevel(op, param, m);
      const finding = (why: string, defect: string) =>
        out.push({
          judge: 'switches',
          level,
          why,
          defect,
          subject: { parameter: param.name },
          ...(defect === FALSE_NOT_NEUTRAL ? { acrossSubjects: true } : {}),
        });
      const off = isOff(param, value);
      if (m.rule === 'revealsHidden') {
        if (!off && m.hidden in body)
          finding(
            `with ${param.name}=${value} the answer still has '${m.hidden}'`,
            `${param.name} on does not reveal the hidden rows`,
          );
        if (off && !(m.hidden in body))
          finding(
            `with ${param.name}=${value} the answer lacks '${m.hidden}', as if ${param.name} were on`,
            FALSE_NOT_NEUTRAL,
          );
        continue;
      }
      if (!off || (m.rule !== 'addsField' && m.rule !== 'relativeTime')) continue;
      // What the switch does when on must not show when it is off.
      const marked = rows.filter((r) => holds(m, r, 'true', ex.at));
      if (!marked.length) continue;
      const what =
        m.rule === 'addsField'
          ? `${marked.length} of ${rows.length} rows carry '${m.field}' though ${param.name}=${value}, e.g. ` +
            `${someRows(op, marked)}`
          : `${marked.length} of ${rows.length} rows give ${m.field} as relative text though ${param.name}=${value}, ` +
            `e.g. ${JSON.stringify(marked[0]![m.field])}`;
      finding(what, FALSE_NOT_NEUTRAL);
    }
    return out;
  },
});

/** `counts`: a count of the body marked `x-count-of: <rows>` is the length of those rows (`displayed` of `results`). */
export const counts = judge({
  name: 'counts',
  promise: 'a count marked x-count-of is the length of what it counts',
  applies: (ex, ctx) =>
    answered(ex, ctx, true) !== undefined && countedBy(ctx.operation(ex)!, ex.answer.status).length > 0,
  level: (ex, ctx) => ctx.operation(ex)!.provenance,
  judge: (ex, ctx) => {
    const op = ctx.operation(ex)!;
    const body = ex.answer.json as Record<string, unknown>;
    return countedBy(op, ex.answer.status).flatMap(({ count, of, level }) => {
      const n = countOf(body, count);
      const list = body[of];
      // A count that is no count (negative) is the schema's finding.
      if (n === undefined || n < 0 || !Array.isArray(list) || n === list.length) return [];
      return [
        {
          judge: 'counts',
          level,
          why: `${count} is ${n} but ${of}.length is ${list.length}`,
          expected: `${count} equal to ${of}.length`,
          defect: `${count} does not count ${of}`,
          subject: { field: count },
        },
      ];
    });
  },
});

/** The counts of a status's body marked `x-count-of`, each with what it counts. */
function countedBy(op: Operation, status: number): { count: string; of: string; level: Operation['provenance'] }[] {
  return op.countsOf?.get(status) ?? [];
}
