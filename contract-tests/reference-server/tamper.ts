// The tools a mutant breaks the reference server with, from outside it: a mutant sits
// between the suite and the correct reference server and rewrites a request before it
// reaches it, or an answer after (mutants.ts). The reference server stays an oracle that
// reads no spec; the mutants are made from the spec's promise map.
import { errorBody } from '../../spec/messages.ts';
import type { Operation, SpecModel } from '../../spec/model.ts';
import { routeOf } from '../../spec/judges/route.ts';

export type Fetch = (request: Request) => Promise<Response>;
/** A mutant's hand on one exchange: rewrite the request, ask the reference (`next`), rewrite its answer. */
export type Tamper = (request: Request, next: Fetch) => Promise<Response>;
export type Row = Record<string, unknown>;

/** The operation a request is, read as the mock routes it. */
export function operationOfRequest(model: SpecModel, request: Request): Operation | undefined {
  const url = new URL(request.url);
  const route = routeOf(model, request.method, url.pathname + url.search);
  return route.kind === 'operation' ? route.op : undefined;
}

/** The same request with another URL (its query changed), body and headers kept. */
export async function withUrl(request: Request, edit: (url: URL) => void): Promise<Request> {
  const url = new URL(request.url);
  edit(url);
  return copy(request, { url: url.toString() });
}

/** A copy of a request with another URL, headers or body. */
export async function copy(
  request: Request,
  change: { url?: string; headers?: Headers; body?: string | null } = {},
): Promise<Request> {
  const body =
    change.body !== undefined
      ? change.body
      : ['GET', 'HEAD'].includes(request.method)
        ? null
        : await request.clone().text();
  return new Request(change.url ?? request.url, {
    method: request.method,
    headers: change.headers ?? request.headers,
    ...(body !== null && body !== '' ? { body } : {}),
  });
}

/** An answer with a JSON body of the mutant's, the status and headers of `like`. */
export function jsonAnswer(like: Response, body: unknown, status = like.status, headers?: Headers): Response {
  const h = new Headers(headers ?? like.headers);
  h.set('content-type', 'application/json');
  h.delete('content-length');
  return new Response(JSON.stringify(body), { status, headers: h });
}

/** The reference's answer to the request, refused instead with the error body (its headers kept). */
export async function refuse(request: Request, next: Fetch, status: number, detail: string): Promise<Response> {
  const res = await next(request);
  return jsonAnswer(res, errorBody(status, detail), status);
}

/** The JSON of an answer, or undefined. */
export async function jsonOf(res: Response): Promise<unknown> {
  try {
    return JSON.parse(await res.clone().text());
  } catch {
    return undefined;
  }
}

/** Rewrites the JSON body of the answers `when` picks. */
export function editAnswer(
  when: (request: Request, res: Response) => boolean,
  edit: (body: any, request: Request, res: Response) => unknown,
): Tamper {
  return async (request, next) => {
    const res = await next(request);
    if (!when(request, res)) return res;
    const body = await jsonOf(res);
    if (body === undefined) return res;
    return jsonAnswer(res, edit(body, request, res));
  };
}

/** Every value at a path of a body (`results.*.port`), edited in place by `edit(parent, key)`. */
export function editAt(
  body: unknown,
  path: string,
  edit: (parent: Record<string, unknown>, key: string) => void,
): void {
  const parts = path.split('.');
  const walk = (node: unknown, i: number): void => {
    if (node === null || typeof node !== 'object') return;
    const part = parts[i]!;
    if (part === '*') {
      if (!Array.isArray(node)) return;
      // A path that ends at the items edits each item in its array.
      if (i === parts.length - 1)
        for (const k of node.keys()) edit(node as unknown as Record<string, unknown>, String(k));
      else for (const item of node) walk(item, i + 1);
      return;
    }
    const obj = node as Record<string, unknown>;
    if (i === parts.length - 1) {
      if (part in obj) edit(obj, part);
      return;
    }
    walk(obj[part], i + 1);
  };
  walk(body, 0);
}

/** Who a row is. */
export const idOf = (r: Row): string => `${r.address}:${r.port}`;

/**
 * The answer the reference would give if it kept only the rows `keep` lets through, in
 * the order `reorder` gives (every match read, filtered, ordered, then paged as asked):
 * a mutant that matches, counts or sorts otherwise answers consistently, its total and
 * hidden count its own. Lookups without paging (the metadata) keep their counts in step.
 */
export async function refiltered(
  request: Request,
  next: Fetch,
  op: Operation,
  keep: (row: Row) => boolean,
  reorder: (rows: Row[]) => Row[] = (rows) => rows,
): Promise<Response> {
  const res = await next(request);
  const body = (await jsonOf(res)) as Record<string, unknown> | undefined;
  const property = op.rows?.property;
  if (!res.ok || !body || !property || !Array.isArray(body[property])) return res;
  const limit = op.parameters.find((p) => p.meaning?.rule === 'limitsRows');
  const page = op.parameters.find((p) => p.meaning?.rule === 'page');
  const hide = op.parameters.find((p) => p.meaning?.rule === 'revealsHidden');
  const url = new URL(request.url);
  if (!page || !limit) {
    // A lookup: every row at once (no limit), filtered, counted again, then limited.
    const all = await rowsOf(next, request, property, (u) => limit && u.searchParams.delete(limit.name));
    const kept = all.filter(keep);
    const asked = limit ? Number(url.searchParams.get(limit.name) || kept.length) : kept.length;
    const out: Record<string, unknown> = { ...body, [property]: kept.slice(0, asked) };
    const sum = (rows: Row[]) => rows.reduce((n, r) => n + (typeof r.num_servers === 'number' ? r.num_servers : 0), 0);
    for (const [k, v] of Object.entries(body)) {
      if (typeof v !== 'number') continue;
      if (v === all.length) out[k] = kept.length;
      else if (v === sum(all)) out[k] = sum(kept);
    }
    return jsonAnswer(res, out);
  }
  const max = typeof limit.schema.maximum === 'number' ? limit.schema.maximum : 100;
  const every = async (edit: (u: URL) => void) => {
    const rows: Row[] = [];
    for (let n = 1; n < 50; n++) {
      const got = await rowsOf(next, request, property, (u) => {
        edit(u);
        u.searchParams.set(limit.name, String(max));
        u.searchParams.set(page.name, String(n));
      });
      rows.push(...got);
      if (got.length < max) break;
    }
    return rows;
  };
  const base = await every(() => undefined);
  const shown = reorder(base.filter(keep));
  const size = Number(url.searchParams.get(limit.name) || limit.default || 50);
  const at = Number(url.searchParams.get(page.name) || 1);
  const results = shown.slice((at - 1) * size, at * size);
  const out: Record<string, unknown> = { ...body, displayed: results.length, total: shown.length, [property]: results };
  if (hide?.meaning?.rule === 'revealsHidden' && hide.meaning.hidden in body) {
    const all = await every((u) => u.searchParams.set(hide.name, 'true'));
    const mine = new Set(base.map(idOf));
    out[hide.meaning.hidden] = all.filter((r) => !mine.has(idOf(r)) && keep(r)).length;
  }
  return jsonAnswer(res, out);
}

async function rowsOf(next: Fetch, request: Request, property: string, edit: (url: URL) => void): Promise<Row[]> {
  const res = await next(await withUrl(request, edit));
  const body = (await jsonOf(res)) as Record<string, unknown> | undefined;
  return Array.isArray(body?.[property]) ? (body[property] as Row[]) : [];
}
