// One run's settings: parsed once by the runner from flags and environment, handed to the
// Dredd hooks (a separate process) as JSON in CONTRACT_RUN.
import { isProvenance, type Provenance } from '../../spec/provenance.ts';

export interface Credentials {
  apiKey?: string;
  session?: string;
  forbiddenKey?: string;
  /** Where they came from, for the summary. */
  source: 'environment' | 'fixtures/auth.json' | 'none';
}

export interface RunConfig {
  baseUrl: string;
  only: string[];
  provenance: Provenance;
  allowWrites: boolean;
  /** Why writes are on or off, for the summary. */
  writesReason: string;
  credentials: Credentials;
  resultsFile: string;
  ledgerFile: string;
  /** Where the hooks write the run's figures (requests, waits, the sample) for the summary. */
  statsFile: string;
  runId: string;
  /** Requests the suite may send beyond Dredd's own (`--budget`). */
  budget: number;
  /** Wait on `X-RateLimit-Remaining: 0` as well as on 429 (`--pace off` turns the first off). */
  pace: boolean;
}

export interface CliOptions {
  baseUrl?: string;
  only: string[];
  provenance: Provenance;
  allowWrites: boolean;
  junit?: string;
  /** Where the reports go (default ./reports). */
  reports?: string;
  /** A skipped check fails the run (unless no setting could avoid it). */
  strict: boolean;
  startMock: boolean;
  verbose: boolean;
  help: boolean;
  budget: number;
  pace?: boolean;
}

export const DEFAULT_BUDGET = 400;

export class UsageError extends Error {}

export function parseArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): CliOptions {
  const out: CliOptions = {
    baseUrl: env.CONTRACT_BASE_URL || undefined,
    only: [],
    provenance: 'assumed',
    allowWrites: env.CONTRACT_ALLOW_WRITES === '1' || env.CONTRACT_ALLOW_WRITES === 'true',
    startMock: false,
    strict: false,
    verbose: false,
    help: false,
    budget: DEFAULT_BUDGET,
  };
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i] ?? '';
    const [flag, inline] = raw.startsWith('--') && raw.includes('=') ? [raw.slice(0, raw.indexOf('=')), raw.slice(raw.indexOf('=') + 1)] : [raw, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--base-url': out.baseUrl = value(); break;
      case '--only': out.only.push(...value().split(',').map((s) => s.trim()).filter(Boolean)); break;
      case '--provenance': {
        const v = value();
        if (!isProvenance(v)) throw new UsageError(`--provenance must be interface, observed or assumed, got '${v}'`);
        out.provenance = v;
        break;
      }
      case '--allow-writes': out.allowWrites = true; break;
      case '--junit': out.junit = value(); break;
      case '--reports': out.reports = value(); break;
      case '--strict': out.strict = true; break;
      case '--start-mock': out.startMock = true; break;
      case '--verbose': out.verbose = true; break;
      case '--budget': {
        const v = value();
        if (!/^\d+$/.test(v)) throw new UsageError(`--budget must be a whole number of requests, got '${v}'`);
        out.budget = Number(v);
        break;
      }
      case '--pace': {
        const v = value();
        if (v !== 'on' && v !== 'off') throw new UsageError(`--pace must be on or off, got '${v}'`);
        out.pace = v === 'on';
        break;
      }
      case '--help': case '-h': out.help = true; break;
      default: throw new UsageError(`unknown argument '${raw}'`);
    }
  }
  return out;
}

/**
 * Where the reports go, read leniently from the raw arguments: even a run refused for a
 * bad flag replaces the last run's reports with its own.
 */
export function reportFlags(argv: string[]): { reports?: string; junit?: string } {
  const out: { reports?: string; junit?: string } = {};
  argv.forEach((arg, i) => {
    for (const flag of ['reports', 'junit'] as const) {
      if (arg === `--${flag}` && argv[i + 1] && !argv[i + 1]!.startsWith('--')) out[flag] = argv[i + 1];
      else if (arg.startsWith(`--${flag}=`)) out[flag] = arg.slice(flag.length + 3);
    }
  });
  return out;
}

export function normaliseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--base-url '${raw}' is not a URL (expected e.g. http://127.0.0.1:4010/api/v0.1)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--base-url must be http(s), got '${raw}'`);
  return url.toString().replace(/\/+$/, '');
}

export const USAGE = `Usage: server-listing-contract --base-url <url> [options]
   (in a clone: npm run contract -- --base-url <url> [options])

Replays the spec (spec/openapi.yaml) against an implementation with Dredd plus the
suite's hooks. Before any check, a pre-flight makes sure the target answers at that
base URL and asks whether it is this project's mock (GET /__mock/info).

  --base-url <url>        API base, e.g. http://127.0.0.1:4010/api/v0.1 (or CONTRACT_BASE_URL)
  --start-mock            start the local mock on a free port and test it
  --only <operationId>    run only these operations (repeat or comma-separate)
  --provenance <level>    interface | observed | assumed (default): check only what the spec
                          marks this level or harder; 'interface' = the hard promises alone
  --allow-writes          create and revoke API keys on a target that is not the mock
                          (always on for the mock); everything created is removed again
  --budget <n>            requests the suite may send beyond Dredd's own (default ${DEFAULT_BUDGET}):
                          how deep it samples; checks past the budget are skipped, named
  --pace on|off           on (default): wait when the target says X-RateLimit-Remaining: 0,
                          until its X-RateLimit-Reset; off: wait only on a 429's Retry-After
                          (for a target that reports limits it does not enforce;
                          --start-mock implies off)
  --strict                a skipped check fails the run (except the few no setting can
                          avoid, such as provoking a 500)
  --reports <dir>         where the reports go (default ./reports): contract-junit.xml,
                          contract-report.html, contract-summary.md, contract-dredd.log
  --junit <path>          the JUnit XML elsewhere (default <reports>/contract-junit.xml)
  --verbose               also print Dredd's own log (secrets masked)

Environment: CONTRACT_API_KEY, CONTRACT_SESSION_COOKIE, CONTRACT_FORBIDDEN_API_KEY (a valid key
of a user without the API-key permission). Against a target that identifies as the mock
with none set, the fixture credentials from fixtures/auth.json are used.

Exit: 0 all checks passed, 1 a check failed (or, with --strict, was skipped), 2 nothing
was checked: the target could not be reached or tested, or the flags were wrong. Every
run writes its reports, exit 2 included.`;
