// What the stages of the mock's pipeline hand on to each other (Hono's `c.var`), in the
// order they set it, and the two things they speak of: the caller (Principal) and the
// runtime's bindings. Every stage types its middleware with this one environment, and
// nothing here imports the app that assembles them.
import type { FixtureUser } from '../../fixtures/load.ts';
import type { Operation, SchemeKind } from '../../spec/model.ts';
import { CORS_REFUSED } from './cors/cors-policy.ts';
import type { Finding, Rule } from './journal/findings.ts';
import type { Recorded } from './journal/journal.ts';
import type { AppliedOverride } from './overrides/override.ts';
import type { Transport } from './overrides/transport.ts';

/** Who a request acts for, once its credential is found valid (auth/). */
export interface Principal {
  user: FixtureUser;
  /** The security scheme that authenticated it (also its rate-limit tier). */
  scheme: string;
  kind: SchemeKind;
  /** Rate-limit key: the account, shared by all of its keys and sessions (the spec's limits are per account). */
  id: string;
  /** The stored key or session that authenticated it: the same one must still be live when the request acts. */
  credential: object;
}

/**
 * What the runtime hands the app as `c.env`: the Node adapter's (a socket) or createMock()'s;
 * none under `app.request()`.
 */
export interface RuntimeBindings {
  incoming?: { socket?: { remoteAddress?: string | undefined }; rawHeaders?: string[] };
  /** The request's headers as a list (name, value, name, value...), from a runtime with no socket (createMock()). */
  headerList?: readonly string[];
  /** How this runtime fails a connection on purpose (an override's fault); none under `app.request()`. */
  transport?: Transport;
  /**
   * How this runtime takes an answer's body whole in hand (answers.ts), when not as the bytes
   * themselves: createMock()'s, a stream already holding them, which a test reads at once.
   */
  heldBody?: (body: string | Uint8Array) => ReadableStream<Uint8Array>;
}

/**
 * Every header of the request as a list (name, value, name, value...) when the runtime made
 * one: node's own on a socket, createMock()'s. Reading it costs nothing, where asking Hono's
 * request for a header makes a whole Headers; undefined under `app.request()`.
 */
export function headerListOf(env: RuntimeBindings | undefined): readonly string[] | undefined {
  return env?.incoming?.rawHeaders ?? env?.headerList;
}

export type AppEnv = {
  /** What the runtime hands the app (the Node adapter's socket, createMock()'s faults and header list). */
  Bindings: RuntimeBindings | undefined;
  Variables: {
    /** Set by cors for an origin it refused (dev routes then refuse to log in). */
    [CORS_REFUSED]: string;
    /** The mock's clock when the request came in (auth's identifyCaller). */
    now: number;
    /** Every security scheme whose credential in the request is valid (identifyCaller). */
    identity: Map<string, Principal>;
    /** Who an operation's security let through (authorize); undefined: an anonymous call of a public operation. */
    principal: Principal | undefined;
    /** The operation's parameters, parsed, coerced and validated (parameters). */
    params: { query: Record<string, any>; path: Record<string, any> };
    /** The request body, parsed and validated (parameters); undefined when there is none. */
    body: unknown;
    /** The request body's text as read (parameters, the login), for the journal. */
    bodyText: string;
    /** The operation the request routed to (its route's first stage). */
    op: Operation;
    /** Query parameters the operation does not have, as sent (parameters), for the journal's findings. */
    unknownQuery: string[];
    /** The stage that refused the request, named as the suite's judges are (journal/findings.ts). */
    refusedBy: Rule;
    /** The message of an error answer (answers.ts), for the journal. */
    why: string;
    /** The override that answered, delayed or failed the request (overrides/). */
    override: AppliedOverride;
    /** What the mock found about the request besides a refusal (journal/findings.ts). */
    findings: Finding[];
    /** The request's journal entry, for the stages whose work shows while it is pending (journal/record.ts). */
    entry: Recorded;
  };
};
