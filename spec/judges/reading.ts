// A request read against the spec once, for every judge of its exchange: which operation
// it is (route.ts, as the mock routes it), the value each of that operation's parameters
// was sent with, the values its schemas refuse, the query parameters it does not have,
// the credentials it carries (credentials.ts), and its body.
import { eachQueryPair } from '../query-pairs.ts';
import type { Operation, Parameter } from '../model.ts';
import { weakest, type Provenance } from '../provenance.ts';
import { type Carried, carriedCredentials } from './credentials.ts';
import { mediaType, type SentRequest } from './exchange.ts';
import type { JudgeContext } from './judge.ts';
import { type Route, routeOf } from './route.ts';

/** A value the spec refuses, in a parameter or a property of the body. */
export interface Refused {
  name: string;
  in: 'query' | 'path' | 'body';
  /** As sent (text for a parameter, the JSON value for a body property). */
  value: unknown;
  /** How firm the refusal is: the operation, the parameter and the error body. */
  level: Provenance;
}

export interface RequestReading {
  route: Route;
  op?: Operation;
  query: URLSearchParams;
  /**
   * Each query and path parameter of the operation sent once, with its value
   * (`allowEmptyValue` empties left out: they mean "no filter").
   */
  values: Map<string, { param: Parameter; value: string }>;
  /** Parameters sent more than once: what they mean is the server's to choose. */
  repeated: string[];
  refused: Refused[];
  /** Query parameters the operation does not have (the real service ignores them). */
  unknownQuery: string[];
  credentials: Carried;
  /** The body's size in bytes (0 without one), its media type, and its JSON (undefined when it is not JSON). */
  body: { bytes: number; type: string; json: unknown; isJson: boolean };
}

/**
 * The words of an enum a parameter matches in any case: a text rule compares it case-insensitively (the spec says so).
 */
const TEXT_RULES = new Set(['equals', 'wholeWildcard', 'substringWildcard', 'nameOrCode']);

/**
 * Whether the spec allows a parameter's value as it travels (`"20"` is an
 * integer; `eu` is `EU` for a text rule's enum).
 */
export function allowsValue(ctx: JudgeContext, param: Parameter, value: string): boolean {
  if (ctx.schemas.accepts(param.schema, value)) return true;
  if (!param.meaning || !TEXT_RULES.has(param.meaning.rule)) return false;
  const words: unknown[] = Array.isArray(param.schema.enum) ? param.schema.enum : [];
  return words.some((w) => typeof w === 'string' && w.toLowerCase() === value.toLowerCase());
}

function parseBody(request: SentRequest): RequestReading['body'] {
  const text = request.body ?? '';
  const type = mediaType(request.headers['content-type']);
  let json: unknown;
  let isJson = false;
  if (text !== '') {
    try {
      json = JSON.parse(text);
      isJson = true;
    } catch {
      isJson = false;
    }
  }
  return { bytes: Buffer.byteLength(text), type, json, isJson };
}

/**
 * The reading of a request: the route, the query's names and the credentials at once (the
 * request judges need no more, and the mock runs them on every request); the values, what
 * the spec refuses and the body's JSON when a judge first asks.
 */
class Reading implements RequestReading {
  readonly route: Route;
  readonly op?: Operation;
  readonly unknownQuery: string[] = [];
  /** The query as sent, without its `?` (and any fragment). */
  private readonly rawQuery: string;
  private search?: URLSearchParams;
  readonly credentials: Carried;
  private parsed?: Pick<RequestReading, 'values' | 'repeated' | 'refused'>;
  private parsedBody?: RequestReading['body'];

  constructor(
    private readonly ctx: JudgeContext,
    private readonly request: SentRequest,
  ) {
    this.route = routeOf(ctx.model, request.method, request.target);
    const { target } = request;
    const q = target.indexOf('?');
    const hash = target.indexOf('#', q + 1);
    this.rawQuery = q < 0 ? '' : target.slice(q + 1, hash < 0 ? undefined : hash);
    this.credentials = carriedCredentials(ctx.model, request.headers);
    if (this.route.kind !== 'operation') return;
    const op = this.route.op;
    this.op = op;
    if (q < 0) return;
    // The names alone, on every request the mock gets: a URLSearchParams is made only for a judge that reads values.
    const known = queryNamesOf(op);
    let seen: Set<string> | undefined;
    eachQueryPair(this.rawQuery, (name) => {
      if (known.has(name) || seen?.has(name)) return;
      (seen ??= new Set()).add(name);
      this.unknownQuery.push(name);
    });
  }

  get query(): URLSearchParams {
    return (this.search ??= new URLSearchParams(this.rawQuery));
  }

  get body(): RequestReading['body'] {
    return (this.parsedBody ??= parseBody(this.request));
  }

  get values(): RequestReading['values'] {
    return (this.parsed ??= this.parse()).values;
  }

  get repeated(): string[] {
    return (this.parsed ??= this.parse()).repeated;
  }

  get refused(): Refused[] {
    return (this.parsed ??= this.parse()).refused;
  }

  private parse(): Pick<RequestReading, 'values' | 'repeated' | 'refused'> {
    const out: Pick<RequestReading, 'values' | 'repeated' | 'refused'> = {
      values: new Map(),
      repeated: [],
      refused: [],
    };
    const { ctx, route, op, query } = this;
    if (route.kind !== 'operation' || !op) return out;
    for (const p of op.parameters) {
      let value: string | undefined;
      if (p.in === 'query') {
        const all = query.getAll(p.name);
        if (all.length > 1) out.repeated.push(p.name);
        if (all.length !== 1 || (all[0] === '' && p.raw.allowEmptyValue)) continue;
        value = all[0]!;
      } else if (p.in === 'path') value = route.path[p.name];
      if (value === undefined) continue;
      out.values.set(p.name, { param: p, value });
      if (!allowsValue(ctx, p, value)) {
        out.refused.push({
          name: p.name,
          in: p.in as 'query' | 'path',
          value,
          level: weakest(op.provenance, p.provenance),
        });
      }
    }
    const body = this.body;
    if (op.requestBody?.schema !== undefined && body.isJson) {
      for (const name of ctx.schemas.refusedProperties(op, body.json)) {
        out.refused.push({
          name,
          in: 'body',
          value: (body.json as Record<string, unknown>)?.[name],
          level: op.provenance,
        });
      }
    }
    return out;
  }
}

/** The names of an operation's query parameters, once per operation. */
const QUERY_NAMES = new WeakMap<Operation, Set<string>>();

function queryNamesOf(op: Operation): Set<string> {
  let names = QUERY_NAMES.get(op);
  if (!names) QUERY_NAMES.set(op, (names = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name))));
  return names;
}

export function readRequest(ctx: JudgeContext, request: SentRequest): RequestReading {
  return new Reading(ctx, request);
}
