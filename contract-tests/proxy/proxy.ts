// The validation proxy put together: a socket that answers only the hosts it is served on
// (as the mock: cli/allowed-hosts.ts) and forwards every other request to the upstream
// (forward.ts), a queue the answers wait in once they are sent, the judge that empties it
// between requests (judge-traffic.ts), the recorder (dataset-recorder.ts), the usage
// profile of `--consumer` (spec/usage-profile.ts: kinds and counts, never a header's value)
// and `GET /__proxy/report`, the report so far as the suite's JSON (`/__proxy/usage`, the
// profile). Judging never holds an answer back: bytes reach the client as they stream, and the judge reads its copy
// afterwards. What it holds is bounded: every copy of a body, in flight or waiting for
// the judge, is charged to one budget (HELD_LIMIT); past it an answer is forwarded and
// counted as not judged ("the judge fell behind"), never queued without end. The secrets
// requests present and answers create are remembered by the one mask (shared/mask.ts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostMatcher, hostnameOf } from '../../cli/allowed-hosts.ts';
import { loadFixtures } from '../../fixtures/load.ts';
import { carriedCredentials } from '../../spec/judges/credentials.ts';
import type { Exchange as Judged } from '../../spec/judges/exchange.ts';
import { loadModel, type SpecModel } from '../../spec/model.ts';
import type { Provenance } from '../../spec/provenance.ts';
import { UsageAccumulator, type UsageProfile, usageNoteOf } from '../../spec/usage-profile.ts';
import { hideSpecSecrets, nameSecrets, rememberSecret } from '../shared/mask.ts';
import { forTerminal } from '../reports/escape.ts';
import { jsonText } from '../reports/json.ts';
import { outcomeOf, type RunOutcome } from '../reports/outcome.ts';
import { DatasetRecorder, type Recording } from './dataset-recorder.ts';
import { DEFAULT_UPSTREAM_TIMEOUT_MS, type Exchange, forwarder, HeldBytes, originForm } from './forward.ts';
import { readExchange } from './read-exchange.ts';
import { TrafficJudge } from './judge-traffic.ts';
import { VerdictCache } from './verdict-cache.ts';

/** Bytes of copies the proxy holds at most: bodies in flight and answers waiting for the judge. */
export const HELD_LIMIT = 64 * 2 ** 20;
/** A body up to this size is judged (8 MiB: a page of 500 rows with favicons fits). */
export const DEFAULT_MAX_BODY = 8 * 2 ** 20;
/** Client connections at most; past it Node closes new ones. */
const MAX_CONNECTIONS = 1024;

export interface ProxyOptions {
  /** The upstream's base URL, `/api/v0.1` included. */
  upstream: string;
  port?: number;
  host?: string;
  /** Host names it answers besides loopback names, IP addresses and `host` (as the mock's --allowed-host). */
  allowedHosts?: readonly string[];
  provenance?: Provenance;
  /** Count what this consumer uses, as a usage profile (`usage()`, `GET /__proxy/usage`). */
  consumer?: string;
  /** Keep the public answers for a dataset, written to this file by `finishRecording()`. */
  record?: string;
  maxBodyBytes?: number;
  /** How long the upstream's headers, or the next bytes of its body, may take. */
  upstreamTimeoutMs?: number;
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
  /** Writes the recording (`record`), row by row; undefined without one. */
  finishRecording(): Recording | undefined;
  /** What the consumer used so far; undefined without `consumer`. */
  usage(): UsageProfile | undefined;
  /** Bytes of copies held now (in flight and waiting for the judge). */
  held(): number;
  /** Stops accepting, lets requests in flight finish (at most `graceMs`), judges what is left. */
  close(graceMs?: number): Promise<void>;
}

/** Names of the properties of a JSON value (at any depth) that the spec marks secret, with their string values. */
function secretValues(value: unknown, fields: ReadonlySet<string>, out: string[] = [], depth = 0): string[] {
  if (!value || typeof value !== 'object' || depth > 8) return out;
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string' && fields.has(k)) out.push(v);
    else if (v && typeof v === 'object') secretValues(v, fields, out, depth + 1);
  }
  return out;
}

/** The proxy's own answer (a refusal, its report), in the API's error shape when it is one. */
function answer(
  res: import('node:http').ServerResponse,
  method: string | undefined,
  status: number,
  body: string,
  extra: Record<string, string> = {},
) {
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'X-Content-Type-Options': 'nosniff',
    ...extra,
  });
  res.end(method === 'HEAD' ? undefined : body);
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const model: SpecModel = loadModel(options.spec);
  const level = options.provenance ?? 'assumed';
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const timeoutMs = options.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const upstream = new URL(options.upstream);
  const log = options.log ?? ((line: string) => console.log(line));
  // Fixture credentials print as their names, as in the suite's reports; the spec's secret fields and cookie are
  // hidden by shape.
  nameSecrets(loadFixtures(undefined, model).credentials);
  hideSpecSecrets(model);
  const traffic = new TrafficJudge(model, level, log);
  const recorder = options.record
    ? new DatasetRecorder(model, `${upstream.origin}${upstream.pathname}`.replace(/\/+$/, ''), options.record)
    : undefined;
  const usage = options.consumer ? new UsageAccumulator(options.consumer, { recordedBy: 'proxy', model }) : undefined;
  const startedAt = new Date();
  const held = new HeldBytes(HELD_LIMIT);
  const answers = hostMatcher([options.host ?? '127.0.0.1', ...(options.allowedHosts ?? [])]);

  const queue: Exchange[] = [];
  let draining = false;
  let idle: (() => void)[] = [];

  // The credentials a request presents the way the spec's schemes read them (never `Bearer null`): remembered when
  // it is judged or counted, so the mask holds them when its answer is shown.
  const presented = (headers: Record<string, string>) =>
    carriedCredentials(model, headers).presented.map((c) => c.secret);
  // The secrets an answer to a write creates (a new key's `format: password` field): hidden wherever they show up
  // later.
  const mayCreateSecrets = (method: string, status: number) =>
    method !== 'GET' && method !== 'HEAD' && status >= 200 && status < 300 && model.secretFields.size > 0;
  const learn = (judged: Judged) => {
    if (!mayCreateSecrets(judged.request.method, judged.answer.status)) return;
    for (const s of secretValues(judged.answer.json, model.secretFields)) rememberSecret(s);
  };

  const verdicts = new VerdictCache(model.cookieName);
  const judgeOne = (ex: Exchange) => {
    // The last clean answer over again, as sent: judged the same, so only counted (a recording reads every answer's
    // rows; an answer that may hold a new secret is read again, so the mask keeps it among the most recent).
    const again = recorder ? undefined : verdicts.again(ex);
    if (again && !mayCreateSecrets(ex.method, ex.response!.status)) {
      for (const secret of again.secrets) rememberSecret(secret);
      return traffic.again(again.known, again.volatile);
    }
    const secrets = presented(ex.requestHeaders);
    for (const secret of secrets) rememberSecret(secret);
    const known = recorder ? undefined : verdicts.lookup(ex);
    const read = readExchange(ex, limit, timeoutMs);
    if (typeof read === 'string') return traffic.skipped(ex.method, ex.path, read);
    learn(read.judged);
    const judged = traffic.judgeOne(read.judged, read.request, known);
    if (!recorder) verdicts.keep(ex, judged.known, judged.volatile, known !== undefined, secrets);
    if (!recorder) return;
    // Only a recording parses the body of an answer whose verdicts were known.
    const op = traffic.ctx.operation(read.judged);
    const { answer } = read.judged;
    if (!answer.unreadable && DatasetRecorder.records(op))
      recorder.note(op, { path: ex.path, status: answer.status, json: answer.json, answeredAt: read.judged.at });
  };

  const drain = () => {
    const until = performance.now() + 10;
    while (queue.length && performance.now() < until) {
      const ex = queue.shift()!;
      try {
        judgeOne(ex);
      } catch (err) {
        // An answer the judges trip over is a failure, not a skip; the proxy, its counts and its reports stay up.
        traffic.unjudgeable(ex.method, ex.path, err);
      } finally {
        held.give(ex.held);
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
    if (!ex.inApi) {
      held.give(ex.held);
      return;
    }
    // Every request to the API is used, judged or not (a skip, an answer over --max-body, none at all).
    if (usage) noteUsage(usage, ex);
    queue.push(ex);
    if (!draining) {
      draining = true;
      setImmediate(drain);
    }
  };

  const noteUsage = (into: UsageAccumulator, ex: Exchange) => {
    const request = {
      method: ex.method,
      url: ex.path,
      headers: ex.requestHeaders,
      ...(ex.requestBody?.length ? { body: ex.requestBody.toString('utf8') } : {}),
    };
    const note = usageNoteOf(model, request, ex.response?.status);
    if (note) into.note({ ...note, at: ex.startedAt });
  };

  const forward = forwarder({ url: upstream, basePath: model.basePath }, { limit, held, timeoutMs, onExchange });
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
        `  checks: every answer against spec/openapi.yaml at ${
          level === 'assumed' ? 'every level' : `${level} and harder`
        }`,
        ...(recorder
          ? [
              `  recording: ${recorder.size.servers} servers from ${recorder.size.answers} answers so far ` +
                '(the file is written on exit)',
            ]
          : []),
      ],
      figures: [`Answers: ${judged} judged, ${notJudged} forwarded but not judged`],
      startedAt,
      durationMs: Date.now() - startedAt.getTime(),
    });
  };

  const server: Server = createServer((req, res) => {
    // An absolute-form target names its host itself (RFC 9112 3.2.2); only its path goes on.
    const { path, authority } = originForm(req.url ?? '/');
    const host = authority ?? req.headers.host ?? '';
    if (!answers(host)) {
      // A page of another site reaching the upstream (and this report) by DNS rebinding: refused, as the mock
      // refuses it.
      const name = forTerminal(hostnameOf(host)).slice(0, 200);
      const message =
        "Forbidden: You don't have permission to access this resource. The validation proxy does not answer " +
        `the host '${name}': it answers loopback names, IP addresses and the hosts it is told (a page on another ` +
        `site could otherwise reach the upstream through it by DNS rebinding); if you call it by that name, start ` +
        `it with --allowed-host ${name}`;
      return answer(res, req.method, 403, JSON.stringify({ success: false, message }));
    }
    if (path.startsWith('/__proxy/')) {
      const route = path.split('?')[0];
      const profile = route === '/__proxy/usage' ? usage?.toJSON() : undefined;
      const [status, body] =
        route !== '/__proxy/report' && !profile
          ? [
              404,
              JSON.stringify({
                success: false,
                message:
                  "Not Found: the proxy's own routes are GET /__proxy/report and, with --consumer, GET /__proxy/usage",
              }),
            ]
          : req.method !== 'GET' && req.method !== 'HEAD'
            ? [405, JSON.stringify({ success: false, message: `Method Not Allowed: GET ${route}` })]
            : [200, profile ? JSON.stringify(profile) : jsonText(outcome())];
      return answer(res, req.method, status, body, status === 405 ? { Allow: 'GET, HEAD' } : {});
    }
    forward.forward(req, res, path);
  });
  // Receiving a whole request takes at most Node's default (300 s) and its headers 60 s; the
  // answer may take as long as the upstream's timeouts allow. Idle connections close as Node closes them.
  server.maxConnections = MAX_CONNECTIONS;
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
    finishRecording: () => recorder?.finish(),
    usage: () => usage?.toJSON(),
    held: () => held.held,
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
