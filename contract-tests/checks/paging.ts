// `paging:` what a schema cannot say about pages, asked of the operation whose parameters
// page its rows (x-meaning `page` and `limitsRows`): a small page, and a page past the end.
// The family only asks; the judges hold the answers to `displayed` counting the rows
// (`counts`, x-count-of), at most `limit` rows and none past the end (`page`).
import { STATUS_JUDGES } from '../../spec/judges/registry.ts';
import { totalOf } from '../../spec/judges/rows.ts';
import type { Operation } from '../../spec/model.ts';
import { weakest } from '../../spec/provenance.ts';
import type { CheckResult } from '../shared/recorder.ts';
import { family, type GivenFor } from './run-parts.ts';

const NEEDS = ['scope', 'judging', 'credentials', 'http'] as const;
type Run = GivenFor<typeof NEEDS>;

const SMALL_LIMIT = 3;

async function paging(op: Operation, run: Run): Promise<CheckResult[]> {
  const { scope, http } = run;
  const limitParam = op.parameters.find((p) => p.in === 'query' && p.meaning?.rule === 'limitsRows');
  const pageParam = op.parameters.find((p) => p.in === 'query' && p.meaning?.rule === 'page');
  if (!limitParam || !pageParam || pageParam.meaning?.rule !== 'page' || !op.rows) return [];
  const rowsLevel = weakest(op.rows.provenance);
  const rows = op.rows.property;
  const out: CheckResult[] = [];

  const first = await http.send({ method: 'GET', url: http.url(`${op.path}?${limitParam.name}=${SMALL_LIMIT}`) });
  // A count the spec ties to the rows (`x-count-of`), as the `counts` judge holds it.
  for (const { count, of, level } of op.countsOf?.get(op.successStatus) ?? []) {
    if (!scope.wants(level)) continue;
    const check = `paging: ${count} equals ${of}.length`;
    out.push(run.judging.case({ op, check, level, about: [...STATUS_JUDGES, 'counts'] }, first));
  }
  const limitLevel = weakest(limitParam.provenance, rowsLevel);
  if (scope.wants(limitLevel)) {
    const check = `paging: ${rows}.length is at most ${limitParam.name} (${limitParam.name}=${SMALL_LIMIT})`;
    const expected = `${op.successStatus}, at most ${SMALL_LIMIT} ${rows}`;
    out.push(run.judging.case({ op, check, level: limitLevel, about: [...STATUS_JUDGES, 'page'], expected }, first));
  }
  const pageLevel = weakest(pageParam.provenance, rowsLevel);
  if (scope.wants(pageLevel)) {
    const maxPage = Number(pageParam.schema?.maximum ?? 1_000_000);
    const total = totalOf(op, first.response?.json);
    const past = total === undefined ? maxPage : Math.min(maxPage, Math.floor(total / SMALL_LIMIT) + 2);
    const exchange = await http.send({
      method: 'GET',
      url: http.url(`${op.path}?${limitParam.name}=${SMALL_LIMIT}&${pageParam.name}=${past}`),
    });
    const check = 'paging: a page past the end is empty, not an error';
    const c = { op, check, level: pageLevel, about: [...STATUS_JUDGES, 'page', 'counts'], known: { pastEnd: true } };
    out.push(
      run.judging.case(
        { ...c, expected: `${op.successStatus} with no ${rows} (page ${past} of ${total ?? '?'} rows)` },
        exchange,
      ),
    );
  }
  return out;
}

export const pagingFamily = family({ name: 'paging', needs: NEEDS, perOperation: paging });
