// Judges of several exchanges at once: what one answer can only be judged by beside
// another (the same request spelt two ways, a parameter set to its default and left out).
// Pure functions too; only the suite, which sends both, can hand them the pair.
import type { Operation, Parameter } from '../model.ts';
import { weakest } from '../provenance.ts';
import type { Exchange } from './exchange.ts';
import type { Finding, JudgeContext } from './judge.ts';
import { countOf, identityOf, meaningLevel, orderProblem, type Row, rowCountOf, rowsOf } from './rows.ts';

export interface Comparison<Args extends unknown[]> {
  name: string;
  promise: string;
  compare(ctx: JudgeContext, ...args: Args): Finding[];
}

/** The defect of a request answered otherwise than the same one spelt plainly. */
export const SPELT_OTHERWISE =
  'a path parameter with a percent-encoded character is answered otherwise than the plain one';

/** `spelling`: a request that only spells another one differently (a percent-encoded path character) is answered alike. */
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

/** What an answer looks like without its data: its keys, each row field with the kind of its value, its counts, its row count. */
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
  };
}

export interface Shape {
  keys: Set<string>;
  fields: Set<string>;
  counts: Map<string, number>;
  rows: number | undefined;
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
    if (!problems.length) return [];
    const falseNotNeutral = param.schema.type === 'boolean' && value === 'false';
    return [
      {
        judge: 'left-out',
        level: weakest(op.provenance, param.provenance, op.rows?.provenance),
        why: problems.join('; '),
        expected: `the same keys, row fields and counts as ${param.name} left out`,
        defect: falseNotNeutral
          ? FALSE_NOT_NEUTRAL
          : `${param.name}=${value} does not answer like ${param.name} left out`,
        subject: { parameter: param.name },
        ...(falseNotNeutral ? { acrossSubjects: true } : {}),
      },
    ];
  },
};

/** `counts-kept`: a parameter that limits rows (`limitsRows`) leaves the counts its meaning names alone, and cuts the rows. */
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

/** `reveals-hidden`: a switch that reveals hidden rows (`revealsHidden`) drops the hidden count, and the total grows by it. */
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
