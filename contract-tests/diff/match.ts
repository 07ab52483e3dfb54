// How the rule groups claim what changed. microdiff walks the two contract views
// (diff/view.ts) and lists every difference by its path; each rule group declares the
// paths it reads as patterns (`*` one key, a trailing `**` everything below, handed over
// together); the first pattern that matches a difference takes it. What no pattern takes
// is reported as unclassified, so no change goes unsaid.
import microdiff from 'microdiff';
import type { SpecModel } from '../../spec/model.ts';
import { weakest, isProvenance, type Provenance } from '../../spec/provenance.ts';
import type { Change, Touch } from './change.ts';
import { ruleOf } from './rules.ts';
import type { View } from './view.ts';

export type Path = (string | number)[];

export interface Difference {
  type: 'CREATE' | 'REMOVE' | 'CHANGE';
  /** Below the group's `at`. */
  path: Path;
  value?: any;
  oldValue?: any;
}

/** The differences one pattern took at one place, with what was there before and after. */
export interface Group {
  at: Path;
  differences: Difference[];
  before: any;
  after: any;
}

export interface Version {
  model: SpecModel;
  view: View;
}

export interface ChangeFields {
  /** Where the change is in the views: the level and the operation are read along it. */
  at: Path;
  where: string;
  message: string;
  before?: unknown;
  after?: unknown;
  touches?: Touch[];
}

export class Context {
  constructor(
    readonly base: Version,
    readonly head: Version,
  ) {}

  /** A change under `rule`, its level the softest `x-provenance` along its path in either version. */
  change(rule: string, fields: ChangeFields): Change {
    const r = ruleOf(rule);
    const route = fields.at[0] === 'operations' ? String(fields.at[1]) : undefined;
    const op = route ? (this.base.view.operations[route] ?? this.head.view.operations[route]) : undefined;
    return {
      rule: r.id,
      breaks: r.breaks,
      severity: r.severity,
      level: this.levelAt(fields.at),
      ...(op ? { operationId: op.operationId as string, route } : {}),
      where: fields.where,
      message: fields.message,
      ...(fields.before !== undefined ? { before: fields.before } : {}),
      ...(fields.after !== undefined ? { after: fields.after } : {}),
      touches: fields.touches ?? [],
      ...(r.why ? { why: r.why } : {}),
    };
  }

  levelAt(at: Path): Provenance {
    const levels: Provenance[] = [];
    for (const view of [this.base.view, this.head.view]) {
      let node: any = view;
      for (const key of [...at, undefined]) {
        if (!node || typeof node !== 'object') break;
        if (isProvenance(node['x-provenance'])) levels.push(node['x-provenance']);
        if (key !== undefined) node = node[key];
      }
    }
    // A part that says nothing about where it comes from promises nothing (spec/model.ts reads it the same way).
    return levels.length ? weakest(...levels) : 'assumed';
  }

  /** The operationId the base spec gives the route (usage profiles are recorded against it), else the head's. */
  operationIdAt(route: string): string {
    return (this.base.view.operations[route] ?? this.head.view.operations[route]).operationId;
  }

  /** A request of every operation the base spec has (a change to the whole API). */
  everyOperation(filter: (route: string, op: View) => boolean = () => true): Touch[] {
    return Object.entries<View>(this.base.view.operations)
      .filter(([route, op]) => filter(route, op))
      .map(([, op]) => ({ operationId: op.operationId }));
  }

  /** The kind of credential a scheme's callers carry (as usage profiles record it): `bearer`, `cookie`, `none`. */
  credentialKind(scheme: string): string {
    if (scheme === '(none)' || scheme === 'anonymous') return 'none';
    const name = scheme.split('+')[0]!;
    return this.base.model.schemes.get(name)?.kind ?? this.head.model.schemes.get(name)?.kind ?? name;
  }
}

export interface Matcher {
  /** `*` matches one key; a trailing `**` any rest, handed over as one group per place. */
  pattern: string[];
  /** Takes only the differences this also accepts. */
  when?(path: Path): boolean;
  handle(group: Group, ctx: Context): Change[];
}

/** How many leading keys of `path` the pattern's place is, or undefined when it does not match. */
export function matchLength(pattern: readonly string[], path: Path): number | undefined {
  const rest = pattern.at(-1) === '**';
  const fixed = rest ? pattern.slice(0, -1) : pattern;
  if (path.length < fixed.length || (!rest && path.length !== fixed.length)) return undefined;
  for (let i = 0; i < fixed.length; i++) if (fixed[i] !== '*' && fixed[i] !== String(path[i])) return undefined;
  return fixed.length;
}

export const valueAt = (view: View, at: Path): any =>
  at.reduce<any>((node, key) => (node && typeof node === 'object' ? node[key] : undefined), view);

/** Deep equality of two views' parts. */
export function same(a: unknown, b: unknown): boolean {
  return microdiff({ v: a }, { v: b } as any).length === 0;
}

/** Every difference between two views, each handed to the first matcher that takes it. */
export function classify(ctx: Context, matchers: readonly Matcher[], unclassified: Matcher): Change[] {
  const groups = new Map<string, { matcher: Matcher; group: Group }>();
  // The views hold no cycles (diff/view.ts cuts a recursive schema), so microdiff need not look for them.
  for (const d of microdiff(ctx.base.view, ctx.head.view, { cyclesFix: false })) {
    let index = matchers.findIndex((m) => matchLength(m.pattern, d.path) !== undefined && (m.when?.(d.path) ?? true));
    const matcher = index < 0 ? unclassified : matchers[index]!;
    if (index < 0) index = matchers.length;
    const n = matchLength(matcher.pattern, d.path) ?? d.path.length;
    const at = d.path.slice(0, n);
    const key = `${index}\u0000${JSON.stringify(at)}`;
    let entry = groups.get(key);
    if (!entry) {
      entry = {
        matcher,
        group: { at, differences: [], before: valueAt(ctx.base.view, at), after: valueAt(ctx.head.view, at) },
      };
      groups.set(key, entry);
    }
    entry.group.differences.push({
      type: d.type,
      path: d.path.slice(n),
      ...('value' in d ? { value: d.value } : {}),
      ...('oldValue' in d ? { oldValue: d.oldValue } : {}),
    });
  }
  return [...groups.values()].flatMap(({ matcher, group }) => matcher.handle(group, ctx));
}
