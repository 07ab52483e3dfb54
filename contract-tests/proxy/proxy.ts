// The validation proxy put together: a socket that forwards every request to the
// upstream (forward.ts), a queue the answers wait in once they are sent, the judge that
// empties it between requests (judge-traffic.ts), the recorder (dataset-recorder.ts), and
// `GET /__proxy/report`, the report so far as the suite's JSON. Judging never holds an
// answer back: bytes reach the client as they stream, and the judge reads its copy
// afterwards. Memory stays bounded: a body over the size limit is forwarded and counted
// as not judged; answers waiting for the judge past PENDING_LIMIT bytes are counted as
// not judged too ("the judge fell behind"), never queued without end.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { loadFixtures } from '../../fixtures/load.ts';
import { answerTime, type Exchange as Judged } from '../../spec/judges/exchange.ts';
import { cookieValue } from '../../spec/judges/credentials.ts';
import { loadModel } from '../../spec/model.ts';
import type { Provenance } from '../../spec/provenance.ts';
import { nameSecrets, rememberSecret } from '../kit/mask.ts';
import { jsonText } from '../reports/json.ts';
import { outcomeOf, type RunOutcome } from '../reports/outcome.ts';
import { parseJson } from '../transport/http.ts';
import { DatasetRecorder, type Recording } from './dataset-recorder.ts';
import { forwarder, type Exchange } from './forward.ts';
import { TrafficJudge } from './judge-traffic.ts';
import { VerdictCache } from './verdict-cache.ts';

/** Bytes of answers waiting for the judge before new ones are counted as not judged. */
export const PENDING_LIMIT = 64 * 2 ** 20;
/** A body up to this size is judged (8 MiB: a page of 500 rows with favicons fits). */
export const DEFAULT_MAX_BODY = 8 * 2 ** 20;
/** At most this many credentials are remembered to keep them out of a recording. */
const SECRETS_KEPT = 1000;

export interface ProxyOptions {
  /** The upstream's base URL, `/api/v0.1` included. */
  upstream: string;
  port?: number;
  host?: string;
  provenance?: Provenance;
  /** Keep the public answers for a dataset (`recording()`). */
  record?: boolean;
  maxBodyBytes?: number;
  spec?: string;
  /** One line per new violation. */
  log?: (line: string) => void;
}

export interface RunningProxy {
  /** `http://127.0.0.1:4020` */
  origin: string;
  /** The API through the proxy: `http://127.0.0.1:4020/api/v0.1`. */
  baseUrl: string;
  /** The report so far. */
  outcome(): RunOutcome;
  /** Resolves once every answer sent so far is judged. */
  judged(): Promise<void>;
  recording(): Recording | undefined;
  /** Stops accepting, lets requests in flight finish (at most `graceMs`), judges what is left. */
  close(graceMs?: number): Promise<void>;
}

/** A body as the judge reads it: decoded as its Content-Encoding says, within the size limit. */
function decode(body: Buffer, encoding: string | undefined, limit: number): Buffer | string {
  const e = (encoding ?? '').trim().toLowerCase();
  try {
    if (!e || e === 'identity') return body;
    if (e === 'gzip' || e === 'x-gzip') return gunzipSync(body, { maxOutputLength: limit });
    if (e === 'deflate') return inflateSync(body, { maxOutputLength: limit });
    if (e === 'br') return brotliDecompressSync(body, { maxOutputLength: limit });
  } catch (err) {
    return `its ${e} body could not be decoded (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  }
  return `encoded as ${e}, which the proxy does not decode`;
}

/** An exchange as the judge reads it, or why it cannot be judged. */
export function readExchange(
  ex: Exchange,
  limit: number,
): { judged: Judged; request: { upstreamUrl: string; body?: string } } | string {
  const res = ex.response;
  if (ex.error || !res) return 'with no answer from the upstream';
  if (ex.aborted) return 'cut off (the client went away first)';
  if (!res.body && res.bytes > 0) return `over ${limit} bytes`;
  const decoded = decode(res.body ?? Buffer.alloc(0), res.headers['content-encoding'], limit);
  if (typeof decoded === 'string') return decoded;
  const type = ex.requestHeaders['content-type'] ?? '';
  const body = ex.requestBody && /json|text|form/i.test(type) ? ex.requestBody.toString('utf8') : undefined;
  let text: string | undefined;
  let json: { value: unknown } | undefined;
  const judged: Judged = {
    request: { method: ex.method, target: ex.path, headers: ex.requestHeaders, ...(body ? { body } : {}) },
    answer: {
      status: res.status,
      headers: res.headers,
      // Read as text and parsed only when a judge reads them: an answer whose verdicts are known needs neither.
      get text() {
        return (text ??= decoded.toString('utf8'));
      },
      get json() {
        return (json ??= { value: parseJson(this.text) }).value;
      },
    },
    at: answerTime(res.headers),
  };
  return { judged, request: { upstreamUrl: ex.upstreamUrl, ...(body ? { body } : {}) } };
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const model = loadModel(options.spec);
  const level = options.provenance ?? 'assumed';
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const upstream = new URL(options.upstream);
  const log = options.log ?? ((line: string) => console.log(line));
  // Fixture credentials print as their names, as in the suite's reports.
  nameSecrets(loadFixtures(undefined, model).credentials);
  const traffic = new TrafficJudge(model, level, log);
  const recorder = options.record
    ? new DatasetRecorder(model, `${upstream.origin}${upstream.pathname}`.replace(/\/+$/, ''))
    : undefined;
  const secrets = new Set<string>();
  const startedAt = new Date();

  const queue: Exchange[] = [];
  let pendingBytes = 0;
  let draining = false;
  let idle: (() => void)[] = [];

  // The credentials requests carry (an API key, the API's session cookie; not other cookies):
  // masked wherever a log line or report would show them (an answer echoing one), and kept
  // out of a recording. At most SECRETS_KEPT: the set is keyed by what clients send.
  const remember = (ex: Exchange) => {
    const h = ex.requestHeaders;
    for (const value of [h.authorization?.split(' ').pop(), cookieValue(h.cookie, model.cookieName)]) {
      if (!value || secrets.has(value) || secrets.size >= SECRETS_KEPT) continue;
      secrets.add(value);
      rememberSecret(value);
    }
  };

  const verdicts = new VerdictCache(model.cookieName);
  const judgeOne = (ex: Exchange) => {
    // A recording reads every answer's rows: no shortcut then.
    const seen = recorder ? undefined : verdicts.lookup(ex);
    const read = readExchange(ex, limit);
    if (typeof read === 'string') return traffic.skipped(ex.method, ex.path, read);
    const remembered = traffic.judgeOne(read.judged, read.request, seen);
    if (!seen && !recorder) verdicts.keep(ex, remembered);
    const op = traffic.ctx.operation(read.judged);
    const { status, json } = read.judged.answer;
    if (recorder && DatasetRecorder.records(op))
      recorder.note(op, { path: ex.path, status, json, answeredAt: read.judged.at });
  };

  const drain = () => {
    const until = performance.now() + 10;
    while (queue.length && performance.now() < until) {
      const ex = queue.shift()!;
      pendingBytes -= ex.response?.body?.length ?? 0;
      try {
        judgeOne(ex);
      } catch (err) {
        // A judge that trips over an answer must not take the proxy, its counts and its reports with it.
        traffic.skipped(ex.method, ex.path, `the judge failed on it (${(err as Error).message.slice(0, 120)})`);
      }
    }
    if (queue.length) setImmediate(drain);
    else {
      draining = false;
      const waiting = idle;
      idle = [];
      for (const w of waiting) w();
    }
  };

  const onExchange = (ex: Exchange) => {
    if (!ex.inApi) return;
    remember(ex);
    const bytes = ex.response?.body?.length ?? 0;
    if (pendingBytes + bytes > PENDING_LIMIT)
      return traffic.skipped(ex.method, ex.path, 'while the judge had fallen behind');
    pendingBytes += bytes;
    queue.push(ex);
    if (!draining) {
      draining = true;
      setImmediate(drain);
    }
  };

  const forward = forwarder({ url: upstream, basePath: model.basePath }, limit, onExchange);
  let origin = '';
  const outcome = (): RunOutcome => {
    const { judged, notJudged } = traffic.counts();
    const results = traffic.results();
    return outcomeOf({
      results,
      // The operations the traffic reached, in the spec's order; the rest are not listed as "no checks".
      selected: [...new Set(results.map((r) => r.operationId))],
      operations: model.operations.map((o) => ({
        operationId: o.operationId,
        method: o.method,
        path: o.path,
        declares404: o.responses.has(404),
        isProtected: !o.isPublic,
      })),
      settings: [
        `Validation proxy: ${origin}${model.basePath} -> ${upstream.origin}${upstream.pathname.replace(/\/+$/, '')}`,
        `  checks: every answer against spec/openapi.yaml at ${level === 'assumed' ? 'every level' : `${level} and harder`}`,
        ...(recorder
          ? [
              `  recording: ${recorder.size.servers} servers from ${recorder.size.answers} answers so far (the file is written on exit)`,
            ]
          : []),
      ],
      figures: [`Answers: ${judged} judged, ${notJudged} forwarded but not judged`],
      startedAt,
      durationMs: Date.now() - startedAt.getTime(),
    });
  };

  const server: Server = createServer((req, res) => {
    if ((req.url ?? '').startsWith('/__proxy/')) {
      const path = req.url!.split('?')[0];
      const [status, body] =
        path !== '/__proxy/report'
          ? [
              404,
              JSON.stringify({ success: false, message: `Not Found: the proxy's own routes are GET /__proxy/report` }),
            ]
          : req.method !== 'GET' && req.method !== 'HEAD'
            ? [405, JSON.stringify({ success: false, message: 'Method Not Allowed: GET /__proxy/report' })]
            : [200, jsonText(outcome())];
      res.writeHead(status, {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
        ...(status === 405 ? { Allow: 'GET, HEAD' } : {}),
      });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    forward.forward(req, res);
  });
  // Requests may take as long as the upstream takes; idle connections are closed as Node does.
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  origin = `http://${host}:${address.port}`;

  const judged = () => (draining || queue.length ? new Promise<void>((r) => idle.push(r)) : Promise.resolve());
  return {
    origin,
    baseUrl: `${origin}${model.basePath}`,
    outcome,
    judged,
    recording: () => recorder?.recording(secrets),
    async close(graceMs = 5_000) {
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearTimeout(timer);
      await forward.close();
      await judged();
    },
  };
}
