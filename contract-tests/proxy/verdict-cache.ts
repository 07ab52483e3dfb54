// The validation proxy's memory of what answers' bodies showed (see VerdictCache), so a
// client polling the same page costs the judge one reading of it.
import { cookieValue } from '../../spec/judges/credentials.ts';
import { answerTime } from '../../spec/judges/exchange.ts';
import type { Verdict } from '../../spec/judges/registry.ts';
import type { Exchange } from './forward.ts';
import type { Known } from './judge-traffic.ts';

/** The last answer of an entry whose every verdict passed: its request's and its own headers, as judges read them. */
interface Clean {
  request: Record<string, string>;
  answer: Record<string, string>;
  /** The volatile judges' verdicts on it. */
  volatile: readonly Verdict[];
}

interface Entry {
  body: Buffer;
  minute: number;
  known: Known;
  clean?: Clean;
}

/** Whether two header records hold the same fields with the same values. */
function sameHeaders(a: Record<string, string>, b: Record<string, string>): boolean {
  let fields = 0;
  for (const name in a) {
    if (a[name] !== b[name]) return false;
    fields++;
  }
  for (const _ in b) fields--;
  return fields === 0;
}

/**
 * What the judges made of earlier answers: the same bytes answered to the same request
 * (same method, path and query, no request body, status, media type and encoding, Allow
 * header, the same credentials and Prefer, within the same minute, for the rules about
 * ages) are judged the same again, so a client polling a page costs one reading. Only the
 * judges of what changes from answer to answer (the rate-limit headers) judge each time.
 * And when the request and the answer's headers are also field for field those of the
 * last answer that passed every judge, nothing a judge reads has changed: the answer is
 * only counted (`again`). Bounded in entries and bytes; the oldest entry goes first.
 */
export class VerdictCache {
  private readonly entries = new Map<string, Entry>();
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

  private static minute(ex: Exchange): number {
    return Math.floor(answerTime(ex.response!.headers) / 60_000);
  }

  /**
   * What is known of an exchange's verdicts, if anything; `again`, the volatile judges'
   * verdicts, when the exchange is the last clean answer over again.
   */
  lookup(ex: Exchange): { known: Known; again?: readonly Verdict[] } | undefined {
    const key = this.key(ex);
    const entry = key === undefined ? undefined : this.entries.get(key);
    if (!entry || entry.minute !== VerdictCache.minute(ex) || !entry.body.equals(ex.response!.body!)) return undefined;
    const { clean } = entry;
    return clean && sameHeaders(clean.answer, ex.response!.headers) && sameHeaders(clean.request, ex.requestHeaders)
      ? { known: entry.known, again: clean.volatile }
      : { known: entry.known };
  }

  /**
   * Remembers what judging an exchange found: `known` for its bytes (when `found` says the
   * cache did not know it yet), and the exchange as the last clean answer when every
   * verdict passed.
   */
  keep(ex: Exchange, known: Known, volatile: readonly Verdict[], found: boolean): void {
    const key = this.key(ex);
    const body = ex.response?.body;
    if (key === undefined || !body || body.length > this.maxBytes / 16) return;
    const passed = known.count !== undefined && volatile.every((v) => !v.findings.length);
    const clean = passed ? { request: ex.requestHeaders, answer: ex.response!.headers, volatile } : undefined;
    if (found) {
      const entry = this.entries.get(key)!;
      if (clean) entry.clean = clean;
      return;
    }
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.body.length;
      this.entries.delete(key);
    }
    this.entries.set(key, { body, minute: VerdictCache.minute(ex), known, ...(clean ? { clean } : {}) });
    this.bytes += body.length;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.body.length;
    }
  }
}
