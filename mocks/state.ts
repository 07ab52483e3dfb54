// Everything the mock remembers. The dataset is immutable (generated or loaded once);
// keys, sessions and rate-limit counters change and are restored by `reset()`.
import { KeyStore, SessionStore } from './credentials.ts';
import { loadDataset } from './data-file.ts';
import { loadFixtures, type Fixtures, type FixtureUser } from './fixtures.ts';
import { generateServers } from './generator.ts';
import type { MockOptions } from './options.ts';
import { RateLimiter } from './rate-limit.ts';
import { buildIndex, type ServerIndex } from './search.ts';
import type { StoredServer } from './server-row.ts';

export class MockState {
  readonly fixtures: Fixtures;
  readonly users: Map<string, FixtureUser>;
  readonly servers: StoredServer[];
  readonly index: ServerIndex;
  /** When the mock started: generated timestamps are relative to it. */
  readonly startedAt: number;
  keys!: KeyStore;
  sessions!: SessionStore;
  rates!: RateLimiter;

  constructor(
    readonly options: MockOptions,
    fixtures?: Fixtures,
  ) {
    this.startedAt = options.now ?? Date.now();
    this.fixtures = fixtures ?? loadFixtures(options.fixtures);
    this.users = new Map(this.fixtures.users.map((u) => [u.id, u]));
    this.servers = options.data
      ? loadDataset(options.data)
      : generateServers({ seed: options.seed, count: options.servers, now: new Date(this.startedAt) });
    this.index = buildIndex(this.servers);
    this.reset();
  }

  /** The clock: pinned with --now, else real time. */
  now(): number {
    return this.options.now ?? Date.now();
  }

  /** Back to the seeded state: fixture keys and sessions only, fresh counters. */
  reset(): void {
    this.keys = new KeyStore(this.fixtures.credentials);
    this.sessions = new SessionStore(this.fixtures.credentials);
    this.rates = new RateLimiter();
  }
}
