// Which promises of the map (promises.ts) a run exercised: the exchanges it made and the
// comparisons it ran, read against each promise by its kind. A promise is exercised when
// some exchange put it to the test (a bound sent at the bound itself, a field met in an
// answer, a null met where the spec allows one, a 429 met), as a coverage tool counts a
// keyword of a schema covered when a test sent a value at it (Schemathesis' TraceCov:
// operations, parameters, keywords, responses). Exercised is not passed: the judges say
// whether it held; coverage says what the run gave them to judge.
import { type CrossOrigin, crossOrigin } from './judges/cross-origin.ts';
import type { Exchange } from './judges/exchange.ts';
import type { JudgeContext } from './judges/judge.ts';
import { rowsOf } from './judges/rows.ts';
import type { Operation } from './model.ts';
import type { Place, SpecPromise } from './promises.ts';
import { isOn } from './rules.ts';

/** A comparison a run made (spec/judges/comparisons.ts): its name, operation and parameter. */
export interface MadeComparison {
  name: string;
  operationId: string;
  parameter?: string;
}

/** One promise's coverage in a run. */
export interface Exercised {
  id: string;
  /** How many exchanges (or comparisons) put it to the test. */
  times: number;
}

/** What a run covered of the map. */
export interface PromiseCoverage {
  total: number;
  /** Held by a judge (the map's own count). */
  covered: number;
  /** Put to the test by the run. */
  exercised: number;
  /** Per area of the spec: promises, held, put to the test. */
  byArea: Record<string, { total: number; covered: number; exercised: number }>;
  promises: (Pick<SpecPromise, 'id' | 'kind' | 'says' | 'level' | 'judges' | 'uncovered'> & {
    area: string;
    times: number;
  })[];
}

/** The values at a path of a body (`results.*.port`; `*` every item of an array). */
function valuesAt(body: unknown, path: string): unknown[] {
  let nodes: unknown[] = [body];
  for (const part of path ? path.split('.') : []) {
    const next: unknown[] = [];
    for (const n of nodes) {
      if (part === '*') {
        if (Array.isArray(n)) next.push(...n);
      } else if (n && typeof n === 'object' && !Array.isArray(n) && part in n) {
        next.push((n as Record<string, unknown>)[part]);
      }
    }
    nodes = next;
  }
  return nodes;
}

type Check = (p: SpecPromise, ex: Exchange, ctx: JudgeContext) => boolean;

const sent = (ex: Exchange, ctx: JudgeContext, name: string | undefined) =>
  name === undefined ? undefined : ctx.read(ex).values.get(name)?.value;
const opOf = (ex: Exchange, ctx: JudgeContext): Operation | undefined => ctx.operation(ex);
const on = (p: SpecPromise, ex: Exchange, ctx: JudgeContext) => {
  const op = opOf(ex, ctx);
  return op !== undefined && p.operations.includes(op.operationId);
};
const success = (ex: Exchange, ctx: JudgeContext) => {
  const op = opOf(ex, ctx);
  return op !== undefined && ex.answer.status === op.successStatus;
};
const rowsIn = (ex: Exchange, ctx: JudgeContext) => {
  const op = opOf(ex, ctx);
  return op ? (rowsOf(op, ex.answer.json) ?? []) : [];
};
/** Sent with a value its schema allows, on a success that has rows to judge. */
const meant: Check = (p, ex, ctx) =>
  on(p, ex, ctx) &&
  sent(ex, ctx, p.subject.name) !== undefined &&
  !ctx.read(ex).refused.some((r) => r.name === p.subject.name) &&
  success(ex, ctx) &&
  rowsIn(ex, ctx).length > 0;
const placed = (p: SpecPromise, ex: Exchange, ctx: JudgeContext): Place[] =>
  (p.detail.places ?? []).filter((pl) => pl.operation === opOf(ex, ctx)?.operationId && pl.status === ex.answer.status);
const fieldValues = (p: SpecPromise, ex: Exchange, ctx: JudgeContext) =>
  placed(p, ex, ctx).flatMap((pl) => valuesAt(ex.answer.json, pl.path));
const nonNull = (p: SpecPromise, ex: Exchange, ctx: JudgeContext) =>
  fieldValues(p, ex, ctx).some((v) => v !== null && v !== undefined);
const header = (ex: Exchange, name: string) => ex.answer.headers[name.toLowerCase()];

/** A cross-origin request from an origin of this standing (a preflight, or not, when `preflight` says). */
function corsAsked(
  _p: SpecPromise,
  ex: Exchange,
  ctx: JudgeContext,
  standing: CrossOrigin['standing'],
  preflight?: boolean,
): boolean {
  const co = crossOrigin(ex, ctx);
  return (
    co?.standing === standing &&
    (preflight === undefined || Boolean(co.preflight) === preflight) &&
    (co.template === undefined || co.methods.length > 0)
  );
}

/** Each kind's test of one exchange; kinds judged by comparisons are read from the comparisons a run made. */
const BY_EXCHANGE: Partial<Record<SpecPromise['kind'], Check>> = {
  route: on,
  status: (p, ex, ctx) => on(p, ex, ctx) && ex.answer.status === p.detail.status,
  'error-body': (p, ex, ctx) => on(p, ex, ctx) && ex.answer.status === p.detail.status,
  json: on,
  'no-server-error': on,
  'no-leak': on,
  'param-type': (p, ex, ctx) => on(p, ex, ctx) && ctx.read(ex).refused.some((r) => r.name === p.subject.name),
  'param-refuses': (p, ex, ctx) => on(p, ex, ctx) && ctx.read(ex).refused.some((r) => r.name === p.subject.name),
  'param-accepts': (p, ex, ctx) => {
    if (!on(p, ex, ctx)) return false;
    const value = p.subject.in === 'body' ? bodyValue(ex, ctx, p.subject.name) : sent(ex, ctx, p.subject.name);
    if (value === undefined || ctx.read(ex).refused.some((r) => r.name === p.subject.name)) return false;
    const { keyword, value: edge } = p.detail;
    if (keyword === 'minimum' || keyword === 'maximum') return Number(value) === edge;
    if (keyword === 'maxLength' || keyword === 'minLength') return String(value).length === edge;
    return true;
  },
  'param-any-case': (p, ex, ctx) => {
    const value = sent(ex, ctx, p.subject.name);
    const words = (p.detail.value as unknown[]).map(String);
    return (
      on(p, ex, ctx) &&
      value !== undefined &&
      !words.includes(value) &&
      words.some((w) => w.toLowerCase() === value.toLowerCase())
    );
  },
  'param-empty': (p, ex, ctx) => on(p, ex, ctx) && ctx.read(ex).query.get(p.subject.name) === '',
  'body-unknown': (p, ex, ctx) => on(p, ex, ctx) && ctx.read(ex).refused.some((r) => r.in === 'body'),
  'body-optional': (p, ex, ctx) => on(p, ex, ctx) && !ex.request.body && ex.answer.status < 300,
  bound: (p, ex, ctx) =>
    meant(p, ex, ctx) &&
    (p.detail.keyword !== 'inclusive' ||
      rowsIn(ex, ctx).some((r) => r[p.detail.field!] === Number(sent(ex, ctx, p.subject.name)))),
  age: meant,
  'text-whole': meant,
  'text-substring': meant,
  'text-wildcard': (p, ex, ctx) => meant(p, ex, ctx) && String(sent(ex, ctx, p.subject.name)).includes('*'),
  // Sent in another case than a row it found holds (`de` finding DE, `pAPER` finding Paper).
  'text-case': (p, ex, ctx) => {
    const v = String(sent(ex, ctx, p.subject.name));
    const substring = p.detail.meaning?.rule === 'substringWildcard';
    const other = (t: string) =>
      substring
        ? t.toLowerCase().includes(v.toLowerCase()) && !t.includes(v)
        : t.toLowerCase() === v.toLowerCase() && t !== v;
    return (
      meant(p, ex, ctx) &&
      rowsIn(ex, ctx).some((r) => typeof r[p.detail.field!] === 'string' && other(r[p.detail.field!] as string))
    );
  },
  'text-raw': meant,
  'text-code': (p, ex, ctx) => meant(p, ex, ctx) && /^[A-Za-z]{2}$/.test(String(sent(ex, ctx, p.subject.name))),
  'equals-field': (p, ex, ctx) => {
    const v = String(sent(ex, ctx, p.subject.name)).toLowerCase();
    return meant(p, ex, ctx) && rowsIn(ex, ctx).some((r) => String(r[p.detail.field!]).toLowerCase() === v);
  },
  flag: (p, ex, ctx) => {
    const m = p.detail.meaning;
    const v = sent(ex, ctx, p.subject.name);
    return meant(p, ex, ctx) && m?.rule === 'flag' && (v === m.off) === (p.detail.keyword === 'off');
  },
  'adds-field': (p, ex, ctx) =>
    meant(p, ex, ctx) && isOn(sent(ex, ctx, p.subject.name)) === (p.detail.keyword === 'on'),
  'relative-time': (p, ex, ctx) =>
    meant(p, ex, ctx) && isOn(sent(ex, ctx, p.subject.name)) === (p.detail.keyword === 'on'),
  'reveals-hidden': (p, ex, ctx) =>
    on(p, ex, ctx) && success(ex, ctx) && isOn(sent(ex, ctx, p.subject.name)) === (p.detail.keyword === 'on'),
  'limits-rows': (p, ex, ctx) => p.detail.keyword === 'cuts' && meant(p, ex, ctx),
  'page-past-end': (p, ex, ctx) =>
    on(p, ex, ctx) && Number(sent(ex, ctx, p.subject.name)) > 1 && success(ex, ctx) && rowsIn(ex, ctx).length === 0,
  'sort-order': (p, ex, ctx) =>
    on(p, ex, ctx) && sent(ex, ctx, p.subject.name) === p.detail.order && rowsIn(ex, ctx).length > 1,
  'sort-tie-break': (p, ex, ctx) => {
    const m = p.detail.meaning;
    const order = m?.rule === 'sort' ? m.orders[sent(ex, ctx, p.subject.name) ?? ''] : undefined;
    const rows = rowsIn(ex, ctx);
    return (
      on(p, ex, ctx) &&
      order !== undefined &&
      rows.some((r, i) => i > 0 && r[order.field] === rows[i - 1]![order.field])
    );
  },
  'sort-default': (p, ex, ctx) =>
    on(p, ex, ctx) && !ctx.read(ex).query.has(p.subject.name) && success(ex, ctx) && rowsIn(ex, ctx).length > 1,
  'field-type': nonNull,
  'field-format': nonNull,
  'field-enum': nonNull,
  'field-pattern': nonNull,
  'field-minimum': nonNull,
  'field-maximum': nonNull,
  'field-min-length': nonNull,
  'field-max-length': nonNull,
  'field-one-of': nonNull,
  'field-required': (p, ex, ctx) => placed(p, ex, ctx).length > 0,
  'field-nullable': (p, ex, ctx) =>
    p.detail.value === false ? nonNull(p, ex, ctx) : fieldValues(p, ex, ctx).some((v) => v === null),
  'field-absent': (p, ex, ctx) => placed(p, ex, ctx).some((pl) => valuesAt(ex.answer.json, pl.path).length > 0),
  'field-secret': (p, ex, ctx) => nonNull(p, ex, ctx),
  'field-count-of': (p, ex, ctx) => placed(p, ex, ctx).length > 0,
  'field-true-when': (p, ex, ctx) => placed(p, ex, ctx).length > 0,
  'header-present': (p, ex, ctx) => placed(p, ex, ctx).length > 0,
  'header-value': (p, ex, ctx) => placed(p, ex, ctx).length > 0 && header(ex, p.subject.name) !== undefined,
  'rate-limit-countdown': (p, ex, ctx) => inGroup(p, ex, ctx) && header(ex, 'x-ratelimit-remaining') !== undefined,
  'rate-limit-reset': (p, ex, ctx) => inGroup(p, ex, ctx) && header(ex, 'x-ratelimit-reset') !== undefined,
  'rate-limit-warning': (p, ex, ctx) => inGroup(p, ex, ctx) && ex.answer.status === 429,
  'auth-missing': (p, ex, ctx) => {
    const c = ctx.read(ex).credentials;
    return on(p, ex, ctx) && !c.presented.length && !c.malformed.length;
  },
  'auth-unknown': (p, ex, ctx) => credentialIs(p, ex, ctx, 'unknown'),
  'auth-expired': (p, ex, ctx) => credentialIs(p, ex, ctx, 'expired'),
  'auth-revoked': (p, ex, ctx) => credentialIs(p, ex, ctx, 'revoked'),
  'auth-permission': (p, ex, ctx) => on(p, ex, ctx) && ex.known?.credential === 'forbidden',
  'auth-scheme': (p, ex, ctx) => credentialIs(p, ex, ctx, 'valid'),
  'auth-valid': (p, ex, ctx) => credentialIs(p, ex, ctx, 'valid'),
  'auth-malformed': (p, ex, ctx) => on(p, ex, ctx) && ctx.read(ex).credentials.malformed.length > 0,
  'public-credentials': (p, ex, ctx) => on(p, ex, ctx) && ctx.read(ex).credentials.presented.length > 0,
  'routing-unknown-path': (_p, ex, ctx) => ctx.read(ex).route.kind === 'unknown-path',
  'routing-wrong-method': (p, ex, ctx) => {
    const route = ctx.read(ex).route;
    return route.kind === 'wrong-method' && route.template === p.subject.name;
  },
  'body-limit': (_p, ex, ctx) => ctx.read(ex).body.bytes > ctx.model.limits.maxBodyBytes,
  'key-cap': (p, ex, ctx) => on(p, ex, ctx) && ex.known?.atKeyCap === true,
  'default-port': (p, ex, ctx) => {
    const param = opOf(ex, ctx)?.parameters.find((x) => x.raw['x-default-port'] !== undefined);
    const value = sent(ex, ctx, param?.name);
    return on(p, ex, ctx) && value !== undefined && !value.includes(':');
  },
  link: (p, ex, ctx) => on(p, ex, ctx) && opOf(ex, ctx)?.operationId === p.detail.target && ex.answer.status < 300,
  'cors-grant': (p, ex, ctx) => corsAsked(p, ex, ctx, 'allowed', false),
  'cors-vary': (p, ex, ctx) => corsAsked(p, ex, ctx, 'allowed', false),
  'cors-expose': (p, ex, ctx) => corsAsked(p, ex, ctx, 'allowed', false),
  'cors-preflight': (p, ex, ctx) => corsAsked(p, ex, ctx, 'allowed', true),
  'cors-preflight-headers': (p, ex, ctx) => corsAsked(p, ex, ctx, 'allowed', true),
  'cors-max-age': (p, ex, ctx) => corsAsked(p, ex, ctx, 'allowed', true),
  'cors-foreign': (p, ex, ctx) => corsAsked(p, ex, ctx, 'foreign'),
  extension: (p, ex, ctx) => !p.uncovered && (p.operations.length === 0 || on(p, ex, ctx)),
};

/** Kinds a comparison decides: exercised when the run made it, on that operation (and parameter). */
const BY_COMPARISON: Partial<Record<SpecPromise['kind'], { name: string; param: boolean }>> = {
  'param-default': { name: 'left-out', param: true },
  ignored: { name: 'left-out', param: true },
  'total-steady': { name: 'total-steady', param: true },
  'total-reached': { name: 'total-reached', param: true },
};

/** A limit's counts are put to the test by comparing them with and without it. */
const COUNTS_KEPT = { name: 'counts-kept', param: true };

function bodyValue(ex: Exchange, ctx: JudgeContext, name: string): unknown {
  const json = ctx.read(ex).body.json as Record<string, unknown> | undefined;
  return json && typeof json === 'object' ? json[name] : undefined;
}

function credentialIs(p: SpecPromise, ex: Exchange, ctx: JudgeContext, standing: string): boolean {
  if (!on(p, ex, ctx) || ex.known?.credential !== standing) return false;
  const scheme = p.detail.scheme;
  return !scheme || ctx.read(ex).credentials.presented.some((c) => c.scheme === scheme);
}

function inGroup(p: SpecPromise, ex: Exchange, ctx: JudgeContext): boolean {
  const op = opOf(ex, ctx);
  if (!op) return false;
  const prefix = p.detail.pathPrefix ?? '';
  const groups = ctx.model.limits.rateLimits.groups;
  return prefix ? op.path.startsWith(prefix) : !groups.some((g) => op.path.startsWith(g.pathPrefix));
}

/**
 * What a run exercised of a map: every exchange read against every promise of its operations, and the comparisons made.
 */
export function promiseCoverage(
  map: readonly SpecPromise[],
  exchanges: readonly Exchange[],
  comparisons: readonly MadeComparison[],
  ctx: JudgeContext,
): PromiseCoverage {
  const times = new Map<string, number>(map.map((p) => [p.id, 0]));
  const byOp = new Map<string, SpecPromise[]>();
  const anywhere: SpecPromise[] = [];
  for (const p of map) {
    // A request that matches no operation (an unknown path, a wrong method) puts the routing to the test.
    if (!p.operations.length || p.subject.area === 'routing') anywhere.push(p);
    else for (const id of p.operations) byOp.set(id, [...(byOp.get(id) ?? []), p]);
  }
  for (const ex of exchanges) {
    const op = ctx.operation(ex);
    const candidates = [...anywhere, ...(op ? (byOp.get(op.operationId) ?? []) : [])];
    for (const p of candidates) {
      const check = BY_EXCHANGE[p.kind];
      if (check?.(p, ex, ctx)) times.set(p.id, times.get(p.id)! + 1);
    }
  }
  for (const p of map) {
    const by = p.kind === 'limits-rows' && p.detail.keyword === 'counts' ? COUNTS_KEPT : BY_COMPARISON[p.kind];
    if (!by) continue;
    const made = comparisons.filter(
      (c) =>
        c.name === by.name && p.operations.includes(c.operationId) && (!by.param || c.parameter === p.subject.name),
    );
    times.set(p.id, times.get(p.id)! + made.length);
  }
  const byArea: PromiseCoverage['byArea'] = {};
  for (const p of map) {
    const a = (byArea[p.subject.area] ??= { total: 0, covered: 0, exercised: 0 });
    a.total++;
    if (!p.uncovered) a.covered++;
    if (times.get(p.id)! > 0) a.exercised++;
  }
  return {
    total: map.length,
    covered: map.filter((p) => !p.uncovered).length,
    exercised: map.filter((p) => times.get(p.id)! > 0).length,
    byArea,
    promises: map.map((p) => ({
      id: p.id,
      kind: p.kind,
      area: p.subject.area,
      says: p.says,
      level: p.level,
      judges: p.judges,
      ...(p.uncovered ? { uncovered: p.uncovered } : {}),
      times: times.get(p.id)!,
    })),
  };
}
