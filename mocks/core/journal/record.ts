// The first stage after every answer's headers: each request is put in the journal as it
// arrives (pending until answered), and once answered the entry takes what the stages
// found (its operation, parameters, body, caller, the rule that refused it, the override
// that took it, findings), the usage profile counts it (usage.ts, when a consumer is
// named) and the request log prints its line, the query as it was sent.
// A finding is said on stderr once per kind (the judge, the operation and what it found),
// so a test suite that sends `sortBy` a thousand times is told once, and the journal keeps
// every one.
import type { Context, MiddlewareHandler } from 'hono';
import { joinHeader } from '../../../spec/header-list.ts';
import { CORS_REFUSED } from '../cors/cors-policy.ts';
import { type AppEnv, headerListOf } from '../env.ts';
import { loggable } from '../printable.ts';
import type { MockState } from '../state.ts';
import type { Finding, FindingsOf } from './findings.ts';
import type { Recorded } from './journal.ts';
import { noteUsage } from './usage.ts';

/** Node's `performance` global is a getter, run at every read of the name (hundreds of instructions, callgrind). */
const clock = performance;

/** The most kinds of finding remembered as said; past it, no more are said (and that is said once). */
const MAX_SAID = 1000;

/** The mock's own pages and controls stay out of the journal; logging in and out are what an app does. */
const journaled = (path: string) =>
  !path.startsWith('/__mock/') || path === '/__mock/login' || path === '/__mock/logout';

export interface RecordOptions {
  /** Print one line per request (off with --quiet). */
  log: boolean;
  findings: FindingsOf;
  warn: (line: string) => void;
  /**
   * The app's answer to an error a later stage threw (its onError). The stages after this one run
   * within one Hono middleware, so an error of theirs reaches Hono only past this stage: it is
   * answered here, and the entry gets the answer the client gets.
   */
  failed: (err: Error, c: Context<AppEnv>) => Response;
}

export function recordRequests(state: MockState, options: RecordOptions): MiddlewareHandler<AppEnv> {
  const { log, findings: findingsOf, warn, failed } = options;
  const said = new Set<string>();

  const sayOnce = (entry: Recorded) => {
    for (const f of entry.findings!) {
      const kind = `${f.judge} ${entry.op?.operationId ?? ''} ${f.why}`;
      if (said.has(kind) || said.size > MAX_SAID) continue;
      said.add(kind);
      warn(
        said.size > MAX_SAID
          ? `mock: more than ${MAX_SAID} kinds of finding; no more are said here ` +
              '(GET /__mock/requests?findings=true lists them)'
          : `mock: ${loggable(entry.method)} ${loggable(target(entry.url))}: ${f.why}` +
              (f.hint ? `: ${f.hint}` : '') +
              ' (said once; GET /__mock/requests?findings=true lists every such request)',
      );
    }
  };

  /** What the judges find in the request of `entry`; a bodiless one's findings are kept with its text for a repeat. */
  const judged = (entry: Recorded, bodyText: string | undefined, c: Context<AppEnv>): Finding[] | undefined => {
    const { method, sent } = entry;
    const known = sent.judged;
    const repeatable = bodyText === undefined && sent.rawHeaders !== undefined;
    if (repeatable && known !== undefined && known.method === method && known.by === findingsOf) return known.found;
    const found = findingsOf({
      method,
      target: target(sent.url),
      headers: sentHeaders(c, sent.rawHeaders),
      ...(bodyText !== undefined ? { body: bodyText } : {}),
    });
    if (repeatable) sent.judged = { method, by: findingsOf, found };
    return found;
  };

  // Not an async function: its `await` would cost every request a promise more (measured: 1.004 plain, 1.013
  // filtered side by side against the async one).
  return (c, next) => {
    const start = clock.now();
    const journal = state.journal;
    // Each read of these parses or builds them again (Hono's request, the Node adapter's).
    const { method, url } = c.req;
    // Whether the journal or the usage profile takes this request (the path is parsed only for one of them).
    const isJournaled = (journal.enabled || state.usage !== undefined) && journaled(c.req.path);
    let entry: Recorded | undefined;
    if (journal.enabled && isJournaled) {
      // The headers as they came, listed (on a socket node's own list, in process createMock()'s).
      const raw = headerListOf(c.env);
      entry = journal.add(state.now(), method, url, raw);
      if (!raw) entry.headers = c.req.raw.headers;
      c.set('entry', entry);
    }
    const answered = (): void => {
      const ms = clock.now() - start;
      if (entry) {
        entry.ms = ms;
        // The operation, the override and its fault are in the entry already (routedTo, the override stage).
        const { op, fault } = entry;
        if (fault !== 'reset' && fault !== 'no-answer') entry.status = c.res.status;
        if (op) {
          const body = c.get('body');
          if (body !== undefined) entry.body = body;
          const principal = c.get('principal');
          if (principal) {
            entry.user = principal.user.id;
            entry.scheme = principal.scheme;
            entry.kind = principal.kind;
          }
          // What a default filter hid is worked out when the entry is shown.
          if (state.hiding) entry.hiding = state.hiding;
        }
        const bodyText = c.get('bodyText');
        if (bodyText !== undefined) entry.bodyText = bodyText;
        // A refusal's rule and an error's message (an answer below 400 has neither to ask for).
        const { status } = entry;
        if (status === undefined || status >= 400) {
          const refusedBy = c.get('refusedBy');
          if (refusedBy) entry.refusedBy = refusedBy;
          const why = status === undefined ? undefined : c.get('why');
          if (why !== undefined) entry.why = why;
        }
        // What the request judges find; a request no operation took (a path the API does not have) is the routing's.
        const found = op ? judged(entry, bodyText, c) : undefined;
        if (found) {
          entry.findings = found;
          sayOnce(entry);
        }
      }
      const usage = state.usage;
      if (!log && !(usage && isJournaled)) return;
      const op = c.get('op');
      const override = c.get('override');
      const fault = override?.fault;
      // The usage profile, when a consumer is named (one test of a field per request otherwise).
      if (usage && isJournaled)
        noteUsage(usage, state, c, op, fault === 'reset' || fault === 'no-answer' ? undefined : c.res.status);
      if (log) {
        const refused = c.get(CORS_REFUSED);
        const status = fault === 'reset' || fault === 'no-answer' ? `(${fault})` : String(c.res.status);
        const marks = [
          refused ? `CORS: origin ${loggable(refused)} refused` : '',
          override
            ? `override ${override.id}${override.offContract ? ', off the contract' : ''}${fault ? `, ${fault}` : ''}`
            : '',
        ].filter(Boolean);
        console.log(
          `${loggable(method)} ${loggable(target(url))} ${status} ${ms.toFixed(1)}ms` +
            (marks.length ? ` (${marks.join('; ')})` : ''),
        );
      }
    };
    // As Hono answers a stage's error (a thrown one, or a rejected promise), here, before the entry is filled.
    const failedWith = (err: unknown): void => {
      c.error = err as Error;
      c.res = failed(err as Error, c);
      answered();
    };
    let stages: Promise<void>;
    try {
      stages = next();
    } catch (err) {
      failedWith(err);
      return Promise.resolve();
    }
    return stages.then(answered, failedWith);
  };
}

/** The headers the request judges read (the credentials and the body's type), lower-cased. */
const JUDGED = ['authorization', 'cookie', 'content-type'];
const JUDGED_LENGTHS = JUDGED.map((name) => name.length);

/**
 * The judged headers of a request, read from its list of headers when the runtime made one
 * (asking Hono's request for one header makes a whole Headers of them, a microsecond for a plain GET).
 */
function sentHeaders(c: Context<AppEnv>, raw: readonly string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (raw) {
    for (let i = 0; i + 1 < raw.length; i += 2) {
      // Only a name as long as a judged one is lower-cased.
      if (!JUDGED_LENGTHS.includes(raw[i]!.length)) continue;
      const name = raw[i]!.toLowerCase();
      if (JUDGED.includes(name)) out[name] = joinHeader(name, out[name], raw[i + 1]!);
    }
    return out;
  }
  for (const name of JUDGED) {
    const value = c.req.header(name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** A URL's path and query, as sent. */
export function target(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  return start === -1 ? '/' : url.slice(start);
}
