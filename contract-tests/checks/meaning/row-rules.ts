// The rules of `x-meaning` that say which rows a value lets through, as the suite
// provokes them: for each, the values worth probing with (taken from rows the suite has
// seen, so a probe is known to match at least that row). Whether a row satisfies a
// value, and the words for it, are the rule's descriptor's (spec/rules.ts `rowTest`,
// `says`), as the mock and the proxy read them: a row whose field is null satisfies
// nothing (a row with no country cannot be in `country=Germany`).
import type { Parameter } from '../../../spec/model.ts';
import { isRowRule, type MeaningOf, type RowMeaning, type RowRule as RowRuleName } from '../../../spec/rules.ts';
import type { Row, SeenRow } from './answer-rows.ts';
import { acrossCodes } from './text-match.ts';

export { isRowRule, type MeaningOf, type RowMeaning, type RowRuleName };

export interface Probe {
  value: string;
  /** What the probe proves, the same on every run (the value is data): `matches a * wildcard`. */
  label: string;
  /** A seen row that satisfies the value: the answer must not lose it. */
  witness?: SeenRow;
}

export interface RowRule<M extends RowMeaning = RowMeaning> {
  /** Values to probe with; none when no seen row carries a usable value. */
  probes(m: M, seen: SeenRow[], param: Parameter): Probe[];
  /** A value `row` satisfies, for a combination of filters; undefined when it has none. */
  valueFor(m: M, row: Row, param: Parameter): string | undefined;
}

const DAY = 86_400_000;

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const ageDays = (v: unknown, now: number): number => (typeof v === 'string' ? (now - Date.parse(v)) / DAY : NaN);

/**
 * The same letters in the other case: a probe that also proves matching ignores case (an enum of a text rule too:
 * `region=eu`).
 */
function otherCase(value: string, _param: Parameter): string {
  const swapped = [...value].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
  return swapped;
}

/** The seen rows whose field has a value, ordered by it, and the one at quantile q. */
function at<T>(
  seen: SeenRow[],
  value: (r: Row) => T | undefined,
  q: number,
  order: (a: T, b: T) => number,
): { row: SeenRow; v: T } | undefined {
  const have = seen.flatMap((s) => {
    const v = value(s.row);
    return v === undefined || (typeof v === 'number' && Number.isNaN(v)) ? [] : [{ row: s, v }];
  });
  if (!have.length) return undefined;
  have.sort((a, b) => order(a.v, b.v));
  return have[Math.floor(q * (have.length - 1))];
}

/** A seen row with a usable value, from the middle of the distinct values (not the first, often a special case). */
function spread(seen: SeenRow[], value: (r: Row) => string | undefined, minLength = 1): SeenRow | undefined {
  const distinct = new Map<string, SeenRow>();
  for (const s of seen) {
    const v = value(s.row);
    if (v && v.length >= minLength && !v.includes('*') && !distinct.has(v.toLowerCase()))
      distinct.set(v.toLowerCase(), s);
  }
  return [...distinct.values()][Math.floor(distinct.size / 2)];
}

const stringField =
  (field: string) =>
  (r: Row): string | undefined =>
    r[field] === null || r[field] === undefined || r[field] === '' ? undefined : String(r[field]);

/**
 * A part of a value without a `*`, as a probe with no row to keep: matched whole, it finds
 * only rows whose field is that part, never a row it is a part of (no implicit wildcards).
 */
function partOf(v: string, field: string): Probe[] {
  const part = v.slice(1, -1).trim();
  return part.length >= 2 && !part.includes('*')
    ? [{ value: part, label: `matches the whole ${field}, not a part of it (no implicit wildcards)` }]
    : [];
}

/** The longest word (three letters or more) of a text that its raw form holds as it is, between its codes. */
function wordWithin(text: string, raw: string): string | undefined {
  return text
    .split(/\s+/)
    .filter((w) => w.length >= 3 && !w.includes('*') && raw.includes(w))
    .sort((a, b) => b.length - a.length)[0];
}

/** Half of a value and a `*`: `Paper 1.2*`. */
function prefixPattern(v: string): string {
  return `${v.slice(0, Math.max(1, Math.ceil(v.length / 2))).trimEnd()}*`;
}

const rule = <M extends RowMeaning>(r: RowRule<M>): RowRule<M> => r;

const bound = (q: number, sign: '>=' | '<=') =>
  rule<MeaningOf<'atLeast' | 'atMost'>>({
    probes: (m, seen) => {
      // A value a seen row holds (it must be kept: the bound is inclusive) with a seen row just past it
      // (it must not be), near the quantile: both sides of the bound met by one probe.
      const values = new Set(seen.map((s) => num(s.row[m.field])).filter((v): v is number => v !== undefined));
      const past = sign === '>=' ? -1 : 1;
      const pick =
        at(
          seen,
          (r) => ((v) => (v !== undefined && values.has(v + past) ? v : undefined))(num(r[m.field])),
          q,
          (a, b) => a - b,
        ) ??
        at(
          seen,
          (r) => num(r[m.field]),
          q,
          (a, b) => a - b,
        );
      return pick ? [{ value: String(pick.v), label: `keeps rows with ${m.field} ${sign} it`, witness: pick.row }] : [];
    },
    valueFor: (m, row) => (num(row[m.field]) === undefined ? undefined : String(row[m.field])),
  });

const age = (q: number, round: (d: number) => number, words: string) =>
  rule<MeaningOf<'ageAtLeastDays' | 'ageAtMostDays'>>({
    probes: (m, seen) => {
      const now = Date.now();
      // The value is the row's own age in whole days, so the row satisfies it; a day or more
      // where a row has it (0 days asks next to nothing).
      const days = (r: Row, least: number) => {
        const d = ageDays(r[m.field], now);
        return round(d) >= least ? d : undefined;
      };
      const pick =
        at(
          seen,
          (r) => days(r, 1),
          q,
          (a, b) => a - b,
        ) ??
        at(
          seen,
          (r) => days(r, 0),
          q,
          (a, b) => a - b,
        );
      return pick
        ? [
            {
              value: String(round(pick.v)),
              label: `keeps rows whose ${m.field} is ${words} that many days ago`,
              witness: pick.row,
            },
          ]
        : [];
    },
    valueFor: (m, row) => {
      const d = ageDays(row[m.field], Date.now());
      return Number.isNaN(d) ? undefined : String(round(d));
    },
  });

/** How the suite probes every rule that filters, adds to or reshapes rows, by its name in `x-meaning`. */
export const ROW_RULES: { [R in RowRuleName]: RowRule<MeaningOf<R>> } = {
  atLeast: bound(0.75, '>='),
  atMost: bound(0.25, '<='),
  ageAtLeastDays: age(0.7, Math.floor, 'at least'),
  ageAtMostDays: age(0.3, Math.ceil, 'at most'),

  wholeWildcard: {
    probes: (m, seen, param) => {
      const w = spread(seen, stringField(m.field), 2);
      if (!w) return [];
      const v = String(w.row[m.field]);
      return [
        { value: otherCase(v, param), label: `matches a whole ${m.field}, in any case`, witness: w },
        { value: prefixPattern(v), label: `matches a * wildcard over the whole ${m.field}`, witness: w },
        ...partOf(v, m.field),
      ];
    },
    valueFor: (m, row) =>
      text(row[m.field]) && !text(row[m.field])!.includes('*') ? prefixPattern(text(row[m.field])!) : undefined,
  },

  substringWildcard: {
    probes: (m, seen, param) => {
      // With `raw`, prefer a row whose codes sit inside the text: its probe only matches through them.
      const coded = m.raw
        ? seen.filter((s) => acrossCodes(String(s.row[m.field]), String(s.row[m.raw!])) !== undefined)
        : [];
      const w = spread(coded.length ? coded : seen, stringField(m.field), 6);
      if (!w) return [];
      const v = String(w.row[m.field]);
      const quarter = Math.floor(v.length / 4);
      const piece = v.slice(quarter, Math.max(quarter + 3, v.length - quarter));
      const across = m.raw ? acrossCodes(v, String(w.row[m.raw])) : undefined;
      const third = Math.max(1, Math.floor(v.length / 3));
      // In the other case, a part that spans no code: a lost row then says the case, not the codes.
      const plain = m.raw ? wordWithin(v, String(w.row[m.raw])) : undefined;
      return [
        // Across the codes in the text's own case, and in the other case apart: a lost row then says which it was.
        ...(across
          ? [
              {
                value: across.trim(),
                label: `matches a part of ${m.field} across § colour codes of ${m.raw}`,
                witness: w,
              },
            ]
          : []),
        {
          value: otherCase((plain ?? piece).trim(), param),
          label: `matches a part of ${m.field}, in any case`,
          witness: w,
        },
        {
          value: `${v.slice(0, third).trimStart()}*${v.slice(-third).trimEnd()}`,
          label: `matches a * wildcard within ${m.field}`,
          witness: w,
        },
      ];
    },
    valueFor: (m, row) => {
      const v = text(row[m.field]);
      return v && v.length >= 3 && !v.includes('*') ? v.slice(0, 3) : undefined;
    },
  },

  nameOrCode: {
    probes: (m, seen, param) => {
      const w = spread(
        seen.filter((s) => text(s.row[m.codeField])),
        stringField(m.field),
        3,
      );
      if (!w) return [];
      const name = String(w.row[m.field]);
      return [
        { value: otherCase(name, param), label: `matches a whole ${m.field}, in any case`, witness: w },
        { value: prefixPattern(name), label: `matches a * wildcard over the whole ${m.field}`, witness: w },
        // Two letters would be a code: a part of a name is probed at three or more.
        ...partOf(name, m.field).filter((p) => p.value.length > 2),
        // The code in its own case: a lost row then says the code was not read as one (the case has its own probes).
        {
          value: String(w.row[m.codeField]),
          label: `of two letters matches ${m.codeField} (an ISO code)`,
          witness: w,
        },
      ];
    },
    valueFor: (m, row) => text(row[m.codeField])?.toLowerCase(),
  },

  equals: {
    // One probe per field: `modpack` must match by name and by short name.
    probes: (m, seen, param) =>
      m.fields.flatMap((field) => {
        const w = spread(seen, stringField(field));
        return w
          ? [
              {
                value: otherCase(String(w.row[field]), param),
                label:
                  `keeps rows whose ${field} equals ` +
                  `it${m.fields.length > 1 ? ` (one of ${m.fields.join(', ')})` : ''}`,
                witness: w,
              },
            ]
          : [];
      }),
    valueFor: (m, row) => m.fields.map((f) => stringField(f)(row)).find((v) => v !== undefined),
  },

  flag: {
    // Any value but the `off` one turns it on; `on` is such a value.
    probes: (m, seen) => [
      {
        value: m.off === 'on' ? 'yes' : 'on',
        label: `other than '${m.off}' keeps rows with ${m.field} ${JSON.stringify(m.value)}`,
        witness: seen.find((s) => s.row[m.field] === m.value),
      },
    ],
    valueFor: (m, row) => (row[m.field] === m.value ? (m.off === 'on' ? 'yes' : 'on') : undefined),
  },

  addsField: {
    probes: (m, seen) => [{ value: 'true', label: `=true adds '${m.field}' to every row`, witness: seen[0] }],
    valueFor: () => 'true',
  },

  relativeTime: {
    probes: (m, seen) => [{ value: 'true', label: `=true gives ${m.field} as relative text`, witness: seen[0] }],
    valueFor: () => 'true',
  },
};
