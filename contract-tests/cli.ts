// `server-listing-contract --base-url <url>` (`npm run contract --` in a clone): the
// flags, `--start-mock`, Ctrl-C and SIGTERM, then the run (run/suite.ts), then the
// reports: the summary on stdout, JSON, JUnit, HTML and markdown in ./reports, Dredd's log.
// `diff` is another command: two versions of the spec compared (diff/command.ts); `promises`
// another: the spec's promise map (promises/command.ts).
// Exit 0: every check passed; 1: a check failed (or was skipped, with --strict), or the
// run was stopped; 2: nothing was checked (unreachable target, wrong base URL, refused
// to run). Every run writes its reports, exit 2 included, and first deletes the last run's.
import { readFileSync } from 'node:fs';
import { FlagError } from '../cli/flags.ts';
import { readUsageProfile, type UsageProfile } from '../spec/usage-profile.ts';
import { ownPackage } from '../cli/own-package.ts';
import { summary, verdictLine, type RunOutcome } from './reports/outcome.ts';
import { clearReports, reportPaths, writeAtomically, writeReports } from './reports/files.ts';
import { notRun } from './run/figures.ts';
import { redact } from './shared/mask.ts';
import { startMockProgram, type MockProgram } from './run/mock-program.ts';
import { USAGE, givenTarget, parseOptions, reportFlags, type CliOptions } from './run/options.ts';
import { runDiff } from './diff/command.ts';
import { runPromises } from './promises/command.ts';
import { runSuite, type SuiteRun } from './run/suite.ts';

async function check(opts: CliOptions, signal: AbortSignal, running: { mock?: MockProgram }): Promise<SuiteRun> {
  if (opts.requireUsage && !opts.usage.length) throw new FlagError('--require-usage needs --usage <file>');
  const usage = opts.usage.length ? readProfiles(opts.usage) : undefined;
  if (opts.startMock) running.mock = await startMockProgram();
  const baseUrl = running.mock?.baseUrl ?? opts.baseUrl;
  if (!baseUrl) throw new FlagError('no target: pass --base-url <url> (or set CONTRACT_BASE_URL), or --start-mock');
  return runSuite({
    baseUrl,
    spec: opts.spec,
    only: opts.only,
    provenance: opts.provenance,
    strict: opts.strict,
    allowWrites: opts.allowWrites,
    budget: opts.budget,
    // The mock --start-mock starts reports its limits without enforcing them: waiting on them would only slow the run.
    pace: opts.pace === undefined ? !opts.startMock : opts.pace === 'on',
    dredd: opts.dredd !== 'off',
    seed: opts.seed,
    signal,
    ...(usage ? { usage, requireUsage: opts.requireUsage } : {}),
  });
}

/** `--usage` files, read and checked; one that is not a usage profile refuses the run (exit 2). */
function readProfiles(files: readonly string[]): UsageProfile[] {
  return files.map((file) => {
    try {
      return readUsageProfile(readFileSync(file, 'utf8'), `--usage ${file}`);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new FlagError(code ? `--usage ${file}: cannot read it (${code})` : (err as Error).message);
    }
  });
}

async function main(argv: string[]): Promise<number> {
  // `diff`: the spec against another version of itself; no target, no reports (contract-tests/diff/).
  if (argv[0] === 'diff')
    return runDiff(argv.slice(1), {
      out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
      err: (text) => console.error(text),
      cwd: process.cwd(),
    });
  // `promises`: the spec's promise map, each promise with its judges (contract-tests/promises/).
  if (argv[0] === 'promises')
    return runPromises(argv.slice(1), {
      out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
      err: (text) => console.error(text),
      cwd: process.cwd(),
    });
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  if (argv.includes('--version')) {
    console.log(ownPackage().version);
    return 0;
  }
  const started = new Date();
  const paths = reportPaths(reportFlags(argv));
  clearReports(paths);
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    // Nothing more is sent but the cleanup, which removes what the run
    // created; a second signal ends the process at once.
    console.error(`\n${signal}: stopping (removing what the run created; again to quit at once)`);
    stop.abort(signal);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const running: { mock?: MockProgram } = {};
  let opts: CliOptions | undefined;
  let run: SuiteRun;
  let usage = false;
  try {
    opts = parseOptions(argv);
    run = await check(opts, stop.signal, running);
  } catch (err) {
    usage = err instanceof FlagError;
    const reason = redact(usage ? (err as Error).message : `unexpected error: ${(err as Error).stack ?? String(err)}`);
    run = { outcome: notRun(reason, started, givenTarget(argv)) };
  } finally {
    await running.mock?.close();
  }
  const outcome: RunOutcome = run.outcome;
  const written = writeReports(outcome, paths, 'contract');
  if (run.dreddLog !== undefined) writeAtomically(paths.dreddLog, redact(run.dreddLog));
  // Each message once: a run that checked nothing says why on stderr, and nothing more but where its reports are.
  if (outcome.exitCode !== 2) console.log([summary(outcome), ...outcome.figures].join('\n'));
  else console.error(`contract: ${verdictLine(outcome)}${usage ? `\n\n${USAGE}` : ''}`);
  if (opts?.verbose && run.dreddLog) console.log(`--- Dredd output (masked) ---\n${redact(run.dreddLog)}\n`);
  console.log(`${written}${run.dreddLog === undefined ? '' : `, ${paths.dreddLog} (Dredd's log, masked)`}`);
  return outcome.exitCode;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`contract: unexpected error: ${redact(err.stack ?? err.message)}`);
    process.exit(2);
  },
);
