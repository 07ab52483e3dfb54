// Client-controlled text (an Origin header, a Host) shown in the mock's log. Control
// characters, and the invisible ones that reorder text, are written as escapes, so a
// request cannot forge log lines, move the cursor or recolour the operator's terminal.

// C0 and C1 controls, DEL, line/paragraph separators, bidi marks, embeddings and isolates.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
