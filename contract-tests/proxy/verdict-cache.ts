// The validation proxy's memory of what answers' bodies showed (see VerdictCache), so a
// client polling the same page costs the judge one reading of it.
import { sessionOf } from './exchange.ts';
import type { Exchange } from './forward.ts';
import { TrafficJudge, type Judged, type Violation } from './judge-traffic.ts';

/**
 * What the bodies of earlier answers showed: the same bytes answered to the same request
 * (same method, path and query, status, media type and encoding, Allow header, the same
 * kind of credentials and Prefer, within the same minute, for the rules about ages) show
 * the same again, so a client polling a page costs one reading. Only the headers, which
 * change from answer to answer, are judged each time. Bounded in entries and bytes;
 * the oldest entry goes first.
 */
export class VerdictCache {
  private readonly entries = new Map<
    string,
    { body: Buffer; minute: number; parsed: boolean; violations: readonly Violation[] }
  >();
  private bytes = 0;

  /** `sessionCookie`: the cookie the spec's session scheme reads (its presence is part of the request). */
  constructor(
    private readonly sessionCookie: string | undefined,
    private readonly maxEntries = 1024,
    private readonly maxBytes = 32 * 2 ** 20,
  ) {}

  private key(ex: Exchange): string | undefined {
    const res = ex.response;
    if (!res?.body || ex.aborted || ex.error) return undefined;
    const h = ex.requestHeaders;
    const session = sessionOf(h.cookie, this.sessionCookie) !== undefined;
    return [
      ex.method,
      ex.path,
      res.status,
      res.headers['content-type'],
      res.headers['content-encoding'],
      res.headers.allow,
      h.authorization ? 'key' : '',
      session ? 'session' : '',
      h.prefer,
    ].join('\u0000');
  }

  private static minute(ex: Exchange): number {
    return Math.floor(TrafficJudge.answerTime(ex.response!.headers) / 60_000);
  }

  lookup(ex: Exchange): { parsed: boolean; violations: readonly Violation[] } | undefined {
    const key = this.key(ex);
    const entry = key === undefined ? undefined : this.entries.get(key);
    return entry && entry.minute === VerdictCache.minute(ex) && entry.body.equals(ex.response!.body!)
      ? entry
      : undefined;
  }

  keep(ex: Exchange, judged: Judged, violations: readonly Violation[]): void {
    const key = this.key(ex);
    const body = ex.response?.body;
    if (key === undefined || !body || body.length > this.maxBytes / 16) return;
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.body.length;
      this.entries.delete(key);
    }
    this.entries.set(key, { body, minute: VerdictCache.minute(ex), parsed: judged.parsed, violations });
    this.bytes += body.length;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.body.length;
    }
  }
}
