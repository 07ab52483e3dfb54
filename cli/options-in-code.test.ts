// A program's flags as options in code: only the flags declared `inCode`, by key, each
// checked by the flag's own rule and named as an option; the environment is never read.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { FlagTable, OptionsInCode } from './flags.ts';
import { inCodeFlags, optionsInCode } from './options-in-code.ts';

const TABLE = {
  port: { type: 'integer', env: 'X_PORT', default: 80, min: 0, max: 65535, help: 'port' },
  seed: { type: 'integer', env: 'X_SEED', default: 1, min: 0, max: 9, help: 'seed', inCode: true },
  'clean-data': { type: 'boolean', help: 'clean', inCode: true },
  quiet: { type: 'boolean', help: 'hush', inCode: { default: true } },
  only: { type: 'list', help: 'these', inCode: true },
  'row-cache': { type: 'integer', key: 'rowCacheMiB', min: 0, max: 64, help: 'rows', inCode: true },
  latency: {
    type: 'custom',
    help: 'delay',
    parse: (raw: string) => {
      if (!/^\d+$/.test(raw)) throw new Error(`must be a number of ms, got '${raw}'`);
      return Number(raw);
    },
    inCode: { write: (v: number | { ms: number }) => (typeof v === 'object' ? String(v.ms) : String(v)) },
  },
} as const satisfies FlagTable;

const fails = (given: Record<string, unknown>) => {
  try {
    optionsInCode(TABLE, given, 'make');
  } catch (err) {
    expect(err).toBeInstanceOf(TypeError);
    return (err as Error).message;
  }
  throw new Error(`${JSON.stringify(given)} was accepted`);
};

describe('optionsInCode', () => {
  it("gives the table's defaults, and each option's own default in code, without reading the environment", () => {
    process.env.X_SEED = '7';
    try {
      expect(optionsInCode(TABLE, {}, 'make')).toEqual({
        port: 80,
        seed: 1,
        cleanData: false,
        quiet: true,
        only: [],
        rowCacheMiB: undefined,
        latency: undefined,
      });
    } finally {
      delete process.env.X_SEED;
    }
  });

  it('reads each option by its key through its flag: a writer, a list, an integer, a boolean', () => {
    expect(
      optionsInCode(
        TABLE,
        { seed: 3, cleanData: true, quiet: false, only: ['a', 'b'], rowCacheMiB: 8, latency: { ms: 5 } },
        'make',
      ),
    ).toMatchObject({ seed: 3, cleanData: true, quiet: false, only: ['a', 'b'], rowCacheMiB: 8, latency: 5 });
    expect(optionsInCode(TABLE, { seed: undefined }, 'make').seed).toBe(1);
  });

  it("refuses a bad value with the flag's own message, naming the option", () => {
    expect(fails({ seed: 10 })).toBe("make: option 'seed' must be an integer from 0 to 9, got '10'");
    expect(fails({ rowCacheMiB: -1 })).toBe("make: option 'rowCacheMiB' must be an integer from 0 to 64, got '-1'");
    expect(fails({ latency: 'soon' })).toBe("make: option 'latency' must be a number of ms, got 'soon'");
    expect(fails({ cleanData: 'yes' })).toBe('make: option \'cleanData\' must be true or false, got "yes"');
  });

  it('refuses a key no flag declares in code, with the one it resembles and the list', () => {
    expect(fails({ seeds: 1 })).toBe(
      "make: unknown option 'seeds': did you mean seed? (options: seed, cleanData, quiet, only, rowCacheMiB, latency)",
    );
    expect(fails({ port: 1 })).toMatch(/^make: unknown option 'port' \(options: /);
  });

  it('lists the flags a function takes, by key, and types them: a writer gives the type in code', () => {
    expect([...inCodeFlags(TABLE).keys()]).toEqual(['seed', 'cleanData', 'quiet', 'only', 'rowCacheMiB', 'latency']);
    expectTypeOf<OptionsInCode<typeof TABLE>>().toEqualTypeOf<{
      seed?: number;
      cleanData?: boolean;
      quiet?: boolean;
      only?: string[];
      rowCacheMiB?: number;
      latency?: number | { ms: number };
    }>();
  });
});
