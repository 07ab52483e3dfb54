// `npm run mock`: parse flags, start the server, print where it is and how to call
// it, log one line per request, stop cleanly on Ctrl-C.
import { ownPackage } from '../../cli/own-package.ts';
import { banner, progressPrinter } from './banner.ts';
import { helpText, OptionsError, parseOptions } from './options.ts';
import { startMock, STOP_GRACE_MS, type RunningMock } from './server.ts';
import { watchInputs } from './watch.ts';

async function main(): Promise<void> {
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
  const started = performance.now();
  let running: RunningMock;
  try {
    running = await startMock(options, options.quiet ? {} : { progress: progressPrinter(process.stderr) });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'EADDRINUSE' ? `port ${options.port} on ${options.host} is in use (try --port 0 or another port)` : e.message;
    console.error(`mock: cannot start: ${why}`);
    process.exit(1);
  }
  const ms = Math.round(performance.now() - started);
  console.log(options.quiet ? `Mock listening on ${running.baseUrl}` : banner(running, options, ms));

  const stopWatching = options.watch
    ? await watchInputs(running, options, { info: (l) => console.log(l), error: (l) => console.error(l) })
    : undefined;

  // Stop accepting, let requests in flight finish (at most STOP_GRACE_MS), then exit.
  // A second signal does not wait.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) process.exit(130);
    stopping = true;
    if (!options.quiet) console.log(`\nmock: ${signal}, stopping (finishing requests in flight, at most ${STOP_GRACE_MS / 1000} s)`);
    await stopWatching?.();
    await running.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

void main().catch((err) => {
  console.error(`mock: ${(err as Error).message}`);
  process.exit(1);
});
