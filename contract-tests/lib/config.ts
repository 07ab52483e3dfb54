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

/** 127.0.0.0/8, ::1 and localhost: a target on this machine, where writes are safe. */
export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
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

export const USAGE = `Usage: npm run contract -- --base-url <url> [options]

Replays spec/openapi.yaml against an implementation with Dredd plus the suite's hooks.

  --base-url <url>        API base, e.g. http://127.0.0.1:4010/api/v0.1 (or CONTRACT_BASE_URL)
  --start-mock            start the local mock on a free port and test it
  --only <operationId>    run only these operations (repeat or comma-separate)
  --provenance <level>    interface | observed | assumed (default): check only what the spec
                          marks this level or harder; 'interface' = the hard promises alone
  --allow-writes          create and revoke API keys on a non-loopback target (always on
                          for 127.0.0.1/localhost); everything created is removed again
  --budget <n>            requests the suite may send beyond Dredd's own (default ${DEFAULT_BUDGET}):
                          how deep it samples; checks past the budget are skipped, named
  --pace on|off           on (default): wait when the target says X-RateLimit-Remaining: 0,
                          until its X-RateLimit-Reset; off: wait only on a 429's Retry-After
                          (for a target that reports limits it does not enforce;
                          --start-mock implies off)
  --junit <path>          JUnit XML path (default reports/contract-junit.xml)
  --verbose               also print Dredd's own log (secrets masked)

Environment: CONTRACT_API_KEY, CONTRACT_SESSION_COOKIE, CONTRACT_FORBIDDEN_API_KEY (a valid key
of a user without the API-key permission). Against a loopback target with none set, the
fixture credentials from fixtures/auth.json are used.

Exit: 0 all checks passed, 1 a check failed, 2 unreachable target or refused to run.`;
