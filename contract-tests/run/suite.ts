// The suite's run, in process and in phases: the pre-flight (can the target be tested,
// is it the mock), the replay of each operation's documented success (Dredd), the depth
// families of checks/families.ts in table order, their watches' verdicts, the cleanup
// of everything the run created, and the outcome the reports render. `runSuite` takes a
// `fetch`, so a test can run it against a Hono app's `app.fetch` with no socket (the
// replay phase is then off unless asked for: Dredd has an HTTP client of its own).
import { randomBytes } from 'node:crypto';
import { basename, resolve } from 'node:path';
import { FlagError } from '../../cli/flags.ts';
import { SPEC_PATH } from '../../spec/load.ts';
import { loadModel, type SpecModel } from '../../spec/model.ts';
import type { Provenance } from '../../spec/provenance.ts';
import { FAMILIES, type Family, type RunKit } from '../checks/families.ts';
import { replayPhase } from '../replay/replay.ts';
import { findCauses } from '../reports/causes.ts';
import { groupByOperation, tally, type RunOutcome } from '../reports/outcome.ts';
import type { Fetch } from '../transport/http.ts';
import { nameFixtureSecrets, resolveCredentials } from '../kit/credentials.ts';
import { figureLines, notRun, settingsLines } from './figures.ts';
import { assembleKit, type Clock, type Kit } from './assemble.ts';
import { redact } from '../kit/mask.ts';
import { normaliseBaseUrl } from './options.ts';
import { PreflightError, preflight } from './preflight.ts';
import type { CheckResult } from '../kit/recorder.ts';
import { Scope } from '../kit/scope.ts';

export interface SuiteOptions {
  baseUrl: string;
  /** How requests are sent (default: the global fetch, over a socket); a Hono app's `app.fetch` runs the suite in process. */
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
  /** The replay phase. Dredd sends with an HTTP client of its own, not `fetch`: the default is on, off when a `fetch` is given. */
  dredd?: boolean;
  /** Where CONTRACT_* credentials are read (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Stops the run: nothing more is sent but the cleanup. */
  signal?: AbortSignal;
  clock?: Clock;
  /** The families to run (default all, checks/families.ts). */
  families?: readonly Family[];
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
  sleep: (ms) => new Promise((done) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), done()), { once: true });
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

/** The families in table order, each on every selected operation; their watches' verdicts last. */
async function depthPhase(kit: Kit, operations: readonly RunKit['spec']['operations'][number][], families: readonly Family[]): Promise<void> {
  const { run, recorder } = kit;
  for (const family of families) {
    if (run.http.stopped()) return;
    if (family.once) recorder.add(await family.once(run));
    for (const op of operations) if (family.perOperation) recorder.add(await family.perOperation(op, run));
  }
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

async function checkTarget(options: SuiteOptions, started: Date): Promise<SuiteRun> {
  const { model, path: specPath } = modelOf(options);
  nameFixtureSecrets(model);
  const only = options.only ?? [];
  const unknown = only.filter((id) => !model.byId.has(id));
  if (unknown.length) throw new Refusal(`--only: no operation ${unknown.join(', ')} in the spec; known: ${[...model.byId.keys()].join(', ')}`);
  const fetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const target = await preflight(normaliseBaseUrl(options.baseUrl), model, fetch);
  const isMock = Boolean(target.mock);
  const credentials = resolveCredentials(options.env ?? process.env, isMock, model);
  const selected = model.operations.filter((o) => !only.length || only.includes(o.operationId));
  if (!isMock && selected.some((o) => o.schemes.length) && !credentials.apiKey && !credentials.session) {
    throw new Refusal(
      `refusing to test ${target.baseUrl} without credentials: it does not identify as the mock (GET /__mock/info), so the fixture credentials do not apply. ` +
        'Set CONTRACT_API_KEY and/or CONTRACT_SESSION_COOKIE (and CONTRACT_FORBIDDEN_API_KEY for the 403 checks), or limit the run to public operations with --only.',
    );
  }
  const writes = { allowed: isMock || Boolean(options.allowWrites), reason: isMock ? 'the target is the mock' : options.allowWrites ? '--allow-writes' : 'the target is not the mock' };
  const scope = new Scope(options.provenance ?? 'assumed', only, writes);
  const families = options.families ?? FAMILIES;
  const budget = options.budget ?? 400;
  const kit = assembleKit({
    model, baseUrl: target.baseUrl, fetch, scope, credentials, budget, pace: options.pace ?? true,
    clock: options.clock ?? realClock(options.signal), signal: options.signal, runId: randomBytes(4).toString('hex'), families,
  });
  const { run, recorder } = kit;
  const dredd = options.dredd ?? !options.fetch;
  let replay: Awaited<ReturnType<typeof replayPhase>> | undefined;
  const extra: CheckResult[] = [];
  try {
    if (dredd) {
      replay = await replayPhase(run, specPath);
      recorder.add(replay.results);
    }
    await depthPhase(kit, selected, families).catch((err: Error) => {
      extra.push({ operationId: 'suite', check: 'suite: the depth checks ran to completion', provenance: 'interface', status: 'fail', message: `internal error in the contract suite: ${err.stack ?? err.message}` });
    });
    for (const w of kit.watches) recorder.add(w.verdicts());
  } finally {
    // Cleanup is never refused: not for want of budget, not because the run was stopped.
    const left = await run.keys.removeAll().catch(() => run.keys.open());
    if (left.length) {
      extra.push({ operationId: 'cleanup', check: 'cleanup: everything the suite created is removed', provenance: 'interface', status: 'fail', message: `could not remove API key(s) ${left.map((k) => k.id).join(', ')}: remove them by hand` });
    }
  }
  const stopped = run.http.stopped();
  if (stopped) extra.push({ operationId: 'suite', check: 'suite: the run finished', provenance: 'interface', status: 'fail', message: `${stopped} before every check ran; what ran is reported, and what it created was removed` });
  if (recorder.all().length === 0 && !stopped) {
    throw new Refusal(`nothing was checked: ${only.length ? `--only ${only.join(',')} with ` : ''}--provenance ${scope.level} selects no check (every part it would rely on is softer than ${scope.level})`);
  }
  recorder.add(extra);
  const all = [...recorder.all()];
  const reports = groupByOperation(selected.map((o) => ({ operationId: o.operationId, route: `${o.method} ${o.path}` })), all);
  const opInfo = model.operations.map((o) => ({ operationId: o.operationId, method: o.method, path: o.path, declares404: o.responses.has(404), isProtected: !o.isPublic }));
  const { causes, single } = findCauses(all, opInfo, run.answers);
  const strict = options.strict ?? false;
  const outcome: RunOutcome = { exitCode: 0, settings: settingsLines({ specName: options.spec ? basename(specPath) : 'spec/openapi.yaml', target, scope, credentials, budget, strict, dredd }), reports, causes, single, figures: [], strict, startedAt: started, durationMs: 0 };
  const t = tally(outcome);
  outcome.exitCode = t.failed || t.strictFailures.length ? 1 : 0;
  outcome.durationMs = Date.now() - started.getTime();
  outcome.figures = figureLines({
    budget: run.http.budget, pace: { ...run.http.pacer.stats, honoured: options.pace ?? true }, dreddRequests: replay?.requests,
    preflightRequests: target.requests, sample: run.sample?.stats, wallMs: outcome.durationMs,
  });
  return { outcome, ...(replay ? { dreddLog: replay.log } : {}) };
}
