// Every check's outcome, one JSON line each, appended as it happens: the runner reads the
// file after Dredd exits, so a crash half-way still leaves what was checked so far.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { Provenance } from '../../spec/provenance.ts';
import { redact } from './mask.ts';

export type Status = 'pass' | 'fail' | 'skip';

/** What a failure may share with others of the same cause (lib/causes.ts groups by it). */
export interface Evidence {
  /** The status and media type that came back. */
  answer?: { status: number; type: string };
  /** The status the check expected. */
  expectedStatus?: number;
  /** The run's own credential the request carried. */
  principal?: 'apiKey' | 'session' | 'forbidden';
  /** Body-schema errors with row indices taken out (`body.results.*.port must be integer`). */
  schemaErrors?: string[];
  /** The media type that came back where the spec promises JSON. */
  wrongType?: string;
  /** Declared headers some answers lacked; `every`: no answer of the operation carried them. */
  missingHeaders?: { names: string[]; every: boolean };
}

export interface CheckResult {
  operationId: string;
  check: string;
  provenance: Provenance;
  status: Status;
  /** e.g. `GET /user/apikeys (Authorization: Bearer sls_live…9e1a)`. */
  request?: string;
  expected?: string;
  actual?: string;
  /** Why it failed or was skipped, naming the defect. */
  message?: string;
  /** How long its request took, when it made one. */
  ms?: number;
  /** A skip no setting of the suite can avoid (a 5xx cannot be provoked): `--strict` lets it pass. */
  unavoidable?: boolean;
  evidence?: Evidence;
}

export class Recorder {
  /** Failures per operation so far, so a hook can tell Dredd the transaction failed. */
  readonly failures = new Map<string, string[]>();

  constructor(private readonly file: string) {}

  record(result: CheckResult): void {
    if (result.status === 'fail') this.failures.set(result.operationId, [...(this.failures.get(result.operationId) ?? []), result.check]);
    const clean = Object.fromEntries(Object.entries(result).map(([k, v]) => [k, typeof v === 'string' ? redact(v) : v]));
    appendFileSync(this.file, `${JSON.stringify(clean)}\n`);
  }
}

export function readResults(file: string): CheckResult[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as CheckResult);
}
