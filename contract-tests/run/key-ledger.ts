// Everything the suite creates on the target is written down before anything else
// happens with it, and crossed off once removed. The hooks clean up as they go; the
// runner reads the ledger afterwards and removes whatever is still open, so a failed
// check, a crashed hook or a killed Dredd never leaves keys behind on a deployment.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';

export interface CreatedKey {
  id: string;
  /** Kept so the key can revoke itself ("a key may revoke itself") if the session fails. */
  secret?: string;
}

type Entry = { event: 'created'; id: string; secret?: string } | { event: 'removed'; id: string };

export class Ledger {
  constructor(private readonly file: string) {}

  created(key: CreatedKey): void {
    this.append({ event: 'created', ...key });
  }

  removed(id: string): void {
    this.append({ event: 'removed', id });
  }

  /** Keys created and not yet removed. */
  open(): CreatedKey[] {
    if (!existsSync(this.file)) return [];
    const open = new Map<string, CreatedKey>();
    for (const line of readFileSync(this.file, 'utf8').split('\n').filter(Boolean)) {
      const e = JSON.parse(line) as Entry;
      if (e.event === 'created') open.set(e.id, { id: e.id, secret: e.secret });
      else open.delete(e.id);
    }
    return [...open.values()];
  }

  private append(entry: Entry): void {
    // The ledger is a temporary file of this run only (deleted by the runner); it holds
    // secrets so a key can remove itself, and is never printed.
    appendFileSync(this.file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  }
}
