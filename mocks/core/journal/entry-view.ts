// A journal entry as a test or a person reads it (JSON, the page): the request as sent
// with every credential masked (who it authenticated as, never the secret), the operation
// and its parameters as parsed, the body, the answer's status, and for a refusal the rule
// and its message; the override that took it; the findings; a curl line that sends it
// again (the credential named, not given). And the one filter both `mock.requests()` and
// `GET /__mock/requests` read.
import { didYouMean } from '../../../cli/flags.ts';
import type { Fixtures } from '../../../fixtures/load.ts';
import { joinHeader } from '../../../spec/header-list.ts';
import type { Operation, SpecModel } from '../../../spec/model.ts';
import { cookieValue } from '../auth/auth.ts';
import { printable } from '../printable.ts';
import type { FaultKind } from '../overrides/transport.ts';
import type { Finding, Rule } from './findings.ts';
import type { HiddenNote, Journal, Recorded } from './journal.ts';
import { target } from './record.ts';

/** One request of the journal, as `mock.requests()` and `GET /__mock/requests` give it. */
export interface JournalEntry {
  /** Increasing; a page polls for entries after the last id it has. */
  id: number;
  /** When it arrived, by the mock's clock (ISO 8601). */
  at: string;
  /** Time to the answer (ms); absent while pending. */
  ms?: number;
  /** Still waiting for its answer (a delay, a body still arriving, `no-answer`). */
  pending?: true;
  request: {
    method: string;
    /** The path and query as sent. */
    target: string;
    /** Every header, names in lower case, credentials masked. */
    headers: Record<string, string>;
    /** The query as sent: each parameter's value (a list when repeated). */
    query: Record<string, string | string[]>;
    /** The body as sent (its JSON when it parsed, else its text, cut at 4 KiB); absent without one. */
    body?: unknown;
  };
  operationId?: string;
  /** The operation's parameters as the mock read them (typed, the spec's defaults filled in). */
  params?: { query: Record<string, unknown>; path: Record<string, unknown> };
  /** Who it acted for: the user and the credential's kind and name (a fixture's name, a key's id), never its secret. */
  auth?: { user: string; scheme: string; kind: string; credential: string };
  /** The answer's status; null for no answer (a reset connection, `no-answer`) and while pending. */
  status: number | null;
  fault?: FaultKind;
  /** For a refusal (every 4xx): the rule that refused it, and its message. */
  refusedBy?: Rule;
  why?: string;
  override?: { id: number; offContract?: string; delay?: number; fault?: FaultKind };
  findings: Finding[];
  /** Loaded rows a default filter left out of this answer (the default maxAge). */
  hidden?: HiddenNote;
  /** The request again, as curl, the credential named in place of its secret. */
  curl: string;
}

/** What to look for; every field narrows. */
export interface RequestFilter {
  operationId?: string;
  method?: string;
  /** A status (404), or a class (`4xx`). */
  status?: number | string;
  /** A part of the path and query as sent. */
  path?: string;
  /** Only requests with findings (true), or without (false). */
  findings?: boolean;
  /** Only entries with a greater id (a page polling for new ones). */
  after?: number;
  /** At most this many, the newest (default: all kept). */
  limit?: number;
}

const FILTER_FIELDS = ['operationId', 'method', 'status', 'path', 'findings', 'after', 'limit'] as const;

/** A filter's problems, each a sentence; the same for code and for a query string. */
export class FilterError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid request filter: ${problems.join('; ')}`);
  }
}

/**
 * The filter `raw` means: an object in code, or a query string's values (all text). Throws
 * FilterError naming each problem (an unknown field with its near miss, a status that is no
 * status, an operation the spec lacks).
 */
export function parseFilter(raw: unknown, model: SpecModel): RequestFilter {
  if (raw === undefined) return {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new FilterError([
      'a request filter is an object ({operationId, method, status, path, findings, after, limit})',
    ]);
  const problems: string[] = [];
  const out: RequestFilter = {};
  const int = (key: string, v: unknown, min: number): number | undefined => {
    const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
    if (typeof n === 'number' && Number.isInteger(n) && n >= min) return n;
    problems.push(`${key} is a whole number from ${min}, got ${printable(JSON.stringify(v))}`);
    return undefined;
  };
  for (const [key, v] of Object.entries(raw)) {
    if (v === undefined) continue;
    switch (key) {
      case 'operationId': {
        const ids = [...model.byId.keys()];
        if (typeof v === 'string' && model.byId.has(v)) out.operationId = v;
        else {
          const guess = typeof v === 'string' ? didYouMean(v, ids) : undefined;
          problems.push(
            `operationId ${printable(JSON.stringify(v))} is not an operation of the spec` +
              (guess ? `: did you mean '${guess}'?` : ` (operations: ${ids.join(', ')})`),
          );
        }
        break;
      }
      case 'method':
        if (typeof v === 'string' && /^[A-Za-z]+$/.test(v)) out.method = v.toUpperCase();
        else problems.push('method is an HTTP method (GET, POST, ...)');
        break;
      case 'status':
        if (typeof v === 'string' && /^[1-5]xx$/i.test(v)) out.status = v.toLowerCase();
        else {
          const n = int('status', v, 100);
          if (n !== undefined && n <= 599) out.status = n;
          else if (n !== undefined) problems.push(`status is 100 to 599 or a class such as 4xx, got ${n}`);
        }
        break;
      case 'path':
        if (typeof v === 'string') out.path = v;
        else problems.push('path is a text to find in the path and query');
        break;
      case 'findings':
        if (v === true || v === 'true' || v === '1') out.findings = true;
        else if (v === false || v === 'false' || v === '0') out.findings = false;
        else problems.push('findings is true or false');
        break;
      case 'after': {
        const n = int('after', v, 0);
        if (n !== undefined) out.after = n;
        break;
      }
      case 'limit': {
        const n = int('limit', v, 1);
        if (n !== undefined) out.limit = n;
        break;
      }
      default: {
        const guess = didYouMean(key, FILTER_FIELDS);
        problems.push(
          `unknown filter '${printable(key)}'` +
            `${guess ? `: did you mean '${guess}'?` : ` (filters: ${FILTER_FIELDS.join(', ')})`}`,
        );
      }
    }
  }
  if (problems.length) throw new FilterError(problems);
  return out;
}

function keeps(f: RequestFilter, r: Recorded): boolean {
  if (f.after !== undefined && r.id <= f.after) return false;
  if (f.operationId !== undefined && r.op?.operationId !== f.operationId) return false;
  if (f.method !== undefined && r.method !== f.method) return false;
  if (f.status !== undefined) {
    if (r.status === undefined) return false;
    if (typeof f.status === 'number' ? r.status !== f.status : String(r.status)[0] !== f.status[0]) return false;
  }
  if (f.path !== undefined && !target(r.url).includes(f.path)) return false;
  if (f.findings !== undefined && Boolean(r.findings?.length) !== f.findings) return false;
  return true;
}

/** The entries a filter keeps, newest first. */
export function select(journal: Journal, filter: RequestFilter): Recorded[] {
  const out: Recorded[] = [];
  for (const r of journal.newestFirst()) {
    if (!keeps(filter, r)) continue;
    out.push(r);
    if (filter.limit !== undefined && out.length >= filter.limit) break;
  }
  return out;
}

/** How entries name credentials: a fixture by its name, anything else by what is public about it. */
export type Masker = (secret: string, kind: 'bearer' | 'cookie') => string;

export function credentialNames(fixtures: Fixtures): Masker {
  const names = new Map(fixtures.credentials.map((c) => [c.value, c.name]));
  return (secret, kind) => {
    const fixture = names.get(secret);
    if (fixture) return `<${fixture}>`;
    return kind === 'bearer' ? `<an API key, ${secret.length} characters>` : `<a session, ${secret.length} characters>`;
  };
}

/** The longest body text an entry shows. */
const BODY_SHOWN = 4096;

/** The headers an entry holds by lower-case name (a repeated one joined as fetch joins it). */
function byName(r: Recorded): Map<string, string> {
  const out = new Map<string, string>();
  if (r.headers) {
    r.headers.forEach((value, name) => void out.set(name, value));
    return out;
  }
  const headers = r.rawHeaders ?? [];
  for (let i = 0; i + 1 < headers.length; i += 2) {
    const name = headers[i]!.toLowerCase();
    out.set(name, joinHeader(name, out.get(name), headers[i + 1]!));
  }
  return out;
}

function maskedHeaders(r: Recorded, cookieName: string | undefined, mask: Masker): Record<string, string> {
  const out: Record<string, string> = {};
  byName(r).forEach((value, name) => {
    if (name === 'authorization') {
      const m = /^(Bearer +)(\S+)( *)$/i.exec(value);
      out[name] = m ? `${m[1]}${mask(m[2]!, 'bearer')}` : `<${value.length} characters, masked>`;
    } else if (name === 'cookie') {
      out[name] = value
        .split(';')
        .map((part) => {
          const eq = part.indexOf('=');
          if (eq <= 0) return part.trim();
          const key = part.slice(0, eq).trim();
          const v = key === cookieName ? cookieValue(part, key) : undefined;
          return `${key}=${v !== undefined ? mask(v, 'cookie') : '<masked>'}`;
        })
        .join('; ');
    } else out[name] = value;
  });
  return out;
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The headers a curl line repeats (the rest are the client's own). */
const REPEATED = ['authorization', 'cookie', 'content-type', 'prefer', 'origin'];

function curlOf(r: Recorded, headers: Record<string, string>): string {
  const parts = ['curl'];
  if (r.method !== 'GET') parts.push('-X', r.method);
  parts.push(shellQuote(r.url));
  for (const name of REPEATED)
    if (headers[name] !== undefined) parts.push('-H', shellQuote(`${name}: ${headers[name]}`));
  if (r.bodyText) parts.push('--data-raw', shellQuote(r.bodyText.slice(0, BODY_SHOWN)));
  return parts.join(' ');
}

function queryOf(url: string): Record<string, string | string[]> {
  const q = url.indexOf('?');
  const out: Record<string, string | string[]> = {};
  if (q === -1) return out;
  for (const [name, value] of new URLSearchParams(url.slice(q + 1))) {
    const had = out[name];
    out[name] = had === undefined ? value : [...[had].flat(), value];
  }
  return out;
}

/** An operation's parameters as the mock reads them from a URL it received (undefined: they did not parse). */
export type Reparse = (
  op: Operation,
  url: string,
) => { query: Record<string, unknown>; path: Record<string, unknown> } | undefined;

/** An entry as JSON, credentials masked. */
export function viewOf(r: Recorded, model: SpecModel, mask: Masker, reparse: Reparse): JournalEntry {
  const headers = maskedHeaders(r, model.cookieName, mask);
  const url = r.url;
  let body: unknown;
  if (r.body !== undefined) body = r.body;
  else if (r.bodyText) {
    try {
      body = JSON.parse(r.bodyText);
    } catch {
      body =
        r.bodyText.length > BODY_SHOWN ? `${r.bodyText.slice(0, BODY_SHOWN)}…(${r.bodyText.length} chars)` : r.bodyText;
    }
  }
  let auth: JournalEntry['auth'];
  if (r.user && r.scheme && r.kind) {
    const shown = r.kind === 'bearer' ? headers.authorization?.replace(/^Bearer +/i, '') : undefined;
    const credential =
      shown ?? (r.kind === 'cookie' && model.cookieName ? /<[^>]+>/.exec(headers.cookie ?? '')?.[0] : undefined);
    auth = { user: r.user, scheme: r.scheme, kind: r.kind, credential: credential ?? '<masked>' };
  }
  const params = r.op && r.status !== undefined && r.refusedBy !== 'refused-values' ? reparse(r.op, url) : undefined;
  // Worked out on each read (a getter): read once.
  const hidden = r.hidden;
  return {
    id: r.id,
    at: new Date(r.at).toISOString(),
    ...(r.ms >= 0 ? { ms: Math.round(r.ms * 10) / 10 } : { pending: true as const }),
    request: {
      method: r.method,
      target: target(url),
      headers,
      query: queryOf(url),
      ...(body !== undefined ? { body } : {}),
    },
    ...(r.op ? { operationId: r.op.operationId } : {}),
    ...(params ? { params } : {}),
    ...(auth ? { auth } : {}),
    status: r.status ?? null,
    ...(r.fault ? { fault: r.fault } : {}),
    ...(r.refusedBy ? { refusedBy: r.refusedBy } : {}),
    ...(r.why !== undefined ? { why: r.why } : {}),
    ...(r.override ? { override: r.override } : {}),
    findings: r.findings ?? [],
    ...(hidden ? { hidden } : {}),
    curl: curlOf(r, headers),
  };
}
