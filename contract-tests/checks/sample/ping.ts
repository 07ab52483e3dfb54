// `sample:` pings a sample of the servers the search listed, through every ping form the
// spec declares, once by host alone for a server on the default port. The family says
// what it knows (the server exists: the search listed it; the answer is about it); the
// judges hold each answer to the success (`success`), about that very server (`about`),
// its fields consistent (`true-when`).
import { deref } from '../../../spec/load.ts';
import { STATUS_JUDGES } from '../../../spec/judges/registry.ts';
import type { Operation } from '../../../spec/model.ts';
import { provenanceOf, weakest, type Provenance } from '../../../spec/provenance.ts';
import type { CheckResult } from '../../shared/recorder.ts';
import { pingPath, pingsOneServer } from '../request-paths.ts';
import { family, type Given, type GivenFor } from '../run-parts.ts';

const NEEDS = ['spec', 'scope', 'judging', 'credentials', 'reads', 'sample'] as const;
type Run = GivenFor<typeof NEEDS>;

/** Servers pinged through each ping form; the sample keeps room in the budget for them. */
export const PINGED_SERVERS = 6;

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
      const known = { exists: true, about: { field: 'server', values: { ...server } } };
      const c = { op, check, level, about: [...STATUS_JUDGES, 'about', 'true-when'], known };
      out.push(
        run.judging.case(
          { ...c, expected: `${op.successStatus}, a PingResponse about ${server.address}:${server.port}` },
          exchange,
        ),
      );
    }
  }
  return out;
}

export const pingFamily = family({ name: 'ping', needs: NEEDS, perOperation: pingSample, fence: true });
