// Under test the mock checks its own answers against the spec, so a handler that
// drifts from the contract fails loudly instead of teaching clients the wrong shape.
// It reads the body by the spec's compiled schemas (spec/judges/schemas.ts), as the
// `schema` and `error-body` judges do; which statuses the mock may
// answer without declaring them is the mock's own rule.
import type { Operation, SpecModel } from '../../../spec/model.ts';
import { Schemas } from '../../../spec/judges/schemas.ts';

// Statuses any request may get (404 unknown path, 405, 413, 429): the spec's error body.
const ANY_REQUEST = [400, 404, 405, 413, 429];

export class ResponseChecker {
  private readonly judge: Schemas;

  constructor(model: SpecModel) {
    this.judge = new Schemas(model);
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
