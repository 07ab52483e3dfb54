// The overrides a mock holds, newest first: a request takes the newest one that matches it
// and has uses left (as MSW's `server.use()` prepends, and WireMock's newest stub wins).
// A rate-drawn override that the draw passes over leaves the request to the next one.
// Cleared by a reset, with the journal (POST /__mock/reset, mock.reset()).
import type { Operation } from '../../../spec/model.ts';
import { MAX_OVERRIDES, type Override, OverrideError, type OverrideContext, parseOverride } from './override.ts';

/** What of a request an override's conditions read. */
export interface RequestFacts {
  /** The path relative to the base path, as sent. */
  path: string;
  /** The query string as sent (without `?`). */
  query: string;
  headers: Headers;
  /** The parsed body, when the operation takes one. */
  body: unknown;
}

/** `expected`'s fields are in `actual`, deeply (objects partially, arrays and values wholly). */
function contains(actual: unknown, expected: unknown): boolean {
  if (expected === null || typeof expected !== 'object' || Array.isArray(expected))
    return JSON.stringify(actual) === JSON.stringify(expected);
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
  return Object.entries(expected).every(([k, v]) => contains((actual as Record<string, unknown>)[k], v));
}

function matches(o: Override, op: Operation, facts: () => RequestFacts): boolean {
  if (o.op && o.op !== op) return false;
  if (!o.path && !o.query && !o.headers && o.body === undefined) return true;
  const f = facts();
  if (o.path !== undefined && o.path !== f.path) return false;
  if (o.query) {
    const sent = new URLSearchParams(f.query);
    if (!o.query.every(([name, value]) => sent.get(name) === value)) return false;
  }
  if (o.headers && !o.headers.every(([name, value]) => f.headers.get(name) === value)) return false;
  return o.body === undefined || contains(f.body, o.body);
}

export class OverrideStore {
  /** Newest first. */
  private list: Override[] = [];
  private lastId = 0;

  constructor(private readonly ctx: OverrideContext) {}

  get size(): number {
    return this.list.length;
  }

  /** Checks every input first: one bad input adds none (OverrideError lists the problems, by index for several). */
  add(inputs: unknown[]): Override[] {
    const problems: string[] = [];
    const parsed: Override[] = [];
    inputs.forEach((input, i) => {
      try {
        parsed.push(parseOverride(input, this.lastId + parsed.length + 1, this.ctx));
      } catch (err) {
        if (!(err instanceof OverrideError)) throw err;
        problems.push(...err.problems.map((p) => (inputs.length > 1 ? `[${i}] ${p}` : p)));
      }
    });
    if (inputs.length === 0) problems.push('no override given');
    if (this.list.length + parsed.length > MAX_OVERRIDES)
      problems.push(`a mock holds at most ${MAX_OVERRIDES} overrides; remove some (or reset) first`);
    if (problems.length) throw new OverrideError(problems);
    this.lastId += parsed.length;
    // The last given is the newest: it is tried first.
    this.list = [...parsed.reverse(), ...this.list];
    return parsed.reverse();
  }

  /** Every override, newest first. */
  all(): readonly Override[] {
    return this.list;
  }

  remove(id: number): boolean {
    const before = this.list.length;
    this.list = this.list.filter((o) => o.id !== id);
    return this.list.length !== before;
  }

  clear(): void {
    this.list = [];
  }

  /**
   * The override this request takes (its use counted), or undefined. `facts` is read only when a condition needs it.
   */
  take(op: Operation, facts: () => RequestFacts): Override | undefined {
    let known: RequestFacts | undefined;
    const once = () => (known ??= facts());
    for (const o of this.list) {
      if (o.remaining === 0 || !matches(o, op, once)) continue;
      if (o.rng && o.rng() >= o.rate!) continue;
      o.used++;
      if (o.remaining !== undefined) o.remaining--;
      return o;
    }
    return undefined;
  }
}
