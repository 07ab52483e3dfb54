// The suite's command line: each flag declared once, in FLAGS (cli/flags.ts reads it, as
// every program of the repository does), which drives parsing, the environment fallbacks,
// `--help` and the typed options (CliOptions, each read by its key: `--base-url` is
// `baseUrl`). How a flag is added: decision 0034.
import { FlagError, helpLines, parseFlags, type FlagTable, type FlagValues } from '../../cli/flags.ts';
import { LEVELS } from '../../spec/provenance.ts';

/** The generated requests' seed when none is given: a gate sends the same requests on every run. */
export const DEFAULT_SEED = 1;

export const DEFAULT_BUDGET = 500;

export const FLAGS = {
  'base-url': {
    type: 'string',
    env: 'CONTRACT_BASE_URL',
    value: '<url>',
    help: 'API base, e.g. http://127.0.0.1:4010/api/v0.1',
  },
  'start-mock': { type: 'boolean', help: 'start the local mock on a free port and test it' },
  spec: {
    type: 'string',
    env: 'CONTRACT_SPEC',
    value: '<file>',
    shown: 'spec/openapi.yaml',
    help: 'replay another copy of the OpenAPI document',
  },
  only: { type: 'list', value: '<operationId>', help: 'run only these operations (repeat or comma-separate)' },
  provenance: {
    type: 'string',
    value: '<level>',
    choices: LEVELS,
    default: 'assumed',
    help:
      'interface | observed | assumed: check only what the spec marks this level or harder; ' +
      "'interface' = the hard promises alone",
  },
  'allow-writes': {
    type: 'boolean',
    env: 'CONTRACT_ALLOW_WRITES',
    help:
      'create and revoke API keys on a target that is not the mock (always on for the mock); ' +
      'everything created is removed again',
  },
  budget: {
    type: 'integer',
    value: '<n>',
    default: DEFAULT_BUDGET,
    min: 0,
    max: 1_000_000,
    help:
      "requests the suite may send beyond Dredd's own: how deep it samples; " +
      'checks past the budget are skipped, named',
  },
  pace: {
    type: 'string',
    value: 'on|off',
    choices: ['on', 'off'],
    shown: 'on; off with --start-mock',
    help:
      'on: wait when the target says X-RateLimit-Remaining: 0, until its X-RateLimit-Reset; ' +
      'off: wait only on a 429 (for a target that reports limits it does not enforce)',
  },
  dredd: {
    type: 'string',
    value: 'on|off',
    choices: ['on', 'off'],
    default: 'on',
    help:
      "on: replay each operation's documented success with Dredd first " +
      '(from the package: needs dredd installed beside it, an optional peer dependency); ' +
      'off: skip that phase, every other check unchanged',
  },
  strict: {
    type: 'boolean',
    help: 'a skipped check fails the run (except the few no setting can avoid, such as provoking a 500)',
  },
  reports: {
    type: 'string',
    value: '<dir>',
    shown: './reports',
    help:
      'where the reports go: contract-report.json, contract-junit.xml, contract-report.html, ' +
      'contract-summary.md, contract-dredd.log',
  },
  junit: { type: 'string', value: '<path>', shown: '<reports>/contract-junit.xml', help: 'the JUnit XML elsewhere' },
  seed: {
    type: 'integer',
    value: '<n>',
    default: DEFAULT_SEED,
    min: 1,
    max: 2 ** 31 - 1,
    env: 'CONTRACT_SEED',
    help: 'the seed of the generated requests: the same seed sends the same ones (pass another to explore further)',
  },
  usage: {
    type: 'list',
    value: '<file>',
    help:
      'usage profiles (repeat or comma-separate): the report lists which operations and parameters they use the ' +
      'run checked against the target, and which it never did',
  },
  'require-usage': {
    type: 'boolean',
    help: 'with --usage: an operation or parameter a profile uses that the run never checked fails the run',
  },
  verbose: { type: 'boolean', help: "also print Dredd's own log (secrets masked)" },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
  version: { type: 'boolean', help: 'print the version and exit' },
} as const satisfies FlagTable;

export type CliOptions = FlagValues<typeof FLAGS>;

/** Reads the command line; a misuse throws FlagError (exit 2). */
export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): CliOptions {
  return parseFlags(FLAGS, argv, env).values;
}

/**
 * Where the reports go, read leniently from the raw arguments: even a run refused for a
 * bad flag replaces the last run's reports with its own.
 */
export function reportFlags(argv: readonly string[]): { reports?: string; junit?: string } {
  const out: { reports?: string; junit?: string } = {};
  argv.forEach((arg, i) => {
    for (const flag of ['reports', 'junit'] as const) {
      if (arg === `--${flag}` && argv[i + 1] && !argv[i + 1]!.startsWith('--')) out[flag] = argv[i + 1];
      else if (arg.startsWith(`--${flag}=`)) out[flag] = arg.slice(flag.length + 3);
    }
  });
  return out;
}

/** The target as given, for the report of a run that never got to one. */
export function givenTarget(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): string {
  const i = argv.indexOf('--base-url');
  const given = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith('--base-url='))?.slice('--base-url='.length);
  return (
    given ?? env.CONTRACT_BASE_URL ?? (argv.includes('--start-mock') ? 'the local mock (--start-mock)' : '(no target)')
  );
}

export function normaliseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FlagError(`--base-url '${raw}' is not a URL (expected e.g. http://127.0.0.1:4010/api/v0.1)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new FlagError(`--base-url must be http(s), got '${raw}'`);
  return url.toString().replace(/\/+$/, '');
}

export const USAGE = [
  'Usage: server-listing-contract --base-url <url> [options]',
  '   (in a clone: npm run contract -- --base-url <url> [options])',
  '       server-listing-contract diff --base <file|git ref>: what changed in the spec (diff --help)',
  '',
  'Replays the spec (spec/openapi.yaml) against an implementation: a pre-flight makes sure',
  "the target answers at that base URL and asks whether it is this project's mock",
  "(GET /__mock/info); Dredd replays each operation's documented success; the depth checks",
  'follow; everything the suite created is removed; the reports are written.',
  '',
  ...helpLines(FLAGS, 24),
  '',
  'Environment: CONTRACT_API_KEY, CONTRACT_SESSION_COOKIE, CONTRACT_FORBIDDEN_API_KEY (a valid key',
  'of a user without the API-key permission). Against a target that identifies as the mock',
  'with none set, the fixture credentials from fixtures/auth.json are used.',
  '',
  'Exit: 0 all checks passed, 1 a check failed (or, with --strict, was skipped) or the run was stopped, 2',
  'nothing was checked: the target could not be reached or tested, or the flags were wrong.',
  'Every run writes its reports, exit 2 included.',
].join('\n');
