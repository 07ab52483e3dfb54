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
  /**
   * Text one of which is in every text the pattern matches (lower case for a case-blind
   * pattern), as it stands in the raw body too (JSON escapes `"`, `\`, and may escape `/`
   * and `<>&`: written here without them, or in both forms): the pattern runs only where
   * one is, so an answer with none is scanned once per hint, not once per pattern.
   */
  hints: readonly string[];
  /** Read in a body's text only: in a JSON body, its keys are read as keys. */
  textOnly?: true;
}

/** Keys under which frameworks put a stack trace in a JSON error (its value a string or an array of frames). */
const STACK_KEYS = ['stack', 'stackTrace', 'stack_trace', 'trace'];

/** The folders a server's own files live in, for the file path pattern and its hints (JSON may write `/` as `\/`). */
const SERVER_DIRS = ['home', 'usr', 'var', 'opt', 'srv', 'app', 'root', 'tmp', 'etc', 'Users', 'workspace', 'src'];

const PATTERNS: readonly Pattern[] = [
  // Stack frames of the common server runtimes.
  {
    kind: 'stack trace',
    re: /\bat (?:async )?(?:[\w$.<>[\]]+ )?\(?(?:file:\/\/|node:)?[\w/\\.:@-]*\.(?:js|mjs|cjs|ts):\d+:\d+\)?/,
    hints: ['js:', 'ts:'],
  },
  {
    kind: 'stack trace',
    re: /Traceback \(most recent call last\)|\bFile "[^"]+", line \d+/,
    hints: ['Traceback (most recent call last)', '", line '],
  },
  {
    kind: 'stack trace',
    re: /\bat [\w$]+(?:\.[\w$<>]+)+\([\w$]+\.(?:java|kt|scala):\d+\)|Exception in thread "/,
    hints: ['.java:', '.kt:', '.scala:', 'Exception in thread '],
  },
  {
    kind: 'stack trace',
    re: /goroutine \d+ \[running\]|\bStack trace:\s*#0|\bin \S+\.php(?::| on line )\d+|\bat [\w.]+\(.*\) in \S+:line \d+/,
    hints: ['goroutine ', 'Stack trace:', '.php', ':line '],
  },
  // A body that is not JSON: the key as written (a JSON body's keys are read as keys: STACK_KEYS).
  {
    kind: 'stack trace',
    re: new RegExp(`"(?:${STACK_KEYS.join('|')})"\\s*:\\s*["[]`),
    hints: ['"stack', '"trace'],
    textOnly: true,
  },
  // Database errors and statements.
  {
    kind: 'SQL text',
    re: /You have an error in your SQL syntax|\bSQLSTATE\b|\bsyntax error at or near\b|\bSQLITE_[A-Z]+\b|\bORA-\d{5}\b/i,
    hints: ['you have an error in your sql syntax', 'sqlstate', 'syntax error at or near', 'sqlite_', 'ora-'],
  },
  // MySQL's error codes, as it writes them.
  { kind: 'SQL text', re: /\bER_[A-Z][A-Z_]{3,}\b/, hints: ['ER_'] },
  {
    kind: 'SQL text',
    re: /\bunterminated quoted string\b|\bUnclosed quotation mark\b|\bquoted string not properly terminated\b/i,
    hints: ['unterminated quoted string', 'unclosed quotation mark', 'quoted string not properly terminated'],
  },
  {
    kind: 'SQL text',
    re: /\bSELECT\s+[\w*`".,\s()]+?\s+FROM\s+[`"]?\w+[`"]?(?:\s+(?:AS\s+)?\w+)?\s+(?:WHERE|ORDER\s+BY|GROUP\s+BY|LIMIT|(?:INNER\s+|LEFT\s+)?JOIN)\b/i,
    hints: ['select'],
  },
  {
    kind: 'SQL text',
    re: /\b(?:INSERT\s+INTO|DELETE\s+FROM)\s+[`"]?\w+[`"]?\s*(?:\(|VALUES|WHERE)|\bUPDATE\s+[`"]?\w+[`"]?\s+SET\s+\w+\s*=/i,
    hints: ['insert', 'delete', 'update'],
  },
  // Paths of the server's own files.
  {
    kind: 'file path',
    re: /(?:^|[\s"'(=:])\/(?:home|usr|var|opt|srv|app|root|tmp|etc|Users|workspace|src)\/[\w.@-]+(?:\/[\w.@-]+)*\.(?:js|mjs|cjs|ts|py|rb|php|java|go|cs|jar|so|json|ya?ml|sql|log|conf|ini|env)\b/,
    hints: SERVER_DIRS.flatMap((d) => [`/${d}/`, `\\/${d}\\/`]),
  },
  {
    kind: 'file path',
    re: /\b[A-Z]:\\(?:[\w .-]+\\)+[\w .-]+\.\w{1,4}\b|\bnode_modules[\\/]/,
    hints: [':\\', 'node_modules'],
  },
  // What frameworks answer when the application did not.
  {
    kind: 'framework internals',
    re: /<pre>Cannot (?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \/|Whitelabel Error Page|\bWerkzeug\b|Django Version:|\bASP\.NET is configured\b|\bnode:internal\//,
    hints: [
      'Cannot ',
      'Whitelabel Error Page',
      'Werkzeug',
      'Django Version:',
      'ASP.NET is configured',
      'node:internal',
    ],
  },
  {
    kind: 'framework internals',
    re: /\b(?:TypeError|ReferenceError): (?:Cannot read|Cannot set|\S+ is not (?:a function|defined))|\bUnhandledPromiseRejection\b|\b(?:Sequelize\w*|PrismaClient\w*|QueryFailed|Mongo\w*)Error\b|\bE(?:CONNREFUSED|ADDRINUSE|TIMEDOUT)\b/,
    hints: ['Error', 'UnhandledPromiseRejection', 'ECONNREFUSED', 'EADDRINUSE', 'ETIMEDOUT'],
  },
];

export interface Leak {
  kind: LeakKind;
  /** The matched text with a little context, on one line. */
  excerpt: string;
}

/** A pattern's hints in a text (lower-cased for a case-blind pattern). */
function hinted(p: Pattern, text: string, lower: () => string): boolean {
  const h = p.re.ignoreCase ? lower() : text;
  return p.hints.some((hint) => h.includes(hint));
}

/** What one text leaks, by every pattern that may read it, the first match of each. */
function scan(text: string, json: boolean): Leak[] {
  let lowered: string | undefined;
  const lower = () => (lowered ??= text.toLowerCase());
  const out: Leak[] = [];
  for (const p of PATTERNS) {
    if ((json && p.textOnly) || !hinted(p, text, lower)) continue;
    const m = p.re.exec(text);
    if (!m) continue;
    const start = Math.max(0, m.index - 20);
    const excerpt = text
      .slice(start, m.index + m[0].length + 40)
      .replace(/\s+/g, ' ')
      .trim();
    out.push({ kind: p.kind, excerpt: excerpt.length > 140 ? `${excerpt.slice(0, 140)}…` : excerpt });
  }
  return out;
}

/**
 * Strings of JSON bodies known to leak nothing: the rows of a listing repeat from answer to
 * answer (names, versions, countries), and each is read once. A memo of a pure function
 * (what a string leaks), bounded; strings past MEMO_LONGEST are read each time.
 */
const clean = new Set<string>();
const MEMO_SIZE = 20_000;
const MEMO_LONGEST = 256;

/** What a JSON value's strings (and its keys) leak, each string read apart (a stack inside one has its line breaks back). */
function scanJson(value: unknown, found: Leak[][]): void {
  if (typeof value === 'string') {
    if (clean.has(value)) return;
    const leaks = scan(value, true);
    if (leaks.length) found.push(leaks);
    else if (value.length <= MEMO_LONGEST) {
      if (clean.size >= MEMO_SIZE) clean.clear();
      clean.add(value);
    }
  } else if (Array.isArray(value)) {
    for (const v of value) scanJson(v, found);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (STACK_KEYS.includes(k) && (typeof v === 'string' || Array.isArray(v))) {
        const excerpt = JSON.stringify({ [k]: v }).slice(1, 141);
        found.push([{ kind: 'stack trace', excerpt }]);
      }
      scanJson(v, found);
    }
  }
}

/** What an answer's body leaks, one finding per kind: a JSON body by its strings and keys, any other by its text. */
export function findLeaks(text: string, json?: unknown): Leak[] {
  const found: Leak[][] = [];
  if (json === undefined) found.push(scan(text, false));
  else scanJson(json, found);
  const out: Leak[] = [];
  for (const p of PATTERNS) {
    if (out.some((l) => l.kind === p.kind)) continue;
    const first = found.flat().find((l) => l.kind === p.kind);
    if (first) out.push(first);
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
