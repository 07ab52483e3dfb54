// A program's flags as the options of its function in code (the mock's createMock): the
// flags a table declares `inCode`, taken by their keys, each checked by the flag's own
// rule (the same ranges, formats and messages, naming the option), then the rest of the
// table's defaults. No environment is read: what a caller in code builds is what it says.
import {
  defaultOf,
  didYouMean,
  FlagError,
  type FlagSpec,
  type FlagTable,
  type FlagValues,
  type InCode,
  keyOf,
  read,
} from './flags.ts';

interface InCodeFlag {
  name: string;
  spec: FlagSpec;
  inCode: InCode;
}

/** The flags a function in code takes, by key, in the table's order. */
export function inCodeFlags(table: FlagTable): Map<string, InCodeFlag> {
  const out = new Map<string, InCodeFlag>();
  for (const [name, spec] of Object.entries(table)) {
    if (spec.inCode) out.set(keyOf(name, spec), { name, spec, inCode: spec.inCode === true ? {} : spec.inCode });
  }
  return out;
}

/** How a value given in code becomes its flag's text, when the flag does not say. */
function writeAsFlag(spec: FlagSpec, value: unknown): string {
  return spec.type === 'list' && Array.isArray(value) ? value.join(',') : String(value);
}

/**
 * The values `given` in code mean, over the table's defaults (and each option's own
 * default in code). A key the table does not declare `inCode`, or a value its flag would
 * refuse, throws a TypeError that starts with `who` and names the option.
 */
export function optionsInCode<const T extends FlagTable>(
  table: T,
  given: Record<string, unknown>,
  who: string,
): FlagValues<T> {
  const flags = inCodeFlags(table);
  const known = [...flags.keys()];
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(table)) {
    const inCode = spec.inCode === true ? undefined : spec.inCode;
    values[keyOf(name, spec)] = inCode && 'default' in inCode ? inCode.default : defaultOf(spec);
  }
  for (const [key, value] of Object.entries(given)) {
    const flag = flags.get(key);
    if (!flag) {
      const guess = didYouMean(key, known);
      throw new TypeError(
        `${who}: unknown option '${key}'${guess ? `: did you mean ${guess}?` : ''} (options: ${known.join(', ')})`,
      );
    }
    if (value === undefined) continue;
    const { spec, inCode } = flag;
    if (spec.type === 'boolean') {
      if (typeof value !== 'boolean')
        throw new TypeError(`${who}: option '${key}' must be true or false, got ${JSON.stringify(value)}`);
      values[key] = value;
      continue;
    }
    const text = inCode.write ? (inCode.write as (v: unknown) => string)(value) : writeAsFlag(spec, value);
    try {
      values[key] = read(spec, spec.type === 'list' ? [text] : text, `option '${key}'`);
    } catch (err) {
      if (!(err instanceof FlagError)) throw err;
      throw new TypeError(`${who}: ${err.message}`);
    }
  }
  return values as FlagValues<T>;
}
