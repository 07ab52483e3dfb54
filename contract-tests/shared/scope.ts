// What this run checks: the level of promise (`--provenance`), the operations (`--only`)
// and whether it may write (create and revoke keys). Every family asks here before it
// sends anything.
import type { Operation } from '../../spec/model.ts';
import { within, type Provenance } from '../../spec/provenance.ts';

export interface Writes {
  allowed: boolean;
  /** Why writes are on or off, for the summary and for every write check skipped. */
  reason: string;
}

export class Scope {
  constructor(
    readonly level: Provenance,
    readonly only: readonly string[],
    readonly writes: Writes,
  ) {}

  /** A check resting on a part of this provenance is within the run's --provenance. */
  wants(provenance: Provenance): boolean {
    return within(provenance, this.level);
  }

  selected(op: Pick<Operation, 'operationId'>): boolean {
    return this.only.length === 0 || this.only.includes(op.operationId);
  }

  /** Why an operation that writes may not be sent, if it may not. */
  writesBlocked(op: Operation): string | undefined {
    return op.isWrite && !this.writes.allowed
      ? `writes are off (${this.writes.reason}); pass --allow-writes to test ${op.method} ${op.path}`
      : undefined;
  }
}
