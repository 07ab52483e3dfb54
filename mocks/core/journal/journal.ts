// The request journal: what the mock received and what it did about it, for a test to ask
// "what did my UI send?" (mock.requests(), GET /__mock/requests, the page there). A ring
// of fixed size (`--journal`, 1,000 by default): the newest request overwrites the oldest,
// so a flood costs the same memory as a quiet day. An entry is recorded as the request
// arrives (a slow or unanswered one shows as pending) and holds references to what the
// stages worked out anyway (the operation, the parsed parameters and body, the caller); it
// is turned into JSON, with every credential masked, only when someone asks (entry-view.ts),
// so keeping it costs the hot path one object per request.
import type { Operation } from '../../../spec/model.ts';
import type { Principal } from '../env.ts';
import type { AppliedOverride } from '../overrides/override-stage.ts';
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

/** One request as the stages left it; `entry-view.ts` renders it. */
export interface Recorded {
  id: number;
  /** The mock's clock when it arrived (ms). */
  at: number;
  /** Time to the answer, ms; undefined while it is pending. */
  ms?: number;
  method: string;
  /** The URL as the app saw it (its path and query as sent). */
  url: string;
  headers: Headers;
  bodyText?: string;
  op?: Operation;
  params?: { query: Record<string, unknown>; path: Record<string, unknown> };
  body?: unknown;
  principal?: Principal;
  status?: number;
  fault?: FaultKind;
  refusedBy?: Rule;
  why?: string;
  override?: AppliedOverride;
  findings?: Finding[];
  hidden?: HiddenNote;
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

  /** Records a request (its id is set here); the oldest goes when the ring is full. */
  add(entry: Omit<Recorded, 'id'>): Recorded {
    const recorded = entry as Recorded;
    recorded.id = ++this.count;
    if (this.capacity > 0) this.ring[this.count % this.capacity] = recorded;
    return recorded;
  }

  /** Every request kept, newest first. */
  *newestFirst(): Generator<Recorded> {
    const kept = Math.min(this.count, this.capacity);
    for (let i = 0; i < kept; i++) {
      const entry = this.ring[(this.count - i) % this.capacity];
      if (entry) yield entry;
    }
  }

  /** How many requests fell out of the ring since it was last cleared. */
  get dropped(): number {
    return Math.max(0, this.count - this.clearedAt - this.capacity);
  }

  /** Forgets every request; ids go on counting, so a page that polls by id never sees one twice. */
  clear(): void {
    this.ring = new Array(this.capacity);
    this.clearedAt = this.count;
  }
}
