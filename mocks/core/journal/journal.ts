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

/** The most bytes a slot keeps of a request's URL and headers as bytes; a larger request's text is kept as it is. */
const SENT_BYTES_MAX = 64 * 1024;

/**
 * One request as the stages left it; `entry-view.ts` renders it. A slot of the ring, reused:
 * it holds names, numbers and what the stages worked out anyway; the request's URL and node's
 * list of its headers are copied into the slot's own bytes, so that the strings node made for
 * them die young (a ring that held them moved each request's ~280 bytes of text to the
 * collector's old generation; see decision 0050). The parsed parameters are read again from
 * the URL when an entry is shown.
 */
export class Recorded {
  id = 0;
  /** The mock's clock when it arrived (ms). */
  at = 0;
  /** Time to the answer, ms; -1 while it is pending (a number always: no box per request). */
  ms = -1;
  method = '';
  /** The headers, when the runtime gave no raw list of them (in process): the Request's own. */
  headers: Headers | undefined = undefined;
  /** The slot's bytes: the URL, then each raw header name and value, back to back (Latin-1: node's own reading). */
  private sent: Buffer | undefined = undefined;
  /** Where each piece of `sent` ends: [URL, name, value, name, value...]. */
  private ends: Uint32Array | undefined = undefined;
  private pieces = 0;
  /** The URL and headers as given, when they were not kept as bytes. */
  private heldUrl = '';
  private heldRaw: readonly string[] | undefined = undefined;
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

  /**
   * Keeps the URL as the app saw it and node's own list of the headers as they came (name,
   * value, name, value...; on a socket). Node reads URL and headers one byte a character, so
   * Latin-1 keeps them exactly; text from anywhere else (a Request in process) is held as it is.
   */
  keep(url: string, raw: readonly string[] | undefined): void {
    this.pieces = 0;
    this.heldUrl = url;
    this.heldRaw = raw;
    if (raw === undefined) return;
    let size = url.length;
    for (let i = 0; i < raw.length; i++) size += raw[i]!.length;
    if (size > SENT_BYTES_MAX) return;
    let sent = this.sent;
    if (sent === undefined || sent.length < size)
      sent = this.sent = Buffer.allocUnsafeSlow(Math.min(SENT_BYTES_MAX, Math.max(512, size * 2)));
    let ends = this.ends;
    if (ends === undefined || ends.length < raw.length + 1) ends = this.ends = new Uint32Array(raw.length + 16);
    let end = url.length;
    ends[0] = end;
    for (let i = 0; i < raw.length; i++) ends[i + 1] = end += raw[i]!.length;
    // One copy of the whole text (the joined string is young garbage, gone at the next scavenge).
    sent.write(raw.length ? url + raw.join('') : url, 0, size, 'latin1');
    this.pieces = raw.length + 1;
    this.heldUrl = '';
    this.heldRaw = undefined;
  }

  /** The URL as the app saw it. */
  get url(): string {
    return this.pieces ? this.sent!.toString('latin1', 0, this.ends![0]) : this.heldUrl;
  }

  /** Node's own list of the headers as they came (name, value, name, value...), on a socket. */
  get rawHeaders(): readonly string[] | undefined {
    if (!this.pieces) return this.heldRaw;
    const out: string[] = [];
    for (let i = 1; i < this.pieces; i++) out.push(this.sent!.toString('latin1', this.ends![i - 1], this.ends![i]));
    return out;
  }

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
  }
}

/** A header value after the one it `had`: a repeated header joined as fetch joins it (cookies with `; `). */
export const joinHeader = (name: string, had: string | undefined, value: string): string =>
  had === undefined ? value : `${had}${name === 'cookie' ? '; ' : ', '}${value}`;

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
  add(at: number, method: string, url: string, raw?: readonly string[]): Recorded {
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
    entry.keep(url, raw);
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
