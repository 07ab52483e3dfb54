// Mutants of the reference server, made from the spec's promise map (spec/promises.ts):
// for each promise, each way implementations really get that kind of promise wrong (a
// mutation operator per kind: an inclusive bound read as strict, a bound off by one, a
// wrong type, a field left out, a null left out, text compared case-sensitively, an order
// the wrong way round, a naive timestamp, ties in no order, a `*` matched literally, a
// total that counts the page, a secret listed, headers that never count down, an expired
// credential accepted, ...), each breaking that one promise and nothing else. A mutant is
// a hand between the suite and the correct reference server (tamper.ts); the suite run
// against it must fail, with one cause (mutant-run.ts, mutants.test.ts).
import { loadFixtures } from '../../fixtures/load.ts';
import { allowsValue } from '../../spec/judges/reading.ts';
import { JudgeContext } from '../../spec/judges/registry.ts';
import { errorBody } from '../../spec/messages.ts';
import type { Operation, Parameter, SpecModel } from '../../spec/model.ts';
import { promiseMap, type SpecPromise } from '../../spec/promises.ts';
import { COMPARATORS } from '../../spec/sort-compare.ts';
import { wildcardMatcher } from '../../spec/wildcard.ts';
import {
  copy,
  editAnswer,
  editAt,
  type Fetch,
  idOf,
  jsonAnswer,
  jsonOf,
  operationOfRequest,
  refiltered,
  refuse,
  type Row,
  type Tamper,
  withUrl,
} from './tamper.ts';

export interface Mutant {
  /** The promise and the operator: `findServers query minUsers: bound inclusive / strict`. */
  id: string;
  promise: SpecPromise;
  operator: string;
  /** What it does wrong, for people. */
  says: string;
  /** The operations the suite runs on to find it (all, when undefined). */
  only?: string[];
  /** It shows only against a target that enforces its rate limits. */
  limited?: boolean;
  /** The other promises it breaks (a mutant made of several: one defect in every place). */
  also?: SpecPromise[];
  tamper: Tamper;
}

interface Made {
  operator: string;
  says: string;
  tamper: Tamper;
  limited?: boolean;
  /** The whole run: what finds it is not on the promise's operations (an unknown path). */
  everywhere?: boolean;
}

/** What every mutant knows: the spec, and the credentials the reference server has. */
interface Context {
  model: SpecModel;
  valid: { key: string; session: string; cookie: string };
  expired: string[];
  forbidden: string;
  known: Set<string>;
}

function contextOf(model: SpecModel): Context {
  const fx = loadFixtures(undefined, model);
  const value = (name: string) => fx.credentials.find((c) => c.name === name)!.value;
  return {
    model,
    valid: { key: value('valid-key'), session: value('valid-session'), cookie: model.cookieName ?? 'sls_session' },
    expired: fx.credentials.filter((c) => c.expiresAt && c.expect === 401).map((c) => c.value),
    forbidden: value('forbidden-key'),
    known: new Set(fx.credentials.map((c) => c.value)),
  };
}

const on =
  (ctx: Context, p: SpecPromise) =>
  (request: Request): Operation | undefined => {
    const op = operationOfRequest(ctx.model, request);
    return op && p.operations.includes(op.operationId) ? op : undefined;
  };

const paramOf = (op: Operation, name: string): Parameter | undefined => op.parameters.find((p) => p.name === name);

/**
 * A tamper on requests of the promise's operations that send `name` with a value the spec
 * allows (a value it refuses is another promise's: the mutant leaves it to the reference).
 */
function whenSent(
  ctx: Context,
  p: SpecPromise,
  then: (value: string, request: Request, next: Fetch, op: Operation) => Promise<Response>,
  refusedToo = false,
): Tamper {
  return async (request, next) => {
    const op = on(ctx, p)(request);
    const value = op ? new URL(request.url).searchParams.get(p.subject.name) : null;
    if (!op || value === null || value === '' || p.subject.in !== 'query') return next(request);
    const param = paramOf(op, p.subject.name);
    if (!refusedToo && param && !allowsValue(JudgeContext.of(ctx.model), param, value)) return next(request);
    return then(value, request, next, op);
  };
}

/** Sends the request with the parameter at another value (or left out, for undefined). */
function rewrite(request: Request, name: string, value: string | undefined, next: Fetch): Promise<Response> {
  return withUrl(request, (u) =>
    value === undefined ? u.searchParams.delete(name) : u.searchParams.set(name, value),
  ).then(next);
}

/** The value of a path parameter in a request, and the request with it replaced. */
function pathParam(
  op: Operation,
  request: Request,
  name: string,
): { value?: string; with: (v: string) => Promise<Request> } {
  const url = new URL(request.url);
  const template = op.path.split('/');
  const segments = url.pathname.split('/');
  // The operation's path is the end of the request's (the base path before it).
  const offset = segments.length - template.length;
  const i = template.indexOf(`{${name}}`);
  const raw = i < 0 || offset < 0 ? undefined : segments[i + offset];
  let value: string | undefined;
  try {
    value = raw === undefined ? undefined : decodeURIComponent(raw);
  } catch {
    value = raw;
  }
  return {
    ...(value === undefined ? {} : { value }),
    with: (v) =>
      withUrl(request, (u) => {
        const parts = u.pathname.split('/');
        parts[i + offset] = encodeURIComponent(v).replace(/%3A/gi, ':');
        u.pathname = parts.join('/');
      }),
  };
}

// --- parameters and bodies ---------------------------------------------------------------

function acceptsOperators(ctx: Context, p: SpecPromise): Made[] {
  const { keyword, value: edge } = p.detail;
  const name = p.subject.name;
  if (p.subject.in === 'body') {
    if (typeof edge !== 'number') return [];
    const strict: Tamper = async (request, next) => {
      const op = on(ctx, p)(request);
      const body = op
        ? ((await jsonOf(new Response(await request.clone().text()))) as Record<string, unknown>)
        : undefined;
      const v = body?.[name];
      const at =
        keyword === 'minimum' || keyword === 'maximum' ? v === edge : typeof v === 'string' && v.length === edge;
      const side = keyword === 'minimum' || keyword === 'minLength' ? 'more' : 'less';
      return at ? refuse(request, next, 400, `body property '${name}' must be ${side} than ${edge}`) : next(request);
    };
    return [{ operator: 'strict bound', says: `refuses ${name} at ${keyword} ${edge} itself`, tamper: strict }];
  }
  if (p.subject.in === 'path') {
    if (keyword === 'pattern')
      return [
        {
          operator: 'IPv4 only',
          says: `refuses a ${name} that is a host name rather than an IPv4 address`,
          tamper: async (request, next) => {
            const op = on(ctx, p)(request);
            const v = op && pathParam(op, request, name).value;
            return v && !/^\d+\.\d+\.\d+\.\d+(:\d+)?$/.test(v)
              ? refuse(request, next, 400, `path parameter '${name}' must be an IPv4 address`)
              : next(request);
          },
        },
      ];
    if (typeof edge !== 'number') return [];
    return [
      {
        operator: 'strict bound',
        says: `refuses ${name} at ${keyword} ${edge} itself`,
        tamper: async (request, next) => {
          const op = on(ctx, p)(request);
          const v = op && pathParam(op, request, name).value;
          const at =
            v !== undefined &&
            (keyword === 'maxLength' || keyword === 'minLength' ? v.length === edge : Number(v) === edge);
          return at ? refuse(request, next, 400, `path parameter '${name}' is out of range`) : next(request);
        },
      },
    ];
  }
  if (keyword === 'enum') {
    const last = String((edge as unknown[]).at(-1));
    return [
      {
        operator: 'a value missing',
        says: `refuses ${name}=${last}, a value of its enum`,
        tamper: whenSent(ctx, p, (v, request, next) =>
          v === last
            ? refuse(
                request,
                next,
                400,
                `query parameter '${name}' must be one of ${(edge as unknown[]).slice(0, -1).join(', ')}`,
              )
            : next(request),
        ),
      },
    ];
  }
  if (keyword === 'pattern')
    return [
      {
        operator: 'upper case only',
        says: `refuses ${name} in lower case, which its pattern takes`,
        tamper: whenSent(ctx, p, (v, request, next) =>
          v !== v.toUpperCase()
            ? refuse(request, next, 400, `query parameter '${name}' must be upper case`)
            : next(request),
        ),
      },
    ];
  if (typeof edge !== 'number') return [];
  const at = (v: string) =>
    keyword === 'maxLength' || keyword === 'minLength' ? v.length === edge : Number(v) === edge;
  return [
    {
      operator: 'strict bound',
      says: `refuses ${name} at ${keyword} ${edge} itself (the bound read as strict)`,
      tamper: whenSent(ctx, p, (v, request, next) =>
        at(v)
          ? refuse(
              request,
              next,
              400,
              `query parameter '${name}' must be ${keyword === 'minimum' ? 'greater' : 'less'} than ${edge}`,
            )
          : next(request),
      ),
    },
  ];
}

function refusesOperators(ctx: Context, p: SpecPromise): Made[] {
  const { keyword, value: edge } = p.detail;
  const name = p.subject.name;
  if (p.subject.in === 'body') {
    const lenient: Tamper = async (request, next) => {
      const op = on(ctx, p)(request);
      const text = op ? await request.clone().text() : '';
      let body: Record<string, unknown> | undefined;
      try {
        body = JSON.parse(text);
      } catch {
        return next(request);
      }
      if (!body || typeof body !== 'object' || !(name in body)) return next(request);
      const v = body[name];
      const fixed =
        keyword === 'minimum' && typeof v === 'number' && v < (edge as number)
          ? edge
          : keyword === 'maximum' && typeof v === 'number' && v > (edge as number)
            ? edge
            : keyword === 'maxLength' && typeof v === 'string' && v.length > (edge as number)
              ? v.slice(0, edge as number)
              : keyword === 'minLength' && typeof v === 'string' && v.length < (edge as number)
                ? v.padEnd(edge as number, 'x')
                : keyword === 'type' && typeof v !== edge
                  ? undefined
                  : v;
      if (fixed === v) return next(request);
      const { [name]: _dropped, ...rest } = body;
      return next(
        await copy(request, { body: JSON.stringify(fixed === undefined ? rest : { ...rest, [name]: fixed }) }),
      );
    };
    return [{ operator: 'clamps', says: `takes a ${name} past its ${keyword} (clamped, or dropped)`, tamper: lenient }];
  }
  if (p.subject.in === 'path')
    return [
      {
        operator: 'looked up anyway',
        says: `looks up a ${name} its schema refuses (404) instead of refusing it (400)`,
        tamper: async (request, next) => {
          const res = await next(request);
          const op = on(ctx, p)(request);
          if (res.status !== 400 || !op?.responses.has(404)) return res;
          const body = (await jsonOf(res)) as { message?: string } | undefined;
          if (!body?.message?.includes(`'${name}'`)) return res;
          return jsonAnswer(
            res,
            { ...errorBody(404, `nothing at that ${name}`), status: 'Server is not indexed yet, it will be shortly' },
            404,
          );
        },
      },
    ];
  const fix = (v: string): string | undefined => {
    if (keyword === 'minimum') return Number(v) < (edge as number) ? String(edge) : v;
    if (keyword === 'maximum') return Number(v) > (edge as number) ? String(edge) : v;
    if (keyword === 'maxLength') return v.length > (edge as number) ? v.slice(0, edge as number) : v;
    return undefined;
  };
  const operator =
    keyword === 'minimum' || keyword === 'maximum' ? 'clamps' : keyword === 'maxLength' ? 'truncates' : 'ignores';
  return [
    {
      operator,
      says: `takes a ${name} past its ${keyword} (${operator} it) instead of refusing it`,
      tamper: whenSent(
        ctx,
        p,
        async (v, request, next) => {
          const fixed = fix(v);
          // A value its schema refuses, read as left out; a number past a bound, cut to it.
          if (fixed === v) return next(request);
          const refused = keyword === 'enum' || keyword === 'pattern' ? true : fixed !== undefined;
          return refused ? rewrite(request, name, fixed, next) : next(request);
        },
        true,
      ),
    },
  ];
}

function typeOperators(ctx: Context, p: SpecPromise): Made[] {
  const name = p.subject.name;
  if (p.subject.in === 'body') return refusesOperators(ctx, p);
  const fits = p.detail.value === 'boolean' ? /^(true|false)$/ : /^-?\d+$/;
  return [
    {
      operator: 'reads a wrong type as left out',
      says: `answers ${name}=<not a ${p.detail.value}> as if ${name} were left out`,
      tamper: async (request, next) => {
        const op = on(ctx, p)(request);
        if (!op) return next(request);
        if (p.subject.in === 'path') {
          const v = pathParam(op, request, name).value;
          return v !== undefined && !fits.test(v)
            ? next(await pathParam(op, request, name).with('25565'))
            : next(request);
        }
        const v = new URL(request.url).searchParams.get(name);
        return v !== null && v !== '' && !fits.test(v) ? rewrite(request, name, undefined, next) : next(request);
      },
    },
  ];
}

function defaultOperators(ctx: Context, p: SpecPromise): Made[] {
  const name = p.subject.name;
  const d = p.detail.value;
  const op = ctx.model.byId.get(p.operations[0]!)!;
  const param = paramOf(op, name)!;
  const s = param.schema;
  const other = Array.isArray(s.enum)
    ? String(s.enum.find((v: unknown) => v !== d))
    : s.type === 'boolean'
      ? 'true'
      : s.type === 'integer' && typeof s.maximum === 'number' && d !== s.maximum
        ? String(s.maximum)
        : s.type === 'integer'
          ? String(Number(d) + 1)
          : param.meaning?.rule === 'flag'
            ? 'on'
            : undefined;
  if (other === undefined) return [];
  return [
    {
      operator: 'another default',
      says: `reads ${name} left out as ${name}=${other}, not its default ${JSON.stringify(d)}`,
      tamper: async (request, next) =>
        on(ctx, p)(request) && !new URL(request.url).searchParams.has(name)
          ? rewrite(request, name, other, next)
          : next(request),
    },
  ];
}

// --- what a parameter does to rows --------------------------------------------------------

const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** A `*` wildcard matched in the pattern's own case: `Paper*` finds `Paper 1.21`, not `paper 1.21`. */
function exactCase(pattern: string, whole: boolean): (v: string) => boolean {
  const body = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  const re = new RegExp(whole ? `^${body}$` : body, 's');
  return (v) => re.test(v);
}

/** The rule's match of one value against a row, case-sensitively: what a case-sensitive implementation does. */
function caseSensitive(param: Parameter, value: string): ((row: Row) => boolean) | undefined {
  const m = param.meaning!;
  switch (m.rule) {
    case 'wholeWildcard':
    case 'substringWildcard': {
      const match = exactCase(value, m.rule === 'wholeWildcard');
      return (r) => text(r[m.field]) !== undefined && match(text(r[m.field])!);
    }
    case 'nameOrCode': {
      const match = exactCase(value, true);
      return /^[A-Za-z]{2}$/.test(value)
        ? (r) => r[m.codeField] === value
        : (r) => text(r[m.field]) !== undefined && match(text(r[m.field])!);
    }
    case 'equals':
      return (r) => m.fields.some((f) => r[f] !== null && r[f] !== undefined && String(r[f]) === value);
    default:
      return undefined;
  }
}

/** The rows a lookup answers: its own field names the rule reads (`version` of a versions row). */
function rowOp(ctx: Context, p: SpecPromise): Operation {
  return ctx.model.byId.get(p.operations[0]!)!;
}

function filterTamper(
  ctx: Context,
  p: SpecPromise,
  keep: (value: string, op: Operation) => ((row: Row) => boolean) | undefined,
): Tamper {
  return whenSent(ctx, p, (value, request, next, op) => {
    const k = keep(value, op);
    return k ? refiltered(request, next, op, k) : next(request);
  });
}

function meaningOperators(ctx: Context, p: SpecPromise): Made[] {
  const name = p.subject.name;
  const op = rowOp(ctx, p);
  const param = paramOf(op, name)!;
  const m = param.meaning!;
  const drop: Made = {
    operator: 'ignored',
    says: `ignores ${name}`,
    tamper: whenSent(ctx, p, (_v, request, next) => rewrite(request, name, undefined, next)),
  };
  switch (p.kind) {
    case 'bound': {
      const up = m.rule === 'atLeast' ? 1 : -1;
      return p.detail.keyword === 'inclusive'
        ? [
            {
              operator: 'strict',
              says: `reads ${name} as strict (${m.rule === 'atLeast' ? '>' : '<'}): the row at the bound is lost`,
              // The rows past the bound only (asking for bound + 1 would be refused at the schema's edge).
              tamper: filterTamper(ctx, p, (v) => (r) => {
                const n = 'field' in m ? r[m.field] : undefined;
                return typeof n === 'number' && (up > 0 ? n > Number(v) : n < Number(v));
              }),
            },
          ]
        : [
            {
              operator: 'off by one',
              says: `lets rows one past ${name} through`,
              tamper: whenSent(ctx, p, (v, request, next) => rewrite(request, name, String(Number(v) - up), next)),
            },
          ];
    }
    case 'age': {
      const up = m.rule === 'ageAtLeastDays' ? 1 : -1;
      return p.detail.keyword === 'inclusive'
        ? [
            {
              operator: 'off by a day',
              says: `reads ${name} a day off: the row at the boundary is lost`,
              tamper: whenSent(ctx, p, (v, request, next) =>
                Number(v) + up < 0 ? next(request) : rewrite(request, name, String(Number(v) + up), next),
              ),
            },
          ]
        : [drop];
    }
    case 'text-whole':
      return [
        {
          operator: 'substring',
          says: `matches a part of the field where ${name} must match it whole`,
          tamper: whenSent(ctx, p, (v, request, next) =>
            rewrite(request, name, `*${v.replace(/^\*|\*$/g, '')}*`, next),
          ),
        },
      ];
    case 'text-substring':
      return [
        {
          operator: 'whole',
          says: `matches ${name} against the whole field only`,
          tamper: filterTamper(ctx, p, (v) => {
            const match = wildcardMatcher(v.toLowerCase(), { whole: true });
            const field = (m as { field: string }).field;
            return (r) => text(r[field]) !== undefined && match(text(r[field])!.toLowerCase());
          }),
        },
      ];
    case 'text-wildcard':
      return [
        {
          operator: 'literal *',
          says: `matches the * of ${name} literally`,
          tamper: whenSent(ctx, p, (v, request, next) =>
            v.includes('*') ? rewrite(request, name, v.replace(/\*/g, '\u2217'), next) : next(request),
          ),
        },
      ];
    case 'text-case':
      return [
        {
          operator: 'case-sensitive',
          says: `compares ${name} case-sensitively`,
          tamper: filterTamper(ctx, p, (v) => caseSensitive(param, v)),
        },
      ];
    case 'text-raw':
      return [
        {
          operator: 'with colour codes',
          says: `matches ${name} against ${p.detail.field}, § codes and all`,
          tamper: filterTamper(ctx, p, (v) => {
            const match = wildcardMatcher(v.toLowerCase(), { whole: false });
            return (r) => text(r[p.detail.field!]) !== undefined && match(text(r[p.detail.field!])!.toLowerCase());
          }),
        },
      ];
    case 'text-code':
      return [
        {
          operator: 'codes read as names',
          says: `reads a two-letter ${name} as a name, not an ISO code`,
          tamper: filterTamper(ctx, p, (v) => {
            if (m.rule !== 'nameOrCode') return undefined;
            const match = wildcardMatcher(v.toLowerCase(), { whole: true });
            return (r) => text(r[m.field]) !== undefined && match(text(r[m.field])!.toLowerCase());
          }),
        },
      ];
    case 'equals-field': {
      if (m.rule !== 'equals') return [];
      const others = m.fields.filter((f) => f !== p.detail.field);
      if (!others.length) return [drop];
      return [
        {
          operator: 'one field only',
          says: `matches ${name} against ${others.join(', ')} only, not ${p.detail.field}`,
          tamper: filterTamper(
            ctx,
            p,
            (v) => (r) => others.some((f) => String(r[f] ?? '').toLowerCase() === v.toLowerCase()),
          ),
        },
      ];
    }
    case 'flag':
      return m.rule !== 'flag'
        ? []
        : p.detail.keyword === 'on'
          ? [
              {
                operator: 'only true',
                says: `turns ${name} on only for 'true', not for any value but '${m.off}'`,
                tamper: whenSent(ctx, p, (v, request, next) =>
                  v === 'true' || v === m.off ? next(request) : rewrite(request, name, undefined, next),
                ),
              },
            ]
          : [
              {
                operator: 'off is on',
                says: `reads ${name}=${m.off} as on`,
                tamper: whenSent(ctx, p, (v, request, next) =>
                  v === m.off ? rewrite(request, name, 'on', next) : next(request),
                ),
              },
            ];
    case 'adds-field':
    case 'relative-time':
    case 'reveals-hidden':
      return p.detail.keyword === 'on'
        ? [
            {
              operator: 'ignored',
              says: `ignores ${name}=true`,
              tamper: whenSent(ctx, p, (v, request, next) =>
                v === 'true' ? rewrite(request, name, undefined, next) : next(request),
              ),
            },
          ]
        : [
            {
              operator: 'false read as true',
              says: `reads ${name}=false as true`,
              tamper: whenSent(ctx, p, (v, request, next) =>
                v === 'false' ? rewrite(request, name, 'true', next) : next(request),
              ),
            },
          ];
    case 'limits-rows':
      if (p.detail.keyword === 'cuts') return [drop];
      return [
        {
          operator: 'counts the page',
          says: `gives ${p.detail.field} as the rows of the page when ${name} is sent`,
          tamper: whenSent(ctx, p, async (_v, request, next) => {
            const res = await next(request);
            const body = (await jsonOf(res)) as Record<string, unknown> | undefined;
            const rows = op.rows && body?.[op.rows.property];
            if (!body || !Array.isArray(rows) || typeof body[p.detail.field!] !== 'number') return res;
            // The count of the page: at most its rows, and none of the hidden ones a page never shows.
            const count = body[p.detail.field!] as number;
            return jsonAnswer(res, { ...body, [p.detail.field!]: count > rows.length ? rows.length : 0 });
          }),
        },
      ];
    case 'page-past-end':
      return [
        {
          operator: 'the last page again',
          says: 'answers a page past the end with the first page',
          tamper: whenSent(ctx, p, async (v, request, next) => {
            const res = await next(request);
            const body = (await jsonOf(res)) as Record<string, unknown> | undefined;
            if (
              Number(v) <= 1 ||
              !body ||
              !Array.isArray(body[op.rows!.property]) ||
              (body[op.rows!.property] as unknown[]).length
            )
              return res;
            return rewrite(request, name, '1', next);
          }),
        },
      ];
    case 'total-steady':
      return [
        {
          operator: 'moves with the page',
          says: 'adds the page number to the total',
          tamper: editAnswer(
            (request, res) => Boolean(on(ctx, p)(request)) && res.ok,
            (body, request) => {
              const n = Number(new URL(request.url).searchParams.get(name) || 1);
              return typeof body?.[p.detail.field!] === 'number'
                ? { ...body, [p.detail.field!]: body[p.detail.field!] + n - 1 }
                : body;
            },
          ),
        },
      ];
    case 'total-reached':
      return [
        {
          operator: 'counts the page',
          says: `gives ${p.detail.field} as the rows of the page`,
          tamper: editAnswer(
            (request, res) => Boolean(on(ctx, p)(request)) && res.ok,
            (body) =>
              Array.isArray(body?.[op.rows!.property])
                ? { ...body, [p.detail.field!]: body[op.rows!.property].length }
                : body,
          ),
        },
      ];
    case 'sort-order':
    case 'sort-tie-break':
    case 'sort-default':
    case 'ignored':
      return orderOperators(ctx, p, op, param);
    default:
      return [];
  }
}

function orderOperators(ctx: Context, p: SpecPromise, op: Operation, param: Parameter): Made[] {
  const sortParam = op.parameters.find((x) => x.meaning?.rule === 'sort');
  const sm = sortParam?.meaning;
  if (!sortParam || sm?.rule !== 'sort') return [];
  const askedOrder = (request: Request) =>
    new URL(request.url).searchParams.get(sortParam.name) || String(sortParam.default);
  const sorted =
    (value: string, reverse: boolean, ties: 'asc' | 'desc' = 'asc', compare = sm.orders[value]?.compare) =>
    (rows: Row[]) => {
      const o = sm.orders[value];
      if (!o || !compare) return rows;
      const sign = (o.direction === 'asc' ? 1 : -1) * (reverse ? -1 : 1);
      return [...rows].sort((a, b) => {
        const c = (COMPARATORS[compare](a[o.field], b[o.field]) ?? 0) * sign;
        if (c) return c;
        for (const f of sm.tieBreak) {
          const t = COMPARATORS.natural(a[f], b[f]) ?? 0;
          if (t) return ties === 'asc' ? t : -t;
        }
        return 0;
      });
    };
  const bySort =
    (order: (request: Request) => ((rows: Row[]) => Row[]) | undefined): Tamper =>
    async (request, next) => {
      const mine = on(ctx, p)(request);
      const reorder = mine && order(request);
      return reorder ? refiltered(request, next, mine, () => true, reorder) : next(request);
    };
  // Ties one way on odd pages and the other on even ones: in no order that holds from one request to the next (as a
  // database without a tie break answers), and the same for the same request whatever ran before it.
  const pageName = op.parameters.find((x) => x.meaning?.rule === 'page')?.name;
  const evenPage = (request: Request) =>
    Number((pageName && new URL(request.url).searchParams.get(pageName)) || 1) % 2 === 0;
  switch (p.kind) {
    case 'sort-order': {
      const value = p.detail.order!;
      const out: Made[] = [
        {
          operator: 'reversed',
          says: `orders ${sortParam.name}=${value} the other way round`,
          tamper: bySort((request) =>
            askedOrder(request) === value && new URL(request.url).searchParams.has(sortParam.name)
              ? sorted(value, true)
              : undefined,
          ),
        },
      ];
      if (p.detail.compare === 'version')
        out.push({
          operator: 'as text',
          says: `orders ${sortParam.name}=${value} as plain text, not numeric-aware versions`,
          tamper: bySort((request) =>
            askedOrder(request) === value && new URL(request.url).searchParams.has(sortParam.name)
              ? sorted(value, false, 'asc', 'natural')
              : undefined,
          ),
        });
      return out;
    }
    case 'sort-tie-break':
      return [
        {
          operator: 'ties reversed',
          says: `breaks ties by ${sm.tieBreak.join(', ')} descending`,
          tamper: bySort((request) => sorted(askedOrder(request), false, 'desc')),
        },
        {
          operator: 'ties in no stable order',
          says: `breaks ties by ${sm.tieBreak.join(', ')} one way on odd pages and the other way on even ones`,
          tamper: bySort((request) => sorted(askedOrder(request), false, evenPage(request) ? 'desc' : 'asc')),
        },
      ];
    case 'sort-default': {
      const other = Object.keys(sm.orders).find((v) => v !== String(sortParam.default))!;
      return [
        {
          operator: 'another default',
          says: `orders by ${other} when ${sortParam.name} is left out`,
          tamper: bySort((request) =>
            new URL(request.url).searchParams.has(sortParam.name) ? undefined : sorted(other, false),
          ),
        },
      ];
    }
    case 'ignored':
      return [
        {
          operator: 'honoured',
          says: `reads ${param.name}=asc|desc as the direction of the sort`,
          tamper: bySort((request) => {
            const dir = new URL(request.url).searchParams.get(param.name);
            const o = sm.orders[askedOrder(request)];
            return o && (dir === 'asc' || dir === 'desc') && dir !== o.direction
              ? sorted(askedOrder(request), true)
              : undefined;
          }),
        },
      ];
    default:
      return [];
  }
}

// --- answers: fields and headers ----------------------------------------------------------

function placedAnswer(
  ctx: Context,
  p: SpecPromise,
  edit: (parent: Record<string, unknown>, key: string, n: number) => void,
): Tamper {
  return async (request, next) => {
    const res = await next(request);
    const op = operationOfRequest(ctx.model, request);
    const places = (p.detail.places ?? []).filter((pl) => pl.operation === op?.operationId && pl.status === res.status);
    if (!places.length) return res;
    const body = await jsonOf(res);
    if (body === undefined) return res;
    let n = 0;
    for (const pl of places) editAt(body, pl.path, (parent, key) => edit(parent, key, n++));
    return jsonAnswer(res, body);
  };
}

/** A value of the same kind that breaks a pattern: lower case, a prefix, what is left without its first part. */
function againstPattern(pattern: string, v: string): string | undefined {
  const re = new RegExp(pattern);
  return [v.toLowerCase(), v.toUpperCase(), `AS${v}`, `x-${v}`, v.replace(/^[^_]+_/, ''), `${v} `].find(
    (c) => !re.test(c),
  );
}

function fieldOperators(ctx: Context, p: SpecPromise): Made[] {
  const { value } = p.detail;
  const edit = (
    operator: string,
    says: string,
    fn: (parent: Record<string, unknown>, key: string, n: number) => void,
  ): Made[] => [{ operator, says: `${p.subject.name}: ${says}`, tamper: placedAnswer(ctx, p, fn) }];
  switch (p.kind) {
    case 'field-type':
      if (value === 'integer' || value === 'number')
        return edit(
          'as text',
          'sent as text',
          (o, k) => o[k] !== null && typeof o[k] === 'number' && (o[k] = String(o[k])),
        );
      if (value === 'boolean')
        return edit('as 0/1', 'sent as 0 or 1', (o, k) => typeof o[k] === 'boolean' && (o[k] = o[k] ? 1 : 0));
      if (value === 'array')
        return edit(
          'as text',
          'sent as one joined string',
          (o, k) => Array.isArray(o[k]) && (o[k] = (o[k] as unknown[]).join(',')),
        );
      if (value === 'string')
        // Digits as a number (an id column read as an integer); any other text as a list of one (a relation's values).
        return edit('not a string', 'a number where its text is digits, else a list', (o, k) => {
          if (typeof o[k] === 'string') o[k] = /^\d+$/.test(o[k] as string) ? Number(o[k]) : [o[k]];
        });
      return [];
    case 'field-format':
      if (value === 'date-time')
        return edit(
          'naive',
          'a timestamp without its zone',
          (o, k) => typeof o[k] === 'string' && (o[k] = (o[k] as string).replace(/(Z|[+-]\d\d:?\d\d)$/, '')),
        );
      return [];
    case 'field-enum': {
      const words = value as unknown[];
      return edit('outside the enum', 'a value outside its enum (another case, or a boolean)', (o, k) => {
        const v = o[k];
        if (typeof v === 'boolean') o[k] = !v;
        else if (typeof v === 'number') o[k] = v === 1;
        else if (typeof v === 'string') o[k] = words.includes(v.toLowerCase()) ? v.toUpperCase() : v.toLowerCase();
      });
    }
    case 'field-pattern':
      return edit('against the pattern', `a value against ${value}`, (o, k) => {
        if (typeof o[k] === 'string') o[k] = againstPattern(String(value), o[k] as string) ?? o[k];
      });
    case 'field-minimum':
      return edit(
        'below',
        `below its minimum ${value}`,
        (o, k) => typeof o[k] === 'number' && (o[k] = (value as number) - 1),
      );
    case 'field-maximum':
      return edit(
        'above',
        `above its maximum ${value}`,
        (o, k) => typeof o[k] === 'number' && (o[k] = (value as number) + 1),
      );
    case 'field-min-length':
      return edit('empty', 'an empty string', (o, k) => typeof o[k] === 'string' && (o[k] = ''));
    case 'field-max-length':
      return edit(
        'too long',
        `longer than ${value}`,
        (o, k) => typeof o[k] === 'string' && (o[k] = 'x'.repeat((value as number) + 1)),
      );
    case 'field-required':
      return edit('left out', 'left out', (o, k) => delete o[k]);
    case 'field-nullable':
      return value === false
        ? edit('null', 'sent as null in some rows', (o, k, n) => n % 5 === 0 && (o[k] = null))
        : edit('null left out', 'left out where it is null', (o, k) => o[k] === null && delete o[k]);
    case 'field-one-of':
      return edit('neither', 'neither of what it may be', (o, k) => typeof o[k] === 'string' && (o[k] = 'NO_ID'));
    case 'field-count-of':
      return edit('counts another', `not the length of ${p.detail.field}`, (o, k) => {
        const of = o[p.detail.field!];
        if (Array.isArray(of) && typeof o[k] === 'number') o[k] = of.length + 1;
      });
    case 'field-true-when':
      return edit(
        'inverted',
        `the opposite of what ${p.detail.field} says`,
        (o, k) => typeof o[k] === 'boolean' && (o[k] = !o[k]),
      );
    case 'field-absent':
    case 'field-secret':
      return [secretListed(ctx, p)];
    default:
      return [];
  }
}

/** Every listed key carries its secret: those the reference knows from its fixtures, and those created through it. */
function secretListed(ctx: Context, p: SpecPromise): Made {
  const secrets = new Map<string, string>();
  const fx = loadFixtures(undefined, ctx.model);
  for (const c of fx.credentials) if (c.keyId) secrets.set(c.keyId, c.value);
  return {
    operator: 'secret listed',
    says: 'each listed key carries its secret',
    tamper: async (request, next) => {
      const res = await next(request);
      const body = (await jsonOf(res)) as { key?: { id?: string; secret?: string }; keys?: Row[] } | undefined;
      if (body?.key?.id && body.key.secret) secrets.set(body.key.id, body.key.secret);
      const op = operationOfRequest(ctx.model, request);
      if (
        !op ||
        !res.ok ||
        !Array.isArray(body?.keys) ||
        !(p.operations.includes(op.operationId) || p.kind === 'field-secret')
      )
        return res;
      return jsonAnswer(res, {
        ...body,
        keys: body.keys.map((k) => ({ ...k, secret: secrets.get(String(k.id)) ?? 'sls_test_0000' })),
      });
    },
  };
}

function headerOperators(ctx: Context, p: SpecPromise): Made[] {
  const name = p.subject.name.toLowerCase();
  const at = (request: Request, res: Response) => {
    const op = operationOfRequest(ctx.model, request);
    return (p.detail.places ?? []).some((pl) => pl.operation === op?.operationId && pl.status === res.status);
  };
  const headers =
    (fn: (h: Headers) => void): Tamper =>
    async (request, next) => {
      const res = await next(request);
      if (!at(request, res)) return res;
      const h = new Headers(res.headers);
      fn(h);
      return new Response(res.body, { status: res.status, headers: h });
    };
  const limited = name === 'retry-after';
  return p.kind === 'header-present'
    ? [
        {
          operator: 'left out',
          says: `answers without ${p.subject.name}`,
          tamper: headers((h) => h.delete(name)),
          limited,
        },
      ]
    : [
        {
          operator: 'not an integer',
          says: `sends ${p.subject.name} as a number its schema refuses`,
          tamper: headers((h) => h.has(name) && h.set(name, '-1')),
          limited,
        },
      ];
}

function rateLimitOperators(ctx: Context, p: SpecPromise): Made[] {
  const prefix = p.detail.pathPrefix ?? '';
  const groups = ctx.model.limits.rateLimits.groups;
  const inGroup = (request: Request) => {
    const path = new URL(request.url).pathname.slice(ctx.model.basePath.length);
    return prefix ? path.startsWith(prefix) : !groups.some((g) => path.startsWith(g.pathPrefix));
  };
  const headers =
    (fn: (h: Headers) => void): Tamper =>
    async (request, next) => {
      const res = await next(request);
      if (!inGroup(request) || !res.headers.has('x-ratelimit-remaining')) return res;
      const h = new Headers(res.headers);
      fn(h);
      return new Response(res.body, { status: res.status, headers: h });
    };
  switch (p.kind) {
    case 'rate-limit-countdown':
      return [
        {
          operator: 'stuck',
          says: 'X-RateLimit-Remaining stays one below the limit',
          tamper: headers((h) =>
            h.set('x-ratelimit-remaining', String(Math.max(0, Number(h.get('x-ratelimit-limit')) - 1))),
          ),
          everywhere: true,
        },
      ];
    case 'rate-limit-reset':
      return [
        {
          operator: 'milliseconds',
          says: 'X-RateLimit-Reset in milliseconds',
          tamper: headers((h) => h.set('x-ratelimit-reset', String(Number(h.get('x-ratelimit-reset')) * 1000))),
          everywhere: true,
        },
      ];
    case 'rate-limit-warning':
      return [
        {
          operator: 'never counts down',
          says: 'X-RateLimit-Remaining always says the whole limit, and 429s come unannounced',
          tamper: headers((h) => h.set('x-ratelimit-remaining', h.get('x-ratelimit-limit') ?? '0')),
          limited: true,
          everywhere: true,
        },
      ];
    default:
      return [];
  }
}

/**
 * What CORS layers really get wrong (`x-cors`), on answers to a cross-origin request: `*`
 * with credentials, no Vary, nothing exposed, a preflight that leaves out the method asked
 * or `Authorization`, no max age, any origin echoed.
 */
function corsOperators(p: SpecPromise): Made[] {
  const crossOrigin =
    (fn: (h: Headers, origin: string, preflight: boolean) => void): Tamper =>
    async (request, next) => {
      const res = await next(request);
      const origin = request.headers.get('origin');
      if (origin === null) return res;
      const h = new Headers(res.headers);
      fn(h, origin, request.method === 'OPTIONS' && request.headers.has('access-control-request-method'));
      return new Response(res.body, { status: res.status, headers: h });
    };
  const dropFrom = (h: Headers, name: string, item: string) => {
    const kept = (h.get(name) ?? '')
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v && v.toLowerCase() !== item.toLowerCase());
    if (h.has(name)) h.set(name, kept.join(', '));
  };
  const one = (operator: string, says: string, fn: Parameters<typeof crossOrigin>[0]): Made[] => [
    { operator, says, tamper: crossOrigin(fn) },
  ];
  switch (p.kind) {
    case 'cors-grant':
      return one('* with credentials', 'answers Access-Control-Allow-Origin: * with credentials', (h) => {
        if (h.has('access-control-allow-origin')) h.set('access-control-allow-origin', '*');
      });
    case 'cors-vary':
      return one('no Vary', 'leaves Origin out of Vary', (h) => dropFrom(h, 'vary', 'origin'));
    case 'cors-expose':
      return one('nothing exposed', 'sends no Access-Control-Expose-Headers', (h, _o, preflight) => {
        if (!preflight) h.delete('access-control-expose-headers');
      });
    case 'cors-preflight':
      return [
        {
          operator: 'method left out',
          says: 'a preflight leaves the method it asks for out of Access-Control-Allow-Methods',
          tamper: async (request, next) => {
            const asked = request.headers.get('access-control-request-method');
            return crossOrigin((h, _o, preflight) => {
              if (preflight && asked) dropFrom(h, 'access-control-allow-methods', asked);
            })(request, next);
          },
        },
      ];
    case 'cors-preflight-headers':
      return one(
        'Authorization left out',
        'a preflight leaves Authorization out of the allowed headers',
        (h, _o, pf) => {
          if (pf) dropFrom(h, 'access-control-allow-headers', 'authorization');
        },
      );
    case 'cors-max-age':
      return one('no max age', 'a preflight sends no Access-Control-Max-Age', (h, _o, preflight) => {
        if (preflight) h.delete('access-control-max-age');
      });
    case 'cors-foreign':
      return one('any origin', 'echoes any Origin with credentials', (h, origin) => {
        if (h.has('access-control-allow-origin')) return;
        h.set('access-control-allow-origin', origin);
        h.set('access-control-allow-credentials', 'true');
      });
    default:
      return [];
  }
}

// --- who may call, the routing, the limits, the links -----------------------------------

function headersWith(request: Request, set: Record<string, string | undefined>): Headers {
  const h = new Headers(request.headers);
  for (const [k, v] of Object.entries(set)) v === undefined ? h.delete(k) : h.set(k, v);
  return h;
}

function authOperators(ctx: Context, p: SpecPromise): Made[] {
  const scheme = p.detail.scheme;
  const bearer = (request: Request) => /^Bearer (\S+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
  const cookie = (request: Request) =>
    (request.headers.get('cookie') ?? '')
      .split(/;\s*/)
      .find((c) => c.startsWith(`${ctx.valid.cookie}=`))
      ?.slice(ctx.valid.cookie.length + 1);
  const asValid = (request: Request) =>
    copy(request, { headers: headersWith(request, { authorization: `Bearer ${ctx.valid.key}`, cookie: undefined }) });
  const asSession = (request: Request) =>
    copy(request, {
      headers: headersWith(request, { authorization: undefined, cookie: `${ctx.valid.cookie}=${ctx.valid.session}` }),
    });
  const mine = on(ctx, p);
  // The answer of the credential swapped in, counted (its rate-limit headers) as the request sent.
  const swap =
    (when: (request: Request) => boolean, to: (request: Request) => Promise<Request>): Tamper =>
    async (request, next) => {
      if (!mine(request) || !when(request)) return next(request);
      const counted = await next(request.clone());
      const shown = await next(await to(request));
      return jsonAnswer(shown, await jsonOf(shown), shown.status, withLimitsOf(shown.headers, counted.headers));
    };
  const isKey = scheme === 'apiKey';
  switch (p.kind) {
    case 'auth-missing':
      return [
        {
          operator: 'not enforced',
          says: 'answers without credentials as a user',
          tamper: swap((r) => !r.headers.has('authorization') && !cookie(r), asValid),
        },
      ];
    case 'auth-unknown':
      return [
        {
          operator: 'accepted',
          says: `takes an unknown ${isKey ? 'API key' : 'session'} as a user's`,
          tamper: isKey
            ? swap(
                (r) => bearer(r) !== undefined && !ctx.known.has(bearer(r)!) && !createdKeys.has(bearer(r)!),
                asValid,
              )
            : swap((r) => cookie(r) !== undefined && !ctx.known.has(cookie(r)!), asSession),
        },
      ];
    case 'auth-expired':
      return [
        {
          operator: 'accepted',
          says: `takes an expired ${isKey ? 'API key' : 'session'}`,
          tamper: isKey
            ? swap((r) => ctx.expired.includes(bearer(r) ?? ''), asValid)
            : swap((r) => ctx.expired.includes(cookie(r) ?? ''), asSession),
        },
      ];
    case 'auth-malformed':
      return [
        {
          operator: 'accepted',
          says: 'takes an Authorization header without Bearer',
          tamper: swap(
            (r) => Boolean(r.headers.get('authorization')) && !/^Bearer /i.test(r.headers.get('authorization')!),
            asValid,
          ),
        },
      ];
    case 'auth-revoked':
      return [
        {
          operator: 'still works',
          says: 'takes a revoked key',
          tamper: async (request, next) => {
            const res = await next(request);
            // A 401 to a key the suite created (so revoked) is answered as the user's.
            const key = bearer(request);
            if (mine(request) && res.status === 401 && key && createdKeys.has(key)) return next(await asValid(request));
            return res;
          },
        },
      ];
    case 'auth-permission':
      return [
        {
          operator: 'not checked',
          says: `does not check ${p.detail.permission}`,
          tamper: swap((r) => bearer(r) === ctx.forbidden, asValid),
        },
      ];
    case 'auth-scheme':
      return [
        {
          operator: 'any scheme',
          says: `lets an ${scheme} do what x-credentials keeps to others`,
          tamper: swap((r) => bearer(r) === ctx.valid.key, asSession),
        },
      ];
    case 'auth-valid':
      return [
        {
          operator: 'refused',
          says: `refuses a valid ${isKey ? 'API key' : 'session'}`,
          tamper: async (request, next) =>
            mine(request) && (isKey ? bearer(request) === ctx.valid.key : cookie(request) === ctx.valid.session)
              ? refuse(request, next, 401, '')
              : next(request),
        },
      ];
    case 'public-credentials':
      return [
        {
          operator: 'refuses a bad credential',
          says: 'refuses a credential it does not know (401), where a public operation ignores it',
          tamper: async (request, next) => {
            const key = bearer(request);
            return mine(request) && key && !ctx.known.has(key) && !createdKeys.has(key)
              ? jsonAnswer(await next(request), errorBody(401), 401)
              : next(request);
          },
        },
      ];
    default:
      return [];
  }
}

/** `headers` with the rate-limit headers of `from`. */
function withLimitsOf(headers: Headers, from: Headers): Headers {
  const out = new Headers(headers);
  from.forEach((v, k) => {
    if (k.startsWith('x-ratelimit-')) out.set(k, v);
  });
  return out;
}

/** Keys created through a mutant (their secrets), as a revoked or an unknown key is told from them. */
const createdKeys = new Set<string>();

function statusOperators(ctx: Context, p: SpecPromise): Made[] {
  const status = p.detail.status!;
  const to: Record<number, number> = { 201: 200, 400: 422, 401: 403, 403: 401, 404: 400, 409: 400, 413: 400, 415: 400 };
  const other = to[status];
  if (other === undefined) return [];
  return [
    {
      operator: `${status} as ${other}`,
      says: `answers ${other} where the spec says ${status}`,
      tamper: async (request, next) => {
        const res = await next(request);
        if (!on(ctx, p)(request) || res.status !== status) return res;
        const body = (await jsonOf(res)) as Record<string, unknown> | undefined;
        const message = typeof body?.message === 'string' ? body.message.replace(/^[^:]+: ?/, '') : '';
        return jsonAnswer(res, status < 300 ? body : { ...body, ...errorBody(other, message) }, other);
      },
    },
  ];
}

function operationOperators(ctx: Context, p: SpecPromise): Made[] {
  const mine = on(ctx, p);
  switch (p.kind) {
    case 'route':
      return [
        {
          operator: 'missing',
          says: 'the route is not served',
          tamper: async (request, next) => (mine(request) ? refuse(request, next, 404, 'no such path') : next(request)),
        },
      ];
    case 'status':
      return statusOperators(ctx, p);
    case 'error-body': {
      const status = p.detail.status!;
      if (status === 429 || status >= 500) return [];
      return [
        {
          operator: 'bare',
          says: `its ${status} is {"error": message}, without success and message`,
          tamper: editAnswer(
            (request, res) => Boolean(mine(request)) && res.status === status,
            (body) => ({ error: body?.message ?? 'error' }),
          ),
        },
      ];
    }
    case 'json':
      return [
        {
          operator: 'text/plain',
          says: 'says Content-Type: text/plain',
          tamper: async (request, next) => {
            const res = await next(request);
            if (!mine(request)) return res;
            const h = new Headers(res.headers);
            h.set('content-type', 'text/plain; charset=UTF-8');
            return new Response(res.body, { status: res.status, headers: h });
          },
        },
      ];
    case 'no-server-error': {
      // A parameter sent twice needs a query parameter: an operation without one has no such crash to find.
      const queried = p.operations.some((id) => ctx.model.byId.get(id)?.parameters.some((x) => x.in === 'query'));
      if (!queried) return [];
      return [
        {
          operator: 'crashes on a repeated parameter',
          says: 'answers 500 to a query parameter sent twice',
          tamper: async (request, next) => {
            const names = [...new URL(request.url).searchParams.keys()];
            return mine(request) && names.some((n, i) => names.indexOf(n) !== i)
              ? refuse(request, next, 500, 'the request could not be completed')
              : next(request);
          },
        },
      ];
    }
    case 'no-leak':
      return [
        {
          operator: 'stack in errors',
          says: 'error messages carry a stack trace',
          tamper: editAnswer(
            (request, res) => Boolean(mine(request)) && res.status >= 400 && res.status < 500,
            (body) => ({ ...body, message: `${body?.message}\n    at handler (/srv/app/src/routes/api.js:41:13)` }),
          ),
        },
      ];
    case 'param-empty':
      return [
        {
          operator: 'empty refused',
          says: `refuses ${p.subject.name}= (empty) instead of reading it as left out`,
          tamper: async (request, next) =>
            mine(request) && new URL(request.url).searchParams.get(p.subject.name) === ''
              ? refuse(request, next, 400, `query parameter '${p.subject.name}' must not be empty`)
              : next(request),
        },
      ];
    case 'param-any-case': {
      const words = (p.detail.value as unknown[]).map(String);
      return [
        {
          operator: 'exact case only',
          says: `refuses ${p.subject.name} in another case than its enum's`,
          tamper: whenSent(ctx, p, (v, request, next) =>
            words.includes(v)
              ? next(request)
              : refuse(request, next, 400, `query parameter '${p.subject.name}' must be one of ${words.join(', ')}`),
          ),
        },
      ];
    }
    case 'body-unknown':
      return refusesOperators(ctx, {
        ...p,
        subject: { ...p.subject, name: 'contract_unknown' },
        detail: { keyword: 'type', value: 'none' },
      });
    case 'body-optional':
      return [
        {
          operator: 'a body required',
          says: 'refuses a request without a body',
          tamper: async (request, next) =>
            mine(request) && !(await request.clone().text())
              ? refuse(request, next, 400, 'the body is required')
              : next(request),
        },
      ];
    default:
      return [];
  }
}

function otherOperators(ctx: Context, p: SpecPromise): Made[] {
  switch (p.kind) {
    case 'routing-unknown-path':
      return [
        {
          operator: 'HTML',
          says: 'answers an unknown path with an HTML page',
          everywhere: true,
          tamper: async (request, next) => {
            const res = await next(request);
            if (res.status !== 404 || operationOfRequest(ctx.model, request)) return res;
            const path = new URL(request.url).pathname.slice(ctx.model.basePath.length);
            if (
              ctx.model.operations.some(
                (o) =>
                  o.path.split('/').length === path.split('/').length && o.path.split('/')[1] === path.split('/')[1],
              )
            )
              return res;
            return new Response(`<!DOCTYPE html><html><body><pre>Cannot GET ${path}</pre></body></html>`, {
              status: 404,
              headers: { 'content-type': 'text/html; charset=UTF-8' },
            });
          },
        },
      ];
    case 'routing-wrong-method':
      return [
        {
          operator: '404',
          says: `answers a method ${p.subject.name} does not declare with 404, not 405`,
          tamper: async (request, next) => {
            const res = await next(request);
            const path = new URL(request.url).pathname.slice(ctx.model.basePath.length);
            const template = new RegExp(`^${p.subject.name.replace(/\{[^}]+\}/g, '[^/]+')}$`);
            if (res.status !== 405 || !template.test(path)) return res;
            const h = new Headers(res.headers);
            h.delete('allow');
            return jsonAnswer(res, errorBody(404, 'no such path'), 404, h);
          },
        },
      ];
    case 'body-limit':
      return [
        {
          operator: 'no limit',
          says: 'reads a body of any size',
          tamper: async (request, next) => {
            const body = ['GET', 'HEAD'].includes(request.method) ? '' : await request.clone().text();
            return Buffer.byteLength(body) > ctx.model.limits.maxBodyBytes
              ? next(await copy(request, { body: '{}' }))
              : next(request);
          },
        },
      ];
    case 'default-port': {
      const op = ctx.model.byId.get(p.operations[0]!)!;
      const param = op.parameters.find((x) => x.raw['x-default-port'] !== undefined)!;
      return [
        {
          operator: 'another port',
          says: `reads ${param.name} without a port as port 80`,
          tamper: async (request, next) => {
            const mineOp = on(ctx, p)(request);
            const at = mineOp && pathParam(mineOp, request, param.name);
            return at?.value && !at.value.includes(':') ? next(await at.with(`${at.value}:80`)) : next(request);
          },
        },
      ];
    }
    case 'link':
      return p.detail.target && ctx.model.byId.get(p.detail.target)?.method === 'DELETE'
        ? [
            {
              operator: 'revokes nothing',
              says: 'answers a revocation without revoking the key',
              tamper: async (request, next) => {
                const op = operationOfRequest(ctx.model, request);
                if (!op || op.operationId !== p.detail.target) return next(request);
                const id = decodeURIComponent(new URL(request.url).pathname.split('/').at(-1)!);
                const list = ctx.model.operations.find(
                  (o) => o.method === 'GET' && o.path === op.path.replace(/\/\{[^}]+\}$/, ''),
                )!;
                const listed = await next(
                  await copy(
                    new Request(request.url.replace(/\/[^/]+$/, ''), { method: list.method, headers: request.headers }),
                  ),
                );
                const keys = ((await jsonOf(listed)) as { keys?: Row[] } | undefined)?.keys ?? [];
                return keys.some((k) => k.id === id) && listed.ok
                  ? jsonAnswer(listed, { success: true, id, message: 'API key revoked' })
                  : next(request);
              },
            },
          ]
        : [
            {
              operator: 'new keys unlisted',
              says: 'leaves keys created with a name out of the list',
              tamper: editAnswer(
                (request, res) => operationOfRequest(ctx.model, request)?.operationId === p.detail.target && res.ok,
                (body) => ({
                  ...body,
                  keys: (body?.keys ?? []).filter((k: Row) => !String(k.name ?? '').startsWith('contract-test')),
                }),
              ),
            },
          ];
    default:
      return [];
  }
}

/** Remembers the secrets of keys created through a mutant, whatever the mutant does. */
const remembering =
  (tamper: Tamper): Tamper =>
  async (request, next) => {
    const res = await tamper(request, next);
    const body = (await jsonOf(res)) as { key?: { secret?: string } } | undefined;
    if (typeof body?.key?.secret === 'string') createdKeys.add(body.key.secret);
    return res;
  };

function operatorsOf(ctx: Context, p: SpecPromise): Made[] {
  switch (p.kind) {
    case 'param-accepts':
      return acceptsOperators(ctx, p);
    case 'param-refuses':
      return refusesOperators(ctx, p);
    case 'param-type':
      return typeOperators(ctx, p);
    case 'param-default':
      return defaultOperators(ctx, p);
    case 'header-present':
    case 'header-value':
      return headerOperators(ctx, p);
    case 'rate-limit-countdown':
    case 'rate-limit-reset':
    case 'rate-limit-warning':
      return rateLimitOperators(ctx, p);
    case 'key-cap':
      return [
        {
          operator: 'cap as a bad request',
          says: 'answers a key past the cap 400, as if the body were wrong, instead of 409',
          tamper: async (request, next) => {
            const res = await next(request);
            return on(ctx, p)(request) && res.status === 409
              ? jsonAnswer(res, errorBody(400, 'too many keys'), 400)
              : res;
          },
        },
      ];
    default:
      if (p.kind.startsWith('field-')) return fieldOperators(ctx, p);
      if (p.kind.startsWith('cors-')) return corsOperators(p);
      if (p.kind.startsWith('auth-') || p.kind === 'public-credentials') return authOperators(ctx, p);
      if (p.subject.area === 'parameter' && p.kind !== 'param-empty' && p.kind !== 'param-any-case')
        return meaningOperators(ctx, p);
      return [...operationOperators(ctx, p), ...otherOperators(ctx, p)];
  }
}

/** Every mutant of the map: each promise a judge holds, broken by each operator of its kind. */
export function mutantsOf(model: SpecModel, map: readonly SpecPromise[] = promiseMap(model)): Mutant[] {
  const ctx = contextOf(model);
  const out: Mutant[] = [];
  for (const p of map) {
    if (p.uncovered) continue;
    for (const made of operatorsOf(ctx, p)) {
      // The suite's key operations go together: a key is created, listed and revoked.
      const keyOps = model.operations.filter((o) => !o.isPublic).map((o) => o.operationId);
      const ops = p.operations.some((id) => keyOps.includes(id))
        ? [...new Set([...p.operations, ...keyOps])]
        : p.operations;
      const only = made.everywhere || !ops.length ? undefined : [...new Set(ops)];
      // A field only a 429 carries is met only where the limits are enforced.
      const places = p.detail.places ?? [];
      const limited = made.limited || (places.length > 0 && places.every((pl) => pl.status === 429));
      out.push({
        id: `${p.id} / ${made.operator}`,
        promise: p,
        operator: made.operator,
        says: made.says,
        ...(only ? { only } : {}),
        ...(limited ? { limited: true } : {}),
        tamper: remembering(made.tamper),
      });
    }
  }
  return out;
}

/**
 * One defect in every place it can be: the mutants given, each breaking its own promise,
 * at once (`*` matched literally by every text filter). The suite must name it as one cause.
 */
export function combined(id: string, says: string, mutants: readonly Mutant[]): Mutant {
  const [first, ...rest] = mutants;
  if (!first) throw new Error(`${id}: no mutant to combine`);
  const scoped = mutants.every((m) => m.only);
  const only = [...new Set(mutants.flatMap((m) => m.only ?? []))];
  return {
    id,
    promise: first.promise,
    operator: first.operator,
    says,
    ...(scoped ? { only } : {}),
    ...(mutants.some((m) => m.limited) ? { limited: true } : {}),
    also: rest.map((m) => m.promise),
    tamper: mutants.reduceRight<Tamper>(
      (inner, m) => (request, next) => m.tamper(request, (r) => inner(r, next)),
      (request, next) => next(request),
    ),
  };
}

/** The reference's fetch, broken by a mutant. */
export function mutated(mutant: Pick<Mutant, 'tamper'>, inner: Fetch): Fetch {
  return (request) => mutant.tamper(request, inner);
}

export { idOf };
