// The validation proxy's memory of what answers' bodies showed (see VerdictCache), so a
// client polling the same page costs the judge one reading of it.
import { sameHeaderList } from '../../spec/header-list.ts';
import { cookieValue } from '../../spec/judges/credentials.ts';
import { answerTime, dateTime } from '../../spec/judges/exchange.ts';
import type { Verdict } from '../../spec/judges/registry.ts';
import { type Exchange, rawField } from './forward.ts';
import type { Known } from './judge-traffic.ts';

/**
 * The last answer of an entry whose every verdict passed: its request's and its own
 * headers as they were sent, name for name, and what the judges made of it.
 */
interface Clean {
  request: readonly string[];
  answer: readonly string[];
  /** The volatile judges' verdicts on it. */
  volatile: readonly Verdict[];
  /** The credentials its request presented, for the mask to hold again when it is counted. */
  secrets: readonly string[];
}

interface Entry {
  key: string;
  method: string;
  path: string;
  status: number;
  body: Buffer;
  minute: number;
  known: Known;
  clean?: Clean;
}

/** What the judges made of an answer that repeats the last clean one: `known`, and its volatile verdicts. */
export interface Again {
  known: Known;
  volatile: readonly Verdict[];
  secrets: readonly string[];
}

/**
 * What the judges made of earlier answers: the same bytes answered to the same request
 * (same method, path and query, no request body, status, media type and encoding, Allow
 * header, the same credentials and Prefer, within the same minute, for the rules about
 * ages) are judged the same again, so a client polling a page costs one reading. Only the
 * judges of what changes from answer to answer (the rate-limit headers) judge each time.
 * And when the request and the answer's headers are also field for field those of the
 * last answer that passed every judge, nothing a judge reads has changed: the answer is
 * only counted (`again`). That is asked first and by what was sent, before anything is
 * read: the path finds the entry whose clean answer came last for it, and the method, the
 * request's and the answer's header lists (name for name as they were sent), the status,
 * the minute and the bytes must be that answer's. Bounded in entries and bytes; the oldest
 * entry goes first.
 */
export class VerdictCache {
  private readonly entries = new Map<string, Entry>();
  /** The entry whose clean answer was kept last, by path (its method must be the request's too). */
  private readonly lastClean = new Map<string, Entry>();
  private bytes = 0;

  /** `sessionCookie`: the cookie the spec's session scheme reads (its presence is part of the request). */
  constructor(
    private readonly sessionCookie: string | undefined,
    private readonly maxEntries = 1024,
    private readonly maxBytes = 32 * 2 ** 20,
  ) {}

  private key(ex: Exchange): string | undefined {
    const res = ex.response;
    if (!res?.body || ex.aborted || ex.error || ex.requestBody) return undefined;
    const h = ex.requestHeaders;
    const session = cookieValue(h.cookie, this.sessionCookie);
    // The credentials themselves: whether each is well formed is part of what the judges read.
    return (
      `${ex.method}\u0000${ex.path}\u0000${res.status}\u0000${res.headers['content-type']}\u0000` +
      `${res.headers['content-encoding']}\u0000${res.headers.allow}\u0000${h.authorization}\u0000${session}\u0000` +
      `${h.prefer}`
    );
  }

  /** The answer's minute, by its Date header (or the clock's, without one), for the rules about ages. */
  private static minute(ex: Exchange): number {
    const res = ex.response!;
    // A forwarded answer's Date is found in its list: reading the record would make one.
    return Math.floor((res.raw ? dateTime(rawField(res.raw, 'date')) : answerTime(res.headers)) / 60_000);
  }

  /**
   * The last clean answer over again, as sent: its request's and its own headers name for
   * name, its status, minute and bytes, the same method and path, no request body. Asked
   * before the exchange is read; undefined when anything differs (then `lookup`).
   */
  again(ex: Exchange): Again | undefined {
    const res = ex.response;
    const request = ex.requestRaw;
    if (!request || !res?.raw || !res.body || ex.aborted || ex.error || ex.requestBody) return undefined;
    const entry = this.lastClean.get(ex.path);
    const clean = entry?.clean;
    // Found by its path (the map's key), so only the method and the status are left to compare before the lists.
    if (!entry || !clean || entry.status !== res.status || entry.method !== ex.method) return undefined;
    if (!sameHeaderList(clean.answer, res.raw) || !sameHeaderList(clean.request, request)) return undefined;
    if (entry.minute !== VerdictCache.minute(ex) || !entry.body.equals(res.body)) return undefined;
    return { known: entry.known, volatile: clean.volatile, secrets: clean.secrets };
  }

  /** What is known of an exchange's verdicts (the same bytes answered to the same request before), if anything. */
  lookup(ex: Exchange): Known | undefined {
    const key = this.key(ex);
    const entry = key === undefined ? undefined : this.entries.get(key);
    if (!entry || entry.minute !== VerdictCache.minute(ex) || !entry.body.equals(ex.response!.body!)) return undefined;
    return entry.known;
  }

  /**
   * Remembers what judging an exchange found: `known` for its bytes (when `found` says the
   * cache did not know it yet), and the exchange as the last clean answer when every
   * verdict passed and the proxy forwarded it (its header lists are what `again` compares).
   * `secrets`: the credentials its request presented.
   */
  keep(
    ex: Exchange,
    known: Known,
    volatile: readonly Verdict[],
    found: boolean,
    secrets: readonly string[] = [],
  ): void {
    const key = this.key(ex);
    const res = ex.response;
    const body = res?.body;
    if (key === undefined || !res || !body || body.length > this.maxBytes / 16) return;
    const passed = known.count !== undefined && volatile.every((v) => !v.findings.length);
    const clean =
      passed && ex.requestRaw && res.raw ? { request: ex.requestRaw, answer: res.raw, volatile, secrets } : undefined;
    let entry = found ? this.entries.get(key) : undefined;
    if (!entry) {
      const old = this.entries.get(key);
      if (old) this.forget(old);
      entry = {
        key,
        method: ex.method,
        path: ex.path,
        status: res.status,
        body,
        minute: VerdictCache.minute(ex),
        known,
      };
      this.entries.set(key, entry);
      this.bytes += body.length;
    }
    if (clean) {
      entry.clean = clean;
      this.lastClean.set(ex.path, entry);
    }
    for (const e of this.entries.values()) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.forget(e);
    }
  }

  /** An entry gone: its bytes, and the path's last clean answer when it was this entry's. */
  private forget(entry: Entry): void {
    this.entries.delete(entry.key);
    this.bytes -= entry.body.length;
    if (this.lastClean.get(entry.path) === entry) this.lastClean.delete(entry.path);
  }
}
