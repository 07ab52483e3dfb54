// Pings a sample of the servers the search listed, through every ping form the spec
// declares: each must be found (a listed server is indexed) and answered with a valid
// PingResponse about that very server.
import type { Operation } from '../../spec/model.ts';
import { deref } from '../../spec/load.ts';
import { provenanceOf, weakest } from '../../spec/provenance.ts';
import type { SuiteContext } from './context.ts';
import type { HttpResponse } from './http.ts';
import type { Reader } from './reader.ts';
import type { Row } from './rows.ts';

/** The path of one ping form for a server: `{address}` is `host:port` (or `host` alone on the default port), `{host}`/`{port}` the parts. */
function pingPath(op: Operation, host: string, port: number, hostOnly = false): string | undefined {
  if (!/\{(address|host)\}/.test(op.path)) return undefined;
  return op.path
    .replace('{address}', encodeURIComponent(hostOnly ? host : `${host}:${port}`).replace(/%3A/gi, ':'))
    .replace('{host}', encodeURIComponent(host))
    .replace('{port}', String(port));
}

function aboutServer(res: HttpResponse, host: string, port: number): string[] {
  const body = res.json as { status?: unknown; refresh?: unknown; server?: { address?: unknown; port?: unknown } } | undefined;
  const problems: string[] = [];
  const s = body?.server;
  if (typeof s?.address === 'string' && (s.address.toLowerCase() !== host.toLowerCase() || s.port !== port)) {
    problems.push(`the answer is about ${s.address}:${String(s.port)}, not ${host}:${port}`);
  }
  // PingResponse.refresh: "True exactly when status is refreshing".
  if (typeof body?.refresh === 'boolean' && typeof body.status === 'string' && body.refresh !== (body.status === 'refreshing')) {
    problems.push(`refresh is ${body.refresh} while status is '${body.status}'`);
  }
  return problems;
}

function pingProvenance(ctx: SuiteContext, op: Operation) {
  return weakest(op.provenance, provenanceOf(deref(ctx.model.doc, op.responses.get(op.successStatus)?.schema)));
}

/** The selected operations that ping one server, whose checks the run's --provenance wants. */
export function pingOperations(ctx: SuiteContext): Operation[] {
  return ctx.model.operations.filter((o) => ctx.selected(o) && pingPath(o, 'h', 1) && ctx.wants(pingProvenance(ctx, o)));
}

/** Pings each server through each selected ping operation; returns how many pings were sent. */
export async function pingSample(ctx: SuiteContext, reader: Reader, servers: Row[]): Promise<number> {
  let sent = 0;
  const defaultPort = ctx.model.limits.defaultPort;
  for (const op of pingOperations(ctx)) {
    const provenance = pingProvenance(ctx, op);
    let hostOnlyDone = false;
    for (const [i, row] of servers.entries()) {
      const [host, port] = [row.address, row.port];
      if (typeof host !== 'string' || typeof port !== 'number') continue;
      const forms = [{ path: pingPath(op, host, port), name: `sample: listed server ${i + 1} of ${servers.length} answers its ping` }];
      // The host alone means the default port: once, for a server that listens there.
      if (!hostOnlyDone && port === defaultPort && op.path.includes('{address}')) {
        forms.push({ path: pingPath(op, host, port, true), name: 'sample: a listed server on the default port answers its ping by host alone' });
        hostOnlyDone = true;
      }
      for (const { path, name } of forms) {
        const ex = await reader.get(op, {}, { path });
        sent++;
        ctx.verify(op, name, provenance, ex, {
          status: op.successStatus,
          expected: `${op.successStatus}, a PingResponse about ${host}:${port}`,
          extra: (res) => (res.status === op.successStatus ? aboutServer(res, host, port) : []),
        });
      }
    }
  }
  return sent;
}
