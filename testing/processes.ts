// Processes as a test sees them from outside, through /proc (Linux): is one still
// running, which ones did it start, which socket does it listen on; and a bounded wait.
// For tests of a program's lifetime: signals, a parent that ends, `npx` then `kill $!`.
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Running (not gone, not a zombie waiting to be reaped). */
export function alive(pid: number): boolean {
  try {
    return existsSync(`/proc/${pid}`) && !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Each running process's parent pid. */
function parents(): Map<number, number> {
  const out = new Map<number, number>();
  for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      out.set(
        Number(d),
        Number(
          readFileSync(`/proc/${d}/stat`, 'utf8')
            .replace(/^.*\) /s, '')
            .split(' ')[1],
        ),
      );
    } catch {
      // ended while we looked
    }
  }
  return out;
}

/** The processes `pid` started, and theirs (`direct`: its children only). */
export function descendants(pid: number, direct = false): number[] {
  const parentOf = parents();
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, parent] of parentOf) {
      if (parent !== p) continue;
      out.push(child);
      if (!direct) walk(child);
    }
  };
  walk(pid);
  return out;
}

/** The process's command line, its arguments joined by spaces ('' once it is gone). */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/** Whether `pid` holds a TCP socket in LISTEN (its socket inodes, looked up in /proc/net/tcp). */
export function listening(pid: number): boolean {
  try {
    const inodes = new Set(
      readdirSync(`/proc/${pid}/fd`)
        .map((fd) => /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1])
        .filter(Boolean),
    );
    return readFileSync('/proc/net/tcp', 'utf8')
      .split('\n')
      .some((line) => {
        const cols = line.trim().split(/\s+/);
        return cols[3] === '0A' && inodes.has(cols[9]);
      });
  } catch {
    return false;
  }
}

/** Waits until `ok()` holds, looking every 50 ms; throws naming `what` after `ms`. */
export async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
