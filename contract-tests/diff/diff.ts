// Two versions of the spec compared: each read through spec/model.ts into a contract
// view, the views compared by microdiff, every difference claimed by a rule group (or
// reported as unclassified), the changes sorted worst first.
import type { OpenApiDoc } from '../../spec/load.ts';
import { buildModel } from '../../spec/model.ts';
import { BODY_RULES } from './body-rules.ts';
import type { Change } from './change.ts';
import { LIMIT_RULES, PROVENANCE_RULE } from './limit-rules.ts';
import { classify, Context, type Group, type Matcher, type Version } from './match.ts';
import { OPERATION_RULES } from './operation-rules.ts';
import { PARAMETER_RULES } from './parameter-rules.ts';
import { SEVERITIES } from './rules.ts';
import { contractView } from './view.ts';

/** A document that is not a spec this project can read: the diff cannot run (exit 2). */
export class DocumentError extends Error {}

/** In order: the first matcher whose pattern fits a difference takes it. */
const MATCHERS: Matcher[] = [PROVENANCE_RULE, ...OPERATION_RULES, ...PARAMETER_RULES, ...BODY_RULES, ...LIMIT_RULES];

const UNCLASSIFIED: Matcher = {
  pattern: [],
  handle: (group: Group, ctx: Context) =>
    group.differences.map((d) =>
      ctx.change('unclassified-change', {
        at: [...group.at, ...d.path],
        where: [...group.at, ...d.path].join(' '),
        message: `${JSON.stringify(d.oldValue) ?? '(none)'} -> ${JSON.stringify(d.value) ?? '(none)'}`,
      }),
    ),
};

/** One version read: a document spec/model.ts refuses is named by `name` in the error. */
export function versionOf(doc: OpenApiDoc, name: string): Version {
  if (!doc || typeof doc !== 'object' || typeof doc.paths !== 'object' || !doc.components)
    throw new DocumentError(`${name}: not an OpenAPI document (no paths or components)`);
  try {
    const model = buildModel(doc);
    return { model, view: contractView(model) };
  } catch (err) {
    throw new DocumentError(`${name}: ${(err as Error).message}`);
  }
}

const order = (c: Change) => -SEVERITIES.indexOf(c.severity);

/** Every change from `base` to `head`, worst severity first, then by route and place. */
export function diffVersions(base: Version, head: Version): Change[] {
  const changes = classify(new Context(base, head), MATCHERS, UNCLASSIFIED);
  return changes.sort(
    (a, b) =>
      order(a) - order(b) ||
      (a.route ?? '~').localeCompare(b.route ?? '~') ||
      a.where.localeCompare(b.where) ||
      a.rule.localeCompare(b.rule),
  );
}

export function diffDocuments(base: OpenApiDoc, head: OpenApiDoc): Change[] {
  return diffVersions(versionOf(base, 'base'), versionOf(head, 'head'));
}
