// Where a MOTD's colour codes (`§a`) sit inside its text, so a probe can prove a filter
// reads the text without them. (How the text filters match is the rules' own:
// spec/rules.ts, with the one wildcard matcher, spec/wildcard.ts.)

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
