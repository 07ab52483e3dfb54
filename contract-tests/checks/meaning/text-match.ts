// How the spec's text filters match: `*` is any run of characters and the rest literal,
// case-insensitive, over the whole value or any part of it; and where a MOTD's colour
// codes (`§a`) sit inside its text, so a probe can prove a filter reads the text without
// them.

/** `*` is any run of characters, the rest literal, case-insensitive; whole value or any substring. */
export function wildcard(pattern: string, whole: boolean): RegExp {
  const body = pattern
    .split('*')
    .map((part) => part.replace(/[\\^$.|?+()[\]{}]/g, '\\$&'))
    .join('.*');
  return new RegExp(whole ? `^${body}$` : body, 'is');
}

/**
 * A piece of `stripped` that spans a place where `raw` has a colour code, so it is in
 * the text without codes and not in the text with them; undefined when `raw` has no
 * code inside the text.
 */
export function acrossCodes(stripped: string, raw: string): string | undefined {
  const cuts: number[] = [];
  let plain = '';
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === '§' && i + 1 < raw.length) {
      cuts.push(plain.length);
      i++;
    } else plain += raw[i];
  }
  if (plain !== stripped) return undefined;
  for (const cut of cuts) {
    const from = Math.max(0, cut - 4);
    const piece = stripped.slice(from, cut + 4);
    if (
      cut > 0 &&
      cut < stripped.length &&
      piece.trim().length >= 3 &&
      !raw.toLowerCase().includes(piece.toLowerCase())
    )
      return piece;
  }
  return undefined;
}
