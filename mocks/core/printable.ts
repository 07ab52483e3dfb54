// Client-controlled text (a path, an Origin header, a Prefer value, a user name) as the
// mock repeats it, in its log or in an answer's message: every such place calls
// `printable`, so none repeats it raw. Control characters and the invisible ones that
// reorder text are written as escapes, so a request cannot forge log lines, move the
// cursor or recolour the operator's terminal; the characters that make markup of text
// (`<`, `>`, `&`) are escaped the same way, so an error message put into a page as it
// is cannot run script; and the text is cut, so a 16 KiB header is not echoed whole.

// C0 and C1 controls, DEL, line/paragraph separators, bidi marks, embeddings and isolates;
// and markup: < > &.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069<>&]/g;

/** The longest client text repeated whole; a longer one is cut, saying how long it was. */
export const PRINTABLE_MAX = 200;

export function printable(text: string, max = PRINTABLE_MAX): string {
  const cut = text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text;
  return cut.replace(UNPRINTABLE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// The same controls and invisible characters, but not markup: what a terminal must not be sent.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const UNSAFE_IN_A_TERMINAL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Client text as a log line repeats it: a terminal is no page, so `&`, `<` and `>` stay as
 * sent (a query reads `limit=10&page=1`, as the client wrote it); the characters that would
 * forge a line, move the cursor or reorder the text are escaped, and a long text is cut.
 */
export function loggable(text: string, max = PRINTABLE_MAX): string {
  const cut = text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text;
  return cut.replace(UNSAFE_IN_A_TERMINAL, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** What JSON.parse found wrong with a client's text, without the copy of that text V8 puts in its message. */
export function jsonProblem(err: unknown): string {
  return printable(String((err as Error).message).replace(/, ".*is not valid JSON$/s, ''));
}
