// The suite's run, in process and in phases: the pre-flight (can the target be tested,
// is it the mock), the replay of each operation's documented success (Dredd), the depth
// families of checks/families.ts in table order, every answer's verdicts by the judges, the cleanup
// of everything the run created, and the outcome the reports render. `runSuite` takes a
// `fetch`, so a test can run it against a Hono app's `app.fetch` with no socket (the
// replay phase is then off unless asked for: Dredd has an HTTP client of its own).
import { randomBytes } from 'node:crypto';
import { basename, resolve } from 'node:path';
import { FlagError } from '../../cli/flags.ts';
import { SPEC_PATH } from '../../spec/load.ts';
import { loadModel, type Operation, type SpecModel } from '../../spec/model.ts';
import type { Provenance } from '../../spec/provenance.ts';
import { FAMILIES, handOut, type Family } from '../checks/families.ts';
import { replayPhase, type Replayed } from '../replay/replay.ts';
import { promisesLine, outcomeOf as reportedOutcome, type RunOutcome } from '../reports/outcome.ts';
import { promiseCoverage } from '../../spec/promise-coverage.ts';
import { promiseMap } from '../../spec/promises.ts';
import type { Fetch } from '../transport/http.ts';
import { nameFixtureSecrets, resolveCredentials, type Credentials } from '../shared/credentials.ts';
import { figureLines, notRun, settingsLines, type RunFacts } from './figures.ts';
import { assembleRun, type Clock, type AssembledRun } from './assemble.ts';
import { redact } from '../shared/mask.ts';
import { DEFAULT_BUDGET, DEFAULT_SEED, normaliseBaseUrl } from './options.ts';
import { PreflightError, preflight, type Target } from './preflight.ts';
import type { CheckResult } from '../shared/recorder.ts';
import { Scope } from '../shared/scope.ts';
import type { UsageProfile } from '../../spec/usage-profile.ts';
import { usageCoverage } from './usage-coverage.ts';
import { collectionOf, runLanes, type Unit } from './lanes.ts';

export interface SuiteOptions {
  baseUrl: string;
  /**
   * How requests are sent (default: the global fetch, over a socket); a Hono app's `app.fetch` runs the suite in
   * process.
   */
  fetch?: Fetch;
  /** Another copy of the spec (default spec/openapi.yaml). */
  spec?: string;
  only?: readonly string[];
  provenance?: Provenance;
  strict?: boolean;
  allowWrites?: boolean;
  budget?: number;
  /** Wait on `X-RateLimit-Remaining: 0` (default true). */
  pace?: boolean;
  /**
   * The replay phase. Dredd sends with an HTTP client of its own, not `fetch`: the default is on, off when a `fetch` is
   * given.
   */
  dredd?: boolean;
  /** Where CONTRACT_* credentials are read (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Stops the run: nothing more is sent but the cleanup. */
  signal?: AbortSignal;
  clock?: Clock;
  /** The seed of the generated requests (default 1): the same seed sends the same ones. */
  seed?: number;
  /** The families to run (default all, checks/families.ts). */
  families?: readonly Family[];
  /** Usage profiles (`--usage`): the report lists which of their operations and parameters the run checked. */
  usage?: readonly UsageProfile[];
  /** `--require-usage`: one the run never checked fails it. */
  requireUsage?: boolean;
  /** Work out what the run covered of the spec's promise map (default true; a run of many mutants leaves it out). */
  promises?: boolean;
}

export interface SuiteRun {
  outcome: RunOutcome;
  /** Dredd's log, unmasked (the caller masks what it writes). */
  dreddLog?: string;
}

/** The suite refused to run: nothing was checked (exit 2). */
export class Refusal extends Error {}

const realClock = (signal: AbortSignal | undefined): Clock => ({
  now: Date.now,
  // A stopped run does not sit out a rate-limit window.
  sleep: (ms) =>
    new Promise((done) => {
      const stop = () => {
        clearTimeout(timer);
        done();
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', stop);
        done();
      }, ms);
      signal?.addEventListener('abort', stop, { once: true });
    }),
});

function modelOf(options: SuiteOptions): { model: SpecModel; path: string } {
  const path = options.spec ? resolve(options.spec) : SPEC_PATH;
  try {
    return { model: loadModel(path), path };
  } catch (err) {
    throw new Refusal(`--spec ${options.spec ?? path}: ${(err as Error).message}`);
  }
}

/**
 * The families in table order, each on every selected operation, each handed the parts of the run it declared: one unit
 * per family and operation, run in lanes (run/lanes.ts) so that the waits of the target's limit counters overlap.
 */
async function depthPhase(
  assembled: AssembledRun,
  operations: readonly Operation[],
  families: readonly Family[],
): Promise<void> {
  const { run, recorder } = assembled;
  if (run.http.stopped()) return;
  // A unit about no operation that keeps keys works on the collection of the operations that make them.
  const keysLane = collectionOf(run.keys.lifecycle?.create.path ?? '');
  // The units of a collection nothing writes to see no other unit's work: each is a lane of its own.
  const written = new Set(run.spec.operations.filter((o) => o.isWrite).map((o) => collectionOf(o.path)));
  const laneOf = (op: Operation, family: Family) =>
    written.has(collectionOf(op.path)) ? collectionOf(op.path) : `${family.name} ${op.operationId}`;
  const units: Unit[] = [];
  for (const family of families) {
    const given = handOut(run, family.needs);
    // A result is filed under its family unless it names another group of checks itself (`default:` of `meaning`).
    const filed = (results: CheckResult[]) => results.map((r) => (r.family ? r : { family: family.name, ...r }));
    const unit = { family: family.name, fence: family.fence ?? false };
    const once = family.once;
    if (once) {
      const lane = (family.needs as readonly string[]).includes('keys') ? keysLane : `${family.name} (no operation)`;
      units.push({ ...unit, lane, run: async () => filed(await once(given)) });
    }
    const perOperation = family.perOperation;
    if (perOperation)
      for (const op of operations)
        units.push({ ...unit, lane: laneOf(op, family), run: async () => filed(await perOperation(op, given)) });
  }
  await runLanes(units, {
    waits: run.http.pacer,
    stopped: () => run.http.stopped(),
    record: (results) => recorder.add(results),
  });
}

export async function runSuite(options: SuiteOptions): Promise<SuiteRun> {
  const started = new Date();
  try {
    return await checkTarget(options, started);
  } catch (err) {
    const expected = err instanceof Refusal || err instanceof PreflightError || err instanceof FlagError;
    const reason = expected ? (err as Error).message : `unexpected error: ${(err as Error).stack ?? String(err)}`;
    return { outcome: notRun(redact(reason), started, options.baseUrl) };
  }
}

/** What the target said about itself decides the run's credentials and writes; a target it may not test is refused. */
function settle(options: SuiteOptions, model: SpecModel, target: Target): { credentials: Credentials; scope: Scope } {
  const only = options.only ?? [];
  const isMock = Boolean(target.mock);
  const credentials = resolveCredentials(options.env ?? process.env, isMock, model);
  const selected = model.operations.filter((o) => !only.length || only.includes(o.operationId));
  if (!isMock && selected.some((o) => o.schemes.length) && !credentials.apiKey && !credentials.session) {
    throw new Refusal(
      `refusing to test ${target.baseUrl} without credentials: it does not identify as the mock (GET /__mock/info), ` +
        `so the fixture credentials do not apply. ` +
        'Set CONTRACT_API_KEY and/or CONTRACT_SESSION_COOKIE (and CONTRACT_FORBIDDEN_API_KEY for the 403 checks), or ' +
        'limit the run to public operations with --only.',
    );
  }
  const writes = {
    allowed: isMock || Boolean(options.allowWrites),
    reason: isMock ? 'the target is the mock' : options.allowWrites ? '--allow-writes' : 'the target is not the mock',
  };
  return { credentials, scope: new Scope(options.provenance ?? 'assumed', only, writes) };
}

/**
 * The replay, the depth families and the judges' verdicts on every answer; then the cleanup, whatever happened. Returns
 * the replay's outcome, if it ran.
 */
async function phases(assembled: AssembledRun, options: SuiteOptions, specPath: string): Promise<Replayed | undefined> {
  const { run, recorder } = assembled;
  const failures: CheckResult[] = [];
  let replay: Replayed | undefined;
  try {
    if (options.dredd ?? !options.fetch) {
      replay = await replayPhase(run, specPath);
      recorder.add(replay.results.map((r) => ({ family: 'Dredd', ...r })));
    }
    const selected = run.spec.operations.filter((o) => run.scope.selected(o));
    await depthPhase(assembled, selected, options.families ?? FAMILIES).catch((err: Error) => {
      failures.push({
        operationId: 'suite',
        family: 'suite',
        check: 'suite: the depth checks ran to completion',
        provenance: 'interface',
        status: 'fail',
        message: `internal error in the contract suite: ${err.stack ?? err.message}`,
      });
    });
    const wanted = (id: string) => run.spec.byId.has(id) && run.scope.selected({ operationId: id });
    recorder.add(run.judging.tallies(wanted));
    // The rate-limit headers over the whole run, one caller and path group at a time, as the pacing counts them.
    recorder.add(run.judging.rateLimits((r) => run.http.pacer.bucketOf(run.http.relative(r.url), r.headers), wanted));
  } finally {
    // Cleanup is never refused: not for want of budget, not because the run was stopped.
    const left = await run.keys.removeAll().catch(() => run.keys.open());
    if (left.length) {
      failures.push({
        operationId: 'cleanup',
        family: 'cleanup',
        check: 'cleanup: everything the suite created is removed',
        provenance: 'interface',
        status: 'fail',
        message: `could not remove API key(s) ${left.map((k) => k.id).join(', ')}: remove them by hand`,
      });
    }
  }
  const stopped = run.http.stopped();
  if (stopped)
    failures.push({
      operationId: 'suite',
      family: 'suite',
      check: 'suite: the run finished',
      provenance: 'interface',
      status: 'fail',
      message: `${stopped} before every check ran; what ran is reported, and what it created was removed`,
    });
  if (recorder.all().length === 0 && !stopped) {
    const { only, level } = run.scope;
    throw new Refusal(
      `nothing was checked: ${only.length ? `--only ${only.join(',')} with ` : ''}--provenance ${level} selects no ` +
        `check (every part it would rely on is softer than ${level})`,
    );
  }
  recorder.add(failures);
  return replay;
}

/** The outcome the reports render: results per operation, causes, the verdict, the figures. */
function outcomeOf(assembled: AssembledRun, facts: RunFacts, replay: Replayed | undefined, started: Date): RunOutcome {
  const { run } = assembled;
  const outcome = reportedOutcome({
    results: assembled.recorder.all(),
    operations: run.spec.operations.map((o) => ({
      operationId: o.operationId,
      method: o.method,
      path: o.path,
      declares404: o.responses.has(404),
      isProtected: !o.isPublic,
    })),
    selected: run.spec.operations.filter((o) => run.scope.selected(o)).map((o) => o.operationId),
    observed: run.answers,
    settings: settingsLines(facts),
    strict: facts.strict,
    startedAt: started,
    durationMs: Date.now() - started.getTime(),
  });
  if (facts.promises)
    outcome.promises = promiseCoverage(
      promiseMap(run.spec),
      run.judging.exchanges(),
      run.judging.comparisonsMade(),
      run.judging.ctx,
    );
  outcome.figures = figureLines({
    budget: run.http.budget,
    pace: { ...run.http.pacer.stats, honoured: facts.pace },
    dreddRequests: replay?.requests,
    preflightRequests: facts.target.requests,
    sample: run.sample?.stats,
    wallMs: outcome.durationMs,
  });
  if (outcome.promises) outcome.figures.splice(-1, 0, promisesLine(outcome.promises));
  return outcome;
}

async function checkTarget(options: SuiteOptions, started: Date): Promise<SuiteRun> {
  const { model, path: specPath } = modelOf(options);
  nameFixtureSecrets(model);
  const unknown = (options.only ?? []).filter((id) => !model.byId.has(id));
  if (unknown.length)
    throw new Refusal(
      `--only: no operation ${unknown.join(', ')} in the spec; known: ${[...model.byId.keys()].join(', ')}`,
    );
  const fetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const target = await preflight(normaliseBaseUrl(options.baseUrl), model, fetch);
  const { credentials, scope } = settle(options, model, target);
  const budget = options.budget ?? DEFAULT_BUDGET;
  const pace = options.pace ?? true;
  const assembled = assembleRun({
    model,
    baseUrl: target.baseUrl,
    fetch,
    scope,
    credentials,
    budget,
    pace,
    clock: options.clock ?? realClock(options.signal),
    signal: options.signal,
    runId: randomBytes(4).toString('hex'),
    seed: options.seed ?? DEFAULT_SEED,
  });
  const replay = await phases(assembled, options, specPath);
  const facts: RunFacts = {
    specName: options.spec ? basename(specPath) : 'spec/openapi.yaml',
    target,
    scope,
    credentials,
    budget,
    seed: assembled.run.seed,
    strict: options.strict ?? false,
    dredd: Boolean(replay),
    pace,
    promises: options.promises ?? true,
  };
  // Writes off without --allow-writes: their skips were asked for, and fail a --strict run only when writes were.
  if (!scope.writes.allowed)
    for (const r of assembled.recorder.all() as CheckResult[])
      if (r.status === 'skip' && model.byId.get(r.operationId)?.isWrite) r.declined = true;
  // --usage: what consumers use against what the run sent (run/usage-coverage.ts), as results and a closing line.
  const coverage = options.usage?.length
    ? usageCoverage(options.usage, assembled.traffic.toJSON(), model, options.requireUsage ?? false)
    : undefined;
  if (coverage) assembled.recorder.add(coverage.results);
  const outcome = outcomeOf(assembled, facts, replay, started);
  if (coverage) outcome.figures.push(...coverage.figures);
  return { outcome, ...(replay ? { dreddLog: replay.log } : {}) };
}
