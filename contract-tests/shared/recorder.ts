// Every check's result, as the families return them: masked on the way in, and one per
// check. A check that fails on several requests is one result listing them (the JUnit
// report has one test case per check), so a second result of the same check of the same
// operation joins the first.
import type { Finding } from '../../spec/judges/judge.ts';
import type { Provenance } from '../../spec/provenance.ts';
import type { OwnCredential } from './credentials.ts';
import { redact, redactKnown } from './mask.ts';

export type Status = 'pass' | 'fail' | 'skip';

/** What a failure may share with others of the same cause (reports/causes.ts groups by it). */
export interface Evidence {
  /** The status and media type that came back. */
  answer?: { status: number; type: string };
  /** The status the check expected. */
  expectedStatus?: number;
  /** The run's own credential the request carried. */
  credential?: OwnCredential;
  /** Body-schema errors with row indices taken out (`body.results.*.port must be integer`). */
  schemaErrors?: string[];
  /** The media type that came back where the spec promises JSON. */
  wrongType?: string;
  /** Declared headers some answers lacked; `every`: no answer of the operation carried them. */
  missingHeaders?: { names: string[]; every: boolean };
  /**
   * A 5xx answer's status and error, its details taken out (transport/http.ts
   * `signature`): the same crash met through several checks.
   */
  crash?: string;
  /**
   * What the failure says about the target, in words every check failing the same way shares (`=false` read as true).
   */
  finding?: string;
  /** The parameter or field of an operation the check's own assertion is about (`findServers limit`). */
  subject?: string;
  /** The other requests a verdict over many answers rests on (the hygiene check's leaking ones), as described. */
  requests?: string[];
  /** The judge of the first finding (spec/judges/registry.ts). */
  judge?: string;
  /** The first finding's defect, in the words every failure of it shares. */
  defect?: string;
  /** A secret that leaked: what and where (spec/judges/secret-leak.ts). */
  leak?: string;
}

export interface CheckResult {
  operationId: string;
  /** The group it belongs to, what its check name starts with (`auth`, `default`, `schema`, `Dredd`). */
  family?: string;
  /** The method of the operation (or of the request, for one no operation matches). */
  method?: string;
  /** The operation's path as the spec writes it (`/status/ping/{address}`). */
  route?: string;
  check: string;
  provenance: Provenance;
  status: Status;
  /** e.g. `GET /user/apikeys (Authorization: Bearer sls_live…9e1a)`. */
  request?: string;
  /** The request as a curl line, credentials as the variables they came from (`$CONTRACT_API_KEY`). */
  repro?: string;
  expected?: string;
  actual?: string;
  /** Why it failed or was skipped, naming the defect. */
  message?: string;
  /** How long its request took, when it made one. */
  ms?: number;
  /** A skip no setting of the suite can avoid (a 5xx cannot be provoked): `--strict` lets it pass. */
  unavoidable?: boolean;
  /**
   * A skip the run was told to make (a write with writes off, no --allow-writes), or of an optional credential not
   * given. `--strict` lets it pass too.
   */
  declined?: boolean;
  evidence?: Evidence;
  /** What the judges found, structured: what the reports group and render. */
  findings?: Finding[];
}

const WORST: Status[] = ['fail', 'pass', 'skip'];

/** Two results of one check as one: the worse status first, each one's request and message kept. */
function join(a: CheckResult, b: CheckResult): CheckResult {
  const [first, second] = WORST.indexOf(b.status) < WORST.indexOf(a.status) ? [b, a] : [a, b];
  const also = [second.request, second.message].filter(Boolean).join(': ');
  const message = second.status === first.status && also ? `${first.message ?? '-'} | ${also}` : first.message;
  return { ...first, ...(message ? { message } : {}), ms: (a.ms ?? 0) + (b.ms ?? 0) || undefined };
}

export class Recorder {
  private readonly results: CheckResult[] = [];
  private readonly byCheck = new Map<string, number>();

  add(results: readonly CheckResult[]): void {
    for (const result of results) {
      // A repro names the run's credentials by their variables already: only a
      // secret it does not know (a key the run made) is masked.
      const clean = Object.fromEntries(
        Object.entries(result)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, typeof v !== 'string' ? v : k === 'repro' ? redactKnown(v) : redact(v)]),
      ) as unknown as CheckResult;
      const key = `${clean.operationId}\u0000${clean.check}`;
      const at = this.byCheck.get(key);
      if (at === undefined) this.byCheck.set(key, this.results.push(clean) - 1);
      else this.results[at] = join(this.results[at]!, clean);
    }
  }

  all(): readonly CheckResult[] {
    return this.results;
  }
}
