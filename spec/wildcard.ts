// `*` wildcards in linear time, the one matcher of the project: the text rules of
// `x-meaning` (spec/rules.ts: `version`, `country`, `city`, `motd`, `org`, the metadata
// lookups), as the mock filters and the contract suite judges them, and the mock's CORS
// origin list all take a pattern where `*` stands for any run of characters. A regex
// built from such a pattern backtracks: each `*` multiplies the work, so
// `motd=*****zq` froze the whole server for seconds. Here the pattern is split at its
// stars and the literal pieces are found left to right with `indexOf`, each at its
// leftmost place after the previous one. The leftmost place is always safe (it leaves
// the most room for the pieces after it), so nothing is ever retried: one pass over the
// value per piece, however many stars there are.

export interface WildcardOptions {
  /** The pattern must cover the whole value; otherwise it may match any substring. */
  whole: boolean;
  /** A character no `*` matches (CORS origins: `/`). Implies whole-value matching. */
  notAcross?: string;
}

/**
 * Does `value` match the pattern cut at its stars into `parts`? Whole: the first part
 * is a prefix, the last a suffix, the others in order in between. Substring: every
 * part in order anywhere.
 */
function matchParts(parts: readonly string[], value: string, whole: boolean): boolean {
  if (parts.length === 1) return whole ? value === parts[0] : value.includes(parts[0]!);
  let from = 0;
  let to = value.length;
  let first = 0;
  let last = parts.length;
  if (whole) {
    const head = parts[0]!;
    const tail = parts[parts.length - 1]!;
    if (head.length + tail.length > value.length || !value.startsWith(head) || !value.endsWith(tail)) return false;
    from = head.length;
    to = value.length - tail.length;
    first = 1;
    last = parts.length - 1;
  }
  for (let k = first; k < last; k++) {
    const part = parts[k]!;
    if (part === '') continue;
    const at = value.indexOf(part, from);
    if (at === -1 || at + part.length > to) return false;
    from = at + part.length;
  }
  return true;
}

/**
 * A test for `pattern`: `*` matches any run of characters (the empty one too), every
 * other character stands for itself. The pattern is lower-cased; callers hand in
 * lower-cased values (the search index keeps its text columns so), which makes the
 * match case-insensitive.
 *
 * With `notAcross`, the value and the pattern are both cut at that character and
 * matched segment by segment: a `*` cannot match the separator, so every separator in
 * the value must stand where the pattern has one.
 */
export function wildcardMatcher(pattern: string, options: WildcardOptions): (value: string) => boolean {
  const lower = pattern.toLowerCase();
  const sep = options.notAcross;
  if (sep === undefined) {
    const parts = lower.split('*');
    return (value) => matchParts(parts, value, options.whole);
  }
  const segments = lower.split(sep).map((s) => s.split('*'));
  return (value) => {
    const cut = value.split(sep);
    return cut.length === segments.length && segments.every((parts, i) => matchParts(parts, cut[i]!, true));
  };
}
