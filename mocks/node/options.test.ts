// The mock's options: the flag table in mocks/README.md is rendered from the same
// definitions as `--help` and the parser, never written by hand.
import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { FlagError, type FlagSpec, type OptionsInCode } from '../../cli/flags.ts';
import { inCodeFlags, optionsInCode } from '../../cli/options-in-code.ts';
import type { CreateMockFlags } from './create-mock-options.gen.ts';
import {
  createMockOptionsSource,
  DEFAULT_OPTIONS,
  FLAGS,
  flagsMarkdown,
  helpText,
  OptionsError,
  parseOptions,
} from './options.ts';

const README = new URL('../README.md', import.meta.url);
const OPTIONS_MODULE = new URL('./create-mock-options.gen.ts', import.meta.url);

describe('the flag table', () => {
  it('in mocks/README.md is the one the flag definitions render (else: run npm run docs:flags)', () => {
    const readme = readFileSync(README, 'utf8');
    const table = /<!-- flags:start -->\n?([\s\S]*?)\n?<!-- flags:end -->/.exec(readme)?.[1];
    expect(
      table,
      'mocks/README.md lost its <!-- flags:start --> / <!-- flags:end --> markers: ' +
        'put them back, then run npm run docs:flags',
    ).toBeDefined();
    expect(table, 'the flag table in mocks/README.md is stale: run npm run docs:flags').toBe(flagsMarkdown());
  });

  it('shows the defaults the parser uses', () => {
    const row = (flag: string) =>
      flagsMarkdown()
        .split('\n')
        .find((l) => l.startsWith(`| \`--${flag}`))!;
    expect(row('port')).toContain(`| \`${DEFAULT_OPTIONS.port}\` |`);
    expect(row('host')).toContain(`| \`${DEFAULT_OPTIONS.host}\` |`);
    expect(row('seed')).toContain(`| \`${DEFAULT_OPTIONS.seed}\` |`);
    expect(row('servers')).toContain(`| \`${DEFAULT_OPTIONS.servers}\` |`);
    expect(row('cors-origin')).toContain(`| \`${DEFAULT_OPTIONS.corsOrigins.join(',')}\` |`);
    expect(row('fixtures')).toContain('| `fixtures/auth.json` |');
    expect(DEFAULT_OPTIONS.fixtures.replace(/\\/g, '/')).toMatch(/\/fixtures\/auth\.json$/);
  });

  it('lists every flag --help lists, and --help shows the same defaults', () => {
    const helpFlags = [...helpText().matchAll(/^ {2}(--[a-z-]+)/gm)].map((m) => m[1]);
    const tableFlags = [...flagsMarkdown().matchAll(/^\| `(--[a-z-]+)/gm)].map((m) => m[1]);
    expect(tableFlags).toEqual(helpFlags.filter((f) => f !== '--help' && f !== '--version'));
    expect(helpText()).toContain(`(default ${DEFAULT_OPTIONS.port}) [MOCK_PORT]`);
  });
});

describe('parseOptions', () => {
  it('starts from the defaults', () => {
    const { help, version, ...opts } = parseOptions([], {});
    expect([help, version]).toEqual([false, false]);
    expect(opts).toEqual({ ...DEFAULT_OPTIONS, selfCheck: DEFAULT_OPTIONS.selfCheck });
  });

  it('reads every flag, and flags win over environment variables', () => {
    const opts = parseOptions(
      [
        '--port',
        '0',
        '--host',
        '::1',
        '--seed',
        '7',
        '--now',
        '2026-01-01T00:00:00Z',
        '--servers',
        '10',
        '--data',
        'db.json',
        '--latency',
        '5-10',
        '--rate-limit',
        '--cors-origin',
        'https://a.test, https://b.test',
        '--quiet',
        '--self-check',
        '--fixtures',
        'f.json',
      ],
      { MOCK_PORT: '9999', MOCK_SEED: '1' },
    );
    expect(opts).toMatchObject({
      port: 0,
      host: '::1',
      seed: 7,
      now: Date.parse('2026-01-01T00:00:00Z'),
      servers: 10,
      data: 'db.json',
      latency: { min: 5, max: 10 },
      rateLimit: true,
      corsOrigins: ['https://a.test', 'https://b.test'],
      quiet: true,
      selfCheck: true,
      fixtures: 'f.json',
    });
  });

  it('reads environment variables, booleans included', () => {
    expect(
      parseOptions([], { MOCK_PORT: '4011', MOCK_RATE_LIMIT: '1', MOCK_QUIET: 'no', MOCK_LATENCY: '20' }),
    ).toMatchObject({
      port: 4011,
      rateLimit: true,
      quiet: false,
      latency: { min: 20, max: 20 },
    });
    expect(parseOptions([], { MOCK_SELF_CHECK: 'off' }).selfCheck).toBe(false);
    expect(parseOptions([], { MOCK_PORT: '' }).port).toBe(DEFAULT_OPTIONS.port);
  });

  it.each([
    [['--port', '65536'], "--port must be an integer from 0 to 65535, got '65536'"],
    [['--seed=-1'], "--seed must be an integer from 0 to 4294967295, got '-1'"],
    [['--servers', '1e3'], "--servers must be an integer from 0 to 5000000, got '1e3'"],
    [['--now', 'soon'], "--now must be an ISO 8601 time, got 'soon'"],
    [['--latency', '9-3'], "--latency must be MS or MIN-MAX with MIN <= MAX <= 60000, got '9-3'"],
    [['--latency', '70000'], "--latency must be MS or MIN-MAX with MIN <= MAX <= 60000, got '70000'"],
    [['--nope'], "unknown flag '--nope'"],
    [['--prot', '1'], "unknown flag '--prot': did you mean --port?"],
    [['stray'], "unexpected argument 'stray'"],
  ])('refuses %j with a message naming it', (argv, message) => {
    expect(() => parseOptions(argv, {})).toThrow(OptionsError);
    expect(() => parseOptions(argv, {})).toThrow(message);
  });

  it('names the environment variable, not a flag, when the bad value came from one', () => {
    expect(() => parseOptions([], { MOCK_PORT: 'abc' })).toThrow(
      "MOCK_PORT must be an integer from 0 to 65535, got 'abc'",
    );
    expect(() => parseOptions([], { MOCK_LATENCY: 'x' })).toThrow('MOCK_LATENCY must be MS or MIN-MAX');
  });
});

describe('--allowed-host and --max-connections', () => {
  it('read a list of host names and a connection cap, from flags or variables', () => {
    expect(parseOptions(['--allowed-host', 'api,.myproj.test', '--max-connections', '50'], {})).toMatchObject({
      allowedHosts: ['api', '.myproj.test'],
      maxConnections: 50,
    });
    expect(parseOptions([], { MOCK_ALLOWED_HOST: 'mock.lan', MOCK_MAX_CONNECTIONS: '7' })).toMatchObject({
      allowedHosts: ['mock.lan'],
      maxConnections: 7,
    });
    expect(parseOptions([], {})).toMatchObject({ allowedHosts: [], maxConnections: 1000 });
  });

  it('refuse a URL or a host with a port, and a cap below 1, naming the flag', () => {
    expect(() => parseOptions(['--allowed-host', 'http://api:4010'], {})).toThrow(OptionsError);
    expect(() => parseOptions(['--allowed-host', 'http://api:4010'], {})).toThrow(/--allowed-host.*is a URL/);
    expect(() => parseOptions(['--max-connections', '0'], {})).toThrow(/--max-connections/);
  });
});

describe("createMock's options: the flags the table declares inCode", () => {
  it('are declared, each with its doc comment, in create-mock-options.gen.ts as the table renders them', () => {
    const written = readFileSync(OPTIONS_MODULE, 'utf8');
    // The types are the compiler's (scripts/flags-table.ts); the type test below holds them to the table.
    const types = new Map([...written.matchAll(/^ {2}(\w+)\?: (.+);$/gm)].map((m) => [m[1]!, m[2]!]));
    const rendered = createMockOptionsSource((key) => types.get(key) ?? '(missing)');
    expect(written, "createMock's options are stale: run npm run docs:flags").toBe(rendered);
    expectTypeOf<CreateMockFlags>().toEqualTypeOf<OptionsInCode<typeof FLAGS>>();
  });

  // A value in code given as the text a flag reads (a wrong type included, as from JavaScript).
  const texts = (spec: FlagSpec) => [
    ...(spec.type === 'integer' ? [String(spec.min), String(spec.max), String(spec.max + 1), '-1', '1.5'] : []),
    ...['0', '5-1', '2026-01-01T00:00:00Z', 'soon', 'http://a.test', 'http://a.test/', 'off', 'db.json'],
  ];

  it("are checked in code by the flag's own rule: the same value, or the same message naming the option", () => {
    const flags = [...inCodeFlags(FLAGS)];
    expect(flags.length).toBeGreaterThan(10);
    for (const [key, { name, spec }] of flags) {
      if (spec.type === 'boolean') {
        expect(optionsInCode(FLAGS, { [key]: true }, 'createMock')).toMatchObject({ [key]: true });
        expect(parseOptions([`--${name}`], {})).toMatchObject({ [key]: true });
        expect(() => optionsInCode(FLAGS, { [key]: 'yes' }, 'createMock')).toThrow(
          `createMock: option '${key}' must be true or false, got "yes"`,
        );
        continue;
      }
      for (const text of texts(spec)) {
        const asFlag = verdict(() => (parseOptions([`--${name}=${text}`], {}) as Record<string, unknown>)[key]);
        const inCode = verdict(
          () => (optionsInCode(FLAGS, { [key]: text }, 'createMock') as Record<string, unknown>)[key],
        );
        const expected =
          'message' in asFlag
            ? { message: `createMock: ${asFlag.message.replace(`--${name} `, `option '${key}' `)}` }
            : asFlag;
        expect(inCode, `${key}: ${text}`).toEqual(expected);
      }
    }
  });

  it("mean, given as their type in code, what the flag's text means: each flag with a writer", () => {
    const at = '2026-01-01T00:00:00.000Z';
    const samples: [key: string, inCode: unknown, flag: string][] = [
      ['now', new Date(at), `--now=${at}`],
      ['now', Date.parse(at), `--now=${at}`],
      ['latency', { min: 5, max: 9 }, '--latency=5-9'],
      ['latency', 7, '--latency=7'],
      ['corsOrigins', ['http://a.test', 'http://b.test:*'], '--cors-origin=http://a.test,http://b.test:*'],
      ['cacheDir', null, '--cache-dir=off'],
      ['consumer', 'web', '--consumer=web'],
    ];
    for (const [key, value, flag] of samples) {
      const inCode = (optionsInCode(FLAGS, { [key]: value }, 'createMock') as Record<string, unknown>)[key];
      expect(inCode, `${key}: ${JSON.stringify(value)}`).toEqual(
        (parseOptions([flag], {}) as Record<string, unknown>)[key],
      );
    }
    for (const [key, { inCode }] of inCodeFlags(FLAGS))
      if (inCode.write)
        expect(
          samples.map(([k]) => k),
          `a sample of ${key} in code`,
        ).toContain(key);
    expect(() => optionsInCode(FLAGS, { now: new Date(Number.NaN) }, 'createMock')).toThrow(
      "createMock: option 'now' must be an ISO 8601 time, got 'Invalid Date'",
    );
  });

  it("start from the flags' defaults, but in process no request log and a row cache for a test's few servers", () => {
    const { help, version, ...inCode } = optionsInCode(FLAGS, {}, 'createMock');
    expect(inCode).toEqual({ ...DEFAULT_OPTIONS, quiet: true, rowCacheMiB: 8 });
    expect(DEFAULT_OPTIONS.quiet).toBe(false);
    expect(DEFAULT_OPTIONS.rowCacheMiB).toBe(64);
  });
});

/** What reading a value came to: the value, or the message of the error it threw. */
function verdict(read: () => unknown): { value: unknown } | { message: string } {
  try {
    return { value: read() };
  } catch (err) {
    if (!(err instanceof FlagError) && !(err instanceof TypeError)) throw err;
    return { message: (err as Error).message };
  }
}
