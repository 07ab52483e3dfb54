// One change between two versions of the spec, as every renderer and the usage weighing
// read it: its rule, whom it breaks, its severity, the level of the part it changes,
// where it is, what it was and what it is, and which recorded requests it would touch.
import type { Provenance } from '../../spec/provenance.ts';
import type { Breaks, Severity } from './rules.ts';

/**
 * The recorded requests a change would meet (diff/usage.ts counts them in usage
 * profiles): every request of the operation, narrowed by what the fields say.
 */
export interface Touch {
  /** The operation as the base spec names it (profiles are recorded against the deployed spec). */
  operationId: string;
  /** Only requests that sent this parameter (`absent`: that left it out). */
  parameter?: string;
  /** Only requests whose body carried this top-level field (`absent`: that left it out). */
  field?: string;
  absent?: boolean;
  /** Only requests that sent this enum value of the parameter or field. */
  value?: string;
  /** Only requests that sent a number above this bound (the bound was lowered) or below it (raised). */
  above?: number;
  below?: number;
  /** Only requests that carried this kind of credential. */
  credential?: string;
  /** Only requests that got this status. */
  status?: number;
  /** Only requests of operations under this path prefix (a rate-limit group). */
  pathPrefix?: string;
}

export interface Change {
  rule: string;
  breaks: Breaks;
  severity: Severity;
  /** The level of the softest part the change is about (`x-provenance`). */
  level: Provenance;
  /** `findServers`, when the change is about one operation. */
  operationId?: string;
  /** `GET /servers/find`. */
  route?: string;
  /** Where in the contract: `query parameter country`, `response 200 body results[].port`, `x-rate-limits`. */
  where: string;
  /** What changed, in words: `maximum 500 -> 100`. */
  message: string;
  before?: unknown;
  after?: unknown;
  /** The requests it would meet; empty when no recorded request can tell (a new operation). */
  touches: Touch[];
  /** Set when usage profiles were given: what they recorded of it (diff/usage.ts). */
  usage?: ChangeUsage;
  /** Why its severity is what it is, when that is not plain from its rule. */
  why?: string;
}

export interface ChangeUsage {
  /** Requests per consumer that the change would meet. */
  requests: Record<string, number>;
  /** `breaks 312 recorded requests of \`web\` (findServers with \`country\`)`, or `no recorded consumer uses it`. */
  summary: string;
}
