// `paging:` what a schema cannot say about pages: `displayed` is the length of the
// page, a page holds at most `limit` rows, a page past the end is empty, not an error.
// For the operation whose parameters page its rows (x-meaning `page` and `limitsRows`).
import type { Operation } from '../../spec/model.ts';
import { weakest } from '../../spec/provenance.ts';
import type { CheckResult } from '../kit/recorder.ts';
import { expectAnswer } from './expect.ts';
import { family, type GivenFor } from './run-kit.ts';

const NEEDS = ['scope', 'judging', 'credentials', 'http'] as const;
type Run = GivenFor<typeof NEEDS>;

interface Page {
  displayed?: unknown;
  total?: unknown;
  results?: unknown;
}

const SMALL_LIMIT = 3;

async function paging(op: Operation, run: Run): Promise<CheckResult[]> {
  const { scope, http } = run;
  const limitParam = op.parameters.find((p) => p.in === 'query' && p.meaning?.rule === 'limitsRows');
  const pageParam = op.parameters.find((p) => p.in === 'query' && p.meaning?.rule === 'page');
  if (!limitParam || !pageParam || !op.rows) return [];
  const rowsProv = weakest(op.rows.provenance);
  const displayedProv = op.rows.siblings.get('displayed');
  const limitProv = weakest(limitParam.provenance, rowsProv);
  const pageProv = weakest(pageParam.provenance, rowsProv);
  const rows = op.rows.property;
  const out: CheckResult[] = [];

  const first = await http.send({ method: 'GET', url: http.url(`${op.path}?${limitParam.name}=${SMALL_LIMIT}`) });
  const page = first.response?.json as Record<string, unknown> | undefined;
  const results = page?.[rows];
  if (displayedProv && scope.wants(displayedProv)) {
    out.push(
      expectAnswer(run, {
        op,
        check: `paging: displayed equals ${rows}.length`,
        level: displayedProv,
        exchange: first,
        status: op.successStatus,
        subject: 'displayed',
        extra: () =>
          Array.isArray(results) && page?.displayed !== results.length
            ? [`displayed is ${JSON.stringify(page?.displayed)} but ${rows}.length is ${results.length}`]
            : [],
      }),
    );
  }
  if (scope.wants(limitProv)) {
    out.push(
      expectAnswer(run, {
        op,
        check: `paging: ${rows}.length is at most ${limitParam.name} (${limitParam.name}=${SMALL_LIMIT})`,
        level: limitProv,
        exchange: first,
        status: op.successStatus,
        subject: limitParam.name,
        expected: `${op.successStatus}, at most ${SMALL_LIMIT} ${rows}`,
        extra: () =>
          Array.isArray(results) && results.length > SMALL_LIMIT
            ? [
                `${rows}.length is ${results.length}, more than ${limitParam.name}=${SMALL_LIMIT}: ${limitParam.name} is ignored`,
              ]
            : [],
      }),
    );
  }
  if (scope.wants(pageProv) && pageParam.meaning?.rule === 'page') {
    const maxPage = Number(pageParam.schema?.maximum ?? 1_000_000);
    const total =
      typeof page?.[pageParam.meaning.total] === 'number' ? (page[pageParam.meaning.total] as number) : undefined;
    const past = total === undefined ? maxPage : Math.min(maxPage, Math.floor(total / SMALL_LIMIT) + 2);
    const exchange = await http.send({
      method: 'GET',
      url: http.url(`${op.path}?${limitParam.name}=${SMALL_LIMIT}&${pageParam.name}=${past}`),
    });
    out.push(
      expectAnswer(run, {
        op,
        check: 'paging: a page past the end is empty, not an error',
        level: pageProv,
        exchange,
        status: op.successStatus,
        subject: pageParam.name,
        expected: `${op.successStatus} with no ${rows} and displayed 0`,
        extra: (res) => {
          const body = res.json as (Page & Record<string, unknown>) | undefined;
          const got = body?.[rows];
          return Array.isArray(got) && (got.length !== 0 || body?.displayed !== 0)
            ? [
                `page ${past} of ${total ?? '?'} rows has ${got.length} results (displayed ${JSON.stringify(body?.displayed)}), expected none`,
              ]
            : [];
        },
      }),
    );
  }
  return out;
}

export const pagingFamily = family({ name: 'paging', needs: NEEDS, perOperation: paging });
