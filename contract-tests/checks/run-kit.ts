// What the run provides to every check family: the spec, what the run checks, the
// transport, the judge, the credentials, the key ledger, the rows read so far, what the
// answers showed. Each is a small module with one job; a family takes what it needs and
// returns results (it never records them).
import type { SpecModel } from '../../spec/model.ts';
import type { Operation } from '../../spec/model.ts';
import type { AnswerLog, Subject } from '../kit/answer-log.ts';
import type { KeyLedger } from '../kit/key-ledger.ts';
import type { CheckResult } from '../kit/recorder.ts';
import type { HttpRequest, HttpResponse } from '../transport/http.ts';
import type { Transport } from '../transport/transport.ts';
import type { Judging } from './expect.ts';
import type { CachedReads } from './cached-reads.ts';
import type { Sampler } from './sample/sampler.ts';

export interface RunKit extends Judging {
  spec: SpecModel;
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
}

/** A watch on every answer of the run (Dredd's too), judged once all are in. */
export interface AnswerWatch {
  note(subject: Operation | Subject, request: HttpRequest, response: HttpResponse): void;
  verdicts(): CheckResult[];
}

export interface Family {
  /** What its checks are named with, before the colon (`auth`). */
  name: string;
  /** The checks of one selected operation. */
  perOperation?(op: Operation, run: RunKit): Promise<CheckResult[]>;
  /** Checks about no single operation (an unknown path), once per run, before the per-operation ones. */
  once?(run: RunKit): Promise<CheckResult[]>;
  /** A watch over every answer, made at the start of the run. */
  watch?(run: RunKit): AnswerWatch;
}
