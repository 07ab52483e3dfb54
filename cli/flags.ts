// One way every program of this repository reads its command line: a table of flags
// that declares each flag once (type, environment variable, default, help, the key a
// program reads its value by, and whether the program's function in code takes it) and
// drives parsing, the typed values (derived from the table by TypeScript), `--help`, the
// README tables and the options of a function in code (the mock's createMock). Parsing is
// node:util's parseArgs; this module adds what each program used to write for itself:
// values read from the environment when no flag is given, typed and range-checked values,
// messages that name where a bad value came from (`--port`, `MOCK_PORT` or `option
// 'port'`), and "did you mean" for a mistyped flag or option. Every misuse of the command
// line is a FlagError, which a program answers with exit 2 (decision 0034).
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A misuse of the command line (unknown flag, bad value): the program exits 2. */
export class FlagError extends Error {}

/**
 * How a function in code takes a flag as an option, by the flag's key (the mock's
 * createMock takes most of its flags). The value is checked by the flag's own rule, so a
 * bad one gets the flag's message, naming the option.
 */
export interface InCode {
  /**
   * How a value given in code becomes the flag's text. A custom flag needs one: its
   * parameter's type is the option's type in code (`(v: number | { min: number; max: number })`).
   */
  write?: (value: never) => string;
  /** The default in code, where it is not the flag's. */
  default?: unknown;
  /** What the option's doc comment adds to the flag's help for a caller in code. */
  note?: string;
}

interface Common {
  /** Environment variable read when the flag is not given (an empty value counts as not set). */
  env?: string;
  /** The value's placeholder in help texts (`--port N`). */
  value?: string;
  /** The default as people read it, when it is not the default value itself (`real clock`). */
  shown?: string;
  help: string;
  /** A one-letter alias (`-h`). */
  short?: string;
  /**
   * The key a program reads the value by, and a function in code takes it by. Without
   * one, the flag's name in camelCase (`--clean-data`: `cleanData`), as click names a
   * parameter after its option.
   */
  key?: string;
  /** The program's function in code takes this flag as an option too (`true`: as it is). */
  inCode?: true | InCode;
}

export type FlagSpec =
  | (Common & { type: 'boolean'; default?: boolean })
  | (Common & { type: 'string'; default?: string; choices?: readonly string[] })
  | (Common & { type: 'integer'; default?: number; min: number; max: number })
  /** Repeatable and comma-separated (`--only a,b --only c`): every item, in order, blanks dropped. */
  | (Common & { type: 'list'; default?: readonly string[] })
  /** Any value a function can read: it throws an Error whose message says what it must be. */
  | (Common & { type: 'custom'; default?: unknown; parse: (raw: string) => unknown });

export type FlagTable = Record<string, FlagSpec>;

/** `clean-data` -> `cleanData`. */
type Camel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;

/** The key a flag's value is read by: its declared `key`, else its name in camelCase. */
export type KeyOf<N, S> = S extends { key: infer K extends string } ? K : N extends string ? Camel<N> : never;

type ValueOf<S extends FlagSpec> = S extends { type: 'boolean' }
  ? boolean
  : S extends { type: 'integer' }
    ? number
    : S extends { type: 'list' }
      ? string[]
      : S extends { type: 'custom'; parse: (raw: string) => infer V }
        ? V
        : S extends { choices: readonly (infer C)[] }
          ? C
          : string;

/** A flag that always has a value: a boolean (false when not given), a list (empty), or one with a default. */
type Always<S> = S extends { type: 'boolean' } | { type: 'list' } | { default: NonNullable<unknown> } ? true : false;

/** One object type out of an intersection, as an editor shows it. */
type Flat<T> = { [K in keyof T]: T[K] };

/** The values a table gives, by key: a flag that may have no value is optional. */
export type FlagValues<T extends FlagTable> = Flat<
  { -readonly [N in keyof T as Always<T[N]> extends true ? KeyOf<N, T[N]> : never]: ValueOf<T[N]> } & {
    -readonly [N in keyof T as Always<T[N]> extends true ? never : KeyOf<N, T[N]>]?: ValueOf<T[N]>;
  }
>;

/** An option's type in code: its writer's parameter, else the flag's own value. */
type InCodeValue<S extends FlagSpec> = S extends { inCode: { write: (value: infer V) => string } }
  ? V
  : S extends { type: 'custom' }
    ? never
    : ValueOf<S>;

/** The options a function in code takes: every flag declared `inCode`, by key, each optional. */
export type OptionsInCode<T extends FlagTable> = {
  -readonly [N in keyof T as T[N] extends { inCode: true | InCode } ? KeyOf<N, T[N]> : never]?: InCodeValue<T[N]>;
};

export interface Parsed<T extends FlagTable> {
  values: FlagValues<T>;
  /** Where each value came from, by key. */
  from: { [K in keyof FlagValues<T>]-?: 'flag' | 'env' | 'default' };
  positionals: string[];
}

/** The key a flag's value is read by (see KeyOf). */
export function keyOf(name: string, spec: FlagSpec): string {
  return spec.key ?? name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

const FALSE_WORDS = ['0', 'false', 'no', 'off'];

/** The closest known name to a mistyped one, if one is close enough to be what was meant. */
export function didYouMean(given: string, known: readonly string[]): string | undefined {
  const want = given.toLowerCase();
  let best: { name: string; d: number } | undefined;
  for (const name of known) {
    const d = name.startsWith(want) && want.length >= 3 ? 0 : distance(want, name.toLowerCase());
    if (!best || d < best.d) best = { name, d };
  }
  // One edit in four characters, at most three: `bse-url` -> `base-url`, but not `x` -> `seed`.
  return best && best.d <= Math.min(3, Math.max(1, Math.floor(best.name.length / 4))) ? best.name : undefined;
}

/** Edit distance (insert, delete, substitute, swap two neighbours). */
function distance(a: string, b: string): number {
  if (a.length > 64 || b.length > 64) return Infinity;
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

/** `--port N`, as help texts write a flag. */
export function flagUsage(name: string, spec: FlagSpec): string {
  return `--${name}${spec.value ? ` ${spec.value}` : ''}`;
}

/** The default as people read it, or undefined when there is none worth saying. */
export function shownDefault(spec: FlagSpec): string | undefined {
  if (spec.shown !== undefined) return spec.shown;
  if (spec.default === undefined || spec.default === false) return undefined;
  return Array.isArray(spec.default) ? spec.default.join(',') : String(spec.default);
}

/** The option lines of a `--help` text: flag, help, default and environment variable. */
export function helpLines(table: FlagTable, width = 26): string[] {
  return Object.entries(table).map(([name, spec]) => {
    const fallback = shownDefault(spec);
    const flag = `${spec.short ? `-${spec.short}, ` : ''}${flagUsage(name, spec)}`;
    const shown = fallback !== undefined && fallback !== 'off' ? ` (default ${fallback})` : '';
    return `  ${flag.padEnd(width)} ${spec.help}${shown}${spec.env ? ` [${spec.env}]` : ''}`;
  });
}

function unknownFlagMessage(raw: string, table: FlagTable): string {
  const name = raw.replace(/^-+/, '').split('=')[0]!;
  const guess = didYouMean(name, Object.keys(table));
  return `unknown flag '${raw.split('=')[0]}'${guess ? `: did you mean --${guess}?` : ''} (see --help)`;
}

/**
 * Reads `argv` by the table: flags win over environment variables, which win over
 * defaults. Throws FlagError naming the flag or variable on any misuse.
 */
export function parseFlags<const T extends FlagTable>(
  table: T,
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  opts: { positionals?: boolean } = {},
): Parsed<T> {
  let raw: ReturnType<typeof parseArgs>;
  try {
    raw = parseArgs({
      args: [...argv],
      options: Object.fromEntries(
        Object.entries(table).map(([k, s]) => [
          k,
          {
            type: s.type === 'boolean' ? 'boolean' : 'string',
            ...(s.type === 'list' ? { multiple: true } : {}),
            ...(s.short ? { short: s.short } : {}),
          },
        ]),
      ) as ParseArgsConfig['options'],
      strict: true,
      allowPositionals: opts.positionals ?? false,
    });
  } catch (err) {
    throw new FlagError(explainParseError(err as NodeJS.ErrnoException, argv, table));
  }
  const values: Record<string, unknown> = {};
  const from: Record<string, 'flag' | 'env' | 'default'> = {};
  for (const [name, spec] of Object.entries(table)) {
    const key = keyOf(name, spec);
    const given = raw.values[name];
    const fromEnv = spec.env ? env[spec.env] : undefined;
    if (given !== undefined) {
      from[key] = 'flag';
      values[key] = read(spec, given as string | boolean | string[], `--${name}`);
    } else if (fromEnv !== undefined && fromEnv !== '') {
      from[key] = 'env';
      values[key] =
        spec.type === 'boolean'
          ? !FALSE_WORDS.includes(fromEnv.trim().toLowerCase())
          : read(spec, spec.type === 'list' ? [fromEnv] : fromEnv, spec.env!);
    } else {
      from[key] = 'default';
      values[key] = defaultOf(spec);
    }
  }
  return { values: values as FlagValues<T>, from: from as Parsed<T>['from'], positionals: raw.positionals };
}

/**
 * Every flag's default, keyed as `parseFlags` keys its values: what it gives for no argument
 * and no variable, without loading node's argument parser (a library computes these at import).
 */
export function flagDefaults<const T extends FlagTable>(table: T): FlagValues<T> {
  const values: Record<string, unknown> = {};
  for (const name in table) values[keyOf(name, table[name]!)] = defaultOf(table[name]!);
  return values as FlagValues<T>;
}

/** The value a flag has when neither it nor its variable is given. */
export function defaultOf(spec: FlagSpec): unknown {
  if (spec.type === 'boolean') return spec.default ?? false;
  return spec.type === 'list' ? [...(spec.default ?? [])] : spec.default;
}

/** One value by its flag's rule; a bad one throws FlagError, named by `label` (`--port`, `MOCK_PORT`). */
export function read(spec: FlagSpec, given: string | boolean | string[], label: string): unknown {
  switch (spec.type) {
    case 'boolean':
      return given;
    case 'list':
      return (given as string[])
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter(Boolean);
    case 'integer': {
      const text = String(given).trim();
      if (!/^-?\d+$/.test(text) || Number(text) < spec.min || Number(text) > spec.max) {
        throw new FlagError(`${label} must be an integer from ${spec.min} to ${spec.max}, got '${given}'`);
      }
      return Number(text);
    }
    case 'string': {
      const text = String(given);
      if (spec.choices && !spec.choices.includes(text)) {
        const guess = didYouMean(text, spec.choices);
        throw new FlagError(
          `${label} must be ${orList(spec.choices)}, got '${text}'${guess ? `: did you mean ${guess}?` : ''}`,
        );
      }
      return text;
    }
    case 'custom':
      try {
        return spec.parse(String(given));
      } catch (err) {
        throw new FlagError(`${label} ${(err as Error).message}`);
      }
  }
}

function orList(items: readonly string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** parseArgs' own errors, in this project's words (and with a suggestion for a typo). */
function explainParseError(err: NodeJS.ErrnoException, argv: readonly string[], table: FlagTable): string {
  const msg = err.message;
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const bad = /'([^']+)'/.exec(msg)?.[1] ?? '';
    return unknownFlagMessage(bad, table);
  }
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const name = /--([a-z0-9-]+)/i.exec(msg)?.[1];
    const spec = name ? table[name] : undefined;
    if (spec && spec.type === 'boolean') return `--${name} takes no value (see --help)`;
    if (name) return `--${name} needs a value${spec?.value ? ` (${flagUsage(name, spec)})` : ''}`;
  }
  if (err.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const stray = /'([^']*)'/.exec(msg)?.[1] ?? argv.find((a) => !a.startsWith('-')) ?? '';
    return `unexpected argument '${stray}': every setting is a flag (see --help)`;
  }
  return `${msg} (see --help)`;
}

/** Where a program's flag messages go, and how it ends (process's own, unless a test says otherwise). */
export interface ProgramIo {
  out: (text: string) => void;
  err: (text: string) => void;
  exit: (code: number) => never;
}

const PROCESS_IO: ProgramIo = {
  out: (t) => console.log(t),
  err: (t) => console.error(t),
  exit: (code) => process.exit(code),
};

/**
 * A whole program's command line, the way every script here reads it: `--help` prints
 * `usage` and the flag table and exits 0; a misuse prints `program: <what was wrong>`
 * and exits 2; otherwise the values. The table should have a boolean `help` flag.
 */
export function programFlags<const T extends FlagTable>(
  program: string,
  usage: string,
  table: T,
  argv: readonly string[] = process.argv.slice(2),
  env: NodeJS.ProcessEnv = process.env,
  io: ProgramIo = PROCESS_IO,
): FlagValues<T> {
  let parsed: Parsed<T>;
  try {
    parsed = parseFlags(table, argv, env);
  } catch (err) {
    if (!(err instanceof FlagError)) throw err;
    io.err(`${program}: ${err.message}`);
    return io.exit(2);
  }
  if ((parsed.values as Record<string, unknown>).help === true) {
    io.out([usage, '', ...helpLines(table)].join('\n'));
    return io.exit(0);
  }
  return parsed.values;
}
