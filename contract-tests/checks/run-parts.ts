// What the run provides to the check families, each part a small module with one job:
// the spec, what the run checks, the judge, the credentials, the transport, the reads,
// the key ledger, the search sample, what the answers showed, the results so far, the
// run's id and seed. A family declares the parts it needs (`needs`), and the engine hands
// it those and no other (`handOut`): its functions are typed with `Given<...>` of what it
// declared, so touching an undeclared part does not compile, and at run time the object
// it gets holds nothing else. A family returns results; it never records them.
import type { Operation, SpecModel } from '../../spec/model.ts';
import type { AnswerLog } from '../shared/answer-log.ts';
import type { CredentialSet } from '../shared/credentials.ts';
import type { KeyLedger } from '../shared/key-ledger.ts';
import type { CheckResult } from '../shared/recorder.ts';
import type { Scope } from '../shared/scope.ts';
import type { Transport } from '../transport/transport.ts';
import type { RunJudging } from '../run/judging.ts';
import type { CachedReads } from './cached-reads.ts';
import type { Sampler } from './sample/sampler.ts';

/** Everything a run holds for its families; the engine's, never handed out whole. */
export interface RunParts {
  spec: SpecModel;
  /** `--provenance`, `--only`, writes. */
  scope: Scope;
  /** The registry's judges at the run's level (spec/judges/): a family hands its exchanges to them as cases. */
  judging: RunJudging;
  credentials: CredentialSet;
  /** Every request of the suite's goes through here (budget, pacing, stop). */
  http: Transport;
  /** GETs of the depth checks, with the run's read credentials and a memory. */
  reads: CachedReads;
  keys: KeyLedger;
  /** The search, paged through: the rows seen so far feed the meaning and ping checks. */
  sample: Sampler | undefined;
  /** What every answer so far showed. */
  answers: AnswerLog;
  /** The results recorded so far (the coverage family reads which statuses were provoked). */
  results(): readonly CheckResult[];
  /** Names what the run creates (`contract-test-<runId>`). */
  runId: string;
  /** The seed of the generated requests (`--seed`): the same seed sends the same ones. */
  seed: number;
}

/** A part of the run a family may ask for. */
export type Need = keyof RunParts;

/** What a family that declared `N` is handed: those parts, and no other. */
export type Given<N extends Need> = Pick<RunParts, N>;

/** `Given` for a `needs` list declared `as const`: `type Run = GivenFor<typeof NEEDS>`. */
export type GivenFor<T extends readonly Need[]> = Given<T[number]>;

export interface Family<N extends Need = Need> {
  /** What its checks are named with, before the colon (`auth`). */
  name: string;
  /** The parts of the run it uses; it is handed these alone. */
  needs: readonly N[];
  /** The checks of one selected operation. */
  perOperation?(op: Operation, run: Given<N>): Promise<CheckResult[]>;
  /** Checks about no single operation (an unknown path), once per run, before the per-operation ones. */
  once?(run: Given<N>): Promise<CheckResult[]>;
  /**
   * It reads what the families before it did (the budget left, the sample's rows, the results so far): it starts when
   * they are done, and the families after it start when it is (run/lanes.ts runs the others at once while the target's
   * limits keep them waiting).
   */
  fence?: boolean;
}

/** Declares a family; `needs` fixes what its functions may touch. */
export function family<const N extends Need>(f: Family<N>): Family<N> {
  return f;
}

/** The parts `needs` names, and nothing else: what the engine hands a family. */
export function handOut<N extends Need>(parts: RunParts, needs: readonly N[]): Given<N> {
  return Object.fromEntries(needs.map((n) => [n, parts[n]])) as Given<N>;
}
