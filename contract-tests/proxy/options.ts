// The proxy's command line: one flag table (cli/flags.ts reads it, as every program of
// the repository does) drives parsing, the environment fallbacks and `--help`.
import { FlagError, helpLines, parseFlags, type FlagTable, type FlagValues } from '../../cli/flags.ts';
import { LEVELS, type Provenance } from '../../spec/provenance.ts';
import { DEFAULT_MAX_BODY } from './proxy.ts';

export const DEFAULT_PORT = 4020;

export const FLAGS = {
  upstream: {
    type: 'string',
    env: 'PROXY_UPSTREAM',
    value: '<url>',
    help: "the API's base URL, /api/v0.1 included (as the suite's --base-url), e.g. https://staging.example.com/api/v0.1",
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
  provenance: {
    type: 'string',
    value: '<level>',
    choices: LEVELS,
    default: 'assumed',
    help: 'interface | observed | assumed: judge only what the spec marks this level or harder; a violation at it fails the exit code',
  },
  record: {
    type: 'string',
    value: '<file>',
    help: "write what the public operations answered to <file> on exit, as a dataset for the mock's --data",
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
  help: { type: 'boolean', short: 'h', help: 'show this help' },
  version: { type: 'boolean', help: 'print the version and exit' },
} as const satisfies FlagTable;

export type ProxyCliOptions = FlagValues<typeof FLAGS> & { provenance: Provenance; upstream: string };

/** Reads the command line; a misuse throws FlagError (exit 2). */
export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ProxyCliOptions {
  const values = parseFlags(FLAGS, argv, env).values;
  if (values.help || values.version) return values as ProxyCliOptions;
  if (!values.upstream)
    throw new FlagError(
      "no upstream: pass --upstream <url> (the API's base URL, e.g. https://staging.example.com/api/v0.1)",
    );
  let url: URL;
  try {
    url = new URL(values.upstream);
  } catch {
    throw new FlagError(
      `--upstream '${values.upstream}' is not a URL (expected e.g. https://staging.example.com/api/v0.1)`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new FlagError(`--upstream must be http(s), got '${values.upstream}'`);
  if (url.username || url.password)
    throw new FlagError('--upstream must not carry credentials: the proxy forwards the ones each request brings');
  return { ...values, upstream: url.toString().replace(/\/+$/, '') } as ProxyCliOptions;
}

export const USAGE = [
  'Usage: server-listing-proxy --upstream <url> [options]',
  '   (in a clone: npm run proxy -- --upstream <url> [options])',
  '',
  'A validation proxy: serves the API on its own port, forwards every request to the',
  'upstream and every answer back unchanged, and judges each exchange against the spec',
  "(spec/openapi.yaml) with the contract suite's checks. Each new violation is logged once,",
  'with its level and a curl line that repeats it; GET /__proxy/report gives the report so',
  "far. On Ctrl-C or SIGTERM it writes the reports (and --record's dataset) and exits.",
  '',
  ...helpLines(FLAGS, 24),
  '',
  'Exit: 0 no violation at --provenance, 1 a violation, 2 nothing was judged (no answer came',
  'through) or the proxy could not start (bad flags, the port in use).',
].join('\n');
