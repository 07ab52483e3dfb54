// The mock's settings: one table drives the command-line flags, their environment
// variables and `--help`, so a flag is declared exactly once.
import { FlagError, flagUsage, helpLines, parseFlags, shownDefault, type FlagTable } from '../../cli/flags.ts';
import { FIXTURES_PATH } from '../../fixtures/load.ts';
import type { AppOptions } from '../core/app.ts';
import { parseCorsOrigins } from '../core/cors/cors-policy.ts';
import { SNAPSHOT_ABOVE } from '../dataset/snapshot.ts';
import { parseAllowedHosts } from '../core/host-check/host-check.ts';
import { DEFAULT_MAX_CONNECTIONS } from './socket-limits.ts';

/** The app's settings (core/app.ts) and the Node adapter's: where to listen, what to serve. */
export interface MockOptions extends AppOptions {
  port: number;
  host: string;
  /** Pinned clock (ms since epoch); undefined means the real clock. */
  now?: number;
  servers: number;
  /** Generated rows complete, without the real-world gaps (mocks/dataset/real-world-gaps.ts). */
  cleanData: boolean;
  /** Budget of the cache of serialised search rows, in MiB (0: no cache). */
  rowCacheMiB: number;
  /** Where generated datasets are cached on disk (mocks/dataset/snapshot.ts); undefined: the user's cache directory; null: off. */
  cacheDir?: string | null;
  fixtures: string;
  /** Another copy of the spec to serve (default spec/openapi.yaml). */
  spec?: string;
  /** Reload the spec, --data and the fixtures when they change. */
  watch: boolean;
  /** Keep serving after the process that started the mock has ended (mocks/node/lifetime.ts). */
  outliveParent: boolean;
  /** Open connections at most (`--max-connections`; lowered to fit the open-files limit). */
  maxConnections: number;
}

export const DEFAULT_OPTIONS: MockOptions = {
  port: 4010,
  host: '127.0.0.1',
  seed: 1337,
  servers: 1000,
  cleanData: false,
  rowCacheMiB: 64,
  latency: { min: 0, max: 0 },
  rateLimit: false,
  trustProxy: false,
  corsOrigins: ['http://localhost:*', 'http://127.0.0.1:*'],
  quiet: false,
  // Under vitest (or NODE_ENV=test) every answer is checked against the spec.
  selfCheck: process.env.VITEST !== undefined || process.env.NODE_ENV === 'test',
  fixtures: FIXTURES_PATH,
  watch: false,
  outliveParent: false,
  maxConnections: DEFAULT_MAX_CONNECTIONS,
  allowedHosts: [],
};

// The one flag table: `parseOptions`, `--help` and the table in mocks/README.md
// (`npm run docs:flags`) all read it (cli/flags.ts reads it the way every program here does).
const FLAGS = {
  port: {
    type: 'integer',
    env: 'MOCK_PORT',
    value: 'N',
    default: DEFAULT_OPTIONS.port,
    min: 0,
    max: 65535,
    help: 'port to listen on; 0 picks a free one',
  },
  host: {
    type: 'string',
    env: 'MOCK_HOST',
    value: 'HOST',
    default: DEFAULT_OPTIONS.host,
    help: 'address to listen on',
  },
  seed: {
    type: 'integer',
    env: 'MOCK_SEED',
    value: 'N',
    default: DEFAULT_OPTIONS.seed,
    min: 0,
    max: 2 ** 32 - 1,
    help: 'dataset seed; the same seed gives the same servers',
  },
  now: {
    type: 'custom',
    env: 'MOCK_NOW',
    value: 'ISO',
    shown: 'real clock',
    parse: parseNow,
    help: 'pin the clock (e.g. 2026-01-01T00:00:00Z); with the same seed, answers are byte-identical',
  },
  servers: {
    type: 'integer',
    env: 'MOCK_SERVERS',
    value: 'N',
    default: DEFAULT_OPTIONS.servers,
    min: 0,
    max: 5_000_000,
    help: 'how many servers to generate',
  },
  'clean-data': {
    type: 'boolean',
    env: 'MOCK_CLEAN_DATA',
    shown: 'off',
    help: 'generate complete rows, without the real-world nulls and odd values (see Real-world rows)',
  },
  'row-cache': {
    type: 'integer',
    env: 'MOCK_ROW_CACHE',
    value: 'MIB',
    default: DEFAULT_OPTIONS.rowCacheMiB,
    min: 0,
    max: 65_536,
    help: 'memory for serialised search rows and their index (8 bytes per server), in MiB; past it the oldest rows are dropped (0: none)',
  },
  'cache-dir': {
    type: 'string',
    env: 'MOCK_CACHE_DIR',
    value: 'DIR|off',
    shown: '~/.cache/server-listing-mock',
    help: `keep big generated datasets here (over ${SNAPSHOT_ABOVE.toLocaleString('en-US')} servers), so the next start with the same flags loads instead of generating; off: never`,
  },
  data: {
    type: 'string',
    env: 'MOCK_DATA',
    value: 'FILE',
    help: 'serve this {"servers": [...]} file instead of generated servers',
  },
  latency: {
    type: 'custom',
    env: 'MOCK_LATENCY',
    value: 'MS|MIN-MAX',
    shown: String(DEFAULT_OPTIONS.latency.max),
    parse: parseLatency,
    help: 'delay every answer by MS, or a random MIN-MAX ms',
  },
  'rate-limit': {
    type: 'boolean',
    env: 'MOCK_RATE_LIMIT',
    shown: 'off',
    help: 'count requests and enforce the real rate limits (429 with Retry-After); off, the headers report each limit as all remaining',
  },
  'trust-proxy': {
    type: 'boolean',
    env: 'MOCK_TRUST_PROXY',
    shown: 'off',
    help: 'behind a reverse proxy: count anonymous callers by the address it puts last in X-Forwarded-For, not by the socket',
  },
  'cors-origin': {
    type: 'custom',
    env: 'MOCK_CORS_ORIGIN',
    value: 'LIST',
    shown: DEFAULT_OPTIONS.corsOrigins.join(','),
    parse: (raw: string) => parseCorsOrigins(raw, DEFAULT_OPTIONS.corsOrigins),
    help: 'comma-separated allowed origins, * as wildcard; +X,+Y adds to the defaults, X,Y replaces them',
  },
  quiet: { type: 'boolean', env: 'MOCK_QUIET', shown: 'off', help: 'no banner details and no request log' },
  'self-check': {
    type: 'boolean',
    env: 'MOCK_SELF_CHECK',
    shown: 'off; on under vitest or NODE_ENV=test',
    help: 'validate every answer against the spec; a drift answers 500 and is logged',
  },
  fixtures: {
    type: 'string',
    env: 'MOCK_FIXTURES',
    value: 'FILE',
    shown: 'fixtures/auth.json',
    help: 'fixture credentials file',
  },
  spec: {
    type: 'string',
    env: 'MOCK_SPEC',
    value: 'FILE',
    shown: 'spec/openapi.yaml',
    help: 'serve another copy of the OpenAPI document',
  },
  watch: {
    type: 'boolean',
    env: 'MOCK_WATCH',
    shown: 'off',
    help: 'reload the spec, --data and the fixtures when they change, on the same port; a broken edit keeps the last good version',
  },
  'outlive-parent': {
    type: 'boolean',
    env: 'MOCK_OUTLIVE_PARENT',
    shown: 'off',
    help: 'keep serving after the process that started the mock (npx, npm, a script) has ended, as nohup or setsid mean to; off, the mock stops with it',
  },
  'allowed-host': {
    type: 'custom',
    env: 'MOCK_ALLOWED_HOST',
    value: 'LIST',
    shown: 'loopback names, IP addresses, --host',
    parse: parseAllowedHosts,
    help: 'more host names the mock answers (the Host header), comma-separated; .example.test allows it and its subdomains; * allows any (see Hosts)',
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

/** The flag table of mocks/README.md (between its flags markers), rendered from FLAGS. */
export function flagsMarkdown(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const code = (text: string) => (text ? `\`${cell(text)}\`` : '');
  const rows = Object.entries(FLAGS as FlagTable)
    .filter(([name]) => name !== 'help' && name !== 'version')
    .map(([name, f]) => {
      const fallback = shownDefault(f);
      // A default without spaces is a literal value (`4010`, a path, origins with `*`): set as code.
      const shown =
        fallback === undefined ? '' : f.type !== 'boolean' && !fallback.includes(' ') ? code(fallback) : cell(fallback);
      return `| ${code(flagUsage(name, f))} | ${code(f.env ?? '')} | ${shown} | ${cell(f.help)} |`;
    });
  return ['| flag | env | default | what |', '|---|---|---|---|', ...rows].join('\n');
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
  const { values: v, from } = parseFlags(FLAGS, argv, env);
  const cacheDir = v['cache-dir'];
  return {
    ...DEFAULT_OPTIONS,
    help: v.help,
    version: v.version,
    port: v.port,
    host: v.host,
    seed: v.seed,
    servers: v.servers,
    ...(v.now !== undefined ? { now: v.now } : {}),
    ...(v.data !== undefined ? { data: v.data } : {}),
    ...(cacheDir !== undefined ? { cacheDir: cacheDir === 'off' ? null : cacheDir } : {}),
    rowCacheMiB: v['row-cache'],
    latency: v.latency ?? DEFAULT_OPTIONS.latency,
    corsOrigins: v['cors-origin'] ?? DEFAULT_OPTIONS.corsOrigins,
    ...(v.fixtures !== undefined ? { fixtures: v.fixtures } : {}),
    ...(v.spec !== undefined ? { spec: v.spec } : {}),
    watch: v.watch,
    outliveParent: v['outlive-parent'],
    maxConnections: v['max-connections'],
    allowedHosts: v['allowed-host'] ?? DEFAULT_OPTIONS.allowedHosts,
    rateLimit: v['rate-limit'],
    cleanData: v['clean-data'],
    trustProxy: v['trust-proxy'],
    quiet: v.quiet,
    selfCheck: from['self-check'] === 'default' ? DEFAULT_OPTIONS.selfCheck : v['self-check'],
  };
}
