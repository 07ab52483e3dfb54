// `--watch`: reload the spec, the `--data` file and the fixtures when one changes, and
// swap the new app in behind the same socket (same port, open connections kept). A
// broken edit is reported and the last good version keeps answering.
//
// A file is followed by its content, not by its inode (docs/decisions/0035): what is
// watched is the directory that holds it (and, for a symlink, each link's and the
// target's), so a file replaced (an editor's atomic save, a `mv` over it), removed and
// written again, or a link pointed elsewhere is still seen; every event for one of its
// names makes the watcher read the file again and reload when its content (or the file a
// link resolves to) differs from what it last saw. A watch of the file itself follows the
// inode: chokidar, given files, lost a file whose path was missing for a moment whenever
// it watched more than one (it re-adds a removed file only when it is the only one
// watched), and never saw a link repointed (the target's inode does not change).
import { createHash } from 'node:crypto';
import { type FSWatcher, readFileSync, readlinkSync, realpathSync, statSync, watch } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import { loadSpec, SPEC_PATH } from '../../spec/load.ts';
import { buildModel } from '../../spec/model.ts';
import { buildMock, loadInputs } from './load.ts';
import type { MockOptions } from './options.ts';
import type { RunningMock } from './server.ts';

export interface WatchLog {
  /** A reload, the files watched (stdout). */
  info(line: string): void;
  /** A reload that failed, a file gone or back, a directory that cannot be watched (stderr). */
  error(line: string): void;
}

/** Edits arrive as bursts of events (save = truncate + write, or write + rename): wait for quiet. */
const SETTLE_MS = 150;

/** A file as the watcher last saw it: the sha256 of its content and the file it resolves to; or gone. */
export type Seen = { sha256: string; target: string } | 'gone';

function see(file: string): Seen {
  try {
    const target = realpathSync(file);
    return { sha256: createHash('sha256').update(readFileSync(target)).digest('hex'), target };
  } catch {
    return 'gone';
  }
}

const same = (a: Seen, b: Seen) =>
  a === 'gone' || b === 'gone' ? a === b : a.sha256 === b.sha256 && a.target === b.target;

/** The files a mock of these options is loaded from: the spec, the fixtures and the `--data` file. */
function inputFiles(options: MockOptions): string[] {
  return [...new Set([options.spec ?? SPEC_PATH, options.fixtures, ...(options.data ? [options.data] : [])])];
}

/**
 * Each input file as it is now. Taken before the mock loads them (mocks/node/cli.ts) and
 * handed to watchInputs, it makes an edit between the load and the watch's start reload.
 */
export function seeInputs(options: MockOptions): Map<string, Seen> {
  return new Map(inputFiles(options).map((f) => [f, see(f)]));
}

/** The directories a file's events arrive in, each with the names in it that concern the file. */
function placesOf(file: string): Map<string, Set<string>> {
  const places = new Map<string, Set<string>>();
  const add = (path: string) => {
    let dir = dirname(path);
    let name = basename(path);
    // A directory not there (yet) is stood for by its nearest ancestor, watching for the missing child.
    while (!isDirectory(dir) && dirname(dir) !== dir) {
      name = basename(dir);
      dir = dirname(dir);
    }
    const names = places.get(dir);
    if (names) names.add(name);
    else places.set(dir, new Set([name]));
  };
  // The file, then each link on the way to what it points at (a link repointed is an event in its directory).
  let path = resolve(file);
  for (let hop = 0; hop < 40; hop++) {
    add(path);
    let link: string;
    try {
      link = readlinkSync(path);
    } catch {
      break;
    }
    path = resolve(dirname(path), link);
  }
  try {
    // The target as the file system resolves it (a directory on the way may be a link).
    add(realpathSync(file));
  } catch {
    // gone: its directory is watched above
  }
  return places;
}

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/** Every input file a directory's events may concern. */
const everyFile = (w: DirectoryWatch): string[] => [...w.files.values()].flatMap((s) => [...s]);

interface DirectoryWatch {
  watcher: FSWatcher;
  /** The directory's inode when the watch began: a directory removed and made again is watched afresh. */
  ino: number;
  /** By name in the directory, the input files an event for it concerns. */
  files: Map<string, Set<string>>;
}

/**
 * Starts watching; resolves once every directory is watched, to a function that stops
 * it. `loaded`: the inputs as they were when the running mock loaded them (default: now).
 */
export async function watchInputs(
  running: RunningMock,
  options: MockOptions,
  log: WatchLog,
  loaded: Map<string, Seen> = seeInputs(options),
): Promise<() => Promise<void>> {
  const specPath = options.spec ?? SPEC_PATH;
  const files = inputFiles(options);
  const name = (f: string) => relative(process.cwd(), f) || f;
  const seen = new Map(files.map((f) => [f, loaded.get(f) ?? see(f)]));
  const dirty = new Set<string>();
  const watches = new Map<string, DirectoryWatch>();
  const unwatchable = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const reload = (which: string[]) => {
    const what = which.map(name).join(', ');
    try {
      // buildModel, not the cached loadModel: the file on disk is newer than the cache.
      const model = buildModel(loadSpec(specPath));
      const next = buildMock(options, loadInputs(options, model));
      // Only the data changed: keep the keys, sessions and rate counters, so a browser stays logged in.
      if (which.every((f) => f === options.data)) next.state.adoptRuntimeState(running.mock.state);
      // What the consumer used goes on counting whatever changed: a reload is not a new run.
      else next.state.usage = running.mock.state.usage;
      running.swap(next);
      log.info(
        `mock: reloaded after a change to ${what}: ${next.state.index.size} servers, ` +
          `${model.operations.length} operations`,
      );
    } catch (err) {
      log.error(
        `mock: reload after a change to ${what} failed; still serving the last good version.\n` +
          `  ${(err as Error).message}`,
      );
    }
  };

  /** Reads the files events named again: reloads those whose content differs, says which are gone or back. */
  const check = () => {
    if (stopped) return;
    const changed: string[] = [];
    for (const f of files.filter((x) => dirty.has(x))) {
      const now = see(f);
      const before = seen.get(f)!;
      if (same(now, before)) continue;
      seen.set(f, now);
      if (now === 'gone') {
        log.error(`mock: ${name(f)} is gone; still serving what was loaded from it, and watching for it to come back`);
        continue;
      }
      if (before === 'gone') log.error(`mock: ${name(f)} is back`);
      changed.push(f);
    }
    dirty.clear();
    if (changed.length) reload(changed);
    // A file back, a link pointed elsewhere, a directory made: where events arrive may have moved.
    plan();
  };

  const touched = (concerned: Iterable<string>) => {
    for (const f of concerned) dirty.add(f);
    clearTimeout(timer);
    timer = setTimeout(check, SETTLE_MS);
  };

  /** Watches the directories the files' events arrive in now, and only those. */
  const plan = () => {
    const wanted = new Map<string, Map<string, Set<string>>>();
    for (const f of files)
      for (const [dir, names] of placesOf(f)) {
        const byName = wanted.get(dir) ?? new Map<string, Set<string>>();
        wanted.set(dir, byName);
        for (const n of names) byName.set(n, (byName.get(n) ?? new Set()).add(f));
      }
    for (const [dir, w] of watches)
      if (!wanted.has(dir) || statSync(dir, { throwIfNoEntry: false })?.ino !== w.ino) {
        w.watcher.close();
        watches.delete(dir);
      }
    for (const [dir, byName] of wanted) {
      const known = watches.get(dir);
      if (known) {
        known.files = byName;
        continue;
      }
      try {
        const ino = statSync(dir).ino;
        const entry: DirectoryWatch = {
          ino,
          files: byName,
          // Not persistent: the socket keeps the process alive, a watch alone must not.
          watcher: watch(dir, { persistent: false }, (_event, filename) => {
            const concerned = filename === null ? undefined : entry.files.get(filename);
            if (concerned) touched(concerned);
            // No name, or the directory's own (it was removed or moved): every file it holds may be concerned.
            else if (filename === null || filename === basename(dir)) touched(everyFile(entry));
          }),
        };
        entry.watcher.on('error', () => {
          entry.watcher.close();
          if (watches.get(dir) === entry) watches.delete(dir);
          touched(everyFile(entry));
        });
        watches.set(dir, entry);
        unwatchable.delete(dir);
      } catch (err) {
        if (!unwatchable.has(dir))
          log.error(`mock: cannot watch ${name(dir)} (${(err as Error).message}); an edit there is not seen`);
        unwatchable.add(dir);
      }
    }
  };

  plan();
  // An edit made after the mock loaded its inputs and before the directories were watched.
  for (const f of files) dirty.add(f);
  check();
  log.info(`mock: watching ${files.map(name).join(', ')}; an edit reloads them on this port`);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    for (const w of watches.values()) w.watcher.close();
    watches.clear();
  };
}
