// A request read as the CORS protocol reads it (the Fetch standard): the `Origin` it
// carries, where x-cors stands on that origin, whether it is a preflight (`OPTIONS` with
// `Access-Control-Request-Method`) and what it asks for, and the methods of the path it is
// about. Read once per exchange, for the `cors` judge and for the status a preflight is
// owed (owed-status.ts). A same-origin request carries `Origin` too, but CORS does not
// apply to it; nor to paths outside the API.
import type { CorsContract } from '../model.ts';
import { originMatcher } from '../cors-origins.ts';
import type { Exchange } from './exchange.ts';
import type { JudgeContext } from './judge.ts';

export interface CrossOrigin {
  origin: string;
  /**
   * `allowed`: x-cors grants it; `foreign`: the sender knows no deployment may; `other`:
   * x-cors does not list it (a deployment's own web site may be one).
   */
  standing: 'allowed' | 'foreign' | 'other';
  /** A preflight: the method and the headers (lower case) it asks to send. */
  preflight?: { method: string; headers: string[] };
  /** The path of the spec the request is about, if it is one, and the methods that path declares. */
  template?: string;
  methods: string[];
}

const matchers = new WeakMap<CorsContract, (origin: string) => boolean>();

/** Whether x-cors grants an origin. */
export function allowedOrigin(cors: CorsContract, origin: string): boolean {
  let match = matchers.get(cors);
  if (!match) matchers.set(cors, (match = originMatcher(cors.origins.allowed)));
  return match(origin);
}

const read = new WeakMap<object, { ctx: JudgeContext; value: CrossOrigin | undefined }>();

/** The request's cross-origin side; undefined when CORS does not apply to it. Read once per request. */
export function crossOrigin(ex: Pick<Exchange, 'request' | 'known'>, ctx: JudgeContext): CrossOrigin | undefined {
  // Most requests carry no Origin: nothing to read, nor to remember (a WeakMap entry a request costs collections).
  if (ex.request.headers.origin === undefined) return undefined;
  const had = read.get(ex.request);
  if (had?.ctx === ctx) return had.value;
  const value = readCrossOrigin(ex, ctx);
  read.set(ex.request, { ctx, value });
  return value;
}

function readCrossOrigin(ex: Pick<Exchange, 'request' | 'known'>, ctx: JudgeContext): CrossOrigin | undefined {
  const h = ex.request.headers;
  const origin = h.origin;
  if (origin === undefined || h['sec-fetch-site'] === 'same-origin') return undefined;
  const route = ctx.read(ex).route;
  if (route.kind === 'outside-api') return undefined;
  const standing = ex.known?.foreignOrigin ? 'foreign' : allowedOrigin(ctx.model.cors, origin) ? 'allowed' : 'other';
  const asked = h['access-control-request-method'];
  const template =
    route.kind === 'operation' ? route.op.path : route.kind === 'unknown-path' ? undefined : route.template;
  const methods = template ? ctx.model.operations.filter((o) => o.path === template).map((o) => o.method) : [];
  return {
    origin,
    standing,
    ...(ex.request.method === 'OPTIONS' && asked !== undefined
      ? { preflight: { method: asked.trim(), headers: listOf(h['access-control-request-headers']) } }
      : {}),
    ...(template ? { template } : {}),
    methods,
  };
}

/** A header's comma-separated list, trimmed and lower-cased. */
export function listOf(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
}
