// The requests a check makes of an operation: its path with every path parameter filled
// (from the spec's examples, or from a server the target really lists, so a ping finds
// it), and the query of a request that should succeed: the required parameters and the
// page size, as firm as the operation. Every other parameter is probed on its own by
// the meaning and negative families; all examples at once match no row.
import type { Operation } from '../../spec/model.ts';
import { within } from '../../spec/provenance.ts';
import { queryString } from './meaning/answer-rows.ts';

/** A server the target lists. */
export interface Server {
  address: string;
  port: number;
}

/** Encodes a path segment; a ':' may stand in it as it is (RFC 3986 pchar), as clients send `host:port`. */
function segment(value: string): string {
  return encodeURIComponent(value).replace(/%3A/gi, ':');
}

/** The request path with every path parameter filled from its example, one of them replaced. */
export function pathWith(op: Operation, name?: string, value?: string): string {
  return op.path.replace(/\{([^}]+)\}/g, (_m, p: string) =>
    segment(p === name ? String(value) : String(op.parameters.find((x) => x.name === p)?.example ?? 'x')),
  );
}

/** Whether an operation pings one server (its path names the server's address, or host and port). */
export function pingsOneServer(op: Operation): boolean {
  return /\{(address|host)\}/.test(op.path);
}

/**
 * The path of one ping form for a server: `{address}` is `host:port` (or `host`
 * alone on the default port), `{host}`/`{port}` the parts.
 */
export function pingPath(op: Operation, server: Server, hostOnly = false): string {
  return op.path
    .replace('{address}', segment(hostOnly ? server.address : `${server.address}:${server.port}`))
    .replace('{host}', encodeURIComponent(server.address))
    .replace('{port}', String(server.port));
}

/**
 * The query parameters a request that should succeed sends: the required ones,
 * and the page size when it is as firm as the operation.
 */
export function successParameters(op: Operation): Operation['parameters'] {
  return op.parameters.filter(
    (p) =>
      p.in === 'query' && (p.required || (p.meaning?.rule === 'limitsRows' && within(p.provenance, op.provenance))),
  );
}

/** A request of `op` that should succeed: a listed server for a ping, the examples elsewhere. */
export function successPath(op: Operation, server: Server | undefined): string {
  const path = server && pingsOneServer(op) ? pingPath(op, server) : pathWith(op);
  return `${path}${queryString(Object.fromEntries(successParameters(op).map((p) => [p.name, String(p.example)])))}`;
}
