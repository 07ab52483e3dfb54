// Everything the mock remembers. The dataset is immutable (generated or loaded once);
// keys, sessions and rate-limit counters change and are restored by `reset()`, which also
// clears the overrides and the request journal (not the usage profile: journal/usage.ts).
import type { FixtureUser, Fixtures } from '../../fixtures/load.ts';
import type { SpecModel } from '../../spec/model.ts';
import type { UsageAccumulator } from '../../spec/usage-profile.ts';
import { KeyStore, SessionStore } from './auth/credentials.ts';
import { Journal, JOURNAL_SIZE } from './journal/journal.ts';
import { OverrideStore } from './overrides/override-store.ts';
import { ResponseChecker } from './self-check/self-check.ts';
import { defaultHiding, type DefaultHiding } from './journal/hidden-rows.ts';
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

/**
 * A data file, servers given in code (createMock), or generated: by the build (`built`), or at start (and then maybe
 * read from or written to a snapshot in the cache).
 */
export type DataSource =
  | { kind: 'file'; path: string }
  | { kind: 'code' }
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
  /** What tests asked the mock to answer instead (overrides/); cleared by reset. */
  overrides: OverrideStore;
  /** The requests received (journal/); cleared by reset. */
  journal: Journal;
  /**
   * What the consumer used since the mock started (journal/usage.ts), when one is named
   * (`--consumer`); NOT cleared by reset: a whole test run is one profile.
   */
  usage: UsageAccumulator | undefined = undefined;
  /** Loaded rows that a parameter's default hides (the default maxAge), and which requests it hides them from. */
  readonly hiding: DefaultHiding | undefined;

  /**
   * `pinnedNow`: the clock of `--now` (ms since epoch); undefined for the real clock.
   * `rowCacheBytes`: the budget of the serialised-row cache (`--row-cache`).
   */
  constructor(
    inputs: MockInputs,
    private readonly pinnedNow?: number,
    rowCacheBytes?: number,
    journalSize: number = JOURNAL_SIZE,
  ) {
    this.model = inputs.model;
    this.fixtures = inputs.fixtures;
    this.users = new Map(this.fixtures.users.map((u) => [u.id, u]));
    this.source = inputs.source;
    this.index = buildIndex(inputs.servers, { rowCacheBytes, orders: inputs.orders });
    let checker: ResponseChecker | undefined;
    this.overrides = new OverrideStore({
      model: this.model,
      checker: () => (checker ??= new ResponseChecker(this.model)),
    });
    this.journal = new Journal(journalSize);
    // Rows a person wrote (a file, servers in code) may be older than a default filter lets through.
    this.hiding =
      Array.isArray(inputs.servers) && inputs.source?.kind !== 'generated'
        ? defaultHiding(this.model, inputs.servers)
        : undefined;
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
    this.overrides = previous.overrides;
    this.journal = previous.journal;
    this.usage = previous.usage;
  }

  /** Back to the seeded state: fixture keys and sessions only, fresh counters. */
  reset(): void {
    this.generation++;
    const ofKind = (kind: string) =>
      this.fixtures.credentials.filter((c) => this.model.schemes.get(c.type)?.kind === kind);
    this.keys = new KeyStore(ofKind('bearer'));
    this.sessions = new SessionStore(ofKind('cookie'));
    this.rates = new RateLimiter(this.model.limits.rateLimits);
    this.overrides.clear();
    this.journal.clear();
  }
}
