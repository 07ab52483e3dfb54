// `hygiene`: no answer, whatever its status, leaks a stack trace, SQL text, a server-side
// file path or framework internals: each is something an attacker learns from and a client
// never needs. The patterns are specific enough not to fire on what real rows hold (a MOTD
// saying "select a mode from the menu", a Minecraft command such as "/home"): they look
// for the shapes only software writes.
import type { Provenance } from '../provenance.ts';
import { judge } from './judge.ts';
import { crashSignature } from './server-error.ts';

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
  // A JSON body without escapes holds its strings as they are: the raw text is all there is to scan.
  const decoded = json === undefined || !text.includes('\\') ? [] : strings(json);
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

export const hygiene = judge({
  name: 'hygiene',
  promise: 'no answer leaks a stack trace, SQL text, a server file path or framework internals',
  applies: (ex, ctx) => ctx.read(ex).route.kind !== 'outside-api' && ctx.wants(HYGIENE_LEVEL),
  level: () => HYGIENE_LEVEL,
  judge: (ex) =>
    findLeaks(ex.answer.text, ex.answer.json).map((leak) => ({
      judge: 'hygiene',
      level: HYGIENE_LEVEL,
      why: `it leaks ${leak.kind}: '${leak.excerpt}'`,
      defect: `answers leak ${leak.kind}`,
      // A crash's leak is the crash's: it shares its cause.
      ...(ex.answer.status >= 500 ? { evidence: { crash: crashSignature(ex.answer) } } : {}),
    })),
});
