// The request journal: what the mock received and what it did about it, for a test to ask
// "what did my UI send?" (mock.requests(), GET /__mock/requests, the page there). A ring
// of fixed size (`--journal`, 1,000 by default): the newest request overwrites the oldest,
// so a flood costs the same memory as a quiet day. An entry is recorded as the request
// arrives (a slow or unanswered one shows as pending) and holds references to what the
// stages worked out anyway (the operation, the parsed parameters and body, the caller); it
// is turned into JSON, with every credential masked, only when someone asks (entry-view.ts),
// so keeping it costs the hot path one object per request.
import { sameHeaderList } from '../../../spec/header-list.ts';
import type { Operation, SchemeKind } from '../../../spec/model.ts';
import type { AppliedOverride } from '../overrides/override.ts';
import type { FaultKind } from '../overrides/transport.ts';
import type { Finding, FindingsOf, Rule } from './findings.ts';
import type { DefaultHiding } from './hidden-rows.ts';

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
 * A request's text as it came: its URL and, when the runtime listed them (node on a socket,
 * createMock() in process), its headers (name, value, name, value...). Shared by every slot
 * whose request sent the same text.
 */
export class SentText {
  /**
   * What the request judges found in a bodiless request of this text (record.ts): the judges
   * are pure, so a request that repeats the text, by the same method to the same judges,
   * finds the same. Kept only for a text whose headers are listed, all of them in it.
   */
  judged: { method: string; by: FindingsOf; found: Finding[] | undefined } | undefined = undefined;

  constructor(
    readonly url: string,
    readonly rawHeaders: readonly string[] | undefined,
  ) {}
}

const NO_TEXT = new SentText('', undefined);

/**
 * One request as the stages left it; `entry-view.ts` renders it. A slot of the ring, reused:
 * it holds names, numbers and what the stages worked out anyway; the request's text is the
 * one the journal last kept for the same URL when it is the same text (decision 0050), so
 * the strings node made for a repeated request die young. The parsed parameters are read
 * again from the URL when an entry is shown.
 */
export class Recorded {
  id = 0;
  /** The mock's clock when it arrived (ms). */
  at = 0;
  /** Time to the answer, ms; -1 while it is pending (a number always: no box per request). */
  ms = -1;
  method = '';
  sent: SentText = NO_TEXT;
  /** The headers, when the runtime listed none (under `app.request()`): the Request's own. */
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
  /**
   * The defaults that could hide loaded rows from it (the listing's, when it arrived); what they
   * hid is worked out when the entry is shown (`hidden`), not for every request.
   */
  hiding: DefaultHiding | undefined = undefined;

  /** The URL as the app saw it. */
  get url(): string {
    return this.sent.url;
  }

  /** Node's own list of the headers as they came (name, value, name, value...), on a socket. */
  get rawHeaders(): readonly string[] | undefined {
    return this.sent.rawHeaders;
  }

  /** What a default filter hid from this request (item 2 of issue 30), from its operation, query and time. */
  get hidden(): HiddenNote | undefined {
    if (!this.hiding || !this.op) return undefined;
    const url = this.url;
    const q = url.indexOf('?');
    return this.hiding.note(this.op, q === -1 ? '' : url.slice(q + 1), this.at);
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
    this.hiding = undefined;
    this.headers = undefined;
  }
}

/** The default number of requests kept. */
export const JOURNAL_SIZE = 1000;

/** For how many URLs the journal remembers the last text, to share with a request that repeats it. */
const TEXTS_REMEMBERED = 64;

export class Journal {
  private ring: (Recorded | undefined)[];
  /** How many requests were ever recorded (the last one's id). */
  private count = 0;
  /** `count` when the journal was last cleared. */
  private clearedAt = 0;
  /**
   * The last text kept for each of up to TEXTS_REMEMBERED URLs; a new URL past that forgets the
   * one remembered first (a hit does not reorder: a hot URL forgotten so is remembered again at
   * its next request). A front end (and a load test) sends the same request again and again:
   * a slot that keeps the text already kept holds no string of its own, where keeping node's
   * fresh copies moved each request's ~280 bytes of text to the collector's old generation
   * (decision 0050).
   */
  private texts = new Map<string, SentText>();
  /** The text of the request before (NO_TEXT after a clear). */
  private lastText: SentText = NO_TEXT;

  constructor(readonly capacity: number = JOURNAL_SIZE) {
    this.ring = new Array(capacity);
  }

  get enabled(): boolean {
    return this.capacity > 0;
  }

  /**
   * Records a request in the oldest slot and returns it, its id set. The entry is its request's
   * alone: a stage that fills it later needs no check (a request pending longer than the ring
   * is long fills an entry no longer in it).
   */
  add(at: number, method: string, url: string, raw?: readonly string[]): Recorded {
    const id = ++this.count;
    const slot = id % this.capacity;
    let entry = this.capacity > 0 ? this.ring[slot] : undefined;
    // A slot still pending when the ring comes round stays its request's (its stages may still
    // write to it, now out of the ring): the new request gets an object of its own.
    if (entry !== undefined && entry.ms !== -1) entry.clear();
    else {
      entry = new Recorded();
      if (this.capacity > 0) this.ring[slot] = entry;
    }
    entry.id = id;
    entry.at = at;
    entry.method = method;
    entry.sent = this.textOf(url, raw);
    return entry;
  }

  /** The text kept for this URL when the request repeats it exactly; else this one, remembered. */
  private textOf(url: string, rawHeaders: readonly string[] | undefined): SentText {
    // The request before's text first: a Map lookup hashes node's fresh copy of the URL, character by character.
    const last = this.lastText;
    if (last.url === url && sameHeaderList(last.rawHeaders, rawHeaders)) return last;
    this.lastText = this.textSeen(url, rawHeaders);
    return this.lastText;
  }

  private textSeen(url: string, rawHeaders: readonly string[] | undefined): SentText {
    const known = this.texts.get(url);
    if (known !== undefined && sameHeaderList(known.rawHeaders, rawHeaders)) return known;
    const text = new SentText(url, rawHeaders);
    if (known === undefined && this.texts.size >= TEXTS_REMEMBERED) this.texts.delete(this.texts.keys().next().value!);
    this.texts.set(url, text);
    return text;
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
    this.texts.clear();
    this.lastText = NO_TEXT;
  }
}
