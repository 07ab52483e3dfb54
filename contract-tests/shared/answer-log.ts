// What every answer of the run showed, Dredd's included: its status, filed under the
// operation its request belongs to, and its media type. A route whose every answer is
// 404 is missing; a media type that is everywhere is one cause (reports/causes.ts); a
// declared status no answer showed is listed by the coverage family.
import { operationFor, type Operation, type SpecModel } from '../../spec/model.ts';
import { mediaType } from '../../spec/judges/exchange.ts';
import type { HttpResponse } from '../transport/http.ts';

/** Where results about requests that match no operation of the spec (an unknown path) are filed. */
export const NO_OPERATION = '(no operation)';

/** What a result is filed under: an operation of the spec, or NO_OPERATION. */
export type Subject = Pick<Operation, 'operationId'>;

/** The operation a request belongs to (by its path alone for a wrong method), or NO_OPERATION. */
export function filedUnder(model: SpecModel, method: string, relativePath: string): Operation | Subject {
  return (
    operationFor(model, method, relativePath) ??
    model.operations.map((o) => operationFor(model, o.method, relativePath)).find(Boolean) ?? {
      operationId: NO_OPERATION,
    }
  );
}

export class AnswerLog {
  /** Statuses of every answer, by operation (NO_OPERATION included). */
  readonly answers: Record<string, Record<string, number>> = {};
  /** Media types of every answer with a body. */
  readonly answerTypes: Record<string, number> = {};

  note(subject: Subject, response: Pick<HttpResponse, 'status' | 'headers' | 'text'>): void {
    const statuses = (this.answers[subject.operationId] ??= {});
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    if (response.text) {
      const type = mediaType(response.headers['content-type']) || '(none)';
      this.answerTypes[type] = (this.answerTypes[type] ?? 0) + 1;
    }
  }

  /** Whether some answer of the operation had this status. */
  showed(operationId: string, status: number): boolean {
    return Boolean(this.answers[operationId]?.[status]);
  }
}
