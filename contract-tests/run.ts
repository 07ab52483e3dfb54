// `npm run contract -- --base-url <url>`: replays spec/openapi.yaml against an
// implementation (Dredd + the suite's hooks), prints a summary, writes JUnit XML.
// Exit 0: every check passed; 1: a check failed; 2: unreachable target or refused to run.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { SuiteContext } from './lib/context.ts';
import { USAGE, UsageError, isLoopback, normaliseBaseUrl, parseArgs, type CliOptions, type RunConfig } from './lib/config.ts';
import { nameFixtureSecrets, resolveCredentials } from './lib/credentials.ts';
import { REPO_ROOT, runDredd } from './lib/dredd-process.ts';
import { removeOpenKeys } from './lib/keys.ts';
import { mask, redact, rememberSecret } from './lib/mask.ts';
import { groupByOperation, junit, summary } from './lib/report.ts';
import { readResults, type CheckResult } from './lib/results.ts';
import { loadModel } from '../spec/model.ts';

const EXIT = { passed: 0, failed: 1, refused: 2 } as const;

class Refusal extends Error {}

interface Mock {
  baseUrl: string;
  close(): Promise<void>;
}

async function startLocalMock(): Promise<Mock> {
  // Loaded only on request, so the suite itself does not depend on the mock's code.
  const { startMock } = (await import(new URL('../mocks/server.ts', import.meta.url).href)) as {
    startMock(options: { port: number; host: string; quiet: boolean; rateLimit?: boolean }): Promise<Mock>;
  };
  // Rate limiting off: the suite's burst of requests would otherwise wait out 429s.
  return startMock({ port: 0, host: '127.0.0.1', quiet: true, rateLimit: false });
}

/** Any HTTP answer means reachable; only a network failure refuses the run. */
async function assertReachable(baseUrl: string): Promise<void> {
  try {
    await fetch(baseUrl, { signal: AbortSignal.timeout(10_000), redirect: 'manual' }).then((r) => r.body?.cancel());
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new Refusal(`cannot reach ${baseUrl}: ${cause?.code ?? cause?.message ?? (err as Error).message}. Is the server running, and is --base-url right?`);
  }
}

function buildConfig(opts: CliOptions, baseUrl: string, workDir: string): RunConfig {
  const model = loadModel();
  const unknown = opts.only.filter((id) => !model.byId.has(id));
  if (unknown.length) throw new Refusal(`--only: no operation ${unknown.join(', ')} in the spec; known: ${[...model.byId.keys()].join(', ')}`);
  const loopback = isLoopback(baseUrl);
  const credentials = resolveCredentials(process.env, loopback, model);
  const selected = model.operations.filter((o) => !opts.only.length || opts.only.includes(o.operationId));
  if (!loopback && selected.some((o) => o.schemes.length) && !credentials.apiKey && !credentials.session) {
    throw new Refusal(
      `refusing to test ${baseUrl} without credentials: it is not a local target, so the fixture credentials do not apply. ` +
        'Set CONTRACT_API_KEY and/or CONTRACT_SESSION_COOKIE (and CONTRACT_FORBIDDEN_API_KEY for the 403 checks), or limit the run to public operations with --only.',
    );
  }
  return {
    baseUrl,
    only: opts.only,
    provenance: opts.provenance,
    allowWrites: loopback || opts.allowWrites,
    writesReason: loopback ? 'loopback target' : opts.allowWrites ? '--allow-writes' : 'not a loopback target',
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

interface RunStats {
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

/** The run's figures: what was sent, how long the suite waited for rate limits, what the sample saw. */
function figures(file: string, config: RunConfig, wallMs: number): string[] {
  if (!existsSync(file)) return [`Finished in ${(wallMs / 1000).toFixed(1)} s (no figures: the hooks did not finish)`];
  const s = JSON.parse(readFileSync(file, 'utf8')) as RunStats;
  const lines = [
    `Requests: ${s.requests} sent by the suite (budget ${s.budget}${s.refused ? `, ${s.refused} more refused` : ''}), ${s.cleanup} to clean up and ${s.dreddRequests} by Dredd`,
    `Rate limits: waited ${(s.waitedMs / 1000).toFixed(1)} s in ${s.waits} pause(s); ${s.tooMany} answer(s) were 429${config.pace ? '' : ' (--pace off: waiting only on 429)'}`,
  ];
  if (s.sample && (s.sample.pages || s.sample.pinged)) {
    const share = s.sample.distinct ? ((100 * s.sample.invalid) / s.sample.distinct).toFixed(1) : '0.0';
    lines.push(`Sample: ${s.sample.rows} rows in ${s.sample.pages} pages, ${s.sample.distinct} distinct, ${s.sample.invalid} invalid (${share}%); ${s.sample.pinged} pings`);
  }
  lines.push(`Finished in ${(wallMs / 1000).toFixed(1)} s`);
  return lines;
}

function header(config: RunConfig): string[] {
  const c = config.credentials;
  const creds = [c.apiKey && `API key ${mask(c.apiKey)}`, c.session && `session ${mask(c.session)}`, c.forbiddenKey && `forbidden key ${mask(c.forbiddenKey)}`].filter(Boolean).join(', ');
  return [
    `Contract suite: spec/openapi.yaml against ${config.baseUrl}`,
    `  provenance: ${config.provenance === 'assumed' ? 'everything' : `${config.provenance}${config.provenance === 'observed' ? ' and interface' : ' only'}`}` +
      `${config.only.length ? `; only ${config.only.join(', ')}` : ''}; writes ${config.allowWrites ? 'on' : 'off'} (${config.writesReason}); budget ${config.budget} requests`,
    `  credentials: ${creds || 'none'} (from ${c.source})`,
  ];
}

async function main(argv: string[]): Promise<number> {
  const started = Date.now();
  let opts: CliOptions;
  try {
    opts = parseArgs(argv);
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${USAGE}`);
    return EXIT.refused;
  }
  if (opts.help) {
    console.log(USAGE);
    return EXIT.passed;
  }
  let mock: Mock | undefined;
  const workDir = mkdtempSync(join(tmpdir(), 'contract-'));
  let dreddPid: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    // Stop Dredd; the ledger sweep in `finally` still removes what was created.
    if (dreddPid) process.kill(dreddPid, 'SIGTERM');
    console.error(`\n${signal}: stopping`);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let ctx: SuiteContext | undefined;
  try {
    if (opts.startMock) mock = await startLocalMock();
    const rawUrl = mock?.baseUrl ?? opts.baseUrl;
    if (!rawUrl) throw new Refusal('no target: pass --base-url <url> (or set CONTRACT_BASE_URL), or --start-mock');
    const baseUrl = normaliseBaseUrl(rawUrl);
    const config = buildConfig(opts, baseUrl, workDir);
    nameFixtureSecrets(loadModel());
    for (const s of [config.credentials.apiKey, config.credentials.session, config.credentials.forbiddenKey]) rememberSecret(s);
    await assertReachable(baseUrl);

    const dredd = await runDredd(config, (pid) => (dreddPid = pid));
    dreddPid = undefined;
    ctx = new SuiteContext(config);
    const leftovers = await removeOpenKeys(ctx);

    const results = readResults(config.resultsFile);
    const extra: CheckResult[] = [];
    if (leftovers.length) {
      extra.push({ operationId: 'cleanup', check: 'cleanup: everything the suite created is removed', provenance: 'interface', status: 'fail',
        message: `could not remove API key(s) ${leftovers.map((k) => k.id).join(', ')}: remove them by hand` });
    }
    if (dredd.timedOut || (dredd.exitCode !== 0 && !results.some((r) => r.status === 'fail')) || results.length === 0) {
      extra.push({ operationId: 'dredd', check: 'Dredd ran to completion', provenance: 'interface', status: 'fail',
        message: `${dredd.timedOut ? 'timed out' : `exit code ${dredd.exitCode}`}${results.length ? '' : ', no check was recorded'}; last output: ${redact(dredd.output.split('\n').filter((l) => !l.includes('parser warning')).slice(-8).join(' | '))}` });
    }
    const model = ctx.model;
    const ids = model.operations.filter((o) => !config.only.length || config.only.includes(o.operationId)).map((o) => o.operationId);
    const reports = groupByOperation(ids, [...results, ...extra]);

    const junitPath = resolve(REPO_ROOT, opts.junit ?? 'reports/contract-junit.xml');
    mkdirSync(dirname(junitPath), { recursive: true });
    writeFileSync(junitPath, junit(reports));
    const logPath = join(dirname(junitPath), 'contract-dredd.log');
    writeFileSync(logPath, redact(dredd.output));
    console.log(summary(reports, header(config)));
    console.log(figures(config.statsFile, config, Date.now() - started).join('\n'));
    console.log(`JUnit: ${junitPath}\nDredd log (masked): ${logPath}`);
    if (opts.verbose) console.log(`\n--- Dredd output (masked) ---\n${redact(dredd.output)}`);
    return reports.some((r) => r.results.some((x) => x.status === 'fail')) ? EXIT.failed : EXIT.passed;
  } catch (err) {
    if (err instanceof Refusal || err instanceof UsageError) {
      console.error(`contract: ${err.message}`);
      return EXIT.refused;
    }
    throw err;
  } finally {
    if (ctx) await removeOpenKeys(ctx).catch(() => undefined);
    await mock?.close();
    rmSync(workDir, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`contract: unexpected error: ${redact(err.stack ?? err.message)}`);
    process.exit(EXIT.refused);
  },
);
