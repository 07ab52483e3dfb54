// How the depth phase schedules its work against the target's rate limits. A unit is one
// family's checks of one operation (or its checks about none), in table order. Units run
// one at a time, in that order, as long as nothing waits; when every unit running waits on
// a limit counter (a window used up, a 429 waited out, its turn on a counter another unit
// is using: transport/pacing.ts), the next unit that may start does, and from then on a
// unit that ends is followed by the next at once (the run keeps as many at once as its
// waits made it need). So the waits of different counters (the account's, the metadata
// lookups', the anonymous callers') overlap instead of adding up, and against a target
// whose limits never make the suite wait the run is the sequential one, request for
// request. Which counter a request draws on is known before it is sent (the pacer's
// `counterOf`: its path group and whose credential it carries); the pacer keeps each
// counter paced as if one sender used it.
//
// What keeps work at once from seeing other work (decision 0045):
// - a lane: the units of a collection something writes to (the first segment of their
//   path, `/user/...`) run one at a time in table order, so a key created, listed and
//   revoked meets no other unit's keys; a unit about no operation that keeps keys takes
//   that lane. A unit of a collection nothing writes to is a lane of its own;
// - a fence: a family that reads what the units before it did (the budget left, the
//   sample's rows, the results) starts when every unit before it is done, and no unit
//   after it starts before it ends;
// - table order for what is recorded: results are recorded in the units' order whatever
//   finished first, and every answer carries its unit's place (`unitPlace`), so the
//   verdicts read the answers in the order a sequential run had them.
// The budget is one: where it runs out while units run at once, which of them it refuses
// depends on which asked first (a run whose budget lasts, the default's, is not affected).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { CheckResult } from '../shared/recorder.ts';

export interface Unit {
  /** Its family's name: once the run is stopped, the units of a family that had not begun are not started. */
  family: string;
  /** Units of one lane run one at a time, in table order. */
  lane: string;
  /** It reads what every unit before it did: it starts when they are done, and no later unit starts before it ends. */
  fence: boolean;
  run(): Promise<CheckResult[]>;
}

/** What the scheduler watches: how many senders wait on the target's limits, and when one starts to. */
export interface WaitWatch {
  readonly waiters: number;
  onWait(watcher: () => void): () => void;
}

export interface LaneParts {
  waits: WaitWatch;
  /** Why nothing more is sent, once the run was stopped. */
  stopped(): string | undefined;
  /** Takes the results of the units, in table order, as soon as every unit before them is done. */
  record(results: CheckResult[]): void;
}

/** The unit whose work is running: its table-order place, and how urgent its lane is now. */
const runningUnit = new AsyncLocalStorage<{ place: number; urgency: () => number }>();

/** The table-order place of the unit whose work is running now (undefined outside the depth phase's units). */
export function unitPlace(): number | undefined {
  return runningUnit.getStore()?.place;
}

/**
 * Who goes first on a counter among units waiting for it (lower first): the unit of the lane with the most work left
 * (the one the run waits on longest: a lane's units run one after another), then table order.
 */
export function unitPriority(): number | undefined {
  return runningUnit.getStore()?.urgency();
}

/** The collection an operation's path names (its first segment): operations on one share a lane. */
export function collectionOf(path: string): string {
  return path.split('/').find(Boolean) ?? '';
}

/** Runs the units (in table order) as the header says; rejects with the first unit's error once none is running. */
export async function runLanes(units: readonly Unit[], parts: LaneParts): Promise<void> {
  type State = 'pending' | 'running' | 'done';
  const state: State[] = units.map(() => 'pending');
  const results: (CheckResult[] | undefined)[] = units.map(() => undefined);
  const begun = new Set<string>();
  let recorded = 0;
  let running = 0;
  /** How many units may run at once without a look at the waits: the most the waits have needed so far. */
  let width = 1;
  let failure: { err: unknown } | undefined;
  let finish!: () => void;
  let fail!: (err: unknown) => void;
  const finished = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });

  const recordDone = () => {
    while (recorded < units.length && state[recorded] === 'done') parts.record(results[recorded++] ?? []);
  };

  /** The unit that may start now, if any: the first in table order whose lane is free, fences and the gate allowing. */
  const next = (): number | undefined => {
    if (failure) return undefined;
    // The gate: more work at once only while all the work running waits on the target's limits; once opened, a unit
    // that ends is followed by the next (the run never goes back to fewer at once than its waits made it need).
    if (running >= width && parts.waits.waiters < running) return undefined;
    // A stopped run starts no family it had not begun (a family begun runs out, sending nothing more).
    if (parts.stopped())
      units.forEach((u, i) => {
        if (state[i] === 'pending' && !begun.has(u.family)) state[i] = 'done';
      });
    recordDone();
    const lanesAhead = new Set<string>();
    for (let i = recorded; i < units.length; i++) {
      const unit = units[i]!;
      if (state[i] === 'done') continue;
      if (unit.fence && (i !== recorded || running > 0)) return undefined;
      if (state[i] === 'pending' && !lanesAhead.has(unit.lane)) return i;
      lanesAhead.add(unit.lane);
    }
    return undefined;
  };

  const start = (i: number) => {
    const unit = units[i]!;
    state[i] = 'running';
    running++;
    begun.add(unit.family);
    const urgency = () => {
      let left = 0;
      for (let j = i; j < units.length; j++) if (state[j] !== 'done' && units[j]!.lane === unit.lane) left++;
      return (units.length - left) * units.length + i;
    };
    runningUnit
      .run({ place: i, urgency }, () => unit.run())
      .then(
        (r) => {
          results[i] = r;
        },
        (err: unknown) => {
          failure ??= { err };
        },
      )
      .finally(() => {
        state[i] = 'done';
        running--;
        pump();
      });
  };

  let pumping = false;
  const pump = () => {
    if (pumping) return;
    pumping = true;
    queueMicrotask(() => {
      pumping = false;
      recordDone();
      // One unit per look: the one just started is running and not yet waiting; its first wait looks again.
      const i = next();
      if (i !== undefined) {
        width = Math.max(width, running + 1);
        start(i);
      }
      if (running === 0 && (failure || state.every((s) => s === 'done'))) {
        if (failure) fail(failure.err);
        else finish();
      }
    });
  };

  const stopWatching = parts.waits.onWait(pump);
  try {
    pump();
    await finished;
  } finally {
    stopWatching();
  }
}
