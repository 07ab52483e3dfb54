// One exchange as every judge reads it: the request as it was sent, the answer as it came
// back, when it came, and what the sender knows about the request that the wire does not
// show (the suite knows a key it sends was revoked; a proxy knows nothing of the kind).
// The suite, the validation proxy and the mock each turn what they hold into this shape
// once, and hand it to the registry (registry.ts).
/** A row of an answer's rows (`results`, `versions`, ...). */
export type Row = Record<string, unknown>;

export interface SentRequest {
  /** Upper case. */
  method: string;
  /** The request target as sent: the path, base path included, and the query (`/api/v0.1/servers/find?limit=3`). */
  target: string;
  /** Header names lower-cased; repeats joined as Node joins them. */
  headers: Record<string, string>;
  /** The body as sent, when there was one. */
  body?: string;
}

/**
 * Why a client could not use an answer: its body stopped before its end (the connection
 * closed inside it), did not decode as its Content-Encoding says, came in an encoding
 * clients do not decode, or no answer came at all once the request was sent.
 */
export interface Unreadable {
  kind: 'cut' | 'undecodable' | 'unknown-encoding' | 'no-answer';
  /** What was seen, for people (bounded by the receiver). */
  detail: string;
}

export interface ReceivedAnswer {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  /** The body as text ('' for none). */
  text: string;
  /** The parsed body; undefined when it is not JSON. */
  json: unknown;
  /**
   * The receiver could not read the body as a client reads it (then `text` is ''
   * and only the judges of the status and headers run).
   */
  unreadable?: Unreadable;
}

/** What the sender knows about a request that its bytes do not say. */
export interface Known {
  /** How the credential it carries stands, when the sender knows (the suite made it up, revoked it, ...). */
  credential?: 'valid' | 'unknown' | 'revoked' | 'expired' | 'forbidden';
  /** Its path names nothing that exists (a key id or a server nobody has). */
  namesNothing?: boolean;
  /** What its path names exists (a server the search lists). */
  exists?: boolean;
  /** The caller already holds the most keys `x-max-keys-per-user` allows. */
  atKeyCap?: boolean;
  /** A row that satisfies the query: the answer must hold it (when `total` says every match fits the page). */
  witness?: Row;
  /** The page asked for lies past the last one: it must be empty. */
  pastEnd?: boolean;
  /** Secrets the sender holds (a key it created): no answer but the one that made them may carry them. */
  secrets?: readonly string[];
  /** Rows the answer's rows must hold, and must not, by a field of theirs (a key just created, one just revoked). */
  listed?: { field: string; present?: readonly string[]; absent?: readonly string[] };
  /** The object of the body that names what the answer is about, and what it must hold (a ping's `server`). */
  about?: { field: string; values: Record<string, unknown> };
  /**
   * The answer was chosen for the request rather than earned by it (the mock's `Prefer`, an
   * override a test set): no status is owed to it, though its shape still is the spec's.
   */
  steered?: boolean;
  /** The status the request asked for on purpose (the mock's `Prefer: code=`): it excuses that 5xx. */
  askedStatus?: number;
  /** The `Origin` it carries is one no deployment may grant (the suite's, under `.invalid`), whatever x-cors lists. */
  foreignOrigin?: boolean;
}

export interface Exchange {
  request: SentRequest;
  answer: ReceivedAnswer;
  /** When the answer was given (its Date header, else the receiver's clock): ages are judged by it. */
  at: number;
  known?: Known;
}

/** Headers as judges read them: names lower-cased (a Headers object, or a record in any case). */
export function lowerCased(headers: Headers | Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  if (headers instanceof Headers) {
    headers.forEach((value, name) => {
      out[name.toLowerCase()] = value;
    });
    return out;
  }
  for (const [name, value] of Object.entries(headers as Record<string, string>)) out[name.toLowerCase()] = value;
  return out;
}

/** The media type of a Content-Type header, without parameters, lower case. */
export function mediaType(contentType: string | undefined): string {
  if (contentType === undefined) return '';
  return contentType.split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The last Date header read, and its time: answers that come within a second share it. */
let lastDate = { text: '', ms: Number.NaN };

/** The answer's time: its Date header when it has a plausible one, else `fallback`. */
export function answerTime(headers: Record<string, string>, fallback = Date.now()): number {
  return dateTime(headers.date, fallback);
}

/** A Date header's time when it is a plausible one, else `fallback`. */
export function dateTime(date: string | undefined, fallback = Date.now()): number {
  if (date !== undefined && date !== lastDate.text) lastDate = { text: date, ms: Date.parse(date) };
  const t = date ? lastDate.ms : Number.NaN;
  return Number.isNaN(t) || Math.abs(t - fallback) > 3650 * 86_400_000 ? fallback : t;
}
