// Under test the mock checks its own answers against the spec, so a handler that
// drifts from the contract fails loudly instead of teaching clients the wrong shape.
// The judging is the spec's one judge (spec/judge.ts); which statuses the mock may
// answer without declaring them is the mock's own rule.
import type { Operation, SpecModel } from '../../../spec/model.ts';
import { AnswerJudge } from '../../../spec/judge.ts';

// Statuses any request may get (404 unknown path, 405, 413, 429): the spec's error body.
const ANY_REQUEST = [400, 404, 405, 413, 429];

export class ResponseChecker {
  private readonly judge: AnswerJudge;

  constructor(model: SpecModel) {
    this.judge = new AnswerJudge(model);
  }

  /** A description of how the answer breaks the spec, or undefined when it keeps it. */
  check(op: Operation | undefined, status: number, body: unknown): string | undefined {
    const declared = op?.responses.get(status);
    if (op && !declared && !ANY_REQUEST.includes(status)) {
      return `${op.operationId} does not declare a ${status} response`;
    }
    const answer = { status, headers: {}, body: '', json: body };
    const verdict = declared ? this.judge.body(op!, status, answer) : this.judge.errorBody(answer);
    return verdict.problems.join('; ') || undefined;
  }
}
