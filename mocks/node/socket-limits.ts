// How many connections the mock keeps, and how long it waits for a client. Every open
// connection holds a file descriptor; a process that runs out of them cannot accept,
// nor open a file, and its clients fail for as long as the silent sockets last (about
// 20,000 of them did that for 80 s with node's defaults: 60 s for the headers, checked
// every 30 s). So past `maxConnections` a new connection is answered 503 at once and
// closed, and a client that sends nothing, or sends too slowly, is cut within seconds:
//  - headers must be complete within 10 s of the request's start (408),
//  - a whole request, body included, within 30 s (408),
//  - a kept-alive connection idle for 5 s is closed (node's default),
//  - these are checked every second (node: every 30 s).
// A closed connection lingers (reads and drops what still comes) at most 2 s before it
// is destroyed: mocks/node/lingering-close.ts.
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { closingResponse } from './protocol-errors.ts';

export interface SocketLimits {
  /** Open connections at most; past it, new ones are refused (503). */
  maxConnections: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** How often the two timeouts above are checked. */
  checkIntervalMs: number;
}

export const SOCKET_LIMITS: Omit<SocketLimits, 'maxConnections'> = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  checkIntervalMs: 1_000,
};

/** The default cap: a team's browsers, a test suite and a load test fit many times over. */
export const DEFAULT_MAX_CONNECTIONS = 1000;

/** Descriptors kept free of connections: the docs' files, a snapshot, `--watch`, the log. */
const RESERVED_DESCRIPTORS = 64;

/** The process's limit of open files, where the system says it (Linux), else undefined. */
export function openFilesLimit(limits = (): string => readFileSync('/proc/self/limits', 'utf8')): number | undefined {
  try {
    const m = /^Max open files\s+(\d+|unlimited)/m.exec(limits());
    return m && m[1] !== 'unlimited' ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** `wanted`, lowered to leave RESERVED_DESCRIPTORS free under the open-files limit (`ulimit -n`). */
export function connectionCap(wanted: number, fileLimit = openFilesLimit()): number {
  return fileLimit === undefined ? wanted : Math.max(1, Math.min(wanted, fileLimit - RESERVED_DESCRIPTORS));
}

/**
 * Over the cap, answers the connection at once, before it has said anything (a client
 * reads the answer after sending its request), and lets it go: what the client still
 * sends is read and dropped until it closes, or for LINGER_MS. True when it refused.
 */
export function refuseOverCap(socket: Socket, open: number, cap: number): boolean {
  if (open < cap) return false;
  socket.end(
    closingResponse(
      503,
      `the mock has ${open} open connections, its limit; close idle ones, or start it with a higher --max-connections`,
      { 'Retry-After': '1' },
    ),
  );
  return true;
}
