// What a test steers and asks a mock, one implementation behind both doors: in process
// (createMock's `use`, `requests`, `reset`...) and over HTTP under /__mock/ (overrides,
// requests, usage, reset: mocks/core/dev-routes/). One meaning, one validation: both take
// the same input, both refuse it with the same sentences.
import type { UsageProfile } from '../../spec/usage-profile.ts';
import type { MockState } from './state.ts';
import type { OverrideInput } from './overrides/override.ts';
import { usageOf } from './journal/usage.ts';
import { credentialNames, type JournalEntry, parseFilter, type Reparse, select, viewOf } from './journal/entry-view.ts';

/** An override as listed: what was given, its id, and how it has been used. */
export type OverrideView = OverrideInput & {
  id: number;
  /** Requests it took. */
  used: number;
  /** Requests it may still take; null: until reset or removed. */
  remaining: number | null;
};

/** What the journal holds. */
export interface JournalInfo {
  /** Requests kept at most (`--journal`; 0: none). */
  size: number;
  /** Requests that fell out of it since the last reset. */
  dropped: number;
}

export interface MockControl {
  /** Adds overrides, newest first; throws OverrideError listing every problem (then none is added). */
  use(inputs: unknown[]): OverrideView[];
  overrides(): OverrideView[];
  /** Removes one override; false when there is none with that id. */
  removeOverride(id: number): boolean;
  clearOverrides(): void;
  /** The requests a filter keeps, newest first; throws FilterError naming a bad filter. */
  requests(filter?: unknown): JournalEntry[];
  clearRequests(): void;
  journal(): JournalInfo;
  /** What the consumer used since the start or the last clearUsage(); undefined when no consumer is named. */
  usage(): UsageProfile | undefined;
  /** Starts the usage profile afresh; false when no consumer is named. */
  clearUsage(): boolean;
  /** Back to the seeded state: keys, sessions, rate counters, and no overrides and no journal (the usage stays). */
  reset(): void;
}

/** `reparse`: an operation's parameters read again from a URL (the journal keeps the URL, not the parsed values). */
export function createControl(state: () => MockState, reparse: Reparse): MockControl {
  let masker: { fixtures: unknown; mask: ReturnType<typeof credentialNames> } | undefined;
  const mask = () => {
    const s = state();
    if (masker?.fixtures !== s.fixtures) masker = { fixtures: s.fixtures, mask: credentialNames(s.fixtures) };
    return masker.mask;
  };
  const view = (o: ReturnType<MockState['overrides']['all']>[number]): OverrideView => ({
    ...o.input,
    id: o.id,
    used: o.used,
    remaining: o.remaining ?? null,
  });
  return {
    use: (inputs) => state().overrides.add(inputs).map(view),
    overrides: () => state().overrides.all().map(view),
    removeOverride: (id) => state().overrides.remove(id),
    clearOverrides: () => state().overrides.clear(),
    requests(filter) {
      const s = state();
      const parsed = parseFilter(filter, s.model);
      const m = mask();
      return select(s.journal, parsed).map((r) => viewOf(r, s.model, m, reparse));
    },
    clearRequests: () => state().journal.clear(),
    journal: () => ({ size: state().journal.capacity, dropped: state().journal.dropped }),
    usage: () => state().usage?.toJSON(),
    clearUsage() {
      const s = state();
      if (!s.usage) return false;
      s.usage = usageOf(s, s.usage.consumer);
      return true;
    },
    reset: () => state().reset(),
  };
}
