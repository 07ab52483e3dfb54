// A request read against the spec once, for every judge of its exchange: which operation
// it is (route.ts, as the mock routes it), the value each of that operation's parameters
// was sent with, the values its schemas refuse, the query parameters it does not have,
// the credentials it carries (credentials.ts), and its body.
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
  /** Each query and path parameter of the operation sent once, with its value (`allowEmptyValue` empties left out: they mean "no filter"). */
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

/** The words of an enum a parameter matches in any case: a text rule compares it case-insensitively (the spec says so). */
const TEXT_RULES = new Set(['equals', 'wholeWildcard', 'substringWildcard', 'nameOrCode']);

/** Whether the spec allows a parameter's value as it travels (`"20"` is an integer; `eu` is `EU` for a text rule's enum). */
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

export function readRequest(ctx: JudgeContext, request: SentRequest): RequestReading {
  const { model } = ctx;
  const route = routeOf(model, request.method, request.target);
  const q = request.target.indexOf('?');
  const query = new URLSearchParams(q < 0 ? '' : request.target.slice(q + 1).split('#')[0]);
  const reading: RequestReading = {
    route,
    query,
    values: new Map(),
    repeated: [],
    refused: [],
    unknownQuery: [],
    credentials: carriedCredentials(model, request.headers),
    body: parseBody(request),
  };
  if (route.kind !== 'operation') return reading;
  const op = route.op;
  reading.op = op;
  const known = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name));
  for (const name of new Set(query.keys())) if (!known.has(name)) reading.unknownQuery.push(name);
  for (const p of op.parameters) {
    let value: string | undefined;
    if (p.in === 'query') {
      const all = query.getAll(p.name);
      if (all.length > 1) reading.repeated.push(p.name);
      if (all.length !== 1 || (all[0] === '' && p.raw.allowEmptyValue)) continue;
      value = all[0]!;
    } else if (p.in === 'path') value = route.path[p.name];
    if (value === undefined) continue;
    reading.values.set(p.name, { param: p, value });
    if (!allowsValue(ctx, p, value)) {
      reading.refused.push({
        name: p.name,
        in: p.in as 'query' | 'path',
        value,
        level: weakest(op.provenance, p.provenance),
      });
    }
  }
  if (op.requestBody?.schema !== undefined && reading.body.isJson) {
    for (const name of ctx.schemas.refusedProperties(op, reading.body.json)) {
      reading.refused.push({
        name,
        in: 'body',
        value: (reading.body.json as Record<string, unknown>)?.[name],
        level: op.provenance,
      });
    }
  }
  return reading;
}
