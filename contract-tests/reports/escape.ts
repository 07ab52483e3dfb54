// Text from a target is never trusted: a 5xx's message, a header, a path a client sent
// reach every output, and each kind of output has one sanitizer here, the mask
// (shared/mask.ts) first in each. A terminal line stays one line with no escape sequence
// (no forged `::warning::` or `PASSED` line, no colours, no text turned around); XML is
// well-formed whatever characters came; markdown shows text as text (no image, link or
// markup from the upstream); HTML is escaped; JSON is masked (JSON.stringify escapes).
import { redact } from '../shared/mask.ts';

/** Masked, then cut to `max` characters (so no cut falls inside a secret before it is masked). */
function masked(text: string, max?: number): string {
  const m = redact(text);
  return max !== undefined && m.length > max ? `${m.slice(0, max)}…` : m;
}

/**
 * Characters a terminal acts on rather than shows: C0 and C1 controls, DEL,
 * line and paragraph separators, direction overrides.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const ACTIVE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One line for a terminal or a CI log: every control character written as an escape (`\n`, `\x1b`, `\u202e`). */
export function forTerminal(text: string): string {
  return redact(text).replace(
    ACTIVE,
    (c) =>
      NAMED[c] ??
      (c.charCodeAt(0) < 0x100
        ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`
        : `\\u${c.charCodeAt(0).toString(16)}`),
  );
}

/** Lines for a terminal: each line of `text` made safe, the line breaks between them kept. */
export function linesForTerminal(lines: readonly string[]): string {
  return lines.map(forTerminal).join('\n');
}

/**
 * Text in an XML 1.0 element or attribute: escaped, and every character XML cannot
 * carry (controls, U+FFFE, U+FFFF, a lone surrogate) as `?`.
 */
export function forXml(text: string, max?: number): string {
  return masked(text, max)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '?');
}

/** Text in HTML, as text. */
export function forHtml(text: string, max?: number): string {
  return masked(text, max).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * Text in markdown (a table cell, a list item) shown as it is: what makes markup of text
 * escaped (emphasis, code, `![image](...)` and `[link](...)` brackets, a table cell's `|`,
 * HTML's `<`), and what GitHub turns into a link by itself broken (`https:\/\/...`,
 * `www\.`, an email's `\@`); one line.
 */
export function forMarkdown(text: string, max?: number): string {
  return masked(text, max)
    .replace(/[\r\n]+/g, ' ')
    .replace(ACTIVE, ' ')
    .replace(/[\\`*_[\]!|~@]/g, (c) => `\\${c}`)
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/:\/\//g, ':\\/\\/')
    .replace(/\bwww\./gi, (w) => `${w.slice(0, 3)}\\.`);
}

/** A markdown code span that holds any text (a repro may hold backticks): nothing in it is markup. */
export function forCode(text: string, max?: number): string {
  const shown = masked(text, max)
    .replace(/[\r\n]+/g, ' ')
    .replace(ACTIVE, ' ');
  const ticks = '`'.repeat(Math.max(0, ...[...shown.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
  return `${ticks}${ticks.length > 1 ? ' ' : ''}${shown}${ticks.length > 1 ? ' ' : ''}${ticks}`;
}

/** A fenced markdown code block (indented by `indent`) that no line of the text can close. */
export function forFence(text: string, lang: string, indent = ''): string[] {
  const shown = masked(text)
    .replace(/[\r\n]+/g, ' ')
    .replace(ACTIVE, ' ');
  const fence = '`'.repeat(Math.max(3, ...[...shown.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return [`${indent}${fence}${lang}`, `${indent}${shown}`, `${indent}${fence}`];
}

/** A JSON value as a file holds it, every string in it masked (JSON.stringify escapes the rest). */
export function forJson(value: unknown): string {
  return `${JSON.stringify(value, (_k, v: unknown) => (typeof v === 'string' ? redact(v) : v), 2)}\n`;
}
