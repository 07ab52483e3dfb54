// Which operation a request is, read the way the mock's router reads it (Hono: the path
// percent-decoded as `decodeURI` decodes it, dot segments resolved, exact case, no
// trailing slash, every segment matched), so the mock, the suite and the proxy agree on
// it: `/servers/%66ind` is findServers; `/servers/find/`, `/Servers/Find` and
// `//servers/find` are paths the API does not have, which `x-routing` says get 404.
import type { Operation, SpecModel } from '../model.ts';
import { tolerantlyDecoded } from '../percent-decode.ts';

export type Route =
  /** An operation of the spec, with its path parameters as sent (percent-decoded). */
  | { kind: 'operation'; op: Operation; path: Record<string, string> }
  /** A CORS preflight (OPTIONS): the path of the spec it asks about, if any, and the methods it declares. */
  | { kind: 'preflight'; template?: string; allowed: string[] }
  /** A path the spec has, asked with a method it does not declare: the methods it does. */
  | { kind: 'wrong-method'; template: string; allowed: string[] }
  /** Under the API's base path, but no path of the spec. */
  | { kind: 'unknown-path' }
  /** Not under the API's base path at all (the mock's own routes, a page of the site), or the base path itself. */
  | { kind: 'outside-api' };

const METHODS_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** `decodeURI`, tolerating malformed escapes (left as they are), and keeping `%25` a percent escape. */
function decodePath(path: string): string {
  if (!path.includes('%')) return path;
  return tolerantlyDecoded(path.replace(/%25/g, '%2525'), decodeURI);
}

function segmentValue(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * A path the URL parser gives back as it is: from the root, of characters it neither
 * encodes nor reads as a separator (no `%`, no backslash, nothing past ASCII), with no dot segment
 * and not `//` first (which would name a host).
 */
const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;

/** The path of a request target, dot segments resolved as a server resolves them (the query and fragment left out). */
export function pathOf(target: string): string {
  const q = target.indexOf('?');
  const h = target.indexOf('#');
  const end = q === -1 || (h !== -1 && h < q) ? h : q;
  const path = end === -1 ? target : target.slice(0, end);
  // Every request the mock receives is judged: most paths are plain, and parsing one as a URL cost the
  // mixed workload a few µs a request.
  if (PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path)) return path;
  try {
    return new URL(target, 'http://route.invalid').pathname;
  } catch {
    return path;
  }
}

/**
 * The segments of a path, as `split('/')` gives them. V8's `split` took about 2 µs on a path
 * sliced from a request's URL on a socket (against 0.5 for this loop), and the mock routes
 * every request it judges.
 */
function segmentsOf(path: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', from)) {
    out.push(path.slice(from, at));
    from = at + 1;
  }
  out.push(path.slice(from));
  return out;
}

/** Whether a method has no lower-case letter (node's parser gives every method upper case). */
function isUpperCase(method: string): boolean {
  for (let i = 0; i < method.length; i++) {
    const c = method.charCodeAt(i);
    if (c >= 97 && c <= 122) return false;
  }
  return true;
}

/** An operation's path split once: each segment, and the parameter's name where it is `{name}`. */
interface Template {
  op: Operation;
  parts: string[];
  names: (string | undefined)[];
}

/** Each model's templates and the prefix of every path under its base path, made once. */
const ROUTING = new WeakMap<SpecModel, { prefix: string; templates: Template[] }>();

function routingOf(model: SpecModel): { prefix: string; templates: Template[] } {
  let routing = ROUTING.get(model);
  if (!routing) {
    const templates = model.operations.map((op) => {
      const parts = op.path.split('/');
      const names = parts.map((t) => (t.startsWith('{') && t.endsWith('}') ? t.slice(1, -1) : undefined));
      return { op, parts, names };
    });
    ROUTING.set(model, (routing = { prefix: `${model.basePath}/`, templates }));
  }
  return routing;
}

/** The path parameters of `segments` when they fit the template (every segment matched); else undefined. */
function matches({ parts, names }: Template, segments: string[]): Record<string, string> | undefined {
  if (parts.length !== segments.length) return undefined;
  for (let i = 0; i < parts.length; i++) {
    const s = segments[i]!;
    if (names[i] === undefined ? parts[i] !== s : s === '') return undefined;
  }
  const params: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    if (name !== undefined) params[name] = segmentValue(segments[i]!);
  }
  return params;
}

/** The route of a request: `target` is the path (base path included) and query as sent. */
export function routeOf(model: SpecModel, method: string, target: string): Route {
  const { prefix, templates } = routingOf(model);
  const path = pathOf(target);
  // The base path itself is no path of the spec (the mock lists the operations there): no rule covers it.
  if (!path.startsWith(prefix) || path.length === prefix.length) return { kind: 'outside-api' };
  const relative = decodePath(path.slice(prefix.length - 1));
  const segments = segmentsOf(relative);
  const upper = isUpperCase(method) ? method : method.toUpperCase();
  let template: string | undefined;
  let allowed: Set<string> | undefined;
  for (const t of templates) {
    const params = matches(t, segments);
    if (params === undefined) continue;
    const { op } = t;
    // HEAD is GET without the body, as HTTP and the mock's router have it.
    if (op.method === upper || (upper === 'HEAD' && op.method === 'GET'))
      return { kind: 'operation', op, path: params };
    template ??= op.path;
    (allowed ??= new Set()).add(op.method);
  }
  const methods = METHODS_ORDER.filter((m) => allowed?.has(m));
  // A browser asks before it sends, whatever the path: the answer is CORS's, not the routing's.
  if (upper === 'OPTIONS') return { kind: 'preflight', ...(template ? { template } : {}), allowed: methods };
  if (!template) return { kind: 'unknown-path' };
  return { kind: 'wrong-method', template, allowed: methods };
}

/** The operation of a request, if it is one. */
export function operationOf(model: SpecModel, method: string, target: string): Operation | undefined {
  const route = routeOf(model, method, target);
  return route.kind === 'operation' ? route.op : undefined;
}
