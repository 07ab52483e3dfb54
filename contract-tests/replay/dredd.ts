// Dredd 14 in this process, through its Node.js API (`new Dredd(config).run()`): it
// reads the spec, turns each documented response into a transaction and sends the ones
// the replay keeps, each through the hook file (dredd-hooks.cjs), which hands it to the
// replay's functions. Its log holds full request headers (credentials), so it is
// captured from its two loggers, never printed, and masked by the caller. Dredd's
// loggers are one per process: one replay runs at a time.
import { createRequire } from 'node:module';
import { DREDD_HOOKS, PACKAGE_ROOT } from '../shared/package-files.ts';
import type { DreddTransaction } from './dredd-types.ts';

const require = createRequire(import.meta.url);

/** The replay's part in each transaction; each is awaited before Dredd goes on. */
export interface ReplaySteps {
  /** Before Dredd sends it: skip it, or fill in what it needs. */
  beforeEach(t: DreddTransaction): Promise<void>;
  /** Its answer is in, before Gavel validates it. */
  beforeEachValidation(t: DreddTransaction): Promise<void>;
  afterEach(t: DreddTransaction): Promise<void>;
}

export interface DreddRun {
  /** Dredd itself failed (it could not read the spec, a hook threw): the replay did not complete. */
  error?: Error;
  /** Dredd's own log, unmasked. */
  log: string;
}

interface WinstonLogger {
  on(event: 'logging', listener: (transport: unknown, level: string, msg: string) => void): void;
  removeListener(event: 'logging', listener: (transport: unknown, level: string, msg: string) => void): void;
  transports: { console: { silent?: boolean } };
}

type DreddClass = new (config: Record<string, unknown>) => { run(done: (error: Error | null) => void): void };

/**
 * Why Dredd cannot run here, if it cannot: the package declares it an optional peer
 * dependency (decision 0027), so an install without it is lean; a clone has it.
 */
export function dreddMissing(): string | undefined {
  try {
    require.resolve('dredd');
    return undefined;
  } catch {
    return (
      'Dredd is not installed (an optional peer dependency of server-listing-mock): npm install -D ' +
      'dredd@14.1.0 beside it to replay, or --dredd off'
    );
  }
}

let loaded: { Dredd: DreddClass; loggers: WinstonLogger[]; warnings: string[] } | undefined;

/**
 * Loads Dredd once; what Node warns about while it loads (a circular import
 * in its logger) goes to its log, not to the console.
 */
function loadDredd(): NonNullable<typeof loaded> {
  if (loaded) return loaded;
  const warnings: string[] = [];
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error) =>
    void warnings.push(
      `warning: ${typeof warning === 'string' ? warning : warning.message}`,
    )) as typeof process.emitWarning;
  try {
    const Dredd = require('dredd') as DreddClass;
    const loggers = [
      require('dredd/build/logger').default,
      require('dredd/build/reporters/reporterOutputLogger').default,
    ] as WinstonLogger[];
    loaded = { Dredd, loggers, warnings };
  } finally {
    process.emitWarning = emitWarning;
  }
  return loaded;
}

let queue: Promise<unknown> = Promise.resolve();

/** Replays `specPath` against `baseUrl` with Dredd, the replay's steps run on each transaction. */
export function runDredd(specPath: string, baseUrl: string, steps: ReplaySteps): Promise<DreddRun> {
  const run = queue.then(() => runOnce(specPath, baseUrl, steps));
  queue = run.catch(() => undefined);
  return run;
}

async function runOnce(specPath: string, baseUrl: string, steps: ReplaySteps): Promise<DreddRun> {
  const { Dredd, loggers, warnings } = loadDredd();
  const lines = [...warnings];
  const listener = (_transport: unknown, level: string, msg: string) => void lines.push(`${level}: ${msg}`);
  for (const l of loggers) l.on('logging', listener);
  try {
    // Only functions cross into Dredd's configuration: it deep-copies the rest.
    const dredd = new Dredd({
      endpoint: baseUrl,
      path: [specPath],
      hookfiles: [DREDD_HOOKS],
      loglevel: 'warning',
      color: false,
      custom: {
        cwd: PACKAGE_ROOT,
        contractReplay: {
          beforeEach: steps.beforeEach,
          beforeEachValidation: steps.beforeEachValidation,
          afterEach: steps.afterEach,
        },
      },
    });
    // Its configuration set the console loggers up: the log is captured, not printed.
    for (const l of loggers) l.transports.console.silent = true;
    const error = await new Promise<Error | null>((resolve) => dredd.run((err) => resolve(err)));
    return { ...(error ? { error } : {}), log: lines.join('\n') };
  } catch (err) {
    return { error: err as Error, log: lines.join('\n') };
  } finally {
    for (const l of loggers) {
      l.removeListener('logging', listener);
      l.transports.console.silent = false;
    }
  }
}
