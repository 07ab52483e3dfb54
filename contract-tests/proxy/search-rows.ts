// What the rows of one answer owe the query that asked for them, read from the spec's
// `x-meaning` alone (a proxy sees one request and its answer, nothing more): every row
// satisfies each filter sent (checks/meaning/row-rules.ts `rowsBreaking`), there are no
// more rows than `limit`, they come in the order `sort` asks for (its default when left
// out), and a boolean sent as `false` reads as left out (no `favicon` field, ISO times,
// the hidden count there). A value sent twice, left empty or refused by its schema says
// nothing about rows (the answer should be a 400) and is skipped.
import type { AnswerJudge } from '../../spec/judge.ts';
import type { Operation, Parameter } from '../../spec/model.ts';
import type { Provenance } from '../../spec/provenance.ts';
import { identityOf, rowCountOf, rowsOf, type Row } from '../checks/meaning/answer-rows.ts';
import { meaningProvenance } from '../checks/meaning/levels.ts';
import { orderProblem } from '../checks/meaning/orders.ts';
import { rowsBreaking } from '../checks/meaning/row-rules.ts';
import { fieldsOf } from '../../spec/meaning.ts';
import { holds, isOn, isRowRule, specWord } from '../../spec/rules.ts';

export type RowCheck = 'filters' | 'order';

export interface RowProblem {
  check: RowCheck;
  /** The parameter it is about. */
  parameter: string;
  level: Provenance;
  detail: string;
}

/**
 * Whether the spec allows a parameter's value as it travels ("20" is an integer). A word
 * of a parameter whose rule compares text in any case is read as the spec writes it
 * (`eu` is `EU`: spec/rules.ts `specWord`, as the mock reads it); a sort's is exact.
 */
export function allowed(judge: AnswerJudge, p: Parameter, value: string): boolean {
  return judge.accepts(p.schema, specWord(p, value));
}

/** The one value a parameter was sent with, when it is one its schema allows. */
function sentValue(judge: AnswerJudge, p: Parameter, query: URLSearchParams): string | undefined {
  const values = query.getAll(p.name);
  if (values.length !== 1 || values[0] === '') return undefined;
  return allowed(judge, p, values[0]!) ? values[0] : undefined;
}

function some(rows: Row[], op: Operation): string {
  const ids = rows.slice(0, 3).map((r) => identityOf(op, r));
  return `${ids.join(', ')}${rows.length > 3 ? ` and ${rows.length - 3} more` : ''}`;
}

/** Every way the rows of `body` break what `query` asked of `op`; `now` is the answer's time (for ages). */
export function rowProblems(
  op: Operation,
  judge: AnswerJudge,
  { query, body, now }: { query: URLSearchParams; body: unknown; now: number },
): RowProblem[] {
  const rows = rowsOf(op, body);
  if (!rows || !op.rows) return [];
  const out: RowProblem[] = [];
  const counts = body as Record<string, unknown>;
  for (const p of op.parameters) {
    const m = p.meaning;
    if (!m || p.in !== 'query') continue;
    const level = meaningProvenance(op, p, m);
    const value = sentValue(judge, p, query);
    const problem = (check: RowCheck, detail: string) => out.push({ check, parameter: p.name, level, detail });
    if (m.rule === 'sort') {
      const asked = value ?? (query.has(p.name) ? undefined : (p.default as string | undefined));
      const order = asked === undefined ? undefined : m.orders[asked];
      if (!order) continue;
      for (let i = 1; i < rows.length; i++) {
        const why = orderProblem(order, m.tieBreak, rows[i - 1]!, rows[i]!);
        if (why) {
          problem(
            'order',
            `rows ${i - 1} and ${i} out of order for ${query.has(p.name) ? `${p.name}=${asked}` : `the default ${p.name} (${asked})`}: ${why}`,
          );
          break;
        }
      }
      continue;
    }
    if (value === undefined) continue;
    if (m.rule === 'limitsRows' || m.rule === 'page') {
      const count = rowCountOf(op, body) ?? 0;
      if (m.rule === 'limitsRows' && count > Number(value))
        problem('filters', `${count} rows, more than ${p.name}=${value}`);
      continue;
    }
    if (m.rule === 'revealsHidden') {
      const on = isOn(value);
      if (on && m.hidden in counts) problem('filters', `with ${p.name}=${value} the answer still has '${m.hidden}'`);
      if (!on && !(m.hidden in counts))
        problem('filters', `with ${p.name}=${value} the answer lacks '${m.hidden}', as if ${p.name} were on`);
      continue;
    }
    if (!isRowRule(m)) continue;
    // A boolean sent as false, and a flag at its `off` value, mean "left out": nothing to hold, but nothing added either.
    const off = p.schema.type === 'boolean' ? !isOn(value) : m.rule === 'flag' ? value === m.off : false;
    if (off) {
      // What the parameter does when on (its rule's `holds` for `true`) must not show.
      if (m.rule === 'addsField') {
        const added = rows.filter((r) => holds(m, r, 'true', now));
        if (added.length)
          problem(
            'filters',
            `${added.length} of ${rows.length} rows carry '${m.field}' though ${p.name}=${value}, e.g. ${some(added, op)}`,
          );
      } else if (m.rule === 'relativeTime') {
        const relative = rows.filter((r) => holds(m, r, 'true', now));
        if (relative.length)
          problem(
            'filters',
            `${relative.length} of ${rows.length} rows give ${m.field} as relative text though ${p.name}=${value}, e.g. ${JSON.stringify(relative[0]![m.field])}`,
          );
      }
      continue;
    }
    const broken = rowsBreaking(op, { [p.name]: value }, rows, now);
    if (broken.length)
      problem(
        'filters',
        `${broken.length} of ${rows.length} rows break ${p.name}=${value} (every row must have ${broken[0]!.says}), e.g. ${some(
          broken.map((b) => b.row),
          op,
        )}: ${fieldsShown(broken[0]!.row, p)}`,
      );
  }
  return out;
}

/** The fields of a row a parameter's rule reads, as the row has them. */
function fieldsShown(row: Row, p: Parameter): string {
  return fieldsOf(p.meaning!)
    .map((f) => `${f} ${JSON.stringify(row[f])}`)
    .join(', ');
}
