// What the stages of the mock's pipeline hand on to each other (Hono's `c.var`), in the
// order they set it. Every module of the pipeline types its middleware with this one
// environment, and nothing here imports the app that assembles them.
import type { Principal } from './auth/principal.ts';
import { CORS_REFUSED } from './cors/cors-policy.ts';
import type { NodeBindings } from './rate-limit/client-identity.ts';

export type AppEnv = {
  /** What the Node adapter hands the app (the socket); undefined under `app.request()`. */
  Bindings: NodeBindings | undefined;
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
  };
};
