// `npm run mock`: parse flags, load the inputs, start the server, print where it is and
// how to call it, log one line per request, stop cleanly on Ctrl-C, SIGTERM or the end
// of the process that started it (mocks/node/lifetime.ts).
// On the way out, `--usage-out` writes the usage profile (spec/usage-file.ts).
// Exit 0: stopped; 1: could not start (the port is taken), or the usage profile could not
// be written; 2: a misuse (a bad flag, a file named by --data, --fixtures or --spec that
// cannot be read or is invalid, a --usage-out file that is not this consumer's profile);
// 130: a second Ctrl-C.
import { resolve } from 'node:path';
import { ownPackage } from '../../cli/own-package.ts';
import { existingProfile, saveUsageProfile, UsageFileError } from '../../spec/usage-file.ts';
import { banner, progressPrinter } from './banner.ts';
import { SignalPresses, STOP_GRACE_MS, watchParent } from './lifetime.ts';
import { loadInputs } from './load.ts';
import { helpText, OptionsError, parseOptions } from './options.ts';
import { tuneForServing } from './serving-heap.ts';
import { startMock, type RunningMock } from './server.ts';
import { seeInputs, watchInputs } from './watch.ts';

async function main(): Promise<void> {
  // A reader that went away (the terminal closed, the process that piped our output
  // ended) must not crash a mock that is still answering, or is finishing its answers.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (err) {
    if (err instanceof OptionsError) {
      console.error(`mock: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  if (options.help) {
    console.log(helpText());
    return;
  }
  if (options.version) {
    console.log(ownPackage().version);
    return;
  }
  // A --usage-out file that is there must be this consumer's profile: found now, not at exit.
  if (options.usageOut !== undefined) {
    try {
      existingProfile(resolve(options.usageOut), options.consumer!);
    } catch (err) {
      if (!(err instanceof UsageFileError)) throw err;
      console.error(`mock: --usage-out: ${err.message}`);
      process.exit(2);
    }
  }
  const started = performance.now();
  // The inputs as they are before loading: an edit from here on, even before the watch begins, reloads.
  const loaded = options.watch ? seeInputs(options) : undefined;
  let inputs: ReturnType<typeof loadInputs>;
  try {
    inputs = loadInputs(options, undefined, options.quiet ? undefined : progressPrinter(process.stderr));
  } catch (err) {
    // The files the flags named: what is wrong with them is the user's to fix, like a bad flag.
    console.error(`mock: cannot start: ${(err as Error).message}`);
    process.exit(2);
  }
  tuneForServing();
  let running: RunningMock;
  try {
    running = await startMock(options, { inputs });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why =
      e.code === 'EADDRINUSE'
        ? `port ${options.port} on ${options.host} is in use (try --port 0 or another port)`
        : e.message;
    console.error(`mock: cannot start: ${why}`);
    process.exit(1);
  }
  const ms = Math.round(performance.now() - started);
  console.log(options.quiet ? `Mock listening on ${running.baseUrl}` : banner(running, options, ms));
  // Rows of --data that a default filter hides (an old last_ping and the default maxAge): said, even with --quiet.
  const { state } = running.mock;
  for (const line of state.hiding?.lines(state.now()) ?? []) console.error(`mock: ${options.data}: ${line}`);

  const stopWatching = loaded
    ? await watchInputs(running, options, { info: (l) => console.log(l), error: (l) => console.error(l) }, loaded)
    : undefined;

  // Stop accepting, let requests in flight finish (at most STOP_GRACE_MS), then exit.
  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    if (!options.quiet)
      console.log(`\nmock: ${why}, stopping (finishing requests in flight, at most ${STOP_GRACE_MS / 1000} s)`);
    await stopWatching?.();
    await running.close();
    process.exit(writeUsage() ? 0 : 1);
  };
  /** `--usage-out`: the profile, once the last answer is counted; false when it could not be written. */
  const writeUsage = (): boolean => {
    const profile = running.mock.state.usage?.toJSON();
    if (options.usageOut === undefined || !profile) return true;
    const file = resolve(options.usageOut);
    try {
      const saved = saveUsageProfile(file, profile);
      const where =
        saved.file === file ? file : `${saved.file} (${file} is no longer a profile of ${profile.consumer})`;
      const merged = saved.merged !== undefined ? `, with the ${saved.merged} already there` : '';
      console.log(`mock: usage of ${profile.consumer}: ${profile.requests} requests${merged} written to ${where}`);
      return true;
    } catch (err) {
      console.error(`mock: the usage profile could not be written to ${file}: ${(err as Error).message}`);
      return false;
    }
  };
  // One Ctrl-C can arrive twice (the terminal's and npm's copy): only a second press exits at once.
  const presses = new SignalPresses();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      const verdict = presses.verdict(signal, performance.now());
      if (verdict === 'exit-now') process.exit(130);
      if (verdict === 'stop') void stop(signal);
    });
  }
  if (!options.outliveParent) {
    watchParent((pid) => {
      console.error(
        `mock: the process that started it (pid ${pid}) has ended; stopping (--outlive-parent keeps the mock running)`,
      );
      void stop('its parent ended');
    });
  }
}

void main().catch((err) => {
  console.error(`mock: ${(err as Error).message}`);
  process.exit(1);
});
