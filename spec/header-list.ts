// Headers as HTTP sent them, a flat list (name, value, name, value...) as node:http and
// undici give them: how a repeated field joins into one value, and whether two lists are
// the same. The mock's journal and the validation proxy both read requests this way.

/** A field's value after the one it `had`: a repeated field joined as Node and fetch join it (cookies with `; `). */
export const joinHeader = (name: string, had: string | undefined, value: string): string =>
  had === undefined ? value : `${had}${name === 'cookie' ? '; ' : ', '}${value}`;

/** Whether two header lists are the same, string for string (case and order too); two absent lists are. */
export function sameHeaderList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
