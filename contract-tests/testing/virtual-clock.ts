// A clock for tests of work that runs at once and waits (run/lanes.ts): time stands still
// while anything can run, and moves to the earliest wake-up only when everything waits.
// Unlike a clock whose sleep adds to `now` at once, two waits at the same time take as
// long as the longer, as on a real clock; no real second is slept. It records every wait
// (when it began, how long) so a test can say what happened during one.

export interface VirtualClock {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Every wait, in the order they began: from `at`, `ms` long. */
  readonly waits: { at: number; ms: number }[];
}

export function virtualClock(start: number): VirtualClock {
  let now = start;
  let asked = 0;
  let scheduled = false;
  const timers: { at: number; asked: number; wake: () => void }[] = [];
  const waits: { at: number; ms: number }[] = [];
  // Everything that can run has run once the event loop comes round twice with nothing new: then time moves.
  const advance = () => {
    scheduled = false;
    timers.sort((a, b) => a.at - b.at || a.asked - b.asked);
    const next = timers.shift();
    if (!next) return;
    now = Math.max(now, next.at);
    next.wake();
    schedule();
  };
  const schedule = () => {
    if (scheduled || !timers.length) return;
    scheduled = true;
    setImmediate(() => setImmediate(advance));
  };
  return {
    now: () => now,
    sleep: (ms) =>
      new Promise<void>((wake) => {
        waits.push({ at: now, ms });
        timers.push({ at: now + ms, asked: asked++, wake });
        schedule();
      }),
    waits,
  };
}
