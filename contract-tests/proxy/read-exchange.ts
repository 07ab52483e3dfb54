// An exchange the proxy forwarded, as the judges read it (spec/judges/exchange.ts): the
// body decoded as its Content-Encoding says, or why a client could not use the answer
// (its body cut short, an encoding that does not decode or that clients do not decode,
// no answer at all once the request left), which the `readable` judge fails. Only what
// says nothing about the upstream is not judged: a client that went away, an upstream
// that could not be reached, a body over the size limit or the proxy's budget. Every
// reason is one of a few fixed sentences, whatever the values, so their count is bounded.
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { answerTime, type Exchange as Judged, type Unreadable } from '../../spec/judges/exchange.ts';
import { parseJson } from '../transport/http.ts';
import type { Exchange } from './forward.ts';

/** The codings the proxy decodes, as a client does. */
const DECODERS: Record<string, ((body: Buffer, o: { maxOutputLength: number }) => Buffer) | undefined> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/** Why an exchange is forwarded but not judged: what it says nothing about the upstream. */
export const NOT_JUDGED_BECAUSE = {
  aborted: 'cut off (the client went away first)',
  unreachable: 'with no answer: the upstream could not be reached',
  budget: 'while the judge had fallen behind (over what the proxy holds)',
  size: (limit: number) => `over ${limit} bytes (--max-body)`,
  decodedSize: (limit: number) => `over ${limit} bytes once decoded (--max-body)`,
  accepted: 'in a Content-Encoding the client accepts but the proxy cannot decode',
} as const;

/** A value from the upstream shown in a sentence: short and one line. */
const shown = (value: string) => JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);

/** A body decoded as its Content-Encoding says (codings applied in order, undone in reverse). */
function decode(
  body: Buffer,
  encoding: string | undefined,
  accepted: string | undefined,
  limit: number,
): Buffer | Unreadable | string {
  const codings = (encoding ?? '')
    .toLowerCase()
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c && c !== 'identity');
  let out = body;
  for (const coding of codings.reverse()) {
    const decoder = DECODERS[coding];
    if (!decoder) {
      const acceptedCodings = (accepted ?? '')
        .toLowerCase()
        .split(',')
        .map((c) => c.split(';')[0]!.trim());
      if (acceptedCodings.includes(coding)) return NOT_JUDGED_BECAUSE.accepted;
      return {
        kind: 'unknown-encoding',
        detail: `its body is encoded as ${shown(coding)}, which clients do not decode`,
      };
    }
    try {
      out = decoder(out, { maxOutputLength: limit });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? (err as Error).name;
      if (code === 'ERR_BUFFER_TOO_LARGE') return NOT_JUDGED_BECAUSE.decodedSize(limit);
      return { kind: 'undecodable', detail: `its body does not decode as ${coding} (${code})` };
    }
  }
  return out;
}

/** Why the upstream's body stopped short, or no answer came. */
function unreadableOf(ex: Exchange, timeoutMs: number): Unreadable {
  const { code } = ex.error!;
  const timedOut = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
  if (!ex.response) {
    return {
      kind: 'no-answer',
      detail: timedOut ? `none within ${timeoutMs} ms (${code})` : `the connection closed before an answer (${code})`,
    };
  }
  const length = ex.response.headers['content-length'];
  const of = length && /^\d+$/.test(length) ? ` of the ${length} its Content-Length says` : '';
  return {
    kind: 'cut',
    detail: timedOut
      ? `its body stopped after ${ex.response.bytes} bytes${of}: nothing more within ${timeoutMs} ms (${code})`
      : `the connection closed after ${ex.response.bytes} bytes of its body${of} (${code})`,
  };
}

/** An exchange as the judges read it, or why it is not judged. */
export function readExchange(
  ex: Exchange,
  limit: number,
  timeoutMs: number,
): { judged: Judged; request: { upstreamUrl: string; body?: string } } | string {
  if (ex.aborted) return NOT_JUDGED_BECAUSE.aborted;
  if (ex.error?.connecting) return NOT_JUDGED_BECAUSE.unreachable;
  const res = ex.response;
  let unreadable: Unreadable | undefined;
  let decoded: Buffer = Buffer.alloc(0);
  if (ex.error) unreadable = unreadableOf(ex, timeoutMs);
  else if (res && !res.body && res.bytes > 0)
    return res.notKept === 'budget' ? NOT_JUDGED_BECAUSE.budget : NOT_JUDGED_BECAUSE.size(limit);
  else if (res) {
    const d = decode(res.body ?? decoded, res.headers['content-encoding'], ex.requestHeaders['accept-encoding'], limit);
    if (typeof d === 'string') return d;
    if (Buffer.isBuffer(d)) decoded = d;
    else unreadable = d;
  }
  const type = ex.requestHeaders['content-type'] ?? '';
  const body = ex.requestBody && /json|text|form/i.test(type) ? ex.requestBody.toString('utf8') : undefined;
  let text: string | undefined;
  let json: { value: unknown } | undefined;
  const headers = res?.headers ?? {};
  const judged: Judged = {
    request: { method: ex.method, target: ex.path, headers: ex.requestHeaders, ...(body ? { body } : {}) },
    answer: {
      status: res?.status ?? 0,
      headers,
      // Read as text and parsed only when a judge reads them: an answer whose verdicts are known needs neither.
      get text() {
        return (text ??= unreadable ? '' : decoded.toString('utf8'));
      },
      get json() {
        return (json ??= { value: parseJson(this.text) }).value;
      },
      ...(unreadable ? { unreadable } : {}),
    },
    at: answerTime(headers),
  };
  return { judged, request: { upstreamUrl: ex.upstreamUrl, ...(body ? { body } : {}) } };
}
