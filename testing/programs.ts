// A program started as a child process, as the e2e tests and the scripts watch one: what it
// printed on both streams, its exit, and the first thing it prints that says it is ready
// (the URL it listens on). Spawning stays the caller's: each starts its program its own way.
import type { ChildProcess } from 'node:child_process';

export interface Program {
  child: ChildProcess;
  /** What it printed so far, both streams in the order they came. */
  out: () => string;
  exit: Promise<number | null>;
}

/** Collects what `child` prints and when it exits. */
export function watch(child: ChildProcess): Program {
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out: () => out, exit };
}

/** The first capture of `ready` once the program prints it; rejects, with what it printed, if it exits first. */
export function printed(program: Program, ready: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const look = setInterval(() => {
      const found = ready.exec(program.out())?.[1];
      if (found !== undefined) {
        clearInterval(look);
        resolve(found);
      }
    }, 50);
    void program.exit.then(async (code) => {
      // What it printed last may still be in the pipe when it exits.
      await new Promise((r) => setTimeout(r, 100));
      clearInterval(look);
      const found = ready.exec(program.out())?.[1];
      if (found !== undefined) resolve(found);
      else reject(new Error(`it exited (${code}) before it printed ${ready}: ${program.out()}`));
    });
  });
}
