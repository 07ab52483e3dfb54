// `sample:` pings a sample of the servers the search listed, through every ping form the
// spec declares: each must be found (a listed server is indexed) and answered with a
// valid PingResponse about that very server; once, by host alone, for a server on the
// default port.
import { deref } from '../../../spec/load.ts';
import type { Operation } from '../../../spec/model.ts';
import { provenanceOf, weakest, type Provenance } from '../../../spec/provenance.ts';
import type { CheckResult } from '../../kit/recorder.ts';
import type { HttpResponse } from '../../transport/http.ts';
import { expectAnswer } from '../expect.ts';
import { pingPath, pingsOneServer, type Server } from '../request-paths.ts';
import { family, type Given, type GivenFor } from '../run-kit.ts';

const NEEDS = ['spec', 'scope', 'judge', 'credentials', 'reads', 'sample'] as const;
type Run = GivenFor<typeof NEEDS>;

/** Servers pinged through each ping form; the sample keeps room in the budget for them. */
export const PINGED_SERVERS = 6;

function aboutServer(res: HttpResponse, server: Server): string[] {
  const body = res.json as
    | { status?: unknown; refresh?: unknown; server?: { address?: unknown; port?: unknown } }
    | undefined;
  const problems: string[] = [];
  const s = body?.server;
  if (
    typeof s?.address === 'string' &&
    (s.address.toLowerCase() !== server.address.toLowerCase() || s.port !== server.port)
  ) {
    problems.push(`the answer is about ${s.address}:${String(s.port)}, not ${server.address}:${server.port}`);
  }
  // PingResponse.refresh: "True exactly when status is refreshing".
  if (
    typeof body?.refresh === 'boolean' &&
    typeof body.status === 'string' &&
    body.refresh !== (body.status === 'refreshing')
  ) {
    problems.push(`refresh is ${body.refresh} while status is '${body.status}'`);
  }
  return problems;
}

function pingProvenance(run: Given<'spec'>, op: Operation): Provenance {
  return weakest(op.provenance, provenanceOf(deref(run.spec.doc, op.responses.get(op.successStatus)?.schema)));
}

/** The selected operations that ping one server, whose checks the run's --provenance wants. */
export function pingOperations(run: Given<'spec' | 'scope'>): Operation[] {
  return run.spec.operations.filter(
    (o) => run.scope.selected(o) && pingsOneServer(o) && run.scope.wants(pingProvenance(run, o)),
  );
}

async function pingSample(op: Operation, run: Run): Promise<CheckResult[]> {
  const sample = run.sample;
  if (!sample || !pingOperations(run).includes(op)) return [];
  await sample.seed();
  const servers = sample.pickServers(PINGED_SERVERS);
  const level = pingProvenance(run, op);
  const defaultPort = run.spec.limits.defaultPort;
  const out: CheckResult[] = [];
  let hostOnlyDone = false;
  for (const [i, row] of servers.entries()) {
    if (typeof row.address !== 'string' || typeof row.port !== 'number') continue;
    const server = { address: row.address, port: row.port };
    const forms = [
      { path: pingPath(op, server), check: `sample: listed server ${i + 1} of ${servers.length} answers its ping` },
    ];
    // The host alone means the default port: once, for a server that listens there.
    if (!hostOnlyDone && server.port === defaultPort && op.path.includes('{address}')) {
      forms.push({
        path: pingPath(op, server, true),
        check: 'sample: a listed server on the default port answers its ping by host alone',
      });
      hostOnlyDone = true;
    }
    for (const { path, check } of forms) {
      const exchange = await run.reads.get(op, {}, { path });
      sample.pinged++;
      out.push(
        expectAnswer(run, {
          op,
          check,
          level,
          exchange,
          status: op.successStatus,
          expected: `${op.successStatus}, a PingResponse about ${server.address}:${server.port}`,
          extra: (res) => (res.status === op.successStatus ? aboutServer(res, server) : []),
        }),
      );
    }
  }
  return out;
}

export const pingFamily = family({ name: 'ping', needs: NEEDS, perOperation: pingSample });
