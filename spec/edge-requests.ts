// Requests real clients send by accident, generated (fast-check) from the spec on top of
// the fuzzer's generator (request-arbitraries.ts): an otherwise valid request of one
// operation with one kind of oddity. A parameter sent twice; a value holding a character
// of 4 bytes in UTF-8 or a control character; a parameter left empty; a parameter another
// operation of the spec takes; a path parameter with a character percent-encoded (which
// must mean the same as the raw one) or an encoded separator slipped in. Every part is
// built from shrinkable pieces (arrays, options, constants), so fast-check can take a
// failing request down to the smallest one that still fails. Paths are relative to the
// API base, percent-encoded, query included.
import fc from 'fast-check';
import type { Operation, Parameter, SpecModel } from './model.ts';
import { percentEncode, validText } from './request-arbitraries.ts';

export type EdgeKind = 'repeated' | 'unicode' | 'empty' | 'foreign' | 'encoded';

export const EDGE_KINDS: readonly EdgeKind[] = ['repeated', 'unicode', 'empty', 'foreign', 'encoded'];

export interface EdgeCase {
  /** Path and query relative to the API base, percent-encoded. */
  path: string;
  /**
   * When the request only spells another one differently (a `%3A` for a
   * `:`), that plain one: it must be answered alike.
   */
  same?: string;
}

export interface EdgeContext {
  /**
   * Values of path parameters that name something real (a server the target
   * lists), by name; the spec's examples otherwise.
   */
  pathValues?: Record<string, string>;
}

/**
 * Characters of 4 bytes in UTF-8 (outside the Basic Multilingual Plane: an emoji, a
 * math letter, a CJK ideograph), then control characters.
 */
export const ODD_CHARACTERS = ['🙂', '𝔘', '𠀀', '\u0000', '\u0001', '\u001b', '\u007f'];

/** Separators that change what a path segment says once decoded, percent-encoded. */
const SEPARATORS = ['%2F', '%3F', '%23', '%5C', '%3B', '%25', '%2E%2E'];

type Entry = [name: string, value: string];

/** A path segment as clients send it: encoded, a `:` left as it is (RFC 3986 pchar). */
const segment = (value: string) => percentEncode(value).replace(/%3A/gi, ':');

const query = (entries: Entry[], raw: string[] = []) => {
  const parts = [...entries.map(([n, v]) => `${encodeURIComponent(n)}=${percentEncode(v)}`), ...raw];
  return parts.length ? `?${parts.join('&')}` : '';
};

/** One entry of a parameter at a valid value, for any of `params`. */
function entryOf(model: SpecModel, params: Parameter[]): fc.Arbitrary<Entry> {
  return fc.oneof(...params.map((p) => validText(model.doc, p.schema, p.example).map((v): Entry => [p.name, v])));
}

/** Up to two of the operation's own query parameters at valid values (`distinct` drops a name already there). */
function baseQuery(model: SpecModel, own: Parameter[]): fc.Arbitrary<Entry[]> {
  return own.length ? fc.array(entryOf(model, own), { maxLength: 2 }) : fc.constant([]);
}

function distinct(entries: Entry[], taken: string[]): Entry[] {
  const seen = new Set(taken);
  return entries.filter(([n]) => !seen.has(n) && seen.add(n));
}

/** The path with every path parameter filled: the context's real values, or the spec's examples. */
function pathWith(op: Operation, ctx: EdgeContext, values: Record<string, string> = {}): string {
  return op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => values[name] ?? segment(pathValue(op, ctx, name)));
}

function pathValue(op: Operation, ctx: EdgeContext, name: string): string {
  return ctx.pathValues?.[name] ?? String(op.parameters.find((p) => p.name === name)?.example ?? 'x');
}

/** Requests of `op` with one oddity of `kind`; undefined when the operation has nothing that kind touches. */
export function edgeCases(
  model: SpecModel,
  op: Operation,
  kind: EdgeKind,
  ctx: EdgeContext = {},
): fc.Arbitrary<EdgeCase> | undefined {
  const own = op.parameters.filter((p) => p.in === 'query');
  const inPath = op.parameters.filter((p) => p.in === 'path');
  const plain = pathWith(op, ctx);
  const base = baseQuery(model, own);
  switch (kind) {
    case 'repeated': {
      if (!own.length) return undefined;
      const twice = fc.oneof(
        ...own.map((p) =>
          fc.tuple(
            fc.constant(p.name),
            validText(model.doc, p.schema, p.example),
            validText(model.doc, p.schema, p.example),
          ),
        ),
      );
      return fc.tuple(twice, base).map(([[name, a, b], rest]) => ({
        path: `${plain}${query([[name, a], [name, b], ...distinct(rest, [name])])}`,
      }));
    }
    case 'unicode': {
      const targets = [...inPath, ...own];
      if (!targets.length) return undefined;
      const odd = fc.oneof(
        ...targets.map((p) =>
          fc.tuple(
            fc.constant(p),
            p.in === 'path' ? fc.constant(pathValue(op, ctx, p.name)) : validText(model.doc, p.schema, p.example),
            fc.array(fc.constantFrom(...ODD_CHARACTERS), { minLength: 1, maxLength: 6, size: 'max' }),
            fc.nat(),
          ),
        ),
      );
      return fc.tuple(odd, base).map(([[p, value, chars, at], rest]) => {
        const i = at % (value.length + 1);
        const spoilt = value.slice(0, i) + chars.join('') + value.slice(i);
        return p.in === 'path'
          ? { path: `${pathWith(op, ctx, { [p.name]: segment(spoilt) })}${query(distinct(rest, []))}` }
          : { path: `${plain}${query([[p.name, spoilt], ...distinct(rest, [p.name])])}` };
      });
    }
    case 'empty': {
      if (!own.length) return undefined;
      // `name=` and a bare `name`, as forms and hand-written links send them.
      const blank = fc.array(fc.tuple(fc.constantFrom(...own.map((p) => p.name)), fc.constantFrom('=', '')), {
        minLength: 1,
        maxLength: 3,
      });
      return fc.tuple(blank, base).map(([blanks, rest]) => {
        const names = [...new Set(blanks.map(([n]) => n))];
        const raw = names.map((n) => `${encodeURIComponent(n)}${blanks.find(([x]) => x === n)![1]}`);
        return { path: `${plain}${query(distinct(rest, names), raw)}` };
      });
    }
    case 'foreign': {
      const mine = new Set(op.parameters.map((p) => p.name));
      const byName = new Map<string, Parameter>();
      for (const p of model.operations.flatMap((o) => o.parameters.filter((x) => x.in === 'query')))
        if (!mine.has(p.name) && !byName.has(p.name)) byName.set(p.name, p);
      if (!byName.size) return undefined;
      // Each of them, most of the time: the one that breaks the target is among them, and shrinking leaves it alone.
      const theirs = fc.tuple(
        ...[...byName.values()].map((p) =>
          fc.option(
            validText(model.doc, p.schema, p.example).map((v): Entry => [p.name, v]),
            { nil: undefined, freq: 10 },
          ),
        ),
      );
      return fc.tuple(theirs, base).map(([entries, rest]) => ({
        path: `${plain}${query([...entries.filter((e): e is Entry => e !== undefined), ...distinct(rest, [])])}`,
      }));
    }
    case 'encoded': {
      if (!inPath.length) return undefined;
      // The same value with its ':' or '.' percent-encoded (upper or lower case hex) must mean the same.
      // Each is encoded four times in five; shrinking leaves raw what need not be encoded to fail.
      const mostly = fc.nat({ max: 4 }).map((n) => n > 0);
      const same = fc
        .record({ colon: mostly, dots: mostly, lower: fc.boolean() })
        .map(({ colon, dots, lower }): EdgeCase => {
          const hex = (h: string) => (lower ? h.toLowerCase() : h);
          const values = Object.fromEntries(
            inPath.map((p) => {
              let v = segment(pathValue(op, ctx, p.name));
              if (dots) v = v.replace(/\./g, hex('%2E'));
              if (colon) v = v.replace(/:/g, hex('%3A'));
              return [p.name, v];
            }),
          );
          return { path: pathWith(op, ctx, values), same: plain };
        });
      // A separator slipped in, encoded: a value that names nothing, to be refused or not found, never a crash.
      const slipped = fc
        .tuple(fc.constantFrom(...inPath), fc.constantFrom(...SEPARATORS), fc.nat())
        .map(([p, sep, at]): EdgeCase => {
          const v = segment(pathValue(op, ctx, p.name));
          const i = at % (v.length + 1);
          return { path: pathWith(op, ctx, { [p.name]: v.slice(0, i) + sep + v.slice(i) }) };
        });
      return fc.oneof({ weight: 3, arbitrary: same }, { weight: 1, arbitrary: slipped });
    }
  }
}
