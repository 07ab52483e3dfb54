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

/** The path of a request target, dot segments resolved as a server resolves them (the query and fragment left out). */
export function pathOf(target: string): string {
  try {
    return new URL(target, 'http://route.invalid').pathname;
  } catch {
    return target.split(/[?#]/)[0] ?? '';
  }
}

function matches(template: string[], segments: string[], out: Record<string, string>): boolean {
  if (template.length !== segments.length) return false;
  for (let i = 0; i < template.length; i++) {
    const t = template[i]!;
    const s = segments[i]!;
    if (t.startsWith('{') && t.endsWith('}')) {
      if (s === '') return false;
      out[t.slice(1, -1)] = segmentValue(s);
    } else if (t !== s) return false;
  }
  return true;
}

/** The route of a request: `target` is the path (base path included) and query as sent. */
export function routeOf(model: SpecModel, method: string, target: string): Route {
  const base = model.basePath;
  const path = pathOf(target);
  // The base path itself is no path of the spec (the mock lists the operations there): no rule covers it.
  if (!path.startsWith(`${base}/`) || path === `${base}/`) return { kind: 'outside-api' };
  const relative = decodePath(path.slice(base.length));
  const segments = relative.split('/');
  const upper = method.toUpperCase();
  let template: string | undefined;
  const allowed = new Set<string>();
  for (const op of model.operations) {
    const params: Record<string, string> = {};
    if (!matches(op.path.split('/'), segments, params)) continue;
    // HEAD is GET without the body, as HTTP and the mock's router have it.
    if (op.method === upper || (upper === 'HEAD' && op.method === 'GET'))
      return { kind: 'operation', op, path: params };
    template ??= op.path;
    allowed.add(op.method);
  }
  const methods = METHODS_ORDER.filter((m) => allowed.has(m));
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
