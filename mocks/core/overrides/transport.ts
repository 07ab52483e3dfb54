// How an override fails the transport on purpose, as a client meets a broken network:
// the connection reset (WireMock's CONNECTION_RESET_BY_PEER), the answer's head and part of
// its body then the connection cut (MALFORMED_RESPONSE_CHUNK, RANDOM_DATA_THEN_CLOSE), or
// no answer at all (a server that hangs). The app only decides; the runtime that owns the
// connection does it (`c.env.transport`): the Node adapter on the socket (mocks/node/server.ts),
// createMock by rejecting or cutting the answer of its fetch (mocks/node/in-process.ts).
// Under `app.request()` there is no connection: the answer then says which fault it stands
// for in a header, FAULT_HEADER, for the app's own tests.

/** The faults an override can ask for. */
export const FAULTS = ['reset', 'truncate', 'no-answer'] as const;
export type FaultKind = (typeof FAULTS)[number];

/**
 * What a runtime does for each fault, given the request's bindings (`c.env`, where the
 * runtime keeps its connection); each returns what the app hands back to it.
 */
export interface Transport {
  /** Resets the connection (a TCP RST): no status, no body; fetch rejects. */
  reset(env: unknown): Response | Promise<Response>;
  /** Sends `answer`'s status, headers and first half of its body, then cuts the connection. */
  truncate(env: unknown, answer: Response): Response | Promise<Response>;
  /** Never answers: the connection stays open until the client gives up or the mock stops. */
  hang(env: unknown): Promise<Response>;
}

/** Where an answer written without a connection says which fault it stands for. */
export const FAULT_HEADER = 'X-Mock-Fault';

/** The fault as the runtime does it, or, without one, an answer that names it. */
export function fail(
  kind: FaultKind,
  env: { transport?: Transport } | undefined,
  answer: Response,
): Response | Promise<Response> {
  const transport = env?.transport;
  if (transport) {
    if (kind === 'reset') return transport.reset(env);
    if (kind === 'truncate') return transport.truncate(env, answer);
    return transport.hang(env);
  }
  const named = new Response(answer.body, answer);
  named.headers.set(FAULT_HEADER, kind);
  return named;
}
