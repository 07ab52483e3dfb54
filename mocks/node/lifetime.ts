// When the mock's program ends (docs/decisions/0029-the-mock-never-outlives-what-started-it.md):
// on Ctrl-C or SIGTERM, after the requests in flight; at once on a second Ctrl-C a person
// types; and when the process that started it is gone, so a CI script's `kill $!` of
// `npx server-listing-mock` (which signals npx, whose shell dies and leaves node behind)
// or a test runner that crashed leaves no mock on the port.

/** How long a stop (the server's, or `createMock().close()`) waits for requests in flight before it ends them. */
export const STOP_GRACE_MS = 2000;

/**
 * The same Ctrl-C can arrive twice: the terminal signals the whole foreground group,
 * and npm (`npm run mock`), which is in it, forwards its copy to its child within
 * milliseconds. A person pressing Ctrl-C again takes longer than this.
 */
export const SAME_PRESS_MS = 250;

/** How often the mock looks whether the process that started it is still there. */
export const PARENT_POLL_MS = 200;

export type SignalVerdict = 'stop' | 'same-press' | 'exit-now';

/** Tells a person's second Ctrl-C (exit at once) from one press delivered twice (keep stopping gracefully). */
export class SignalPresses {
  private first: { signal: string; at: number } | undefined;

  constructor(private readonly sameWithinMs = SAME_PRESS_MS) {}

  /** What a signal arriving at `at` (ms, any monotonic clock) asks for. */
  verdict(signal: string, at: number): SignalVerdict {
    if (!this.first) {
      this.first = { signal, at };
      return 'stop';
    }
    return signal === this.first.signal && at - this.first.at < this.sameWithinMs ? 'same-press' : 'exit-now';
  }
}

/** The process that started this one, as it was when this module loaded (before any slow start-up). */
export const STARTED_BY = process.ppid;

/**
 * Calls `gone(pid)` once `parent`, the process that started this one, has ended (this
 * process is then adopted: its parent id changes), also when that happened before the
 * watch began. Nothing is watched when the parent was init or none (a container's first
 * process, or a deliberately detached start). Returns the function that stops watching;
 * the timer never keeps the process alive.
 */
export function watchParent(
  gone: (pid: number) => void,
  parent = STARTED_BY,
  everyMs = PARENT_POLL_MS,
  parentId: () => number = () => process.ppid,
): () => void {
  if (parent <= 1) return () => {};
  const look = () => {
    if (parentId() === parent) return false;
    clearInterval(timer);
    gone(parent);
    return true;
  };
  const timer = setInterval(look, everyMs);
  timer.unref();
  look();
  return () => clearInterval(timer);
}
