// Under test the mock checks its own answers against the spec, so a handler that
// drifts from the contract fails loudly instead of teaching clients the wrong shape.
// It reads the body by the spec's compiled schemas (spec/judges/schemas.ts), as the
// `schema` and `error-body` judges do; which statuses the mock may
// answer without declaring them is the mock's own rule.
import type { Operation, SpecModel } from '../../../spec/model.ts';
import { operationOf } from '../../../spec/judges/route.ts';
import { Schemas } from '../../../spec/judges/schemas.ts';
import { formatsReplaced } from '../../../spec/rules.ts';
import type { Answer } from '../../../spec/judges/schemas.ts';

// Statuses any request may get (404 unknown path, 405, 413, 429): the spec's error body.
const ANY_REQUEST = [400, 404, 405, 413, 429];

export class ResponseChecker {
  private readonly judge: Schemas;

  constructor(private readonly model: SpecModel) {
    this.judge = new Schemas(model);
  }

  /**
   * Compiles every body schema `check` may ask for: each declared status of each operation, as
   * written and with the formats a switch of the query replaces (all of them), and the error
   * body. The library's build runs it to write them ahead (scripts/build-library.ts), so a mock
   * checking its answers under vitest does not load ajv.
   */
  compileAll(): void {
    const nothing = (status: number): Answer => ({ status, headers: {}, body: '', json: null });
    for (const op of this.model.operations)
      for (const status of op.responses.keys())
        for (const unformatted of [[], formatsReplaced(op, () => '')])
          this.judge.body(op, status, nothing(status), unformatted);
    this.judge.errorBody(nothing(500));
  }

  /**
   * A description of how the answer's body breaks the spec, or undefined when it keeps it.
   * An answer written before its operation was known (`op` undefined: the host check, the
   * parameters, a 405) is held to what the operation the request names (`request`)
   * declares for its status, when it declares it (a 403 on a protected operation: the
   * promised sentence), else to the error body.
   */
  check(
    op: Operation | undefined,
    status: number,
    body: unknown,
    request?: { method: string; path: string; query?: URLSearchParams },
  ): string | undefined {
    const declared = op?.responses.get(status);
    if (op && !declared && !ANY_REQUEST.includes(status)) {
      return `${op.operationId} does not declare a ${status} response`;
    }
    const target = op ?? (request ? operationOf(this.model, request.method, request.path) : undefined);
    const answer = { status, headers: {}, body: '', json: body };
    // A switch of the query may replace a field's format (`relativeTime=true`: relative text).
    const query = request?.query;
    const unformatted = target && query ? formatsReplaced(target, (name) => query.get(name) ?? undefined) : [];
    const verdict = target?.responses.has(status)
      ? this.judge.body(target, status, answer, unformatted)
      : this.judge.errorBody(answer);
    return verdict.problems.join('; ') || undefined;
  }
}
