// `server-listing-contract --base-url <url>` (`npm run contract --` in a clone): a
// pre-flight, then the spec replayed against the target (Dredd + the suite's hooks),
// then the reports: the summary on stdout, JUnit, HTML and markdown in ./reports.
// Exit 0: every check passed; 1: a check failed (or was skipped, with --strict);
// 2: nothing was checked (unreachable target, wrong base URL, refused to run). Every
// run writes its reports, exit 2 included, and first deletes the last run's.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findCauses, type Observed } from './lib/causes.ts';
import { SuiteContext } from './lib/context.ts';
import { USAGE, UsageError, normaliseBaseUrl, parseArgs, reportFlags, type CliOptions, type RunConfig } from './lib/config.ts';
import { nameFixtureSecrets, resolveCredentials } from './lib/credentials.ts';
import { runDredd } from './lib/dredd-process.ts';
import { htmlReport } from './lib/html-report.ts';
import { junit } from './lib/junit.ts';
import { removeOpenKeys } from './lib/keys.ts';
import { markdown } from './lib/markdown.ts';
import { mask, redact, rememberSecret } from './lib/mask.ts';
import { startMockProgram, type MockProgram } from './lib/mock-process.ts';
import { PreflightError, preflight, type Target } from './lib/preflight.ts';
import { clearReports, reportPaths, writeAtomically, type ReportPaths } from './lib/report-files.ts';
import { groupByOperation, summary, tally, verdictLine, type RunOutcome } from './lib/report.ts';
import { readResults, type CheckResult } from './lib/results.ts';
import { loadModel, type SpecModel } from '../spec/model.ts';

class Refusal extends Error {}

function buildConfig(opts: CliOptions, target: Target, model: SpecModel, workDir: string): RunConfig {
  const isMock = Boolean(target.mock);
  const credentials = resolveCredentials(process.env, isMock, model);
  const selected = model.operations.filter((o) => !opts.only.length || opts.only.includes(o.operationId));
  if (!isMock && selected.some((o) => o.schemes.length) && !credentials.apiKey && !credentials.session) {
    throw new Refusal(
      `refusing to test ${target.baseUrl} without credentials: it does not identify as the mock (GET /__mock/info), so the fixture credentials do not apply. ` +
        'Set CONTRACT_API_KEY and/or CONTRACT_SESSION_COOKIE (and CONTRACT_FORBIDDEN_API_KEY for the 403 checks), or limit the run to public operations with --only.',
    );
  }
  return {
    baseUrl: target.baseUrl,
    only: opts.only,
    provenance: opts.provenance,
    allowWrites: isMock || opts.allowWrites,
    writesReason: isMock ? 'the target is the mock' : opts.allowWrites ? '--allow-writes' : 'the target is not the mock',
    credentials,
    resultsFile: join(workDir, 'results.jsonl'),
    ledgerFile: join(workDir, 'ledger.jsonl'),
    statsFile: join(workDir, 'stats.json'),
    runId: randomBytes(4).toString('hex'),
    budget: opts.budget,
    // The mock --start-mock starts reports its limits without enforcing them: waiting on them would only slow the run.
    pace: opts.pace ?? !opts.startMock,
  };
}

interface RunStats extends Observed {
  budget: number;
  requests: number;
  refused: number;
  cleanup: number;
  dreddRequests: number;
  waits: number;
  waitedMs: number;
  tooMany: number;
  sample?: { pages: number; rows: number; distinct: number; invalid: number; pinged: number };
}

function readStats(file: string): RunStats | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RunStats) : undefined;
}

/** The run's figures: what was sent, how long the suite waited for rate limits, what the sample saw. */
function figures(s: RunStats | undefined, config: RunConfig, target: Target, wallMs: number): string[] {
  if (!s) return [`Finished in ${(wallMs / 1000).toFixed(1)} s (no figures: the hooks did not finish)`];
  const lines = [
    `Requests: ${s.requests} sent by the suite (budget ${s.budget}${s.refused ? `, ${s.refused} more refused` : ''}), ${s.cleanup} to clean up, ${s.dreddRequests} by Dredd and ${target.requests} by the pre-flight`,
    `Rate limits: waited ${(s.waitedMs / 1000).toFixed(1)} s in ${s.waits} pause(s); ${s.tooMany} answer(s) were 429${config.pace ? '' : ' (--pace off: waiting only on 429)'}`,
  ];
  if (s.sample && (s.sample.pages || s.sample.pinged)) {
    const share = s.sample.distinct ? ((100 * s.sample.invalid) / s.sample.distinct).toFixed(1) : '0.0';
    lines.push(`Sample: ${s.sample.rows} rows in ${s.sample.pages} pages, ${s.sample.distinct} distinct, ${s.sample.invalid} invalid (${share}%); ${s.sample.pinged} pings`);
  }
  lines.push(`Finished in ${(wallMs / 1000).toFixed(1)} s`);
  return lines;
}

function settings(config: RunConfig, target: Target, strict: boolean): string[] {
  const c = config.credentials;
  const creds = [c.apiKey && `API key ${mask(c.apiKey)}`, c.session && `session ${mask(c.session)}`, c.forbiddenKey && `forbidden key ${mask(c.forbiddenKey)}`].filter(Boolean).join(', ');
  const m = target.mock;
  const level = config.provenance === 'assumed' ? 'everything' : `${config.provenance}${config.provenance === 'observed' ? ' and interface' : ' only'}`;
  return [
    `Contract suite: spec/openapi.yaml against ${config.baseUrl}`,
    `  target: ${m ? `${m.name} ${m.version} (${m.data ? `data ${m.data}` : `seed ${m.seed}`}, ${m.servers} servers)` : 'not the mock (it does not answer GET /__mock/info as the mock)'}`,
    `  checks: ${level}${config.only.length ? `; only ${config.only.join(', ')}` : ''}; budget ${config.budget} requests${strict ? '; --strict: a skip fails the run' : ''}`,
    `  writes: ${config.allowWrites ? 'on' : 'off'} (${config.writesReason})`,
    `  credentials: ${creds || 'none'} (${c.source === 'fixtures/auth.json' ? 'from fixtures/auth.json, as the target is the mock' : `from ${c.source}`})`,
  ];
}

interface Running {
  mock?: MockProgram;
  dreddPid?: number;
  ctx?: SuiteContext;
}

async function check(argv: string[], paths: ReportPaths, started: Date, running: Running): Promise<RunOutcome> {
  const opts = parseArgs(argv);
  const model = loadModel();
  nameFixtureSecrets(model);
  const unknown = opts.only.filter((id) => !model.byId.has(id));
  if (unknown.length) throw new Refusal(`--only: no operation ${unknown.join(', ')} in the spec; known: ${[...model.byId.keys()].join(', ')}`);
  if (opts.startMock) running.mock = await startMockProgram();
  const rawUrl = running.mock?.baseUrl ?? opts.baseUrl;
  if (!rawUrl) throw new Refusal('no target: pass --base-url <url> (or set CONTRACT_BASE_URL), or --start-mock');
  const target = await preflight(normaliseBaseUrl(rawUrl), model);

  const workDir = mkdtempSync(join(tmpdir(), 'contract-'));
  try {
    const config = buildConfig(opts, target, model, workDir);
    for (const s of [config.credentials.apiKey, config.credentials.session, config.credentials.forbiddenKey]) rememberSecret(s);
    const dredd = await runDredd(config, (pid) => (running.dreddPid = pid));
    running.dreddPid = undefined;
    writeAtomically(paths.dreddLog, redact(dredd.output));
    running.ctx = new SuiteContext(config);
    const leftovers = await removeOpenKeys(running.ctx);

    const results = readResults(config.resultsFile);
    const stats = readStats(config.statsFile);
    if (stats && results.length === 0) {
      throw new Refusal(`nothing was checked: ${config.only.length ? `--only ${config.only.join(',')} with ` : ''}--provenance ${config.provenance} selects no check (every part it would rely on is softer than ${config.provenance})`);
    }
    const extra: CheckResult[] = [];
    if (leftovers.length) {
      extra.push({ operationId: 'cleanup', check: 'cleanup: everything the suite created is removed', provenance: 'interface', status: 'fail',
        message: `could not remove API key(s) ${leftovers.map((k) => k.id).join(', ')}: remove them by hand` });
    }
    // Dredd exits 1 when a transaction failed, which the results already say; any other code is Dredd itself failing.
    if (dredd.timedOut || (dredd.exitCode !== 0 && dredd.exitCode !== 1) || !stats) {
      extra.push({ operationId: 'dredd', check: 'Dredd ran to completion', provenance: 'interface', status: 'fail',
        message: `${dredd.timedOut ? 'timed out' : `exit code ${dredd.exitCode}`}${stats ? '' : ', the hooks did not finish'}; last output: ${redact(dredd.output.split('\n').filter((l) => !l.includes('parser warning')).slice(-8).join(' | '))}` });
    }
    const operations = model.operations.filter((o) => !config.only.length || config.only.includes(o.operationId));
    const all = [...results, ...extra];
    const reports = groupByOperation(operations.map((o) => ({ operationId: o.operationId, route: `${o.method} ${o.path}` })), all);
    const { causes, single } = findCauses(
      all,
      model.operations.map((o) => ({ operationId: o.operationId, method: o.method, path: o.path, declares404: o.responses.has(404), isProtected: !o.isPublic })),
      stats,
    );
    const outcome: RunOutcome = {
      exitCode: 0, settings: settings(config, target, opts.strict), reports, causes, single, figures: [], strict: opts.strict, startedAt: started, durationMs: 0,
    };
    const t = tally(outcome);
    outcome.exitCode = t.failed || t.strictFailures.length ? 1 : 0;
    outcome.durationMs = Date.now() - started.getTime();
    outcome.figures = figures(stats, config, target, outcome.durationMs);
    if (opts.verbose) console.log(`--- Dredd output (masked) ---\n${redact(dredd.output)}\n`);
    return outcome;
  } finally {
    if (running.ctx) await removeOpenKeys(running.ctx).catch(() => undefined);
    rmSync(workDir, { recursive: true, force: true });
  }
}

function notRun(reason: string, started: Date, argv: string[]): RunOutcome {
  const target = reportTarget(argv);
  return {
    exitCode: 2, refusal: reason, settings: [`Contract suite: spec/openapi.yaml against ${target}`], reports: [], causes: [], single: [], figures: [`Finished in ${((Date.now() - started.getTime()) / 1000).toFixed(1)} s`],
    strict: false, startedAt: started, durationMs: Date.now() - started.getTime(),
  };
}

/** The target as given, for the report of a run that never got to one. */
function reportTarget(argv: string[]): string {
  const i = argv.indexOf('--base-url');
  const given = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith('--base-url='))?.slice('--base-url='.length);
  return given ?? process.env.CONTRACT_BASE_URL ?? (argv.includes('--start-mock') ? 'the local mock (--start-mock)' : '(no target)');
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  const started = new Date();
  const paths = reportPaths(reportFlags(argv));
  clearReports(paths);
  const running: Running = {};
  const onSignal = (signal: NodeJS.Signals) => {
    // Stop Dredd; the ledger sweep still removes what was created, and the mock is stopped.
    if (running.dreddPid) process.kill(running.dreddPid, 'SIGTERM');
    console.error(`\n${signal}: stopping`);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  let outcome: RunOutcome;
  try {
    outcome = await check(argv, paths, started, running);
  } catch (err) {
    const expected = err instanceof Refusal || err instanceof UsageError || err instanceof PreflightError;
    const reason = expected ? (err as Error).message : `unexpected error: ${redact((err as Error).stack ?? String(err))}`;
    outcome = notRun(redact(reason), started, argv);
    console.error(`contract: ${outcome.refusal}${err instanceof UsageError ? `\n\n${USAGE}` : ''}`);
  } finally {
    await running.mock?.close();
  }
  writeAtomically(paths.junit, junit(outcome));
  writeAtomically(paths.html, htmlReport(outcome));
  writeAtomically(paths.markdown, markdown(outcome));
  if (outcome.exitCode !== 2) console.log([summary(outcome), ...outcome.figures].join('\n'));
  else console.log(verdictLine(outcome));
  console.log(`Reports: ${paths.junit} (JUnit), ${paths.html} (HTML), ${paths.markdown} (markdown)${outcome.exitCode === 2 ? '' : `, ${paths.dreddLog} (Dredd's log, masked)`}`);
  return outcome.exitCode;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`contract: unexpected error: ${redact(err.stack ?? err.message)}`);
    process.exit(2);
  },
);
