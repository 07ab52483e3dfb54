// The lines a run's reports open and close with: its settings (target, level, writes,
// credentials, masked) and its figures (what was sent, how long the suite waited for
// rate limits, what the sample saw, the time taken); and the outcome of a run that
// checked nothing.
import { refusedOutcome, type RunOutcome } from '../reports/outcome.ts';
import type { SampleStats } from '../checks/sample/sampler.ts';
import type { Budget } from '../transport/budget.ts';
import type { PaceStats } from '../transport/pacing.ts';
import type { Credentials } from '../shared/credentials.ts';
import { mask } from '../shared/mask.ts';
import { ownPackage } from '../../cli/own-package.ts';
import type { Target } from './preflight.ts';
import type { Scope } from '../shared/scope.ts';

export interface RunFacts {
  specName: string;
  target: Target;
  scope: Scope;
  credentials: Credentials;
  budget: number;
  /** The seed of the generated requests. */
  seed: number;
  strict: boolean;
  dredd: boolean;
  /** Wait on `X-RateLimit-Remaining: 0` as well as on 429. */
  pace: boolean;
  /** Work out what the run covered of the promise map. */
  promises: boolean;
}

/** Which suite judged: the package's version (its bin is server-listing-contract). */
function suiteLine(): string {
  return `  suite: ${ownPackage().name} ${ownPackage().version} (server-listing-contract)`;
}

export function settingsLines(f: RunFacts): string[] {
  const c = f.credentials;
  const creds = [
    c.apiKey && `API key ${mask(c.apiKey)}`,
    c.session && `session ${mask(c.session)}`,
    c.forbiddenKey && `forbidden key ${mask(c.forbiddenKey)}`,
    c.expiredKey && `expired key ${mask(c.expiredKey)}`,
    c.expiredSession && `expired session ${mask(c.expiredSession)}`,
  ]
    .filter(Boolean)
    .join(', ');
  const m = f.target.mock;
  const { level, only, writes } = f.scope;
  const levels = level === 'assumed' ? 'everything' : `${level}${level === 'observed' ? ' and interface' : ' only'}`;
  return [
    `Contract suite: ${f.specName} against ${f.target.baseUrl}`,
    suiteLine(),
    `  target: ${
      m
        ? `${m.name} ${m.version} (${m.data ? `data ${m.data}` : `seed ${m.seed}`}, ${m.servers} servers)`
        : 'not the mock (it does not answer GET /__mock/info as the mock)'
    }`,
    `  checks: ${levels}${only.length ? `; only ${only.join(', ')}` : ''}; budget ${f.budget} requests; seed ` +
      `${f.seed}${f.dredd ? '' : '; --dredd off: no replay'}${f.strict ? '; --strict: a skip fails the run' : ''}`,
    `  writes: ${writes.allowed ? 'on' : 'off'} (${writes.reason})`,
    `  credentials: ${creds || 'none'} (` +
      (c.source === 'fixtures/auth.json' ? 'from fixtures/auth.json, as the target is the mock' : `from ${c.source}`) +
      ')',
  ];
}

export interface RunStats {
  budget: Budget;
  pace: PaceStats & { honoured: boolean };
  dreddRequests: number | undefined;
  preflightRequests: number;
  sample: SampleStats | undefined;
  wallMs: number;
}

/** The run's figures: what was sent, how long the suite waited for rate limits, what the sample saw. */
export function figureLines(s: RunStats): string[] {
  const { budget } = s;
  const lines = [
    `Requests: ${budget.spent} sent by the suite (budget ` +
      `${budget.limit}${budget.refused ? `, ${budget.refused} more refused` : ''}), ${budget.cleanup} to clean up, ` +
      `${s.dreddRequests === undefined ? '0 by Dredd (--dredd off)' : `${s.dreddRequests} by Dredd`} and ` +
      `${s.preflightRequests} by the pre-flight`,
    `Rate limits: waited ${(s.pace.waitedMs / 1000).toFixed(1)} s in ${s.pace.waits} pause(s); ${s.pace.tooMany} ` +
      `answer(s) were 429${s.pace.honoured ? '' : ' (--pace off: waiting only on 429)'}`,
  ];
  if (s.sample && (s.sample.pages || s.sample.pinged)) {
    const share = s.sample.distinct ? ((100 * s.sample.invalid) / s.sample.distinct).toFixed(1) : '0.0';
    lines.push(
      `Sample: ${s.sample.rows} rows in ${s.sample.pages} pages, ${s.sample.distinct} distinct, ${s.sample.invalid} ` +
        `invalid (${share}%); ${s.sample.pinged} pings`,
    );
  }
  lines.push(`Finished in ${(s.wallMs / 1000).toFixed(1)} s`);
  return lines;
}

/** A run that checked nothing (exit 2), and why. */
export function notRun(reason: string, started: Date, target: string): RunOutcome {
  const durationMs = Date.now() - started.getTime();
  return refusedOutcome({
    refusal: reason,
    settings: [`Contract suite: spec/openapi.yaml against ${target}`, suiteLine()],
    figures: [`Finished in ${(durationMs / 1000).toFixed(1)} s`],
    startedAt: started,
    durationMs,
  });
}
