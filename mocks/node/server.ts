// The node:http adapter: binds the environment-neutral app to a socket. What only a
// socket has lives here: the answers to requests the app never sees (parser errors,
// a missing or invalid Host, in mocks/node/protocol-errors.ts), the unread rest of a body
// (read to keep the connection, or while it closes: mocks/core/body-limit/body-limit.ts and
// mocks/node/lingering-close.ts), and a graceful stop. The app behind the socket can be
// swapped (watch mode reloads the spec, data and fixtures without giving up the port).
import { getRequestListener } from '@hono/node-server';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { MockApp } from '../core/app.ts';
import type { MockInputs } from '../core/state.ts';
import { buildMock, loadInputs, type Progress } from './load.ts';
import { dropUnreadBodyAfter, lingerOnClose } from './lingering-close.ts';
import { listenOrigins } from './listen-urls.ts';
import { DEFAULT_OPTIONS, type MockOptions } from './options.ts';
import {
  answerExpectAndConnect,
  answerParserErrors,
  refuseMalformedHead,
  refuseMissingHost,
  requestErrorResponse,
} from './protocol-errors.ts';
import { STOP_GRACE_MS } from './lifetime.ts';
import { connectionCap, refuseOverCap, SOCKET_LIMITS, type SocketLimits } from './socket-limits.ts';
import { SOCKET_FAULTS } from './socket-faults.ts';

export interface RunningMock {
  /** The first URL a browser can open (loopback first for a wildcard bind). */
  origin: string;
  /** Every URL that reaches the mock (the machine's addresses for `--host 0.0.0.0`). */
  origins: string[];
  baseUrl: string;
  /** The app answering now. */
  readonly mock: MockApp;
  /** Answers every later request with `next`; requests in flight finish on the old app. */
  swap(next: MockApp): void;
  /**
   * Stops accepting connections, lets the requests in flight finish (at most
   * `graceMs`), closes every connection and resolves once the port is free.
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * An http.Server for the app answering now (`current()`), and its graceful stop. Past
 * `limits.maxConnections` open connections a new one is answered 503 and closed; silent
 * and slow clients are cut by the limits' timeouts (mocks/node/socket-limits.ts).
 */
export function createMockServer(
  current: () => MockApp,
  hostname: string,
  limits: SocketLimits = { ...SOCKET_LIMITS, maxConnections: DEFAULT_OPTIONS.maxConnections },
): { server: Server; stop(graceMs: number): Promise<void> } {
  let stopping = false;
  const listener = getRequestListener(
    // The app fails the connection through the adapter when an override asks (socket-faults.ts).
    (req, env) => {
      (env as { transport?: typeof SOCKET_FAULTS }).transport = SOCKET_FAULTS;
      return current().app.fetch(req, env);
    },
    {
      hostname,
      errorHandler: requestErrorResponse,
      // A body the app leaves unread is read to its end by node itself (see body-limit.ts),
      // not dropped after 500 ms with the connection, which the answer said stays open.
      autoCleanupIncoming: false,
    },
  );
  // Connections refused over the cap: the parser still reads them, and nothing is answered twice.
  const refused = new WeakSet<Socket>();
  const server = createServer(
    {
      requireHostHeader: false,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
    (req, res) => {
      if (refused.has(req.socket)) return;
      // While stopping, each answer closes its connection, so none lingers idle.
      if (stopping) res.shouldKeepAlive = false;
      if (refuseMissingHost(req, res) || refuseMalformedHead(req, res)) return;
      if (req.method !== 'GET' && req.method !== 'HEAD') dropUnreadBodyAfter(req, res);
      void listener(req, res);
    },
  );
  // Node drops header lines past its count silently; refuseMalformedHead refuses them instead.
  server.maxHeadersCount = 0;
  answerParserErrors(server);
  answerExpectAndConnect(server);
  // The open connections (a handful, reused by keep-alive): counted against the cap, and
  // told, when a stop begins, that answers in flight close their connection too. A
  // connection closed by the server reads on until the client is done, for a while
  // (mocks/node/lingering-close.ts). Before node's own listener, so a refused connection
  // is answered before its parser is attached.
  const sockets = new Set<Socket>();
  server.prependListener('connection', (socket: Socket) => {
    lingerOnClose(socket);
    if (refuseOverCap(socket, sockets.size, limits.maxConnections)) {
      refused.add(socket);
      return;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  const stop = (graceMs: number) =>
    new Promise<void>((resolve, reject) => {
      stopping = true;
      for (const socket of sockets) {
        const answer = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
        if (answer && !answer.headersSent) answer.shouldKeepAlive = false;
      }
      // close() stops accepting and ends idle connections; busy ones end as their
      // answers finish (polled), and whatever is left after the grace period is cut.
      server.close((err) => {
        clearInterval(poll);
        clearTimeout(deadline);
        if (err) reject(err);
        else resolve();
      });
      const poll = setInterval(() => server.closeIdleConnections(), 20);
      const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
    });
  return { server, stop };
}

export interface StartHooks {
  /** Progress of loading a big dataset (see loadInputs). */
  progress?: (p: Progress) => void;
  /** Inputs loaded already (the CLI loads them first, to tell a bad file from a taken port). */
  inputs?: MockInputs;
  /** Other timeouts than SOCKET_LIMITS' (tests make them short). */
  timeouts?: Partial<Omit<SocketLimits, 'maxConnections'>>;
}

export async function startMock(overrides: Partial<MockOptions> = {}, hooks: StartHooks = {}): Promise<RunningMock> {
  const options: MockOptions = { ...DEFAULT_OPTIONS, quiet: true, ...overrides };
  let current = buildMock(options, hooks.inputs ?? loadInputs(options, undefined, hooks.progress));
  const { server, stop } = createMockServer(() => current, options.host, {
    ...SOCKET_LIMITS,
    ...hooks.timeouts,
    maxConnections: connectionCap(options.maxConnections),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origins = listenOrigins(options.host, port);
  const origin = origins[0]!;
  return {
    origin,
    origins,
    baseUrl: origin + current.basePath,
    get mock() {
      return current;
    },
    swap(next) {
      current = next;
    },
    close: (graceMs = STOP_GRACE_MS) => stop(graceMs),
  };
}
