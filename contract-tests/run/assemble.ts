// Puts together what one run provides to its phases: the transport (budget, pacing, the
// stop signal) with every answer shown to the answer log, the key ledger and the
// registry's judges at the run's level, shown every answer; the credentials; the search sample.
import type { SpecModel } from '../../spec/model.ts';
import { UsageAccumulator, usageNoteOf } from '../../spec/usage-profile.ts';
import type { RunParts } from '../checks/families.ts';
import { CachedReads } from '../checks/cached-reads.ts';
import { searchedOperation } from '../checks/sample/sample.ts';
import { Sampler } from '../checks/sample/sampler.ts';
import { Budget } from '../transport/budget.ts';
import type { Fetch } from '../transport/http.ts';
import { Pacer } from '../transport/pacing.ts';
import { Transport } from '../transport/transport.ts';
import { AnswerLog, filedUnder } from '../shared/answer-log.ts';
import { CredentialSet, type Credentials } from '../shared/credentials.ts';
import { KeyLedger } from '../shared/key-ledger.ts';
import { keyLifecycle } from '../shared/key-lifecycle.ts';
import { Recorder } from '../shared/recorder.ts';
import type { Scope } from '../shared/scope.ts';
import { RunJudging } from './judging.ts';
import { unitPlace, unitPriority } from './lanes.ts';

/** The clock the pacing waits by; tests pass a fake one (no real seconds slept). */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export interface RunSettings {
  model: SpecModel;
  baseUrl: string;
  fetch: Fetch;
  scope: Scope;
  credentials: Credentials;
  budget: number;
  /** Wait on `X-RateLimit-Remaining: 0` as well as on 429. */
  pace: boolean;
  clock: Clock;
  signal?: AbortSignal;
  runId: string;
  /** The seed of the generated requests. */
  seed: number;
}

export interface AssembledRun {
  /** Everything the run holds: the engine hands each family only the parts it declared (`handOut`). */
  run: RunParts;
  recorder: Recorder;
  /**
   * What the run sent and was answered, as a usage profile of its own (`--usage` compares it: run/usage-coverage.ts).
   */
  traffic: UsageAccumulator;
}

export function assembleRun(p: RunSettings): AssembledRun {
  const answers = new AnswerLog();
  const recorder = new Recorder();
  const traffic = new UsageAccumulator('contract suite', { recordedBy: 'contract suite', model: p.model });
  const credentials = new CredentialSet(p.model, p.credentials);
  let keys: KeyLedger | undefined;
  const judging = new RunJudging(p.model, p.scope.level, credentials, p.clock.now, unitPlace);
  const http = new Transport({
    baseUrl: p.baseUrl,
    fetch: p.fetch,
    budget: new Budget(p.budget),
    pacer: new Pacer({
      honourRemaining: p.pace,
      groups: p.model.limits.rateLimits.groups,
      now: p.clock.now,
      sleep: p.clock.sleep,
      priorityOf: unitPriority,
      // Limits count per account (spec/openapi.yaml x-rate-limits): the run's key, session and the keys it made are
      // its user's; the forbidden key another user's; a request with no valid credential is anonymous.
      accountOf: (headers) => {
        const own = credentials.carriedBy(headers);
        if (own === 'forbidden') return 'the forbidden user';
        return own || keys?.carries(headers) ? "the run's user" : 'anonymous';
      },
    }),
    signal: p.signal,
    observe: (request, response) => {
      const subject = filedUnder(p.model, request.method, http.relative(request.url));
      // A preflight's answer is the CORS layer's: it says nothing of whether the operation's route is there.
      if (request.method.toUpperCase() !== 'OPTIONS') answers.note(subject, response);
      judging.observe(subject, request, response);
      keys?.observe(subject, request, response);
      const sent = usageNoteOf(p.model, { ...request, url: http.relative(request.url) }, response.status);
      if (sent) traffic.note(sent);
    },
  });
  keys = new KeyLedger({ http, credentials, lifecycle: keyLifecycle(p.model), runId: p.runId });
  const reads = new CachedReads(http, credentials);
  const searched = searchedOperation(p.model.operations);
  const sample = searched ? new Sampler(searched, { reads, judging, budgetLeft: () => http.budget.left() }) : undefined;
  const run: RunParts = {
    spec: p.model,
    scope: p.scope,
    http,
    reads,
    judging,
    credentials,
    keys,
    sample,
    answers,
    results: () => recorder.all(),
    runId: p.runId,
    seed: p.seed,
  };
  return { run, recorder, traffic };
}
