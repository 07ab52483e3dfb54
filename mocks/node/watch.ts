// `--watch`: reload the spec, the `--data` file and the fixtures when one changes, and
// swap the new app in behind the same socket (same port, open connections kept). A
// broken edit is reported and the last good version keeps answering.
import { relative } from 'node:path';
import { loadSpec, SPEC_PATH } from '../../spec/load.ts';
import { buildModel } from '../../spec/model.ts';
import { buildMock, loadInputs } from './load.ts';
import type { MockOptions } from './options.ts';
import type { RunningMock } from './server.ts';

export interface WatchLog {
  info(line: string): void;
  error(line: string): void;
}

/** Edits arrive as bursts of events (save = truncate + write, or write + rename): wait for quiet. */
const SETTLE_MS = 150;

/** Starts watching; resolves once the watcher is ready, to a function that stops it. */
export async function watchInputs(
  running: RunningMock,
  options: MockOptions,
  log: WatchLog,
): Promise<() => Promise<void>> {
  const specPath = options.spec ?? SPEC_PATH;
  const files = [specPath, options.fixtures, ...(options.data ? [options.data] : [])];
  const name = (f: string) => relative(process.cwd(), f) || f;
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;

  const reload = () => {
    const which = [...changed];
    changed.clear();
    const what = which.map(name).join(', ');
    try {
      // buildModel, not the cached loadModel: the file on disk is newer than the cache.
      const model = buildModel(loadSpec(specPath));
      const next = buildMock(options, loadInputs(options, model));
      // Only the data changed: keep the keys, sessions and rate counters, so a browser stays logged in.
      if (which.every((f) => f === options.data)) next.state.adoptRuntimeState(running.mock.state);
      running.swap(next);
      log.info(
        `mock: reloaded after a change to ${what}: ${next.state.index.size} servers, ${model.operations.length} operations`,
      );
    } catch (err) {
      log.error(
        `mock: reload after a change to ${what} failed; still serving the last good version.\n  ${(err as Error).message}`,
      );
    }
  };

  // Loaded here, not at the top: a mock started without --watch need not pay for it.
  const { watch } = await import('chokidar');
  const watcher = watch(files, { ignoreInitial: true, awaitWriteFinish: { stabilityThreshold: 80, pollInterval: 20 } });
  watcher.on('all', (_event, path) => {
    changed.add(files.find((f) => relative(f, path) === '') ?? path);
    clearTimeout(timer);
    timer = setTimeout(reload, SETTLE_MS);
  });
  watcher.on('error', (err) => log.error(`mock: watching failed: ${(err as Error).message}`));
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  log.info(`mock: watching ${files.map(name).join(', ')}; an edit reloads them on this port`);
  return async () => {
    clearTimeout(timer);
    await watcher.close();
  };
}
