// `hygiene:` a security check on every answer of the run, Dredd's included, whatever its
// status: no stack trace, SQL text, server-side file path or framework internals. Each
// is something an attacker learns from and a client never needs. The patterns are
// specific enough not to fire on what real rows hold (a MOTD saying "select a mode from
// the menu", a Minecraft command such as "/home"): they look for the shapes only
// software writes. One verdict per operation, listing the answers that leak.
import type { Provenance } from '../../spec/provenance.ts';
import type { Subject } from '../kit/answer-log.ts';
import { describeResponse } from '../kit/mask.ts';
import { show, type ShownRequest } from '../kit/repro.ts';
import type { CheckResult } from '../kit/recorder.ts';
import { signature, type HttpRequest, type HttpResponse } from '../transport/http.ts';
import { family } from './run-kit.ts';

/**
 * No leaks is this project's rule, not a promise of the interface document: the scan
 * runs at `assumed`, so `--provenance interface` checks only what the interface promises.
 */
export const HYGIENE_LEVEL: Provenance = 'assumed';

export type LeakKind = 'stack trace' | 'SQL text' | 'file path' | 'framework internals';

interface Pattern {
  kind: LeakKind;
  re: RegExp;
}

const PATTERNS: readonly Pattern[] = [
  // Stack frames of the common server runtimes.
  {
    kind: 'stack trace',
    re: /\bat (?:async )?(?:[\w$.<>[\]]+ )?\(?(?:file:\/\/|node:)?[\w/\\.:@-]*\.(?:js|mjs|cjs|ts):\d+:\d+\)?/,
  },
  { kind: 'stack trace', re: /Traceback \(most recent call last\)|\bFile "[^"]+", line \d+/ },
  { kind: 'stack trace', re: /\bat [\w$]+(?:\.[\w$<>]+)+\([\w$]+\.(?:java|kt|scala):\d+\)|Exception in thread "/ },
  {
    kind: 'stack trace',
    re: /goroutine \d+ \[running\]|\bStack trace:\s*#0|\bin \S+\.php(?::| on line )\d+|\bat [\w.]+\(.*\) in \S+:line \d+/,
  },
  { kind: 'stack trace', re: /"(?:stack|stackTrace|stack_trace|trace)"\s*:\s*["[]/ },
  // Database errors and statements.
  {
    kind: 'SQL text',
    re: /You have an error in your SQL syntax|\bSQLSTATE\b|\bER_[A-Z][A-Z_]{3,}\b|\bsyntax error at or near\b|\bSQLITE_[A-Z]+\b|\bORA-\d{5}\b/i,
  },
  {
    kind: 'SQL text',
    re: /\bunterminated quoted string\b|\bUnclosed quotation mark\b|\bquoted string not properly terminated\b/i,
  },
  {
    kind: 'SQL text',
    re: /\bSELECT\s+[\w*`".,\s()]+?\s+FROM\s+[`"]?\w+[`"]?(?:\s+(?:AS\s+)?\w+)?\s+(?:WHERE|ORDER\s+BY|GROUP\s+BY|LIMIT|(?:INNER\s+|LEFT\s+)?JOIN)\b/i,
  },
  {
    kind: 'SQL text',
    re: /\b(?:INSERT\s+INTO|DELETE\s+FROM)\s+[`"]?\w+[`"]?\s*(?:\(|VALUES|WHERE)|\bUPDATE\s+[`"]?\w+[`"]?\s+SET\s+\w+\s*=/i,
  },
  // Paths of the server's own files.
  {
    kind: 'file path',
    re: /(?:^|[\s"'(=:])\/(?:home|usr|var|opt|srv|app|root|tmp|etc|Users|workspace|src)\/[\w.@-]+(?:\/[\w.@-]+)*\.(?:js|mjs|cjs|ts|py|rb|php|java|go|cs|jar|so|json|ya?ml|sql|log|conf|ini|env)\b/,
  },
  { kind: 'file path', re: /\b[A-Z]:\\(?:[\w .-]+\\)+[\w .-]+\.\w{1,4}\b|\bnode_modules[\\/]/ },
  // What frameworks answer when the application did not.
  {
    kind: 'framework internals',
    re: /<pre>Cannot (?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \/|Whitelabel Error Page|\bWerkzeug\b|Django Version:|\bASP\.NET is configured\b|\bnode:internal\//,
  },
  {
    kind: 'framework internals',
    re: /\b(?:TypeError|ReferenceError): (?:Cannot read|Cannot set|\S+ is not (?:a function|defined))|\bUnhandledPromiseRejection\b|\b(?:Sequelize\w*|PrismaClient\w*|QueryFailed|Mongo\w*)Error\b|\bE(?:CONNREFUSED|ADDRINUSE|TIMEDOUT)\b/,
  },
];

export interface Leak {
  kind: LeakKind;
  /** The matched text with a little context, on one line. */
  excerpt: string;
}

/** Every string a JSON value holds, decoded (a stack inside a JSON string has its `\n`s escaped in the raw text). */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

/** What an answer's body leaks, one finding per kind. */
export function findLeaks(text: string, json?: unknown): Leak[] {
  // The decoded strings as one text, a line each: one pass per pattern, however many strings (a proxy scans every answer).
  const decoded = json === undefined ? [] : strings(json);
  const haystacks = decoded.length ? [text, decoded.join('\n')] : [text];
  const out: Leak[] = [];
  for (const { kind, re } of PATTERNS) {
    if (out.some((l) => l.kind === kind)) continue;
    for (const h of haystacks) {
      const m = re.exec(h);
      if (!m) continue;
      const start = Math.max(0, m.index - 20);
      const excerpt = h
        .slice(start, m.index + m[0].length + 40)
        .replace(/\s+/g, ' ')
        .trim();
      out.push({ kind, excerpt: excerpt.length > 140 ? `${excerpt.slice(0, 140)}…` : excerpt });
      break;
    }
  }
  return out;
}

/** At most this many leaking answers are listed per operation; the rest are counted. */
export const LISTED_PER_OPERATION = 10;

export const HYGIENE_CHECK =
  'hygiene: no answer leaks a stack trace, SQL text, a server file path or framework internals';

interface Tally {
  scanned: number;
  leaking: (ShownRequest & { actual: string; leaks: Leak[]; crash?: string })[];
  found: number;
}

/**
 * Counts, per operation, the answers scanned and those that leak, so every answer the
 * suite receives (Dredd's included) is judged and each operation gets one verdict.
 */
export class HygieneWatch {
  private readonly tallies = new Map<string, Tally>();

  note(
    subject: Subject,
    request: HttpRequest,
    response: Pick<HttpResponse, 'status' | 'headers' | 'text' | 'json'>,
  ): void {
    const t = this.tallies.get(subject.operationId) ?? { scanned: 0, leaking: [], found: 0 };
    this.tallies.set(subject.operationId, t);
    t.scanned++;
    const leaks = findLeaks(response.text, response.json);
    if (!leaks.length) return;
    t.found++;
    const crash = response.status >= 500 ? signature(response) : undefined;
    if (t.leaking.length < LISTED_PER_OPERATION)
      t.leaking.push({ ...show(request), actual: describeResponse(response), leaks, ...(crash ? { crash } : {}) });
  }

  verdicts(): CheckResult[] {
    return [...this.tallies].map(([operationId, t]) => {
      const base = { operationId, check: HYGIENE_CHECK, provenance: HYGIENE_LEVEL };
      if (!t.found) return { ...base, status: 'pass', message: `${t.scanned} answers scanned` };
      const [first, ...others] = t.leaking;
      const leaks = (l: Leak[]) => l.map((x) => `${x.kind}: '${x.excerpt}'`).join('; ');
      const more =
        t.found > t.leaking.length ? ` (and ${t.found - t.leaking.length} more of its ${t.scanned} answers leak)` : '';
      return {
        ...base,
        status: 'fail',
        request: first!.request,
        repro: first!.repro,
        expected: 'an answer without stack traces, SQL text, server file paths or framework internals',
        actual: first!.actual,
        message: `${t.found} of ${t.scanned} answers leak: ${[leaks(first!.leaks), ...others.map((o) => `${o.request}: ${leaks(o.leaks)}`)].join(' | ')}${more}`,
        // What the leak shares with the checks that met the same answers: the crash it came with, the requests.
        evidence: {
          requests: t.leaking.map((l) => l.request),
          ...(t.leaking.find((l) => l.crash) ? { crash: t.leaking.find((l) => l.crash)!.crash } : {}),
        },
      };
    });
  }
}

export const hygieneFamily = family({
  name: 'hygiene',
  needs: ['scope'],
  watch: (run) => {
    const watch = new HygieneWatch();
    return {
      note: (subject, request, response) => {
        if (run.scope.wants(HYGIENE_LEVEL)) watch.note(subject, request, response);
      },
      verdicts: () => (run.scope.wants(HYGIENE_LEVEL) ? watch.verdicts() : []),
    };
  },
});
