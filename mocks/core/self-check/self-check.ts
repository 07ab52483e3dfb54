// Under test the mock checks its own answers against the spec, so a handler that
// drifts from the contract fails loudly instead of teaching clients the wrong shape.
import type { ValidateFunction } from 'ajv';
import type { Operation, SpecModel } from '../../../spec/model.ts';
import { describeErrors, SchemaValidator } from '../../../spec/validator.ts';

// Statuses any request may get (404 unknown path, 405, 413, 429): the spec's error body.
const GENERIC = '#/components/schemas/ErrorBody';
const ANY_REQUEST = [400, 404, 405, 413, 429];

export class ResponseChecker {
  private readonly validator: SchemaValidator;
  private readonly cache = new Map<string, ValidateFunction | null>();

  constructor(model: SpecModel) {
    this.validator = new SchemaValidator(model.doc);
  }

  /** A description of how the answer breaks the spec, or undefined when it keeps it. */
  check(op: Operation | undefined, status: number, body: unknown): string | undefined {
    const declared = op?.responses.get(status);
    if (op && !declared && !ANY_REQUEST.includes(status)) {
      return `${op.operationId} does not declare a ${status} response`;
    }
    const key = declared ? `${op!.operationId} ${status}` : 'generic';
    let validate = this.cache.get(key);
    if (validate === undefined) {
      validate = declared
        ? declared.schema
          ? this.validator.compile(declared.schema)
          : null
        : this.validator.compileRef(GENERIC);
      this.cache.set(key, validate);
    }
    if (validate && !validate(body)) return describeErrors(validate.errors, 'body');
    return undefined;
  }
}
