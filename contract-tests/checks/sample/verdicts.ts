// `sample:` and `sort:` what the sampler saw, as verdicts: every row of every page matches
// the spec's schema; every page answers with at most `limit` rows; `total` is the same
// on every page of a query and equals the rows paging reaches; each order holds within
// and across pages; combined filters hold on every row.
import { totalReached, totalSteady } from '../../../spec/judges/comparisons.ts';
import type { Finding } from '../../../spec/judges/judge.ts';
import { meaningLevel, totalOf } from '../../../spec/judges/rows.ts';
import { evidenceOf } from '../../shared/verdict-tally.ts';
import { weakest } from '../../../spec/provenance.ts';
import type { CheckResult } from '../../shared/recorder.ts';
import type { ShownRequest } from '../../shared/repro.ts';
import { skip } from '../skip.ts';
import { combinationName } from '../meaning/combinations.ts';
import type { Given } from '../run-parts.ts';

type Run = Given<'scope' | 'judging' | 'reads'>;
import type { PagedQuery, Sampler } from './sampler.ts';

/** Problems listed per check; the rest are counted. */
const LISTED = 5;

const list = (xs: string[]) =>
  `${xs.slice(0, LISTED).join(' | ')}${xs.length > LISTED ? ` (and ${xs.length - LISTED} more)` : ''}`;

function rowVerdicts(s: Sampler, run: Run): CheckResult[] {
  const { op } = s;
  // Every row is validated against the whole schema the run's level keeps: the check is as firm as its softest part.
  const level = weakest(op.provenance, op.rows?.provenance, run.judging.ctx.schemas.bodyLevel(op, op.successStatus));
  if (!run.scope.wants(level)) return [];
  const share = s.distinct.size ? ((100 * s.invalid.size) / s.distinct.size).toFixed(1) : '0';
  const listed = [...s.invalid.values()].slice(0, LISTED);
  const base = { operationId: op.operationId, provenance: level };
  return [
    {
      ...base,
      check: "sample: every row of every sampled page matches the spec's schema",
      status: s.invalid.size ? 'fail' : s.pages ? 'pass' : 'skip',
      ...s.firstInvalidRequest,
      expected: `every row valid (${s.rows} rows in ${s.pages} pages, ${s.distinct.size} distinct)`,
      actual: s.invalid.size ? `${s.invalid.size} of ${s.distinct.size} distinct rows (${share}%) invalid` : undefined,
      message: s.invalid.size
        ? `first ${listed.length}: ${listed.join(' | ')}`
        : s.pages
          ? undefined
          : 'no page was sampled',
      ...(s.invalid.size ? { evidence: { schemaErrors: [...s.schemaKeys] } } : {}),
    },
    {
      ...base,
      check:
        `sample: every sampled page answers ${op.successStatus} with at most ${s.limitParam?.name ?? 'limit'} ` +
        `rows`,
      status: s.pageProblems.length ? 'fail' : 'pass',
      ...(s.pageProblems.length && s.limitParam ? { evidence: { subject: s.limitParam.name } } : {}),
      message: s.pageProblems.length
        ? `${s.pageProblems.length} problem(s): ${s.pageProblems.slice(0, LISTED).join(' | ')}`
        : undefined,
    },
  ];
}

async function totalVerdicts(s: Sampler, run: Run): Promise<CheckResult[]> {
  const { op } = s;
  const param = s.pageParam;
  const page = param?.meaning;
  if (!param || page?.rule !== 'page') return [];
  const level = meaningLevel(op, param, page);
  if (!run.scope.wants(level)) return [];
  const moving: Finding[] = [];
  const unreached: Finding[] = [];
  let movingRequest: ShownRequest | undefined;
  let unreachedRequest: ShownRequest | undefined;
  let paged = 0;
  let exhausted = 0;
  for (const q of s.queries.filter((x) => x.totals.length >= 1)) {
    const first = q.totals[0]!.total;
    const other = q.totals.find((t) => t.total !== first);
    const asked = { op, param, label: q.label, totals: q.totals };
    if (q.totals.length > 1) {
      paged++;
      run.judging.compared(totalSteady.name, op, param.name);
    }
    if (other) {
      // A live target's count may move between two requests (an age window slides with the clock; a
      // big listing has rows crossing its edge every second): page 1 is asked again before it is a defect.
      const again = await run.reads.get(
        op,
        { ...q.query, ...(s.limitParam ? { [s.limitParam.name]: String(q.limit) } : {}) },
        { fresh: true },
      );
      const found = totalSteady.compare(run.judging.ctx, asked, totalOf(op, again.response?.json));
      if (found.length) {
        moving.push(...found);
        movingRequest ??= q.firstRequest;
      }
      continue;
    }
    if (!q.done || q.predicates) continue;
    exhausted++;
    const found = totalReached.compare(run.judging.ctx, asked, q.reached.size, q.pageSize ?? q.limit);
    run.judging.compared(totalReached.name, op, param.name);
    if (found.length) {
      unreached.push(...found);
      unreachedRequest ??= q.firstRequest;
    }
  }
  const same = `sample: ${page.total} is the same on every page of a query`;
  const reach = `sample: ${page.total} equals the rows reachable by paging`;
  const verdict = (check: string, findings: Finding[], request: ShownRequest | undefined, passed: string) =>
    ({
      operationId: op.operationId,
      provenance: level,
      check,
      status: findings.length ? 'fail' : 'pass',
      ...(findings.length ? request : {}),
      expected: findings[0]?.expected,
      message: findings.length ? list(findings.map((f) => f.why)) : passed,
      ...(findings.length ? { findings, evidence: evidenceOf(findings) } : {}),
    }) as CheckResult;
  return [
    ...(paged
      ? [verdict(same, moving, movingRequest, `${paged} queries paged`)]
      : skip(run.scope, { op, check: same, level, reason: 'no query got a second page within the budget' })),
    ...(exhausted
      ? [verdict(reach, unreached, unreachedRequest, `${exhausted} queries paged to their end`)]
      : skip(run.scope, {
          op,
          check: reach,
          level,
          reason: 'no query was paged to its end within the budget (raise --budget)',
        })),
  ];
}

function orderVerdict(s: Sampler, run: Run, q: PagedQuery): CheckResult[] {
  const { name, order, provenance } = q.order!;
  if (!run.scope.wants(provenance)) return [];
  const tieBreak = s.tieBreak();
  const pages = q.totals.length || (q.rowsSeen ? 1 : 0);
  const check =
    `sort: ${q.label}: rows in ${name}: ${order.field} ${order.direction === 'asc' ? 'ascending' : 'descending'}` +
    `${tieBreak.length ? `, ties by ${tieBreak.join(', ')}` : ''}, within and across pages`;
  const base = { operationId: s.op.operationId, family: 'sort', check, provenance };
  const subject = s.sortParam?.name ?? 'sort';
  if (q.orderProblems.length)
    return [
      {
        ...base,
        status: 'fail',
        ...q.firstOutOfOrder,
        evidence: { subject },
        expected: `every row after the one before it in ${name}`,
        message: `${q.orderProblems.length} out of order: ${q.orderProblems.slice(0, LISTED).join(' | ')}`,
      },
    ];
  if (pages < 2 && !q.done)
    return skip(run.scope, {
      op: s.op,
      check,
      level: provenance,
      reason: 'only one page fetched within the budget: no page boundary to check',
    });
  return [
    {
      ...base,
      status: pages ? 'pass' : 'skip',
      message: pages ? `${q.rowsSeen} rows in ${pages} pages` : 'no page fetched',
    },
  ];
}

function combinationVerdict(s: Sampler, run: Run, q: PagedQuery): CheckResult[] {
  const provenance = weakest(...q.predicates!.map((p) => meaningLevel(s.op, p.param, p.meaning)));
  if (!run.scope.wants(provenance)) return [];
  const check = combinationName(q.predicates!);
  const problems = [...q.predicateProblems];
  // Each pair was taken from one seen row, which satisfies both: an empty answer lost it.
  if (q.totals.length && q.rowsSeen === 0)
    problems.push(`${q.firstRequest?.request}: no row, though a row seen before satisfies every filter`);
  if (!q.firstRequest)
    return skip(run.scope, { op: s.op, check, level: provenance, reason: 'not paged within the budget' });
  return [
    {
      operationId: s.op.operationId,
      family: 'meaning',
      check,
      provenance,
      status: problems.length ? 'fail' : 'pass',
      ...q.firstRequest,
      expected: 'every row satisfies every filter',
      message: problems.length
        ? `${problems.length} problem(s): ${problems.slice(0, LISTED).join(' | ')}`
        : `${q.rowsSeen} rows`,
    },
  ];
}

/** The sample's verdicts, once it has paged as far as the budget allows. */
export async function sampleVerdicts(s: Sampler, run: Run): Promise<CheckResult[]> {
  return [
    ...rowVerdicts(s, run),
    ...(await totalVerdicts(s, run)),
    ...s.queries.filter((q) => q.order).flatMap((q) => orderVerdict(s, run, q)),
    ...s.queries.filter((q) => q.predicates).flatMap((q) => combinationVerdict(s, run, q)),
  ];
}
