// The mock's settings: each flag declared once, in FLAGS, which drives the command line,
// the environment variables, `--help`, the flag table of mocks/README.md and createMock's
// options (`npm run docs:flags` writes both), and the typed options (MockOptions, derived
// from FLAGS). How a flag is added: decision 0034.
import { optionsInterface, flagsMarkdown as tableMarkdown } from '../../cli/flag-docs.ts';
import { FlagError, type FlagTable, type FlagValues, flagDefaults, helpLines, parseFlags } from '../../cli/flags.ts';
import { FIXTURES_PATH } from '../../fixtures/load.ts';
import { parseCorsOrigins, SPEC_CORS_ORIGINS } from '../core/cors/cors-policy.ts';
import { JOURNAL_SIZE } from '../core/journal/journal.ts';
import { parseAllowedHosts } from '../../cli/allowed-hosts.ts';
import { SNAPSHOT_ABOVE } from '../dataset/snapshot.ts';
import { parseConsumerName } from '../../spec/usage-file.ts';
import { DEFAULT_MAX_CONNECTIONS } from './socket-limits.ts';

/** The spec's x-cors origins. */
const CORS_ORIGINS = [...SPEC_CORS_ORIGINS];

/**
 * Every flag of the mock. `key` is the option's name where it is not the flag's in
 * camelCase; `inCode`: createMock takes it too (mocks/node/in-process.ts), by that key,
 * with `write` turning a value in code into the flag's text where that is not String().
 */
export const FLAGS = {
  port: {
    type: 'integer',
    env: 'MOCK_PORT',
    value: 'N',
    default: 4010,
    min: 0,
    max: 65535,
    help: 'port to listen on; 0 picks a free one',
  },
  host: { type: 'string', env: 'MOCK_HOST', value: 'HOST', default: '127.0.0.1', help: 'address to listen on' },
  seed: {
    type: 'integer',
    env: 'MOCK_SEED',
    value: 'N',
    default: 1337,
    min: 0,
    max: 2 ** 32 - 1,
    help: 'dataset seed; the same seed gives the same servers',
    inCode: true,
  },
  now: {
    type: 'custom',
    env: 'MOCK_NOW',
    value: 'ISO',
    shown: 'real clock',
    parse: parseNow,
    help: 'pin the clock (e.g. 2026-01-01T00:00:00Z); with the same seed, answers are byte-identical',
    inCode: { write: (v: string | number | Date) => (typeof v === 'string' ? v : isoTime(v)) },
  },
  servers: {
    type: 'integer',
    env: 'MOCK_SERVERS',
    value: 'N',
    default: 1000,
    min: 0,
    max: 5_000_000,
    help: 'how many servers to generate',
    inCode: true,
  },
  'clean-data': {
    type: 'boolean',
    env: 'MOCK_CLEAN_DATA',
    shown: 'off',
    help: 'generate complete rows, without the real-world nulls and odd values (see Real-world rows)',
    inCode: true,
  },
  'row-cache': {
    type: 'integer',
    env: 'MOCK_ROW_CACHE',
    value: 'MIB',
    key: 'rowCacheMiB',
    default: 64,
    min: 0,
    max: 65_536,
    help:
      'memory for serialised search rows and their index (8 bytes per server), in MiB; ' +
      'past it the oldest rows are dropped (0: none)',
    // A test's mock serves a small dataset, and a test file may make many: each allocates its
    // budget on its first search, so in code the default is what 1,000 servers need, with room.
    inCode: { default: 8, note: 'in code, 8 by default: room for the rows of a few thousand servers' },
  },
  'cache-dir': {
    type: 'custom',
    env: 'MOCK_CACHE_DIR',
    value: 'DIR|off',
    shown: '~/.cache/server-listing-mock',
    parse: (raw: string): string | null => (raw === 'off' ? null : raw),
    help:
      `keep big generated datasets here (over ${SNAPSHOT_ABOVE.toLocaleString('en-US')} servers), ` +
      'so the next start with the same flags loads instead of generating; off: never',
    inCode: { write: (v: string | null) => (v === null ? 'off' : String(v)), note: 'in code, null is off' },
  },
  data: {
    type: 'string',
    env: 'MOCK_DATA',
    value: 'FILE',
    help: 'serve this {"servers": [...]} file instead of generated servers',
    inCode: true,
  },
  latency: {
    type: 'custom',
    env: 'MOCK_LATENCY',
    value: 'MS|MIN-MAX',
    default: { min: 0, max: 0 },
    shown: '0',
    parse: parseLatency,
    help: 'delay every answer by MS, or a random MIN-MAX ms',
    inCode: {
      write: (v: number | { min: number; max: number }) =>
        typeof v === 'object' && v !== null ? `${v.min}-${v.max}` : String(v),
    },
  },
  'rate-limit': {
    type: 'boolean',
    env: 'MOCK_RATE_LIMIT',
    shown: 'off',
    help:
      'count requests and enforce the real rate limits (429 with Retry-After); ' +
      'off, the headers report each limit as all remaining',
    inCode: true,
  },
  'trust-proxy': {
    type: 'boolean',
    env: 'MOCK_TRUST_PROXY',
    shown: 'off',
    help:
      'behind a reverse proxy: count anonymous callers by the address it puts last in X-Forwarded-For, ' +
      'not by the socket',
  },
  'cors-origin': {
    type: 'custom',
    env: 'MOCK_CORS_ORIGIN',
    value: 'LIST',
    key: 'corsOrigins',
    default: CORS_ORIGINS,
    shown: CORS_ORIGINS.join(','),
    parse: (raw: string) => parseCorsOrigins(raw, CORS_ORIGINS),
    help: 'comma-separated allowed origins, * as wildcard; +X,+Y adds to the defaults, X,Y replaces them',
    inCode: { write: (v: string[]) => (Array.isArray(v) ? v.join(',') : String(v)) },
  },
  quiet: {
    type: 'boolean',
    env: 'MOCK_QUIET',
    shown: 'off',
    help: 'no banner details and no request log',
    // A test wants no log of its own requests; false logs one line per request, as the server does.
    inCode: { default: true, note: 'false logs one line per request, as the server does' },
  },
  journal: {
    type: 'integer',
    env: 'MOCK_JOURNAL',
    value: 'N',
    default: JOURNAL_SIZE,
    min: 0,
    max: 100_000,
    help: 'requests the journal keeps (GET /__mock/requests), the oldest dropped first; 0: none',
    inCode: true,
  },
  consumer: {
    type: 'custom',
    env: 'MOCK_CONSUMER',
    value: 'NAME',
    parse: parseConsumerName,
    help:
      'record a usage profile of what this consumer (web, an app) sends, from the mock start on: ' +
      'GET /__mock/usage, or --usage-out; reset keeps it (see Usage profiles)',
    inCode: { write: (v: string) => String(v) },
  },
  'usage-out': {
    type: 'string',
    env: 'MOCK_USAGE_OUT',
    value: 'FILE',
    help:
      "on exit, write --consumer's usage profile to FILE (merged with that consumer's profile already there) " +
      'for the diff: contract diff --usage FILE',
  },
  'self-check': {
    type: 'boolean',
    env: 'MOCK_SELF_CHECK',
    // Under vitest (or NODE_ENV=test) every answer is checked against the spec.
    default: process.env.VITEST !== undefined || process.env.NODE_ENV === 'test',
    shown: 'off; on under vitest or NODE_ENV=test',
    help: 'validate every answer against the spec; a drift answers 500 and is logged',
    inCode: true,
  },
  fixtures: {
    type: 'string',
    env: 'MOCK_FIXTURES',
    value: 'FILE',
    default: FIXTURES_PATH,
    shown: 'fixtures/auth.json',
    help: 'fixture credentials file',
    inCode: true,
  },
  spec: {
    type: 'string',
    env: 'MOCK_SPEC',
    value: 'FILE',
    shown: 'spec/openapi.yaml',
    help: 'serve another copy of the OpenAPI document',
    inCode: true,
  },
  watch: {
    type: 'boolean',
    env: 'MOCK_WATCH',
    shown: 'off',
    help:
      'reload the spec, --data and the fixtures when they change, on the same port; ' +
      'a broken edit keeps the last good version',
  },
  'outlive-parent': {
    type: 'boolean',
    env: 'MOCK_OUTLIVE_PARENT',
    shown: 'off',
    help:
      'keep serving after the process that started the mock (npx, npm, a script) has ended, ' +
      'as nohup or setsid mean to; off, the mock stops with it',
  },
  'allowed-host': {
    type: 'custom',
    env: 'MOCK_ALLOWED_HOST',
    value: 'LIST',
    key: 'allowedHosts',
    default: [] as string[],
    shown: 'loopback names, IP addresses, --host',
    parse: parseAllowedHosts,
    help:
      'more host names the mock answers (the Host header), comma-separated; ' +
      '.example.test allows it and its subdomains; * allows any (see Hosts)',
  },
  'max-connections': {
    type: 'integer',
    env: 'MOCK_MAX_CONNECTIONS',
    value: 'N',
    default: DEFAULT_MAX_CONNECTIONS,
    min: 1,
    max: 1_000_000,
    help: 'open connections at most (lowered to fit ulimit -n); past it a new one is answered 503 and closed',
  },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
  version: { type: 'boolean', help: 'print the version and exit' },
} as const satisfies FlagTable;

/** The app's settings (core/app.ts) and the Node adapter's: where to listen, what to serve. */
export type MockOptions = Omit<FlagValues<typeof FLAGS>, 'help' | 'version'>;

/** What the mock runs with when no flag or variable says otherwise. */
export const DEFAULT_OPTIONS: MockOptions = defaults();

function defaults(): MockOptions {
  const { help, version, ...options } = flagDefaults(FLAGS);
  return options;
}

/** The flag table of mocks/README.md (between its flags markers), rendered from FLAGS. */
export function flagsMarkdown(): string {
  return tableMarkdown(FLAGS);
}

/**
 * The module declaring createMock's options (create-mock-options.gen.ts), rendered from
 * FLAGS; `typeOf` gives each option's type as TypeScript writes it (scripts/flags-table.ts
 * asks the compiler).
 */
export function createMockOptionsSource(typeOf: (key: string) => string): string {
  return optionsInterface(FLAGS, {
    header:
      'Written by `npm run docs:flags` from the flags createMock takes (`inCode` in mocks/node/options.ts):\n' +
      'change that table, not this file.',
    name: 'CreateMockFlags',
    doc:
      "The mock's settings that mean something without a socket: the server's flags of the same names " +
      '(see `server-listing-mock --help`).',
    typeOf,
  });
}

/** A misuse of the mock's flags or variables: it exits 2 with the message. */
export const OptionsError = FlagError;

export function helpText(): string {
  return [
    'Usage: npm run mock -- [options]   (installed from the package: server-listing-mock [options])',
    '',
    'Options (each also an environment variable):',
    ...helpLines(FLAGS),
  ].join('\n');
}

function parseNow(raw: string): number {
  const t = Date.parse(raw);
  if (Number.isNaN(t)) throw new Error(`must be an ISO 8601 time, got '${raw}'`);
  return t;
}

/** A time in code as `--now` reads it (an invalid one as it is, for `--now` to refuse). */
function isoTime(v: number | Date): string {
  const t = new Date(v);
  return Number.isNaN(t.getTime()) ? String(v) : t.toISOString();
}

export function parseLatency(raw: string): { min: number; max: number } {
  const m = /^(\d+)(?:-(\d+))?$/.exec(raw.trim());
  const min = m ? Number(m[1]) : NaN;
  const max = m?.[2] !== undefined ? Number(m[2]) : min;
  if (!m || min > max || max > 60_000) throw new Error(`must be MS or MIN-MAX with MIN <= MAX <= 60000, got '${raw}'`);
  return { min, max };
}

/** Flags win over environment variables, which win over defaults. */
export function parseOptions(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): MockOptions & { help: boolean; version: boolean } {
  const values = parseFlags(FLAGS, argv, env).values;
  if (values.usageOut !== undefined && values.consumer === undefined)
    throw new FlagError('--usage-out needs --consumer NAME: who the usage profile is of (e.g. --consumer web)');
  return values;
}
