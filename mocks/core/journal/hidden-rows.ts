// Rows a person wrote (a `--data` file, servers given to createMock) that a parameter's
// default hides: `maxAge` defaults to 30 days, so a hand-written row last pinged in March
// never shows in a search that leaves `maxAge` out, and the answer says `total: 0` with no
// word why. The mock says it at start (how many, by which default) and in the journal of
// each search the default hid rows from. Read from the spec: every query parameter with a
// default whose `x-meaning` bounds a timestamp's age.
import type { Operation, SpecModel } from '../../../spec/model.ts';
import type { HiddenNote } from './journal.ts';

const DAY_MS = 86_400_000;

interface AgeDefault {
  op: Operation;
  parameter: string;
  days: number;
  /** `ageAtMostDays`: rows older are hidden; `ageAtLeastDays`: rows newer are. */
  most: boolean;
  /** The rows' timestamps, ascending. */
  times: Float64Array;
}

export interface DefaultHiding {
  /** The lines said at start: one per default that hides some rows now; none when it hides none. */
  lines(now: number): string[];
  /** What the defaults hid from a request to `op` that sent `query` (undefined: nothing). */
  note(op: Operation, query: string, now: number): HiddenNote | undefined;
}

/** How many of the sorted `times` are below `bound`. */
function below(times: Float64Array, bound: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid]! < bound) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const hiddenCount = (d: AgeDefault, now: number) => {
  const bound = now - d.days * DAY_MS;
  return d.most ? below(d.times, bound) : d.times.length - below(d.times, bound + 1);
};

/** Whether `query` (as sent) gives `name` a value: an empty value is no value (spec: "Requests from real clients"). */
function gives(query: string, name: string): boolean {
  if (!query.includes(name)) return false;
  const value = new URLSearchParams(query).get(name);
  return value !== null && value !== '';
}

/** The defaults that can hide rows of `rows`; undefined when none can. */
export function defaultHiding(model: SpecModel, rows: readonly object[]): DefaultHiding | undefined {
  const defaults: AgeDefault[] = [];
  for (const op of model.operations)
    for (const p of op.parameters) {
      const m = p.meaning;
      if (p.in !== 'query' || typeof p.default !== 'number' || !m) continue;
      if (m.rule !== 'ageAtMostDays' && m.rule !== 'ageAtLeastDays') continue;
      const field = m.field;
      const times = Float64Array.from(rows, (r) => Date.parse(String((r as Record<string, unknown>)[field]))).sort();
      defaults.push({ op, parameter: p.name, days: p.default, most: m.rule === 'ageAtMostDays', times });
    }
  if (!defaults.length) return undefined;
  const sentence = (d: AgeDefault, n: number) =>
    `${n} of ${d.times.length} servers ${d.most ? 'were last seen more' : 'were seen less'} than ${d.days} days ` +
    `before the mock's clock: ${d.op.operationId} leaves them out unless the request gives ${d.parameter} ` +
    `(its default is ${d.days})`;
  return {
    lines(now) {
      return defaults.flatMap((d) => {
        const n = hiddenCount(d, now);
        return n ? [sentence(d, n)] : [];
      });
    },
    note(op, query, now) {
      for (const d of defaults) {
        if (d.op !== op || gives(query, d.parameter)) continue;
        const n = hiddenCount(d, now);
        if (n) return { parameter: d.parameter, default: d.days, rows: n, why: sentence(d, n) };
      }
      return undefined;
    },
  };
}
