// The request journal: what the mock received and what it did about it, for a test to ask
// "what did my UI send?" (mock.requests(), GET /__mock/requests, the page there). A ring
// of fixed size (`--journal`, 1,000 by default): the newest request overwrites the oldest,
// so a flood costs the same memory as a quiet day. An entry is recorded as the request
// arrives (a slow or unanswered one shows as pending) and holds references to what the
// stages worked out anyway (the operation, the parsed parameters and body, the caller); it
// is turned into JSON, with every credential masked, only when someone asks (entry-view.ts),
// so keeping it costs the hot path one object per request.
import type { Operation, SchemeKind } from '../../../spec/model.ts';
import type { AppliedOverride } from '../overrides/override.ts';
import type { FaultKind } from '../overrides/transport.ts';
import type { Finding, Rule } from './findings.ts';

/** A loaded row a default filter hides from a request that leaves that filter out (item 2 of issue 30). */
export interface HiddenNote {
  /** The parameter whose default hides them (`maxAge`). */
  parameter: string;
  /** Its default, as the spec writes it. */
  default: unknown;
  rows: number;
  why: string;
}

/**
 * One request as the stages left it; `entry-view.ts` renders it. A slot of the ring, reused:
 * it holds what the runtime made for the request anyway (its URL, node's list of its headers)
 * and names and numbers, nothing made for it, so a full ring moves one small object per request out of the garbage
 * collector's young generation (the parsed parameters are read again from the URL when an
 * entry is shown).
 */
export class Recorded {
  id = 0;
  /** The mock's clock when it arrived (ms). */
  at = 0;
  /** Time to the answer, ms; -1 while it is pending (a number always: no box per request). */
  ms = -1;
  method = '';
  /** The URL as the app saw it. */
  url = '';
  /** Node's own list of the headers as they came (name, value, name, value...), on a socket. */
  rawHeaders: readonly string[] | undefined = undefined;
  /** The headers, when the runtime gave no raw list of them (in process): the Request's own. */
  headers: Headers | undefined = undefined;
  bodyText: string | undefined = undefined;
  op: Operation | undefined = undefined;
  body: unknown = undefined;
  /** Who it acted for: the user's id, the scheme and its kind. */
  user: string | undefined = undefined;
  scheme: string | undefined = undefined;
  kind: SchemeKind | undefined = undefined;
  status: number | undefined = undefined;
  fault: FaultKind | undefined = undefined;
  refusedBy: Rule | undefined = undefined;
  why: string | undefined = undefined;
  override: AppliedOverride | undefined = undefined;
  findings: Finding[] | undefined = undefined;
  hidden: HiddenNote | undefined = undefined;

  /** Back to a new slot's fields (what `add` does not set). */
  clear(): void {
    this.ms = -1;
    this.bodyText = undefined;
    this.op = undefined;
    this.body = undefined;
    this.user = undefined;
    this.scheme = undefined;
    this.kind = undefined;
    this.status = undefined;
    this.fault = undefined;
    this.refusedBy = undefined;
    this.why = undefined;
    this.override = undefined;
    this.findings = undefined;
    this.hidden = undefined;
    this.headers = undefined;
    this.rawHeaders = undefined;
  }
}

/** The default number of requests kept. */
export const JOURNAL_SIZE = 1000;

export class Journal {
  private ring: (Recorded | undefined)[];
  /** How many requests were ever recorded (the last one's id). */
  private count = 0;
  /** `count` when the journal was last cleared. */
  private clearedAt = 0;

  constructor(readonly capacity: number = JOURNAL_SIZE) {
    this.ring = new Array(capacity);
  }

  get enabled(): boolean {
    return this.capacity > 0;
  }

  /**
   * Records a request in the oldest slot and returns it, its id set. A stage that fills it
   * later checks the id first: a request pending longer than the ring is long finds its slot
   * taken by a newer one, and leaves it.
   */
  add(at: number, method: string, url: string): Recorded {
    const id = ++this.count;
    const slot = id % this.capacity;
    let entry = this.capacity > 0 ? this.ring[slot] : undefined;
    if (entry) entry.clear();
    else {
      entry = new Recorded();
      if (this.capacity > 0) this.ring[slot] = entry;
    }
    entry.id = id;
    entry.at = at;
    entry.method = method;
    entry.url = url;
    return entry;
  }

  /** Every request kept, newest first. */
  *newestFirst(): Generator<Recorded> {
    const kept = Math.min(this.count - this.clearedAt, this.capacity);
    for (let i = 0; i < kept; i++) {
      const entry = this.ring[(this.count - i) % this.capacity];
      if (entry && entry.id > this.clearedAt) yield entry;
    }
  }

  /** How many requests fell out of the ring since it was last cleared. */
  get dropped(): number {
    return Math.max(0, this.count - this.clearedAt - this.capacity);
  }

  /** Forgets every request; ids go on counting, so a page that polls by id never sees one twice. */
  clear(): void {
    this.clearedAt = this.count;
  }
}
