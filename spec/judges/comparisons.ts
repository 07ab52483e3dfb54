// Judges of several exchanges at once: what one answer can only be judged by beside
// another (the same request spelt two ways, a parameter set to its default and left out).
// Pure functions too; only the suite, which sends both, can hand them the pair.
import { fieldsOf } from '../meaning.ts';
import type { Operation, Parameter } from '../model.ts';
import { type Provenance, weakest } from '../provenance.ts';
import type { Exchange } from './exchange.ts';
import type { Finding, JudgeContext } from './judge.ts';
import {
  countOf,
  hasIdentity,
  identityOf,
  LOST,
  lostRow,
  meaningLevel,
  orderProblem,
  type Row,
  rowCountOf,
  rowsOf,
  totalOf,
} from './rows.ts';

export interface Comparison<Args extends unknown[]> {
  name: string;
  promise: string;
  compare(ctx: JudgeContext, ...args: Args): Finding[];
}

/** The defect of a request answered otherwise than the same one spelt plainly. */
export const SPELT_OTHERWISE =
  'a path parameter with a percent-encoded character is answered otherwise than the plain one';

/**
 * `spelling`: a request that only spells another one differently (a percent-encoded path character) is answered alike.
 */
export const spelling: Comparison<[odd: Exchange, plain: Exchange]> = {
  name: 'spelling',
  promise: 'a request spelt otherwise is answered alike',
  compare: (ctx, odd, plain) => {
    if (odd.answer.status === plain.answer.status) return [];
    const base = ctx.model.basePath;
    const asked = plain.request.target.startsWith(`${base}/`)
      ? plain.request.target.slice(base.length)
      : plain.request.target;
    return [
      {
        judge: 'spelling',
        level: 'assumed',
        why: `status ${odd.answer.status}, but ${plain.answer.status} for the same request spelt plainly (${asked})`,
        expected: `${plain.answer.status}, as spelt plainly`,
        defect: SPELT_OTHERWISE,
        acrossSubjects: true,
      },
    ];
  },
};

/** The defect of a switch sent at its "left out" value that answers as if it were on, whichever switch. */
export const FALSE_NOT_NEUTRAL =
  'a boolean parameter set to false does not answer like the parameter left out (read as true?)';

/**
 * What an answer looks like without its data: its keys, each row field with the kind of its value, its counts, its row
 * count.
 */
export function shapeOf(op: Operation, body: unknown): Shape {
  const kind = (v: unknown) =>
    v === null
      ? 'null'
      : Array.isArray(v)
        ? 'array'
        : typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v)
          ? 'timestamp'
          : typeof v;
  const rows = rowsOf(op, body) ?? [];
  const top = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  return {
    keys: new Set(Object.keys(top)),
    fields: new Set(rows.flatMap((r) => Object.entries(r).map(([k, v]) => `${k}:${kind(v)}`))),
    counts: new Map(Object.entries(top).filter((e): e is [string, number] => typeof e[1] === 'number')),
    rows: rowCountOf(op, body),
    order: rows.map((r) => identityOf(op, r)),
  };
}

export interface Shape {
  keys: Set<string>;
  fields: Set<string>;
  counts: Map<string, number>;
  rows: number | undefined;
  /** Who the rows are, in the order they came. */
  order: string[];
}

/** What `b` has that `a` lacks (+) and the other way round (-), for people. */
function setDiff(a: Set<string>, b: Set<string>): string {
  return [
    ...[...b].filter((k) => !a.has(k)).map((k) => `+${k}`),
    ...[...a].filter((k) => !b.has(k)).map((k) => `-${k}`),
  ].join(' ');
}

/** A parameter and the value it was sent with, on its operation: what a comparison is about. */
export interface Asked {
  op: Operation;
  param: Parameter;
  value: string;
}

/**
 * `left-out`: a parameter set to its default, or one the spec says is ignored, answers
 * like the parameter left out: the same keys, row fields and counts. A boolean's false
 * that does not is one defect whichever parameter: the target reads the value's presence.
 */
export const leftOut: Comparison<[asked: Asked, without: unknown, withIt: unknown]> = {
  name: 'left-out',
  promise: 'a parameter set to its default answers like the parameter left out',
  compare: (_ctx, { op, param, value }, without, withIt) => {
    const [x, y] = [shapeOf(op, without), shapeOf(op, withIt)];
    const label = `${param.name}=${value}`;
    const problems: string[] = [];
    const keys = setDiff(x.keys, y.keys);
    if (keys) problems.push(`with ${label} the body's keys change: ${keys}`);
    const fields = setDiff(x.fields, y.fields);
    if (fields) problems.push(`with ${label} the rows change: ${fields}`);
    for (const [k, v] of x.counts)
      if (y.counts.has(k) && y.counts.get(k) !== v)
        problems.push(`with ${label} ${k} is ${y.counts.get(k)}, without it ${v}`);
    if (x.rows !== y.rows) problems.push(`with ${label} ${y.rows} rows, without it ${x.rows}`);
    else if (x.order.join('\n') !== y.order.join('\n')) {
      const i = x.order.findIndex((id, k) => id !== y.order[k]);
      problems.push(`with ${label} the rows come in another order (row ${i}: ${y.order[i]}, without it ${x.order[i]})`);
    }
    if (!problems.length) return [];
    const falseNotNeutral = param.schema.type === 'boolean' && value === 'false';
    // Fewer rows with the default sent than left out: what the value does to rows says which defect it is.
    const lost = fewer(x, y) ? lostByDefault(param, value, x, y) : undefined;
    return [
      {
        judge: 'left-out',
        level: weakest(op.provenance, param.provenance, op.rows?.provenance),
        why: problems.join('; '),
        expected: `the same keys, row fields and counts as ${param.name} left out`,
        defect: falseNotNeutral
          ? FALSE_NOT_NEUTRAL
          : (lost ?? `${param.name}=${value} does not answer like ${param.name} left out`),
        subject: { parameter: param.name },
        ...(falseNotNeutral || lost ? { acrossSubjects: true } : {}),
      },
    ];
  },
};

/** Whether an answer holds fewer rows than another (by its counts, or its rows). */
function fewer(without: Shape, withIt: Shape): boolean {
  const counted = [...without.counts].some(([k, v]) => (withIt.counts.get(k) ?? v) < v);
  return counted || (withIt.rows ?? 0) < (without.rows ?? 0);
}

/**
 * Why a filter sent at its default loses rows the default keeps, by its rule: a `*` read
 * literally (`version=*`), a bound or an age read as strict at its own edge.
 */
function lostByDefault(param: Parameter, value: string, without: Shape, withIt: Shape): string | undefined {
  const rule = param.meaning?.rule;
  if (value.includes('*') && (rule === 'wholeWildcard' || rule === 'substringWildcard' || rule === 'nameOrCode'))
    return LOST.literalStar;
  // Only the rows at the edge: a few (a tenth at most) of those left out keeps. Many more is another default.
  const edge = [...without.counts].some(([k, v]) => {
    const w = withIt.counts.get(k);
    return w !== undefined && w < v && v - w <= v / 10;
  });
  if (!edge) return undefined;
  if (rule === 'ageAtLeastDays' || rule === 'ageAtMostDays') return LOST.ageEdge;
  if (rule === 'atLeast' || rule === 'atMost') return LOST.inclusive;
  return undefined;
}

/**
 * `counts-kept`: a parameter that limits rows (`limitsRows`) leaves the counts its meaning names alone, and cuts the
 * rows.
 */
export const countsKept: Comparison<[asked: Asked, without: unknown, limited: unknown]> = {
  name: 'counts-kept',
  promise: 'a limit cuts the rows and leaves the counts alone',
  compare: (_ctx, { op, param, value }, without, limited) => {
    const m = param.meaning;
    if (m?.rule !== 'limitsRows') return [];
    const problems: string[] = [];
    const got = rowCountOf(op, limited);
    if (got !== undefined && got > Number(value)) problems.push(`${got} rows, more than ${param.name}=${value}`);
    for (const c of m.counts) {
      const [a, b] = [countOf(without, c), countOf(limited, c)];
      if (a !== undefined && b !== a)
        problems.push(`${c} is ${b} with ${param.name}=${value} but ${a} without: it must not depend on ${param.name}`);
    }
    if (!problems.length) return [];
    return [
      {
        judge: 'counts-kept',
        level: meaningLevel(op, param, m),
        why: problems.join('; '),
        defect: `counts depend on ${param.name}`,
        subject: { parameter: param.name },
      },
    ];
  },
};

/**
 * `reveals-hidden`: a switch that reveals hidden rows (`revealsHidden`) drops the hidden count, and the total grows by
 * it.
 */
export const revealsHidden: Comparison<[asked: Omit<Asked, 'value'>, without: unknown, withIt: unknown]> = {
  name: 'reveals-hidden',
  promise: 'revealing the hidden rows drops their count and adds it to the total',
  compare: (_ctx, { op, param }, without, withIt) => {
    const m = param.meaning;
    if (m?.rule !== 'revealsHidden') return [];
    const { hidden, total } = m;
    const level = meaningLevel(op, param, m);
    const h = countOf(without, hidden);
    const out: Finding[] = [];
    const finding = (why: string, subject: string) =>
      out.push({
        judge: 'reveals-hidden',
        level,
        why,
        defect: `${param.name} does not reveal the hidden rows`,
        subject: { parameter: subject },
      });
    if (h === undefined) finding(`without ${param.name}, the answer has no '${hidden}'`, param.name);
    if (withIt && typeof withIt === 'object' && hidden in withIt)
      finding(`with ${param.name}=true, '${hidden}' is still there`, param.name);
    const [t0, t1] = [countOf(without, total), countOf(withIt, total)];
    // A count that does not add up is about the count (the sample's paging may show it too).
    if (h !== undefined && t0 !== undefined && t1 !== undefined && t1 !== t0 + h)
      finding(`${total} is ${t1} with ${param.name}=true, but ${t0} + ${hidden} ${h} = ${t0 + h} without it`, total);
    return out;
  },
};

/** `order-across`: the first row of a page follows the last row of the page before it, in the order asked. */
export const orderAcross: Comparison<
  [asked: { op: Operation; param: Parameter; value: string }, last: Row, first: Row]
> = {
  name: 'order-across',
  promise: 'the order holds across a page boundary',
  compare: (_ctx, { op, param, value }, last, first) => {
    const m = param.meaning;
    const order = m?.rule === 'sort' ? m.orders[value] : undefined;
    const why = order && m?.rule === 'sort' ? orderProblem(order, m.tieBreak, last, first) : undefined;
    if (!why) return [];
    return [
      {
        judge: 'order-across',
        level: meaningLevel(op, param, m!),
        why: `${identityOf(op, first)} after ${identityOf(op, last)} (across the page boundary): ${why}`,
        defect: `rows out of the ${param.name} order`,
        subject: { parameter: param.name },
      },
    ];
  },
};

/**
 * `witness`: a row the sender saw satisfy the query is among the query's matches, read
 * over every page it asked (a bound probed at a value a row holds: the row at the bound
 * may be on any page). Judged only once the pages hold every match (`total` reached, or
 * a page came back short), so paging is never taken for a lost row.
 */
export const witness: Comparison<[asked: Asked, row: Row, pages: readonly unknown[], now: number]> = {
  name: 'witness',
  promise: 'a row that satisfies the query is among its matches, over every page',
  compare: (_ctx, { op, param, value }, row, pages, now) => {
    const rows = pages.flatMap((b) => rowsOf(op, b) ?? []);
    const id = identityOf(op, row);
    if (!pages.length || !hasIdentity(op, row) || rows.some((r) => identityOf(op, r) === id)) return [];
    const total = totalOf(op, pages[0]);
    const last = rowCountOf(op, pages.at(-1)) ?? 0;
    const first = rowCountOf(op, pages[0]) ?? 0;
    const complete = total === undefined || rows.length >= total || (pages.length > 1 && last < first) || last === 0;
    if (!complete) return [];
    const lost = lostRow(param, value, row, now);
    const shown = fieldsOf(param.meaning!)
      .map((f) => `${f} ${JSON.stringify(row[f])}`)
      .join(', ');
    return [
      {
        judge: 'witness',
        level: meaningLevel(op, param, param.meaning!),
        why:
          `${id} (${shown}) satisfies ${param.name}=${value} but is not among the ${rows.length} rows of ` +
          `${plural(pages.length, 'page')}${total === undefined ? '' : ` (total ${total})`}`,
        expected: `${id} among the rows`,
        defect: lost.defect,
        subject: { parameter: param.name },
        ...(lost.acrossSubjects ? { acrossSubjects: true } : {}),
      },
    ];
  },
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The defect of a count that is the page's rows rather than every match. */
export const TOTAL_IS_PAGE = 'the total counts the rows of the page, not every match';
/** Rows met twice over the pages and others never: the order moved between requests (a report files it with it). */
export const PAGING_REPEATS = 'paging repeats rows and never reaches others';

/** A query paged through: what its total said on each page, and the rows paging reached. */
export interface Paged {
  op: Operation;
  /** The parameter that pages (its meaning names the total). */
  param: Parameter;
  /** The query, for people. */
  label: string;
  totals: { page: number; total: number; rows: number }[];
}

/**
 * `total-steady`: the total of a query is the same on every page (asked again on page 1 before it is called a defect).
 */
export const totalSteady: Comparison<[paged: Paged, againOnPage1: number | undefined]> = {
  name: 'total-steady',
  promise: 'the total of a query is the same on every page',
  compare: (_ctx, { op, param, label, totals }, again) => {
    const m = param.meaning;
    if (m?.rule !== 'page' || totals.length < 2) return [];
    const first = totals[0]!.total;
    const other = totals.find((t) => t.total !== first);
    // Page 1 asked again moved too: the count moves with time (a live listing), not with the page.
    if (!other || again === other.total || again !== first) return [];
    // Each page's total its own rows: a total that counts the page (one defect, whichever comparison met it).
    const pageCount = totals.every((t) => t.total === t.rows);
    const again1 = again === undefined ? '' : ` (page 1 again: ${again})`;
    return [
      {
        judge: 'total-steady',
        level: meaningLevel(op, param, m),
        why: `${label}: ${m.total} ${first} on page 1, ${other.total} on page ${other.page}${again1}`,
        expected: `the same ${m.total} on every page`,
        defect: pageCount ? TOTAL_IS_PAGE : `${m.total} moves with the page`,
        ...(pageCount ? { acrossSubjects: true } : { subject: { field: m.total } }),
      },
    ];
  },
};

/** `total-reached`: paging a query to its end reaches as many distinct rows as its total says. */
export const totalReached: Comparison<[paged: Paged, reached: number, pageSize: number]> = {
  name: 'total-reached',
  promise: 'paging reaches as many rows as the total says',
  compare: (_ctx, { op, param, label, totals }, reached, pageSize) => {
    const m = param.meaning;
    const first = totals[0];
    if (m?.rule !== 'page' || !first || first.total === reached) return [];
    // A total that is each page's own row count: one defect, whichever query showed it.
    const pageCount = reached > first.total && totals.every((t) => t.total === t.rows);
    // Rows met twice over the pages: the rows moved between requests (ties in no stable order, say). What failed
    // on those pages explains it (a report files it with them); with nothing else, it is its own defect.
    const repeated = !pageCount && totals.reduce((n, t) => n + t.rows, 0) > reached;
    return [
      {
        judge: 'total-reached',
        level: meaningLevel(op, param, m),
        why:
          `${label}: ${m.total} is ${first.total} but paging (${plural(totals.length, 'page')} of ${pageSize}) ` +
          `reached ${reached} distinct rows`,
        expected: `as many distinct rows over all pages as ${m.total} says`,
        defect: pageCount
          ? TOTAL_IS_PAGE
          : repeated
            ? PAGING_REPEATS
            : `${m.total} is not the number of rows paging reaches`,
        ...(repeated ? {} : { subject: { field: m.total } }),
        ...(pageCount ? { acrossSubjects: true } : {}),
      },
    ];
  },
};

/** One answer of a rate-limit bucket, as `rate-limit` reads it. */
export interface Counted {
  at: number;
  status: number;
  limit?: number;
  remaining?: number;
  /** Unix seconds. */
  reset?: number;
  /** The request, for people. */
  request: string;
}

const integerHeader = (v: string | undefined): number | undefined =>
  v !== undefined && /^\s*\d+\s*$/.test(v) ? Number(v) : undefined;

/** An answer's rate-limit headers as numbers. */
export function counted(ex: Exchange): Counted {
  const h = ex.answer.headers;
  const limit = integerHeader(h['x-ratelimit-limit']);
  const remaining = integerHeader(h['x-ratelimit-remaining']);
  const reset = integerHeader(h['x-ratelimit-reset']);
  return {
    at: ex.at,
    status: ex.answer.status,
    ...(limit === undefined ? {} : { limit }),
    ...(remaining === undefined ? {} : { remaining }),
    ...(reset === undefined ? {} : { reset }),
    request: `${ex.request.method} ${ex.request.target}`,
  };
}

/** Slack either side of a reset instant: clocks differ, and a window may end while an answer travels. */
const RESET_SLACK_MS = 2_000;

/**
 * `rate-limit`: one caller's answers in one path group, in the order they came, hold
 * together as the spec's rate limits say (x-rate-limits): each `X-RateLimit-Reset` is
 * the end of the current window, an instant in Unix seconds no further than a window
 * ahead; within a window `X-RateLimit-Remaining` counts down and never up (a target that
 * counts nothing may report the whole limit on every answer, and must then refuse
 * nothing); and a 429 comes only after the headers said the window was running out.
 */
export const rateLimit: Comparison<[answers: readonly Counted[], windowSeconds: number, level: Provenance]> = {
  name: 'rate-limit',
  promise: 'the rate-limit headers count down to the 429 and reset at the end of the window',
  compare: (_ctx, answers, windowSeconds, level) => {
    const out: Finding[] = [];
    const finding = (why: string, defect: string, header: string) =>
      out.push({ judge: 'rate-limit', level, why, defect, subject: { header }, acrossSubjects: true });
    const badReset = answers.find(
      (a) =>
        a.reset !== undefined &&
        (a.reset * 1000 < a.at - RESET_SLACK_MS || a.reset * 1000 > a.at + windowSeconds * 1000 + RESET_SLACK_MS),
    );
    if (badReset)
      finding(
        `${badReset.request}: X-RateLimit-Reset ${badReset.reset} is ` +
          `${new Date(badReset.reset! * 1000).toISOString()}, ` +
          `not within the ${windowSeconds} s window after the ` +
          `answer (${new Date(badReset.at).toISOString()})`,
        'X-RateLimit-Reset is not the end of the current window in Unix seconds',
        'X-RateLimit-Reset',
      );
    let frozen: string | undefined;
    let warned = true;
    for (let i = 0; i < answers.length; i++) {
      const a = answers[i]!;
      // Without a Reset, which window an answer counts in cannot be told: its Remaining says nothing.
      const before =
        a.reset === undefined
          ? []
          : answers.slice(0, i).filter((b) => b.reset === a.reset && b.remaining !== undefined);
      const prev = before.at(-1);
      if (a.status === 429) {
        // Every earlier answer of this window said the whole limit remained: the 429 came unannounced.
        warned = !before.length || before.some((b) => b.limit === undefined || b.remaining! < b.limit);
        if (!warned) {
          finding(
            `${a.request}: 429 after ${plural(before.length, 'answer')} in the same window each said ` +
              `X-RateLimit-Remaining ${before[0]!.remaining} of ${before[0]!.limit}`,
            'a 429 comes though X-RateLimit-Remaining never counted down',
            'X-RateLimit-Remaining',
          );
          break;
        }
        continue;
      }
      if (!prev || a.remaining === undefined || prev.status === 429) continue;
      const whole = prev.remaining === prev.limit && a.remaining === a.limit;
      if (a.remaining > prev.remaining!) {
        frozen ??=
          `${a.request}: X-RateLimit-Remaining ${a.remaining} after ${prev.remaining} within one window ` +
          `(reset ${a.reset})`;
      } else if (a.remaining === prev.remaining && !whole) {
        frozen ??=
          `${a.request}: X-RateLimit-Remaining stays ${a.remaining} of ${a.limit} from one answer to the ` +
          `next within one window`;
      }
    }
    if (frozen && warned) finding(frozen, 'X-RateLimit-Remaining does not count down', 'X-RateLimit-Remaining');
    return out;
  },
};

/** Every comparison, by name: what the promise map names beside the registry's judges. */
export const COMPARISONS: readonly { name: string; promise: string }[] = [
  spelling,
  leftOut,
  countsKept,
  revealsHidden,
  orderAcross,
  witness,
  totalSteady,
  totalReached,
  rateLimit,
];
