import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  didYouMean,
  FlagError,
  flagDefaults,
  type FlagValues,
  helpLines,
  keyOf,
  parseFlags,
  programFlags,
  type FlagTable,
  type ProgramIo,
} from './flags.ts';

const TABLE = {
  port: { type: 'integer', env: 'X_PORT', value: 'N', default: 4010, min: 0, max: 65535, help: 'port' },
  'base-url': { type: 'string', env: 'X_BASE_URL', value: 'URL', help: 'where' },
  quiet: { type: 'boolean', env: 'X_QUIET', help: 'hush' },
  only: { type: 'list', value: 'ID', help: 'these' },
  pace: { type: 'string', choices: ['on', 'off'], default: 'on', help: 'wait' },
  latency: {
    type: 'custom',
    value: 'MS',
    help: 'delay',
    parse: (raw: string) => {
      if (!/^\d+$/.test(raw)) throw new Error(`must be a number of ms, got '${raw}'`);
      return { ms: Number(raw) };
    },
  },
  help: { type: 'boolean', short: 'h', help: 'help' },
} as const satisfies FlagTable;

const fails = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  try {
    parseFlags(TABLE, argv, env);
  } catch (err) {
    expect(err).toBeInstanceOf(FlagError);
    return (err as Error).message;
  }
  throw new Error(`${argv.join(' ')} was accepted`);
};

describe('parseFlags', () => {
  it('gives defaults, typed values, and where each came from', () => {
    const { values, from } = parseFlags(TABLE, [], {});
    expect(values).toEqual({
      port: 4010,
      baseUrl: undefined,
      quiet: false,
      only: [],
      pace: 'on',
      latency: undefined,
      help: false,
    });
    expect(from.port).toBe('default');
  });

  it('reads flags over environment variables over defaults', () => {
    const { values, from } = parseFlags(TABLE, ['--port', '81', '--only', 'a, b', '--only=c', '--latency', '5', '-h'], {
      X_PORT: '82',
      X_BASE_URL: 'http://x',
      X_QUIET: 'yes',
    });
    expect(values).toMatchObject({
      port: 81,
      baseUrl: 'http://x',
      quiet: true,
      only: ['a', 'b', 'c'],
      latency: { ms: 5 },
      help: true,
    });
    expect(from).toMatchObject({ port: 'flag', baseUrl: 'env', quiet: 'env' });
    expect(parseFlags(TABLE, [], { X_QUIET: 'off', X_PORT: '' }).values).toMatchObject({ quiet: false, port: 4010 });
  });

  it('names the flag or the variable a bad value came from', () => {
    expect(fails(['--port', 'abc'])).toBe("--port must be an integer from 0 to 65535, got 'abc'");
    expect(fails([], { X_PORT: 'abc' })).toBe("X_PORT must be an integer from 0 to 65535, got 'abc'");
    expect(fails(['--latency', 'soon'])).toBe("--latency must be a number of ms, got 'soon'");
    expect(fails(['--pace', 'of'])).toBe("--pace must be on or off, got 'of': did you mean on?");
  });

  it('suggests the flag a typo meant, and explains the rest of its misuses', () => {
    expect(fails(['--bse-url', 'http://x'])).toBe("unknown flag '--bse-url': did you mean --base-url? (see --help)");
    expect(fails(['--prot=1'])).toBe("unknown flag '--prot': did you mean --port? (see --help)");
    expect(fails(['--zzzzzz'])).toBe("unknown flag '--zzzzzz' (see --help)");
    expect(fails(['--port'])).toBe('--port needs a value (--port N)');
    expect(fails(['--base-url', '--quiet'])).toBe('--base-url needs a value (--base-url URL)');
    expect(fails(['--quiet=1'])).toBe('--quiet takes no value (see --help)');
    expect(fails(['stray'])).toBe("unexpected argument 'stray': every setting is a flag (see --help)");
  });
});

describe('keys', () => {
  const KEYED = {
    'row-cache': { type: 'integer', key: 'rowCacheMiB', default: 64, min: 0, max: 9, help: 'rows' },
    'clean-data': { type: 'boolean', help: 'clean' },
    'x-2-y': { type: 'string', help: 'odd' },
    pace: { type: 'string', choices: ['on', 'off'], help: 'wait' },
  } as const satisfies FlagTable;

  it('reads each value by its declared key, else by the flag in camelCase, and says where it came from by key', () => {
    const { values, from } = parseFlags(KEYED, ['--row-cache', '3', '--clean-data', '--x-2-y', 'z'], {});
    expect(values).toEqual({ rowCacheMiB: 3, cleanData: true, x2Y: 'z' });
    expect(from).toEqual({ rowCacheMiB: 'flag', cleanData: 'flag', x2Y: 'flag', pace: 'default' });
    expect(Object.entries(KEYED).map(([name, spec]) => keyOf(name, spec))).toEqual([
      'rowCacheMiB',
      'cleanData',
      'x2Y',
      'pace',
    ]);
  });

  it('gives every default as parseFlags does for no argument and no variable, keyed alike', () => {
    expect(flagDefaults(KEYED)).toStrictEqual(parseFlags(KEYED, [], {}).values);
    expect(flagDefaults(TABLE)).toStrictEqual(parseFlags(TABLE, [], {}).values);
    expect(flagDefaults(KEYED)).toStrictEqual({ rowCacheMiB: 64, cleanData: false, x2Y: undefined, pace: undefined });
  });

  it('types the values from the table: by key, a choice as its union, optional when it may have no value', () => {
    expectTypeOf<FlagValues<typeof KEYED>>().toEqualTypeOf<{
      rowCacheMiB: number;
      cleanData: boolean;
      x2Y?: string;
      pace?: 'on' | 'off';
    }>();
  });
});

describe('didYouMean', () => {
  it('finds near names and prefixes, and nothing for what is far from all of them', () => {
    expect(didYouMean('bse-url', ['base-url', 'budget'])).toBe('base-url');
    expect(didYouMean('strat-mock', ['start-mock', 'strict'])).toBe('start-mock');
    expect(didYouMean('prov', ['provenance', 'pace'])).toBe('provenance');
    expect(didYouMean('x', ['seed', 'port'])).toBeUndefined();
    expect(didYouMean('a'.repeat(10_000), ['seed'])).toBeUndefined();
  });
});

describe('helpLines', () => {
  it('writes each flag with its placeholder, default and variable', () => {
    const lines = helpLines(TABLE);
    expect(lines[0]).toMatch(/^ {2}--port N +port \(default 4010\) \[X_PORT\]$/);
    expect(lines.at(-1)).toMatch(/^ {2}-h, --help +help$/);
  });
});

describe('programFlags', () => {
  /** What a program printed and how it ended; `exit` throws so the run stops there, as process.exit would. */
  const run = (argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    let code: number | undefined;
    const io: ProgramIo = {
      out: (t) => out.push(t),
      err: (t) => err.push(t),
      exit: (c) => {
        code = c;
        throw new Error('exit');
      },
    };
    let values: unknown;
    try {
      values = programFlags('tool', 'Usage: tool [options]', TABLE, argv, {}, io);
    } catch (e) {
      if ((e as Error).message !== 'exit') throw e;
    }
    return { values, code, out: out.join('\n'), err: err.join('\n') };
  };

  it('answers a misuse with the program name, the message and exit 2', () => {
    const r = run(['--port', 'x']);
    expect(r.code).toBe(2);
    expect(r.err).toBe("tool: --port must be an integer from 0 to 65535, got 'x'");
    expect(run(['--bse-url', 'y']).err).toBe("tool: unknown flag '--bse-url': did you mean --base-url? (see --help)");
  });

  it('prints the usage and every flag for --help, and exits 0', () => {
    const r = run(['-h']);
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[0]).toBe('Usage: tool [options]');
    expect(r.out).toContain('--port N');
  });

  it('gives the values otherwise', () => {
    expect(run(['--port', '80']).values).toMatchObject({ port: 80, pace: 'on', quiet: false });
  });
});
