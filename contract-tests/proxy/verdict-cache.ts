// The validation proxy's memory of what answers' bodies showed (see VerdictCache), so a
// client polling the same page costs the judge one reading of it.
import { cookieValue } from '../../spec/judges/credentials.ts';
import { answerTime } from '../../spec/judges/exchange.ts';
import type { Verdict } from '../../spec/judges/registry.ts';
import type { Exchange } from './forward.ts';

/**
 * What the judges made of earlier answers: the same bytes answered to the same request
 * (same method, path and query, no request body, status, media type and encoding, Allow
 * header, the same credentials and Prefer, within the same minute, for the rules about
 * ages) are judged the same again, so a client polling a page costs one reading. Only the
 * judges of what changes from answer to answer (the rate-limit headers) judge each time.
 * Bounded in entries and bytes; the oldest entry goes first.
 */
export class VerdictCache {
  private readonly entries = new Map<string, { body: Buffer; minute: number; verdicts: readonly Verdict[] }>();
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
    return `${ex.method}\u0000${ex.path}\u0000${res.status}\u0000${res.headers['content-type']}\u0000${res.headers['content-encoding']}\u0000${res.headers.allow}\u0000${h.authorization}\u0000${session}\u0000${h.prefer}`;
  }

  private static minute(ex: Exchange): number {
    return Math.floor(answerTime(ex.response!.headers) / 60_000);
  }

  lookup(ex: Exchange): readonly Verdict[] | undefined {
    const key = this.key(ex);
    const entry = key === undefined ? undefined : this.entries.get(key);
    return entry && entry.minute === VerdictCache.minute(ex) && entry.body.equals(ex.response!.body!)
      ? entry.verdicts
      : undefined;
  }

  keep(ex: Exchange, verdicts: readonly Verdict[]): void {
    const key = this.key(ex);
    const body = ex.response?.body;
    if (key === undefined || !body || body.length > this.maxBytes / 16) return;
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.body.length;
      this.entries.delete(key);
    }
    this.entries.set(key, { body, minute: VerdictCache.minute(ex), verdicts });
    this.bytes += body.length;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.body.length;
    }
  }
}
