// `generated:` requests generated from the spec (spec/edge-requests.ts, on the fuzzer's
// generator), seeded: per operation that does not write and per kind of oddity (a
// parameter sent twice, 4-byte UTF-8 and control characters, empty values, parameters
// other operations take, percent-encoded characters in path parameters), a few valid
// requests with that oddity. The registry's judges hold each to a status the operation
// declares, JSON of the declared schema, no 5xx and no leak; a request that only spells
// another one differently must be answered alike (the `spelling` comparison). The first failure of a check is
// shrunk by fast-check to the smallest request that still fails, within a few requests,
// and that one is reported. The same `--seed` sends the same requests.
import fc from 'fast-check';
import { EDGE_KINDS, edgeCases, type EdgeCase, type EdgeKind } from '../../spec/edge-requests.ts';
import { spelling } from '../../spec/judges/comparisons.ts';
import type { Operation } from '../../spec/model.ts';
import type { Provenance } from '../../spec/provenance.ts';
import { judgedExchange } from '../run/judging.ts';
import type { CheckResult } from '../shared/recorder.ts';
import type { Exchange } from '../transport/transport.ts';
import { skip } from './skip.ts';
import { pingsOneServer } from './request-paths.ts';
import { family, type GivenFor } from './run-parts.ts';

const NEEDS = ['spec', 'scope', 'judging', 'credentials', 'http', 'reads', 'sample', 'seed'] as const;
type Run = GivenFor<typeof NEEDS>;

/**
 * Answering odd input sensibly is this project's rule (bad input gets a clear answer, never a 500), not the interface
 * document's.
 */
export const GENERATED_LEVEL: Provenance = 'assumed';

/** Requests tried per check before it passes. */
export const CASES_PER_CHECK = 5;
/** Requests a check may spend shrinking its first failure. */
export const SHRINK_REQUESTS = 30;

export const KIND_NAMES: Record<EdgeKind, string> = {
  repeated: 'a query parameter sent twice',
  unicode: 'values with 4-byte UTF-8 and control characters',
  empty: 'query parameters left empty',
  foreign: 'query parameters other operations take',
  encoded: 'path parameters with percent-encoded characters, answered like the plain ones',
};

export const checkName = (kind: EdgeKind) =>
  `generated: ${KIND_NAMES[kind]}: a declared status, JSON, no 5xx and no leak`;

/** A check's own seed, from the run's: one operation or kind more does not change the others' requests. */
function seedOf(seed: number, ...parts: string[]): number {
  let h = 2166136261 ^ seed;
  for (const c of parts.join('\u0000')) h = Math.imul(h ^ c.codePointAt(0)!, 16777619);
  return h | 0;
}

/** What a generated request's answer is judged by: the status it declares, JSON, its schema, no 5xx, no leak. */
const ABOUT = ['server-error', 'declared-status', 'json', 'schema', 'hygiene'];

interface Verdict {
  exchange: Exchange;
  result: CheckResult;
}

/** The answer to one generated request judged (`plain`: the answer to the same request spelt plainly). */
function judged(run: Run, c: { op: Operation; check: string }, exchange: Exchange, plain?: Exchange): Verdict {
  const same = plain?.response && exchange.response;
  if (same) run.judging.compared(spelling.name, c.op);
  const more = same
    ? spelling.compare(
        run.judging.ctx,
        judgedExchange(exchange.request, exchange.response!),
        judgedExchange(plain.request, plain.response!),
      )
    : [];
  const result = run.judging.case({ ...c, level: GENERATED_LEVEL, about: ABOUT }, exchange, more);
  return { exchange, result };
}

/** One kind of oddity on one operation: a seeded property, its first failure shrunk. */
async function property(
  run: Run,
  op: Operation,
  kind: EdgeKind,
  { cases, headers }: { cases: fc.Arbitrary<EdgeCase>; headers: Record<string, string> },
): Promise<CheckResult[]> {
  const check = checkName(kind);
  const seed = seedOf(run.seed, op.operationId, kind);
  const seen = new Map<string, Exchange>();
  let sent = 0;
  let shrinking = 0;
  let first: Verdict | undefined;
  const send = async (path: string): Promise<Exchange> => {
    const known = seen.get(path);
    if (known) return known;
    const exchange = await run.http.send({ method: op.method, url: run.http.url(path), headers });
    if (!exchange.skipped) sent++;
    seen.set(path, exchange);
    return exchange;
  };
  const verdicts = new Map<string, Verdict>();
  const fails = async (c: EdgeCase): Promise<boolean> => {
    if (!verdicts.has(c.path)) {
      // Past the shrinking allowance, a request not sent yet counts as passing: the shrinker keeps the smallest failure
      // it has.
      if (first && shrinking >= SHRINK_REQUESTS) return false;
      if (first) shrinking++;
      const exchange = await send(c.path);
      if (exchange.skipped) return false;
      verdicts.set(c.path, judged(run, { op, check }, exchange, c.same === undefined ? undefined : await send(c.same)));
    }
    const v = verdicts.get(c.path)!;
    if (v.result.status === 'fail') first ??= v;
    return v.result.status === 'fail';
  };
  const details = await fc.check(
    fc.asyncProperty(cases, async (c) => !(await fails(c))),
    { seed, numRuns: CASES_PER_CHECK },
  );
  const level = GENERATED_LEVEL;
  if (!details.failed) {
    if (!sent)
      return skip(run.scope, { op, check, level, reason: [...seen.values()][0]?.skipped ?? 'no request was sent' });
    const message = `${sent} generated requests (seed ${run.seed})`;
    return [
      {
        operationId: op.operationId,
        method: op.method,
        route: op.path,
        check,
        provenance: level,
        status: 'pass',
        message,
      },
    ];
  }
  const smallest = verdicts.get(details.counterexample![0].path) ?? first;
  // Judging threw rather than answered: the suite's own fault, said as such.
  if (!smallest) {
    const message = `internal error in the contract suite: ${String(details.errorInstance)}`;
    return [{ operationId: op.operationId, check, provenance: level, status: 'fail', message }];
  }
  const from =
    first && first !== smallest
      ? `; shrunk in ${details.numShrinks} steps from ${first.exchange.request.method} ` +
        `${first.exchange.request.url.slice(run.http.baseUrl.length)}`
      : '';
  const declared = [...op.responses.keys()].filter((s) => s < 500).join(', ');
  const spelt = kind === 'encoded' ? ', the status of the same request spelt plainly' : '';
  return [
    {
      ...smallest.result,
      expected: `a status ${op.method} ${op.path} declares (${declared}), JSON, no leak${spelt}`,
      message: `${smallest.result.message} (seed ${run.seed}${from})`,
    },
  ];
}

async function generated(op: Operation, run: Run): Promise<CheckResult[]> {
  if (op.isWrite || !run.scope.wants(GENERATED_LEVEL)) return [];
  const headers = op.schemes.length ? run.credentials.forOperation(op) : run.reads.headers;
  // A ping is aimed at a server the target lists, so that a plain request of it succeeds.
  const server = pingsOneServer(op) ? await run.sample?.aServer() : undefined;
  const pathValues = server
    ? { address: `${server.address}:${server.port}`, host: server.address, port: String(server.port) }
    : undefined;
  const out: CheckResult[] = [];
  for (const kind of EDGE_KINDS) {
    const cases = edgeCases(run.spec, op, kind, pathValues ? { pathValues } : {});
    if (!cases) continue;
    if (!headers)
      out.push(
        ...skip(run.scope, {
          op,
          check: checkName(kind),
          level: GENERATED_LEVEL,
          reason: `no credentials for ${op.allowedSchemes.join(' or ')}`,
        }),
      );
    else out.push(...(await property(run, op, kind, { cases, headers })));
  }
  return out;
}

export const generatedFamily = family({ name: 'generated', needs: NEEDS, perOperation: generated });
