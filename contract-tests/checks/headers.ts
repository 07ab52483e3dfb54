// `headers:` the response headers each declared status promises (`X-RateLimit-*`,
// `Retry-After`), checked on every answer of the run, Dredd's included: each operation
// gets one verdict on whether its answers carry them with values their schemas allow. A
// header family missing from every answer then shows as one finding per operation,
// which the report groups into one cause.
import type { Operation } from '../../spec/model.ts';
import { weakest, type Provenance } from '../../spec/provenance.ts';
import type { Subject } from '../kit/answer-log.ts';
import { describeResponse } from '../kit/mask.ts';
import { show, type ShownRequest } from '../kit/repro.ts';
import type { CheckResult } from '../kit/recorder.ts';
import type { HttpRequest, HttpResponse } from '../transport/http.ts';
import { family, type AnswerWatch, type GivenFor } from './run-kit.ts';

const NEEDS = ['scope', 'judge'] as const;
type Run = GivenFor<typeof NEEDS>;

export const HEADERS_CHECK =
  'headers: every answer carries the headers its status declares, with values their schemas allow';

interface Tally {
  op: Operation;
  answers: number;
  /** Declared header -> answers that lacked it. */
  missing: Map<string, number>;
  /** Declared header -> the first value its schema refused. */
  invalid: Map<string, string>;
  /** Every header some answer of it had to carry (for the check's level). */
  declared: Set<string>;
  levels: Provenance[];
  /** The first answer with a problem, for the report. */
  example?: ShownRequest & { actual: string };
}

export interface HeaderVerdict {
  op: Operation;
  provenance: Provenance;
  answers: number;
  problems: string[];
  example?: ShownRequest & { actual: string };
  /** Missing headers, and whether no answer carried them. */
  missing: { names: string[]; every: boolean } | undefined;
  declared: string[];
}

export class HeaderWatch {
  private readonly tallies = new Map<string, Tally>();

  /** `accepts` tells whether a header's schema allows a value (as it travels: "20" is an integer). */
  constructor(private readonly accepts: (schema: Record<string, any>, value: string) => boolean) {}

  /** One answer of `op`. */
  note(op: Operation, request: HttpRequest, response: HttpResponse): void {
    const { status, headers } = response;
    const declared = op.responses.get(status)?.headers;
    if (!declared?.size) return;
    let t = this.tallies.get(op.operationId);
    if (!t)
      this.tallies.set(
        op.operationId,
        (t = { op, answers: 0, missing: new Map(), invalid: new Map(), declared: new Set(), levels: [] }),
      );
    t.answers++;
    let problem = false;
    for (const h of declared.values()) {
      t.declared.add(h.name);
      t.levels.push(h.provenance);
      const value = headers[h.name.toLowerCase()];
      if (value === undefined) {
        t.missing.set(h.name, (t.missing.get(h.name) ?? 0) + 1);
        problem = true;
      } else if (!this.accepts(h.schema, value)) {
        if (!t.invalid.has(h.name)) t.invalid.set(h.name, value);
        problem = true;
      }
    }
    if (problem) t.example ??= { ...show(request), actual: describeResponse(response) };
  }

  verdicts(): HeaderVerdict[] {
    return [...this.tallies.values()].map((t) => {
      const problems: string[] = [];
      // Headers missing from the same number of answers are one line: a family goes missing together.
      const byCount = new Map<number, string[]>();
      for (const [name, n] of t.missing) byCount.set(n, [...(byCount.get(n) ?? []), name]);
      for (const [n, names] of byCount)
        problems.push(
          `${names.join(', ')} missing from ${n === t.answers ? 'every one' : n} of its ${t.answers} answers`,
        );
      for (const [name, value] of t.invalid)
        problems.push(`${name} is ${JSON.stringify(value)}, which its schema does not allow`);
      const names = [...t.missing.keys()];
      return {
        op: t.op,
        provenance: weakest(t.op.provenance, ...t.levels),
        answers: t.answers,
        problems,
        example: t.example,
        missing: names.length ? { names, every: [...t.missing.values()].every((n) => n === t.answers) } : undefined,
        declared: [...t.declared],
      };
    });
  }
}

/** The header verdict of each selected operation, once every answer is in. */
function verdicts(watch: HeaderWatch, run: Run): CheckResult[] {
  return watch
    .verdicts()
    .filter((v) => run.scope.selected(v.op) && run.scope.wants(v.provenance))
    .map((v) => ({
      operationId: v.op.operationId,
      check: HEADERS_CHECK,
      provenance: v.provenance,
      status: v.problems.length ? 'fail' : 'pass',
      ...(v.problems.length
        ? {
            request: v.example?.request,
            repro: v.example?.repro,
            expected: `${v.declared.join(', ')} on every answer that declares them`,
            actual: v.example?.actual,
          }
        : {}),
      message: v.problems.length ? v.problems.join('; ') : `${v.answers} answers carry ${v.declared.join(', ')}`,
      ...(v.missing ? { evidence: { missingHeaders: v.missing } } : {}),
    }));
}

export const headersFamily = family({
  name: 'headers',
  needs: NEEDS,
  watch: (run): AnswerWatch => {
    const watch = new HeaderWatch((schema, value) => run.judge.accepts(schema, value));
    return {
      note: (subject: Operation | Subject, request, response) => {
        if ('responses' in subject) watch.note(subject, request, response);
      },
      verdicts: () => verdicts(watch, run),
    };
  },
});
