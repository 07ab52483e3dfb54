// The proxy's command line: each flag declared once, in FLAGS (cli/flags.ts reads it, as
// every program of the repository does), which drives parsing, the environment fallbacks,
// `--help` and the typed options (ProxyCliOptions, each read by its key: `--max-body` is
// `maxBody`). How a flag is added: decision 0034.
import { parseAllowedHosts } from '../../cli/allowed-hosts.ts';
import { FlagError, helpLines, parseFlags, type FlagTable, type FlagValues } from '../../cli/flags.ts';
import { LEVELS } from '../../spec/provenance.ts';
import { parseConsumerName } from '../../spec/usage-file.ts';
import { DEFAULT_UPSTREAM_TIMEOUT_MS } from './forward.ts';
import { DEFAULT_MAX_BODY } from './proxy.ts';

export const DEFAULT_PORT = 4020;

const EXAMPLE_UPSTREAM = 'https://staging.example.com/api/v0.1';

export const FLAGS = {
  upstream: {
    type: 'custom',
    env: 'PROXY_UPSTREAM',
    value: '<url>',
    parse: parseUpstream,
    help: `the API's base URL, /api/v0.1 included (as the suite's --base-url), e.g. ${EXAMPLE_UPSTREAM}`,
  },
  port: {
    type: 'integer',
    env: 'PROXY_PORT',
    value: '<n>',
    default: DEFAULT_PORT,
    min: 0,
    max: 65535,
    help: "the port to listen on (0: a free one); the API is served under the spec's path, /api/v0.1",
  },
  host: { type: 'string', value: '<address>', default: '127.0.0.1', help: 'the address to listen on' },
  'allowed-host': {
    type: 'custom',
    env: 'PROXY_ALLOWED_HOST',
    value: '<list>',
    key: 'allowedHosts',
    default: [] as string[],
    shown: 'loopback names, IP addresses, --host',
    parse: parseAllowedHosts,
    help:
      "more host names the proxy answers (the Host header), comma-separated, as the mock's; " +
      '.example.test allows it and its subdomains; * allows any',
  },
  provenance: {
    type: 'string',
    value: '<level>',
    choices: LEVELS,
    default: 'assumed',
    help:
      'interface | observed | assumed: judge only what the spec marks this level or harder; ' +
      'a violation at it fails the exit code',
  },
  record: {
    type: 'string',
    value: '<file>',
    help: "write what the public operations answered to <file> on exit, as a dataset for the mock's --data",
  },
  consumer: {
    type: 'custom',
    env: 'PROXY_CONSUMER',
    value: '<name>',
    parse: parseConsumerName,
    help:
      "record a usage profile of what this consumer (web, an app) sends, as the mock's --consumer: " +
      'GET /__proxy/usage, or --usage-out',
  },
  'usage-out': {
    type: 'string',
    env: 'PROXY_USAGE_OUT',
    value: '<file>',
    help:
      "on exit, write --consumer's usage profile to <file> (merged with that consumer's profile already there) " +
      'for contract diff --usage',
  },
  reports: {
    type: 'string',
    value: '<dir>',
    shown: './reports',
    help: 'where the reports go on exit: proxy-report.json, proxy-junit.xml, proxy-summary.md, proxy-report.html',
  },
  'max-body': {
    type: 'integer',
    value: '<bytes>',
    default: DEFAULT_MAX_BODY,
    min: 1024,
    max: 2 ** 30,
    help: 'answers up to this size are judged; larger ones are forwarded and counted as not judged',
  },
  'upstream-timeout': {
    type: 'integer',
    value: '<ms>',
    key: 'upstreamTimeoutMs',
    default: DEFAULT_UPSTREAM_TIMEOUT_MS,
    min: 100,
    max: 3_600_000,
    help:
      "how long the upstream's headers, or the next bytes of its body, may take; " +
      'past it the client gets 504 (or its connection closed) and the answer is judged as none',
  },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
  version: { type: 'boolean', help: 'print the version and exit' },
} as const satisfies FlagTable;

/** The upstream, without a trailing slash; it must be an http(s) URL without credentials. */
function parseUpstream(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`'${raw}' is not a URL (expected e.g. ${EXAMPLE_UPSTREAM})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`must be http(s), got '${raw}'`);
  if (url.username || url.password)
    throw new Error('must not carry credentials: the proxy forwards the ones each request brings');
  return url.toString().replace(/\/+$/, '');
}

/** The options, an upstream always among them (but for --help and --version). */
export type ProxyCliOptions = FlagValues<typeof FLAGS> & { upstream: string };

/** Reads the command line; a misuse throws FlagError (exit 2). */
export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ProxyCliOptions {
  const values = parseFlags(FLAGS, argv, env).values;
  const { upstream } = values;
  if (values.usageOut !== undefined && values.consumer === undefined)
    throw new FlagError('--usage-out needs --consumer <name>: who the usage profile is of (e.g. --consumer web)');
  if (upstream !== undefined || values.help || values.version) return { ...values, upstream: upstream ?? '' };
  throw new FlagError(`no upstream: pass --upstream <url> (the API's base URL, e.g. ${EXAMPLE_UPSTREAM})`);
}

export const USAGE = [
  'Usage: server-listing-proxy --upstream <url> [options]',
  '   (in a clone: npm run proxy -- --upstream <url> [options])',
  '',
  'A validation proxy: serves the API on its own port, forwards every request to the',
  'upstream and every answer back unchanged, and judges each exchange against the spec',
  "(spec/openapi.yaml) with the contract suite's checks. Each new violation is logged once,",
  'with its level and a curl line that repeats it; GET /__proxy/report gives the report so',
  "far. On Ctrl-C or SIGTERM it writes the reports (--record's dataset, --usage-out's",
  'usage profile) and exits.',
  '',
  ...helpLines(FLAGS, 24),
  '',
  'Exit: 0 no violation at --provenance, 1 a violation, 2 nothing was judged (no answer came',
  'through) or the proxy could not start (bad flags, the port in use).',
].join('\n');
