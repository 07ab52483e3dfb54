// Everything the mock remembers. The dataset is immutable (generated or loaded once);
// keys, sessions and rate-limit counters change and are restored by `reset()`.
import type { FixtureUser, Fixtures } from '../../fixtures/load.ts';
import type { SpecModel } from '../../spec/model.ts';
import { KeyStore, SessionStore } from './auth/credentials.ts';
import { RateLimiter } from './rate-limit/rate-limit.ts';
import type { Dataset } from '../dataset/columns.ts';
import type { SortOrders } from '../dataset/sort-orders.ts';
import { buildIndex, type ServerIndex } from '../search/search-index.ts';
import type { StoredServer } from '../dataset/server-row.ts';

/** What a mock is built from, loaded before it starts (see mocks/node/load.ts). */
export interface MockInputs {
  model: SpecModel;
  fixtures: Fixtures;
  /** The servers: as columns (generated, or from a snapshot), or rows (a data file, tests). */
  servers: Dataset | StoredServer[];
  /** The dataset's sort orders when a snapshot had them (otherwise they are sorted at start). */
  orders?: SortOrders | undefined;
  /** Where the servers came from (for the banner). */
  source?: DataSource;
}

/** A data file, or generated: by the build (`built`), or at start (and then maybe read from or written to a snapshot in the cache). */
export type DataSource =
  | { kind: 'file'; path: string }
  | { kind: 'generated'; snapshot?: { file: string; hit: boolean } };

export class MockState {
  readonly model: SpecModel;
  readonly fixtures: Fixtures;
  readonly users: Map<string, FixtureUser>;
  readonly index: ServerIndex;
  readonly source: DataSource | undefined;
  keys!: KeyStore;
  sessions!: SessionStore;
  rates!: RateLimiter;
  /** How many resets there have been: a request begun before one must not write after it. */
  generation = 0;

  /**
   * `pinnedNow`: the clock of `--now` (ms since epoch); undefined for the real clock.
   * `rowCacheBytes`: the budget of the serialised-row cache (`--row-cache`).
   */
  constructor(
    inputs: MockInputs,
    private readonly pinnedNow?: number,
    rowCacheBytes?: number,
  ) {
    this.model = inputs.model;
    this.fixtures = inputs.fixtures;
    this.users = new Map(this.fixtures.users.map((u) => [u.id, u]));
    this.source = inputs.source;
    this.index = buildIndex(inputs.servers, { rowCacheBytes, orders: inputs.orders });
    this.reset();
  }

  /** The clock: pinned with --now, else real time. */
  now(): number {
    return this.pinnedNow ?? Date.now();
  }

  /** Takes over another state's keys, sessions and rate counters (a reload that changed only the data). */
  adoptRuntimeState(previous: MockState): void {
    this.keys = previous.keys;
    this.sessions = previous.sessions;
    this.rates = previous.rates;
  }

  /** Back to the seeded state: fixture keys and sessions only, fresh counters. */
  reset(): void {
    this.generation++;
    const ofKind = (kind: string) =>
      this.fixtures.credentials.filter((c) => this.model.schemes.get(c.type)?.kind === kind);
    this.keys = new KeyStore(ofKind('bearer'));
    this.sessions = new SessionStore(ofKind('cookie'));
    this.rates = new RateLimiter(this.model.limits.rateLimits);
  }
}
