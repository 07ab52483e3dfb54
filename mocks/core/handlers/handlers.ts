// One handler per operationId. By the time a handler runs, the HTTP layer has
// matched the route, authenticated and authorized the caller, and parsed, coerced
// and validated every parameter and the body against the spec: handlers only
// answer. They are plain functions of their input, so tests can call them directly,
// and createApp takes them as a parameter, so a test can hand it others.
import { errorBody } from '../../../spec/messages.ts';
import type { Limits, SpecModel } from '../../../spec/model.ts';
import type { ApiKey, ApiKeyList, CreatedApiKey, NewApiKey, Revoked } from '../../../spec/openapi.gen.ts';
import type { HandlerResult } from '../answers.ts';
import type { Principal } from '../env.ts';
import type { ApiKeyRecord } from '../auth/credentials.ts';
import { countries, regions, versions } from './metadata.ts';
import { findServer, parseAddress, pingAnswer } from './ping.ts';
import { filtersOf } from '../../search/filters.ts';
import { searchBuffer, searchOperation, type FindQuery } from '../../search/search.ts';
import type { MockState } from '../state.ts';

export interface HandlerInput {
  query: Record<string, any>;
  path: Record<string, any>;
  body: unknown;
  principal?: Principal;
  state: MockState;
  now: number;
}

export type { HandlerResult } from '../answers.ts';

export type Handler = (input: HandlerInput) => HandlerResult;
export type Handlers = Record<string, Handler>;

/** The page size cap of the caller's plan (the spec's `x-max-by-plan`; `anonymous` without credentials). */
export function maxPageSize(limits: Limits, principal?: Principal): number {
  const byPlan = limits.pageSizeByPlan;
  return (principal ? byPlan[principal.user.plan] : undefined) ?? byPlan.anonymous!;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function keyView(r: ApiKeyRecord): ApiKey {
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    created_at: iso(r.createdAt)!,
    expires_at: iso(r.expiresAt),
    last_used_at: iso(r.lastUsedAt),
  };
}

function notIndexed(host: string, port: number): HandlerResult {
  return {
    status: 404,
    body: {
      ...errorBody(404, `server ${host}:${port} is not indexed yet`),
      status: 'Server is not indexed yet, it will be shortly',
    },
  };
}

/**
 * The handlers of every operation of the spec, answering within the spec's limits; the
 * search and the metadata lookups apply the filters that spec declares (a copy served
 * with `--spec` may add some).
 */
export function createHandlers(model: SpecModel): Handlers {
  const { limits } = model;
  const filters = (operationId: string) => filtersOf(model.byId.get(operationId)!);
  const find = searchOperation(model.byId.get('findServers')!);
  const byLookup = {
    versions: filters('listVersions'),
    countries: filters('listCountries'),
    regions: filters('listRegions'),
  };
  const ping = (host: string, port: number, state: MockState, now: number): HandlerResult => {
    const server = findServer(state.index, host, port);
    return server ? { status: 200, body: pingAnswer(server, now, limits.refreshAfterMs) } : notIndexed(host, port);
  };

  return {
    findServers({ query, principal, state, now }) {
      // The page size the caller's plan allows (`x-max-by-plan`), on the parameter whose rule limits rows.
      const limit = find.shape.limitsRows;
      const q = (
        limit === undefined
          ? query
          : { ...query, [limit]: Math.min(query[limit] ?? Infinity, maxPageSize(limits, principal)) }
      ) as FindQuery;
      return { status: 200, json: searchBuffer(state.index, q, now, find) };
    },

    pingServer({ path, state, now }) {
      const { host, port } = parseAddress(path.address as string, limits.defaultPort);
      return ping(host, port, state, now);
    },

    pingServerHostPort({ path, state, now }) {
      return ping(path.host as string, path.port as number, state, now);
    },

    listVersions({ query, state }) {
      return { status: 200, body: versions(state.index, query, byLookup.versions) };
    },

    listCountries({ query, state, now }) {
      return { status: 200, body: countries(state.index, query, now, limits.countryWindowMs, byLookup.countries) };
    },

    listRegions({ query, state }) {
      return { status: 200, body: regions(state.index, query, byLookup.regions) };
    },

    listApiKeys({ principal, state }) {
      const body: ApiKeyList = { success: true, keys: state.keys.list(principal!.user.id).map(keyView) };
      return { status: 200, body };
    },

    createApiKey({ body, principal, state, now }) {
      const input = (body ?? {}) as NewApiKey;
      const userId = principal!.user.id;
      if (state.keys.list(userId).length >= limits.maxKeysPerUser) {
        return {
          status: 409,
          body: errorBody(409, `at most ${limits.maxKeysPerUser} API keys per user; revoke one first`),
        };
      }
      const { record, secret } = state.keys.create(userId, input.name ?? null, input.expires_in_days ?? null, now);
      const answer: CreatedApiKey = { success: true, key: { ...keyView(record), secret } };
      return { status: 201, body: answer };
    },

    revokeApiKey({ path, principal, state }) {
      const id = path.id as string;
      if (!state.keys.revoke(principal!.user.id, id)) {
        return { status: 404, body: errorBody(404, `no API key with id '${id}'`) };
      }
      const answer: Revoked = { success: true, id, message: 'API key revoked' };
      return { status: 200, body: answer };
    },
  };
}
