// The mock's settings: one table drives the command-line flags, their environment
// variables and `--help`, so a flag is declared exactly once.
import { parseArgs } from 'node:util';
import { FIXTURES_PATH } from '../fixtures/load.ts';
import { parseCorsOrigins } from './cors-policy.ts';
import { SNAPSHOT_ABOVE } from './snapshot.ts';

export interface MockOptions {
  port: number;
  host: string;
  seed: number;
  /** Pinned clock (ms since epoch); undefined means the real clock. */
  now?: number;
  servers: number;
  /** Generated rows complete, without the real-world gaps (mocks/real-world.ts). */
  cleanData: boolean;
  data?: string;
  /** Budget of the cache of serialised search rows, in MiB (0: no cache). */
  rowCacheMiB: number;
  /** Where generated datasets are cached on disk (mocks/snapshot.ts); undefined: the user's cache directory; null: off. */
  cacheDir?: string | null;
  latency: { min: number; max: number };
  rateLimit: boolean;
  /** Count anonymous callers by the last X-Forwarded-For address (behind a reverse proxy), not the socket's peer. */
  trustProxy: boolean;
  /** Allowed CORS origins; `*` in an entry matches any run of characters except `/`. */
  corsOrigins: string[];
  quiet: boolean;
  /** Validate every answer against the spec and fail loudly on drift. */
  selfCheck: boolean;
  fixtures: string;
  /** Another copy of the spec to serve (default spec/openapi.yaml). */
  spec?: string;
  /** Reload the spec, --data and the fixtures when they change. */
  watch: boolean;
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
};

interface Flag {
  env: string;
  type: 'string' | 'boolean';
  /** The value's placeholder in `--help` and the README (`--port N`). */
  value?: string;
  /** The default as people read it; derived from DEFAULT_OPTIONS where it can be. */
  default?: string;
  help: string;
}

// The one flag table: `parseOptions`, `--help` and the table in mocks/README.md
// (`npm run docs:flags`) all read it.
const FLAGS: Record<string, Flag> = {
  port: { env: 'MOCK_PORT', type: 'string', value: 'N', default: String(DEFAULT_OPTIONS.port), help: 'port to listen on; 0 picks a free one' },
  host: { env: 'MOCK_HOST', type: 'string', value: 'HOST', default: DEFAULT_OPTIONS.host, help: 'address to listen on' },
  seed: { env: 'MOCK_SEED', type: 'string', value: 'N', default: String(DEFAULT_OPTIONS.seed), help: 'dataset seed; the same seed gives the same servers' },
  now: { env: 'MOCK_NOW', type: 'string', value: 'ISO', default: 'real clock', help: 'pin the clock (e.g. 2026-01-01T00:00:00Z); with the same seed, answers are byte-identical' },
  servers: { env: 'MOCK_SERVERS', type: 'string', value: 'N', default: String(DEFAULT_OPTIONS.servers), help: 'how many servers to generate' },
  'clean-data': { env: 'MOCK_CLEAN_DATA', type: 'boolean', default: 'off', help: 'generate complete rows, without the real-world nulls and odd values (see Real-world rows)' },
  'row-cache': { env: 'MOCK_ROW_CACHE', type: 'string', value: 'MIB', default: String(DEFAULT_OPTIONS.rowCacheMiB), help: 'memory for serialised search rows and their index (8 bytes per server), in MiB; past it the oldest rows are dropped (0: none)' },
  'cache-dir': { env: 'MOCK_CACHE_DIR', type: 'string', value: 'DIR|off', default: '~/.cache/server-listing-mock', help: `keep big generated datasets here (over ${SNAPSHOT_ABOVE.toLocaleString('en-US')} servers), so the next start with the same flags loads instead of generating; off: never` },
  data: { env: 'MOCK_DATA', type: 'string', value: 'FILE', help: 'serve this {"servers": [...]} file instead of generated servers' },
  latency: { env: 'MOCK_LATENCY', type: 'string', value: 'MS|MIN-MAX', default: String(DEFAULT_OPTIONS.latency.max), help: 'delay every answer by MS, or a random MIN-MAX ms' },
  'rate-limit': { env: 'MOCK_RATE_LIMIT', type: 'boolean', default: 'off', help: 'enforce the real rate limits (429 with Retry-After); off, the headers are still sent' },
  'trust-proxy': { env: 'MOCK_TRUST_PROXY', type: 'boolean', default: 'off', help: 'behind a reverse proxy: count anonymous callers by the address it puts last in X-Forwarded-For, not by the socket' },
  'cors-origin': { env: 'MOCK_CORS_ORIGIN', type: 'string', value: 'LIST', default: DEFAULT_OPTIONS.corsOrigins.join(','), help: 'comma-separated allowed origins, * as wildcard; +X,+Y adds to the defaults, X,Y replaces them' },
  quiet: { env: 'MOCK_QUIET', type: 'boolean', default: 'off', help: 'no banner details and no request log' },
  'self-check': { env: 'MOCK_SELF_CHECK', type: 'boolean', default: 'off; on under vitest or NODE_ENV=test', help: 'validate every answer against the spec; a drift answers 500 and is logged' },
  fixtures: { env: 'MOCK_FIXTURES', type: 'string', value: 'FILE', default: 'fixtures/auth.json', help: 'fixture credentials file' },
  spec: { env: 'MOCK_SPEC', type: 'string', value: 'FILE', default: 'spec/openapi.yaml', help: 'serve another copy of the OpenAPI document' },
  watch: { env: 'MOCK_WATCH', type: 'boolean', default: 'off', help: 'reload the spec, --data and the fixtures when they change, on the same port; a broken edit keeps the last good version' },
  help: { env: '', type: 'boolean', help: 'show this help' },
};

const flagName = (name: string, f: Flag) => `--${name}${f.value ? ` ${f.value}` : ''}`;

/** The flag table of mocks/README.md (between its flags markers), rendered from FLAGS. */
export function flagsMarkdown(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const code = (text: string) => (text ? `\`${cell(text)}\`` : '');
  // A default without spaces is a literal value (`4010`, a path, origins with `*`): set as code.
  const fallback = (f: Flag) => (f.default === undefined ? '' : f.type === 'string' && !f.default.includes(' ') ? code(f.default) : cell(f.default));
  const rows = Object.entries(FLAGS)
    .filter(([name]) => name !== 'help')
    .map(([name, f]) => `| ${code(flagName(name, f))} | ${code(f.env)} | ${fallback(f)} | ${cell(f.help)} |`);
  return ['| flag | env | default | what |', '|---|---|---|---|', ...rows].join('\n');
}

export class OptionsError extends Error {}

export function helpText(): string {
  const rows = Object.entries(FLAGS).map(([name, f]) => {
    const fallback = f.default !== undefined && f.default !== 'off' ? ` (default ${f.default})` : '';
    return `  ${flagName(name, f).padEnd(26)} ${f.help}${fallback}${f.env ? ` [${f.env}]` : ''}`;
  });
  return ['Usage: npm run mock -- [options]   (installed from the package: server-listing-mock [options])', '', 'Options (each also an environment variable):', ...rows].join('\n');
}

function integer(name: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new OptionsError(`--${name} must be an integer from ${min} to ${max}, got '${raw}'`);
  }
  return Number(raw);
}

export function parseLatency(raw: string): { min: number; max: number } {
  const m = /^(\d+)(?:-(\d+))?$/.exec(raw.trim());
  const min = m ? Number(m[1]) : NaN;
  const max = m?.[2] !== undefined ? Number(m[2]) : min;
  if (!m || min > max || max > 60_000) throw new OptionsError(`--latency must be MS or MIN-MAX with MIN <= MAX <= 60000, got '${raw}'`);
  return { min, max };
}

/** Flags win over environment variables, which win over defaults. */
export function parseOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): MockOptions & { help: boolean } {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: argv,
      options: Object.fromEntries(Object.entries(FLAGS).map(([k, f]) => [k, { type: f.type }])),
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    throw new OptionsError(`${(err as Error).message} (see --help)`);
  }
  const get = (name: string): string | boolean | undefined => {
    if (values[name] !== undefined) return values[name];
    const fromEnv = env[FLAGS[name]!.env];
    if (fromEnv === undefined || fromEnv === '') return undefined;
    return FLAGS[name]!.type === 'boolean' ? !['0', 'false', 'no', 'off'].includes(fromEnv.toLowerCase()) : fromEnv;
  };
  const str = (name: string) => get(name) as string | undefined;
  const opts: MockOptions & { help: boolean } = { ...DEFAULT_OPTIONS, help: Boolean(values.help) };
  if (str('port') !== undefined) opts.port = integer('port', str('port')!, 0, 65535);
  if (str('host') !== undefined) opts.host = str('host')!;
  if (str('seed') !== undefined) opts.seed = integer('seed', str('seed')!, 0, 2 ** 32 - 1);
  if (str('servers') !== undefined) opts.servers = integer('servers', str('servers')!, 0, 5_000_000);
  if (str('now') !== undefined) {
    const t = Date.parse(str('now')!);
    if (Number.isNaN(t)) throw new OptionsError(`--now must be an ISO 8601 time, got '${str('now')}'`);
    opts.now = t;
  }
  if (str('data') !== undefined) opts.data = str('data');
  if (str('cache-dir') !== undefined) opts.cacheDir = str('cache-dir') === 'off' ? null : str('cache-dir')!;
  if (str('row-cache') !== undefined) opts.rowCacheMiB = integer('row-cache', str('row-cache')!, 0, 65_536);
  if (str('latency') !== undefined) opts.latency = parseLatency(str('latency')!);
  if (str('cors-origin') !== undefined) {
    try {
      opts.corsOrigins = parseCorsOrigins(str('cors-origin')!, DEFAULT_OPTIONS.corsOrigins);
    } catch (err) {
      throw new OptionsError((err as Error).message);
    }
  }
  if (str('fixtures') !== undefined) opts.fixtures = str('fixtures')!;
  if (str('spec') !== undefined) opts.spec = str('spec')!;
  opts.watch = Boolean(get('watch'));
  opts.rateLimit = Boolean(get('rate-limit'));
  opts.cleanData = Boolean(get('clean-data'));
  opts.trustProxy = Boolean(get('trust-proxy'));
  opts.quiet = Boolean(get('quiet'));
  opts.selfCheck = Boolean(get('self-check') ?? DEFAULT_OPTIONS.selfCheck);
  return opts;
}
