// The mock's settings: one table drives the command-line flags, their environment
// variables and `--help`, so a flag is declared exactly once.
import { parseArgs } from 'node:util';
import { FIXTURES_PATH } from '../fixtures/load.ts';

export interface MockOptions {
  port: number;
  host: string;
  seed: number;
  /** Pinned clock (ms since epoch); undefined means the real clock. */
  now?: number;
  servers: number;
  data?: string;
  latency: { min: number; max: number };
  rateLimit: boolean;
  /** Allowed CORS origins; `*` in an entry matches any run of characters. */
  corsOrigins: string[];
  quiet: boolean;
  /** Validate every answer against the spec and fail loudly on drift. */
  selfCheck: boolean;
  fixtures: string;
}

export const DEFAULT_OPTIONS: MockOptions = {
  port: 4010,
  host: '127.0.0.1',
  seed: 1337,
  servers: 1000,
  latency: { min: 0, max: 0 },
  rateLimit: false,
  corsOrigins: ['http://localhost:*', 'http://127.0.0.1:*'],
  quiet: false,
  // Under vitest (or NODE_ENV=test) every answer is checked against the spec.
  selfCheck: process.env.VITEST !== undefined || process.env.NODE_ENV === 'test',
  fixtures: FIXTURES_PATH,
};

interface Flag {
  env: string;
  type: 'string' | 'boolean';
  value?: string;
  help: string;
}

const FLAGS: Record<string, Flag> = {
  port: { env: 'MOCK_PORT', type: 'string', value: 'N', help: 'port to listen on; 0 picks a free one (default 4010)' },
  host: { env: 'MOCK_HOST', type: 'string', value: 'HOST', help: 'address to listen on (default 127.0.0.1)' },
  seed: { env: 'MOCK_SEED', type: 'string', value: 'N', help: 'dataset seed; the same seed gives the same servers (default 1337)' },
  now: { env: 'MOCK_NOW', type: 'string', value: 'ISO', help: 'pin the clock (e.g. 2026-01-01T00:00:00Z) for byte-identical answers' },
  servers: { env: 'MOCK_SERVERS', type: 'string', value: 'N', help: 'how many servers to generate (default 1000)' },
  data: { env: 'MOCK_DATA', type: 'string', value: 'FILE', help: 'serve this {"servers": [...]} file instead of generated servers' },
  latency: { env: 'MOCK_LATENCY', type: 'string', value: 'MS|MIN-MAX', help: 'delay every answer by MS, or a random MIN-MAX ms' },
  'rate-limit': { env: 'MOCK_RATE_LIMIT', type: 'boolean', help: 'enforce the real rate limits (429 with Retry-After)' },
  'cors-origin': { env: 'MOCK_CORS_ORIGIN', type: 'string', value: 'LIST', help: 'comma-separated allowed origins, * as wildcard (default http://localhost:*,http://127.0.0.1:*)' },
  quiet: { env: 'MOCK_QUIET', type: 'boolean', help: 'no banner details and no request log' },
  'self-check': { env: 'MOCK_SELF_CHECK', type: 'boolean', help: 'validate every answer against the spec; a drift answers 500 and is logged' },
  fixtures: { env: 'MOCK_FIXTURES', type: 'string', value: 'FILE', help: 'fixture credentials file (default fixtures/auth.json)' },
  help: { env: '', type: 'boolean', help: 'show this help' },
};

export class OptionsError extends Error {}

export function helpText(): string {
  const rows = Object.entries(FLAGS).map(([name, f]) => {
    const flag = `--${name}${f.value ? ` ${f.value}` : ''}`;
    return `  ${flag.padEnd(26)} ${f.help}${f.env ? ` [${f.env}]` : ''}`;
  });
  return ['Usage: npm run mock -- [options]', '', 'Options (each also an environment variable):', ...rows].join('\n');
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
  if (str('latency') !== undefined) opts.latency = parseLatency(str('latency')!);
  if (str('cors-origin') !== undefined) {
    opts.corsOrigins = str('cors-origin')!.split(',').map((s) => s.trim()).filter(Boolean);
  }
  if (str('fixtures') !== undefined) opts.fixtures = str('fixtures')!;
  opts.rateLimit = Boolean(get('rate-limit'));
  opts.quiet = Boolean(get('quiet'));
  opts.selfCheck = Boolean(get('self-check') ?? DEFAULT_OPTIONS.selfCheck);
  return opts;
}
