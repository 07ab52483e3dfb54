import { describe, expect, it } from 'vitest';
import { SAME_PRESS_MS, SignalPresses, watchParent } from './lifetime.ts';

describe('SignalPresses', () => {
  it('stops on the first signal and takes the same one again within moments as the same press', () => {
    const presses = new SignalPresses();
    expect(presses.verdict('SIGINT', 1000)).toBe('stop');
    expect(presses.verdict('SIGINT', 1001)).toBe('same-press'); // npm's forwarded copy
  });

  it('exits at once on a second press, or on another signal', () => {
    const again = new SignalPresses();
    again.verdict('SIGINT', 0);
    expect(again.verdict('SIGINT', SAME_PRESS_MS + 1)).toBe('exit-now');
    const other = new SignalPresses();
    other.verdict('SIGTERM', 0);
    expect(other.verdict('SIGINT', 1)).toBe('exit-now');
  });
});

describe('watchParent', () => {
  it('calls back once when the parent id changes (this process was adopted)', async () => {
    let parent = 4242;
    const gone: number[] = [];
    const stop = watchParent(
      (pid) => gone.push(pid),
      4242,
      5,
      () => parent,
    );
    await new Promise((r) => setTimeout(r, 30));
    expect(gone).toEqual([]);
    parent = 1;
    await new Promise((r) => setTimeout(r, 30));
    expect(gone).toEqual([4242]);
    stop();
  });

  it('watches nothing when started by init (a container, or a detached start)', async () => {
    let parent = 1;
    const gone: number[] = [];
    watchParent(
      (pid) => gone.push(pid),
      1,
      5,
      () => parent,
    );
    parent = 77;
    await new Promise((r) => setTimeout(r, 30));
    expect(gone).toEqual([]);
  });

  it('calls back at once when the parent ended before the watch began (during a slow start)', () => {
    const gone: number[] = [];
    watchParent(
      (pid) => gone.push(pid),
      4242,
      5,
      () => 1,
    );
    expect(gone).toEqual([4242]);
  });
});
