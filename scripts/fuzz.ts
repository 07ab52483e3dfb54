// `npm run fuzz`: many requests generated from the spec, sent to the mock over a real
// socket, each answer judged against the spec. The property test in `npm test`
// (mocks/core/app.fuzz.test.ts) runs 5,000 through app.request(); this runs as many as you
// like against the built mock in its own process, as users run it, plus requests only
// a raw socket can send (a lowercase method, a bad Host, broken chunking, a URL or a
// header over the parser's limit). Every finding is printed with a line that repeats
// it: curl for a request curl can send, printf | nc for a raw one.
//
//   npm run fuzz                              20,000 requests, seed 1
//   npm run fuzz -- --count 100000 --seed 7
//   npm run fuzz -- --base-url http://127.0.0.1:4010   a mock you started (loopback only)
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { programFlags, type FlagTable } from '../cli/flags.ts';
import { loadFixtures } from '../fixtures/load.ts';
import { steeredBy } from '../mocks/core/steering.ts';
import { errorBody } from '../spec/judges/error-body.ts';
import { type Exchange, lowerCased } from '../spec/judges/exchange.ts';
import { json } from '../spec/judges/json.ts';
import { findingsOf, JudgeContext } from '../spec/judges/registry.ts';
import { serverError } from '../spec/judges/server-error.ts';
import { loadModel } from '../spec/model.ts';
import { curlLine, requestArbitrary, type FuzzRequest } from '../spec/request-arbitraries.ts';
import { rawConnection } from '../testing/raw-http.ts';
import { startServer, type Running } from './bench-servers.ts';

const FLAGS = {
  count: { type: 'integer', value: 'N', default: 20_000, min: 1, max: 100_000_000, help: 'requests to send' },
  seed: {
    type: 'integer',
    value: 'N',
    default: 1,
    min: 1,
    max: 2 ** 31 - 1,
    help: "the generator's seed: the same seed sends the same requests",
  },
  'base-url': {
    type: 'string',
    value: 'URL',
    help: 'fuzz a mock already running there (loopback only); default: start dist/mock.mjs',
  },
  concurrency: { type: 'integer', value: 'N', default: 8, min: 1, max: 1024, help: 'requests in flight at once' },
  timeout: {
    type: 'integer',
    value: 'MS',
    default: 10_000,
    min: 1,
    max: 600_000,
    help: 'an answer slower than this is a finding',
  },
  out: { type: 'string', value: 'FILE', default: 'reports/fuzz.json', help: 'every finding, as JSON' },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
} as const satisfies FlagTable;

const args = programFlags('fuzz', 'npm run fuzz -- [options]', FLAGS);
const COUNT = args.count;
const SEED = args.seed;
const CONCURRENCY = args.concurrency;
const TIMEOUT_MS = args.timeout;

interface Finding {
  /** Which request of the run (several findings can share one). */
  request: number;
  /** The judge that found it (spec/judges/registry.ts), or `timeout` / `transport` when no answer came. */
  kind: string;
  /** How firm the promise it breaks is, for a judge's finding. */
  level?: string;
  detail: string;
  repro: string;
  /** What came back: status, headers and the start of the body. */
  answer?: string;
}

// ---------------------------------------------------------------------------------------
// Raw requests: what fetch and node:http refuse to send, and Node's parser refuses to read.

interface RawRequest {
  raw: string;
  what: string;
}

const rawArbitrary: fc.Arbitrary<RawRequest> = fc.oneof(
  fc
    .constantFrom('get', 'Get', 'pOST', 'G E T', 'GETT', '123')
    .map((m) => ({ what: `method ${m}`, raw: `${m} /api/v0.1/metadata/regions HTTP/1.1\r\nHost: x\r\n\r\n` })),
  fc.constantFrom('bad host!', '', ' ', 'a b', '[::1', 'x:99999', '%00').map((h) => ({
    what: `Host ${JSON.stringify(h)}`,
    raw: `GET /api/v0.1/servers/find?limit=1 HTTP/1.1\r\nHost: ${h}\r\n\r\n`,
  })),
  fc.constant({ what: 'no Host', raw: 'GET /api/v0.1/servers/find?limit=1 HTTP/1.1\r\n\r\n' }),
  fc.integer({ min: 15_000, max: 40_000 }).map((n) => ({
    what: `URL of ${n} bytes`,
    raw: `GET /api/v0.1/servers/find?motd=${'a'.repeat(n)} HTTP/1.1\r\nHost: x\r\n\r\n`,
  })),
  fc.integer({ min: 15_000, max: 40_000 }).map((n) => ({
    what: `header of ${n} bytes`,
    raw: `GET /api/v0.1/servers/find HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(n)}\r\n\r\n`,
  })),
  fc.constantFrom('zz', '-1', `1;${'e'.repeat(20_000)}`, 'ffffffffffffffffffff').map((c) => ({
    what: `chunk size ${c.slice(0, 12)}`,
    raw:
      `POST /api/v0.1/user/apikeys HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n` +
      `${c}\r\nabc\r\n0\r\n\r\n`,
  })),
  fc.constant({
    what: 'Content-Length and chunked',
    raw:
      'POST /api/v0.1/user/apikeys HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: ' +
      'chunked\r\n\r\n0\r\n\r\n',
  }),
  fc
    .constantFrom('HTTP/7.1', 'HTTP/1', 'HTTPS/1.1', 'http/1.1')
    .map((v) => ({ what: `version ${v}`, raw: `GET /api/v0.1/metadata/regions ${v}\r\nHost: x\r\n\r\n` })),
  fc.constantFrom('Bad Header: 1', 'X: a\u0001b', ': empty', 'X-A\t: 1').map((h) => ({
    what: `header ${JSON.stringify(h)}`,
    raw: `GET /api/v0.1/metadata/regions HTTP/1.1\r\nHost: x\r\n${h}\r\n\r\n`,
  })),
);

/** An answer as the fuzzer reads it. */
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A request and its answer as the judges read them; a `Prefer: code=` the mock honours is a status asked for. */
function judged(
  req: { method: string; path: string; headers: Record<string, string>; body?: string; host?: string },
  res: Answer,
): Exchange {
  let parsed: unknown;
  try {
    parsed = res.body === '' ? undefined : JSON.parse(res.body);
  } catch {
    parsed = undefined;
  }
  const headers = lowerCased(req.headers);
  const steered = steeredBy(headers, req.host);
  return {
    request: { method: req.method, target: req.path, headers, ...(req.body !== undefined ? { body: req.body } : {}) },
    answer: { status: res.status, headers: lowerCased(res.headers), text: res.body, json: parsed },
    at: Date.now(),
    ...(steered ? { known: steered } : {}),
  };
}

async function sendRaw(port: number, req: RawRequest): Promise<Answer | Error> {
  try {
    const conn = await rawConnection(port);
    conn.write(req.raw);
    const timer = setTimeout(() => conn.destroy(), TIMEOUT_MS);
    try {
      return await conn.response();
    } finally {
      clearTimeout(timer);
      conn.destroy();
    }
  } catch (err) {
    return err as Error;
  }
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const printfLine = (raw: string, port: number) => {
  const shown =
    raw.length > 300
      ? `${raw.slice(0, 200)}…(${raw.length} bytes; see ${args.out})`
      : raw.replace(/\r/g, '\\r').replace(/\n/g, '\\n');
  return `printf '%s' ${shellQuote(shown)} | nc 127.0.0.1 ${port}`;
};

// ---------------------------------------------------------------------------------------
// Requests through node:http

function send(base: URL, agent: Agent, req: FuzzRequest): Promise<Answer | Error> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (v: Answer | Error) => {
      if (!settled) resolve(v);
      settled = true;
    };
    // node:http frames no body of its own on DELETE or OPTIONS: without a length the body
    // would be read as the next request on the connection.
    const headers = {
      ...req.headers,
      ...(req.host === undefined ? {} : { Host: req.host }),
      ...(req.body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(req.body)) }),
    };
    const r = request(
      { host: base.hostname, port: base.port, path: req.path, method: req.method, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers))
            if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
          done({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', done);
      },
    );
    // From the start, not from the last byte: a frozen server still accepts connections.
    const timer = setTimeout(
      () => r.destroy(Object.assign(new Error(`no answer in ${TIMEOUT_MS} ms`), { code: 'TIMEOUT' })),
      TIMEOUT_MS,
    );
    r.on('close', () => clearTimeout(timer));
    r.on('error', done);
    if (req.body !== undefined) r.write(req.body);
    r.end();
  });
}

function isLoopback(url: URL): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) || url.hostname.startsWith('127.');
}

async function main(): Promise<void> {
  const model = loadModel();
  const fixtures = loadFixtures();
  let server: Running | undefined;
  let baseUrl: string;
  if (args.baseUrl) {
    baseUrl = args.baseUrl.replace(/\/$/, '');
    if (!isLoopback(new URL(baseUrl))) {
      console.error(`fuzz: ${baseUrl} is not on this machine; the fuzzer only talks to loopback addresses`);
      process.exit(2);
    }
  } else {
    execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
    server = await startServer({ kind: 'mock' });
    baseUrl = server.base;
  }
  const base = new URL(baseUrl);
  const origin = base.origin;
  const port = Number(base.port || 80);
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const ctx = JudgeContext.of(model);
  const arbitrary = requestArbitrary(model, {
    credentials: fixtures.credentials.map((c) => ({ scheme: c.type, value: c.value })),
  });
  const findings: Finding[] = [];
  const statuses = new Map<string, number>();
  const bodyDir = args.out.replace(/\.json$/, '-bodies');
  const started = performance.now();
  // A server frozen by one request answers nothing after it: no use sending the rest.
  const GIVE_UP_AFTER = 2 * CONCURRENCY;
  let timeoutsInARow = 0;
  console.error(`fuzz: ${COUNT} requests, seed ${SEED}, against ${baseUrl}`);

  // A few in a hundred are raw; the rest go through node:http. Generated a thousand at a
  // time, each batch from its own seed, so memory stays flat however many are asked for.
  const BATCH = 1000;
  let sent = 0;
  for (let batch = 0; sent < COUNT; batch++) {
    const n = Math.min(BATCH, COUNT - sent);
    const rawCount = Math.round(n * 0.03);
    const reqs = fc.sample(arbitrary, { seed: SEED * 100_003 + batch, numRuns: n - rawCount });
    const raws = fc.sample(rawArbitrary, { seed: SEED * 100_003 + batch, numRuns: rawCount });
    const jobs: (() => Promise<void>)[] = [
      ...reqs.map((req, k) => async () => {
        const request = sent + k;
        const res = await send(base, agent, req);
        const repro = () => {
          if (req.body === undefined || req.body.length < 2000) return curlLine(origin, req);
          mkdirSync(bodyDir, { recursive: true });
          const file = `${bodyDir}/${findings.length}.body`;
          writeFileSync(file, req.body);
          return curlLine(origin, req, file);
        };
        if (res instanceof Error && (res as NodeJS.ErrnoException).code === 'TIMEOUT') timeoutsInARow++;
        else timeoutsInARow = 0;
        if (res instanceof Error) {
          findings.push({
            request,
            kind: (res as NodeJS.ErrnoException).code === 'TIMEOUT' ? 'timeout' : 'transport',
            detail: `${req.method} ${req.path.slice(0, 120)}: ${res.message}`,
            repro: repro(),
          });
          return;
        }
        const key = `${res.status}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        for (const f of findingsOf(judged(req, res), ctx))
          findings.push({
            kind: f.judge,
            detail: f.why,
            level: f.level,
            request,
            repro: repro(),
            answer: `${res.status} ${JSON.stringify(res.headers)} ${res.body.slice(0, 300)}`,
          });
      }),
      ...raws.map((raw, k) => async () => {
        const request = sent + reqs.length + k;
        const res = await sendRaw(port, raw);
        if (res instanceof Error) {
          findings.push({
            request,
            kind: 'transport',
            detail: `raw ${raw.what}: ${res.message.slice(0, 200)}`,
            repro: printfLine(raw.raw, port),
          });
          return;
        }
        statuses.set(`${res.status}`, (statuses.get(`${res.status}`) ?? 0) + 1);
        // What a request the server could not read as HTTP is owed: no 5xx, the error body in JSON.
        const rawExchange = judged({ method: 'RAW', path: model.basePath, headers: {} }, res);
        for (const f of findingsOf(rawExchange, ctx, [serverError, json, errorBody]))
          findings.push({
            kind: f.judge,
            level: f.level,
            request,
            detail: `raw ${raw.what}: ${f.why}`,
            repro: printfLine(raw.raw, port),
          });
      }),
    ];
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < jobs.length && timeoutsInARow < GIVE_UP_AFTER) await jobs[next++]!();
      }),
    );
    sent += n;
    if (timeoutsInARow >= GIVE_UP_AFTER) {
      console.error(
        `fuzz: the server stopped answering (${GIVE_UP_AFTER} timeouts in a row): stopping early; the first ` +
          `timeouts point at the request that froze it`,
      );
      break;
    }
    if (batch % 5 === 4) console.error(`fuzz: ${sent}/${COUNT} sent, ${findings.length} finding(s)`);
  }
  agent.destroy();
  await server?.stop();

  const seconds = (performance.now() - started) / 1000;
  /** Requests with at least one finding of this kind. */
  const byKind = (k: string) => new Set(findings.filter((f) => f.kind === k).map((f) => f.request)).size;
  mkdirSync(args.out.replace(/\/[^/]*$/, '') || '.', { recursive: true });
  writeFileSync(
    args.out,
    JSON.stringify(
      { count: COUNT, seed: SEED, baseUrl, seconds, statuses: Object.fromEntries(statuses), findings },
      null,
      2,
    ),
  );
  const shown = new Map<string, number>();
  for (const f of findings) {
    const n = (shown.get(f.kind) ?? 0) + 1;
    shown.set(f.kind, n);
    const line = f.repro.length > 500 ? `${f.repro.slice(0, 500)}… (whole line in ${args.out})` : f.repro;
    if (n <= 20) console.log(`[${f.kind}] request ${f.request}: ${f.detail}\n  repro: ${line}`);
    else if (n === 21) console.log(`[${f.kind}] ... more in ${args.out}`);
  }
  const statusList = [...statuses]
    .sort((a, b) => Number(a[0]) - Number(b[0]))
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
  console.log(
    `\nfuzz: ${Math.min(sent, COUNT)} of ${COUNT} requests (seed ${SEED}) in ${seconds.toFixed(1)} s against ` +
      `${baseUrl}\n` +
      `  requests with: ${byKind('5xx')} unexpected 5xx, ${byKind('not-json')} non-JSON answers, ` +
      `${byKind('error-shape')} errors out of shape, ` +
      `${byKind('schema')} schema failures, ${byKind('undeclared')} undeclared successes, ` +
      `${byKind('timeout')} timeouts, ${byKind('transport')} transport errors\n` +
      `  statuses: ${statusList}\n  details: ${args.out}`,
  );
  process.exitCode = findings.length ? 1 : 0;
}

main().catch((err: unknown) => {
  console.error(`fuzz: failed: ${(err as Error)?.stack ?? String(err)}`);
  process.exitCode = 2;
});
