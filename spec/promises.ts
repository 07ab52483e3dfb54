// The promise map: every promise the spec makes, listed from its model (spec/model.ts,
// spec/rules.ts), each with the judges that fail when a target breaks it and the family
// of the contract suite that provokes it, or why none does (spec/promise-kinds.ts). Every
// operation, parameter, property of a request body, field of an answer, header, security
// requirement, limit and link, and for each every way the spec's words constrain it: its
// type, format, enum, bounds (the value at the bound accepted, the one past it refused),
// pattern, whether it is required or nullable, what its `x-meaning` does to rows, the
// status each condition is owed. A field of a shared schema is one promise wherever it
// is answered (`ServerCore.port`: the search's rows and both pings), as the spec writes
// it once. An extension no kind reads is listed too, held by the judges that say they
// hold it (`Judge.holds`), so a promise the spec adds shows up with no code here.
import { registryNames } from './judges/registry.ts';
import { deref, type OpenApiDoc } from './load.ts';
import type { Comparison, Meaning } from './meaning.ts';
import type { Operation, Parameter, SpecModel } from './model.ts';
import { type Provenance, provenanceOf, weakest } from './provenance.ts';
import { KINDS, type Kind, type KindEntry, statusEntry } from './promise-kinds.ts';
import { RULE_DESCRIPTORS } from './rules.ts';

export type { Kind } from './promise-kinds.ts';

/** What a promise is about. */
export interface Subject {
  area:
    | 'operation'
    | 'parameter'
    | 'body'
    | 'field'
    | 'header'
    | 'security'
    | 'routing'
    | 'rate-limits'
    | 'limit'
    | 'link'
    | 'cors'
    | 'extension';
  /** The parameter, the field (`ServerCore.port`), the header, the scheme, the limit, the extension... */
  name: string;
  in?: 'query' | 'path' | 'body';
  status?: number;
}

/** Where a field of a schema is answered: an operation, a status, the path in its body (`results.*.port`). */
export interface Place {
  operation: string;
  status: number;
  path: string;
}

/** The values the spec states for a promise, as its kind reads them. */
export interface Detail {
  /** A schema keyword and its value (`maximum` 500, `enum` [...], `type` integer). */
  keyword?: string;
  value?: unknown;
  status?: number;
  /** A parameter's `x-meaning`. */
  meaning?: Meaning;
  /** The row field(s) a meaning facet is about. */
  field?: string;
  /** A sort order's value, direction and comparison. */
  order?: string;
  direction?: 'asc' | 'desc';
  compare?: Comparison;
  tieBreak?: string[];
  /** A security scheme. */
  scheme?: string;
  permission?: string;
  /** Where a field is answered. */
  places?: Place[];
  /** A path group of the rate limits (`/metadata/`), and its window. */
  pathPrefix?: string;
  windowSeconds?: number;
  /** A link's target operation. */
  target?: string;
  /** The methods a path declares. */
  methods?: string[];
}

export interface SpecPromise {
  /** Stable, unique: `findServers query minUsers: bound inclusive`. */
  id: string;
  kind: Kind;
  /** The operations it holds on. */
  operations: string[];
  subject: Subject;
  /** The promise, for people. */
  says: string;
  level: Provenance;
  detail: Detail;
  /** The judges and comparisons that fail when it is broken; empty when uncovered. */
  judges: readonly string[];
  /** The families of the suite whose cases provoke it. */
  provokedBy: readonly string[];
  /** Why no judge holds it. */
  uncovered?: string;
}

/** A judge as the map reads it: its name, and the extensions of the spec it holds (`x-cors`). */
export interface JudgeNames {
  name: string;
  holds?: readonly string[];
}

/** The extensions the model reads itself (each is promises of the kinds above), and those that are words only. */
const READ_EXTENSIONS = new Set([
  'x-provenance',
  'x-meaning',
  'x-routing',
  'x-rate-limits',
  'x-max-body-bytes',
  'x-max-keys-per-user',
  'x-max-by-plan',
  'x-default-port',
  'x-refresh-after-minutes',
  'x-window-days',
  'x-permission',
  'x-credentials',
  'x-count-of',
  'x-true-when',
  'x-cors',
]);

class MapBuilder {
  readonly out: SpecPromise[] = [];
  private readonly ids = new Set<string>();

  constructor(
    readonly model: SpecModel,
    private readonly judges: readonly JudgeNames[],
  ) {}

  add(
    p: Omit<SpecPromise, 'judges' | 'provokedBy' | 'uncovered' | 'detail'> & {
      detail?: Detail;
      entry?: KindEntry;
    },
  ): void {
    const kind = p.entry ?? KINDS[p.kind];
    // A field or a header is provoked by whatever gets the statuses it is answered with.
    const places = p.detail?.places;
    const entry =
      places?.length && kind.provokedBy.includes('every answer')
        ? {
            ...kind,
            // A 429 is met, not provoked: what provokes the other statuses provokes the field.
            provokedBy: [
              ...new Set(
                places.flatMap((pl) =>
                  pl.status === 429 && places.some((other) => other.status !== 429)
                    ? []
                    : [...statusEntry(pl.status).provokedBy, ...meetsMany(this.model, pl)],
                ),
              ),
            ],
          }
        : kind;
    const { entry: _entry, ...rest } = p;
    // A field of a shared schema met in several places is one promise: the first place names it.
    if (this.ids.has(p.id)) return;
    this.ids.add(p.id);
    const judges = entry.judges;
    this.out.push({
      ...rest,
      detail: p.detail ?? {},
      judges,
      provokedBy: entry.provokedBy,
      ...(judges.length ? {} : { uncovered: entry.uncovered ?? 'no judge holds it' }),
    });
  }

  /** The judges that say they hold an extension. */
  holders(name: string): KindEntry {
    const judges = this.judges.filter((j) => j.holds?.includes(name)).map((j) => j.name);
    return judges.length
      ? { judges, provokedBy: ['every answer'] }
      : { judges: [], provokedBy: [], uncovered: `no judge of the registry says it holds ${name}` };
  }
}

/**
 * What meets many answers of a place, so a value that only some rows hold (a null) is met:
 * the sample, paging through the rows of the search; its pings, asking about many servers.
 */
function meetsMany(model: SpecModel, place: Place): string[] {
  const op = model.byId.get(place.operation);
  if (!op || place.status >= 300) return [];
  const paged = op.rows && op.parameters.some((p) => p.meaning?.rule === 'page');
  if (paged && place.path.startsWith(`${op.rows!.property}.*`)) return ['sample'];
  return op.isPublic && op.parameters.some((p) => p.in === 'path') ? ['sample (pings)'] : [];
}

const levelOf = (...nodes: unknown[]): Provenance => weakest(...nodes.map((n) => provenanceOf(n) ?? 'assumed'));

/** The promises of one operation as a whole: its route, each status it declares, JSON, no crash, no leak. */
function operationPromises(b: MapBuilder, op: Operation): void {
  const operations = [op.operationId];
  const at = `${op.method} ${op.path}`;
  const base = { operations, level: op.provenance };
  b.add({
    ...base,
    id: `${op.operationId}: route`,
    kind: 'route',
    subject: { area: 'operation', name: op.operationId },
    says: `${at} is served (not 404 or 405)`,
  });
  for (const [status, response] of op.responses) {
    const entry = statusEntry(status);
    b.add({
      ...base,
      id: `${op.operationId}: status ${status}`,
      kind: 'status',
      entry,
      subject: { area: 'operation', name: op.operationId, status },
      says: `${at} answers ${status} when ${response.description.replace(/\.$/, '').toLowerCase()}`,
      detail: { status },
    });
    if (status >= 400)
      b.add({
        ...base,
        id: `${op.operationId}: error body ${status}`,
        kind: 'error-body',
        subject: { area: 'operation', name: op.operationId, status },
        says: `its ${status} is the error body, the message starting with its reason phrase`,
        detail: { status },
      });
  }
  b.add({
    ...base,
    level: weakest(op.provenance, b.model.documentProvenance),
    id: `${op.operationId}: JSON`,
    kind: 'json',
    subject: { area: 'operation', name: op.operationId },
    says: 'every answer is JSON and says so (Content-Type: application/json)',
  });
  b.add({
    ...base,
    id: `${op.operationId}: no server error`,
    kind: 'no-server-error',
    subject: { area: 'operation', name: op.operationId },
    says: 'no request gets a 5xx',
  });
  b.add({
    ...base,
    level: 'assumed',
    id: `${op.operationId}: no leak`,
    kind: 'no-leak',
    subject: { area: 'operation', name: op.operationId },
    says: 'no answer leaks a stack trace, SQL, a server path or framework internals',
  });
}

/** The schema keywords a value is constrained by, each a promise: accepted at its edge, refused past it. */
function valuePromises(
  b: MapBuilder,
  op: Operation,
  where: { name: string; in: 'query' | 'path' | 'body'; level: Provenance },
  schema: Record<string, any>,
): void {
  const operations = [op.operationId];
  const subject = {
    area: where.in === 'body' ? ('body' as const) : ('parameter' as const),
    name: where.name,
    in: where.in,
  };
  const id = (what: string) => `${op.operationId} ${where.in} ${where.name}: ${what}`;
  const base = { operations, subject, level: where.level };
  if (schema.type === 'integer' || schema.type === 'number' || schema.type === 'boolean')
    b.add({
      ...base,
      id: id(`type ${schema.type}`),
      kind: 'param-type',
      says:
        `${where.name} is ${schema.type === 'integer' ? 'an integer' : `a ${schema.type}`}: anything else is ` +
        `refused (400)`,
      detail: { keyword: 'type', value: schema.type },
    });
  for (const [keyword, words] of [
    ['minimum', 'at least'],
    ['maximum', 'at most'],
    ['minLength', 'at least'],
    ['maxLength', 'at most'],
  ] as const) {
    const value = schema[keyword];
    if (typeof value !== 'number') continue;
    const unit = keyword.endsWith('Length') ? ` characters` : '';
    b.add({
      ...base,
      id: id(`${keyword} ${value} accepted`),
      kind: 'param-accepts',
      says: `${where.name} ${words} ${value}${unit}: ${value}${unit} itself is accepted (the bound is inclusive)`,
      detail: { keyword, value },
    });
    b.add({
      ...base,
      id: id(`${keyword} ${value} refused past it`),
      kind: 'param-refuses',
      says: `${where.name} ${words} ${value}${unit}: one past it is refused (400)`,
      detail: { keyword, value },
    });
  }
  if (typeof schema.pattern === 'string') {
    b.add({
      ...base,
      id: id('pattern accepted'),
      kind: 'param-accepts',
      says: `${where.name} matching ${schema.pattern} is accepted`,
      detail: { keyword: 'pattern', value: schema.pattern },
    });
    b.add({
      ...base,
      id: id('pattern refused'),
      kind: 'param-refuses',
      says: `${where.name} against ${schema.pattern} is refused (400)`,
      detail: { keyword: 'pattern', value: schema.pattern },
    });
  }
  if (Array.isArray(schema.enum)) {
    b.add({
      ...base,
      id: id('enum accepted'),
      kind: 'param-accepts',
      says: `${where.name} takes each of ${schema.enum.join(', ')}`,
      detail: { keyword: 'enum', value: schema.enum },
    });
    b.add({
      ...base,
      id: id('enum refused'),
      kind: 'param-refuses',
      says: `${where.name} outside ${schema.enum.join(', ')} is refused (400)`,
      detail: { keyword: 'enum', value: schema.enum },
    });
  }
}

/**
 * Each parameter: its value's constraints, its default, an empty value, any case, and what its meaning does to rows.
 */
function parameterPromises(b: MapBuilder, op: Operation, p: Parameter): void {
  if (p.in !== 'query' && p.in !== 'path') return;
  const level = weakest(op.provenance, p.provenance);
  valuePromises(b, op, { name: p.name, in: p.in, level }, p.schema);
  const operations = [op.operationId];
  const subject = { area: 'parameter' as const, name: p.name, in: p.in };
  const id = (what: string) => `${op.operationId} ${p.in} ${p.name}: ${what}`;
  const base = { operations, subject, level };
  if ('default' in p)
    b.add({
      ...base,
      id: id(`default ${JSON.stringify(p.default)}`),
      kind: 'param-default',
      says: `${p.name} left out means ${JSON.stringify(p.default)}: sent as that, it answers as left out`,
      detail: { keyword: 'default', value: p.default },
    });
  if (p.raw.allowEmptyValue)
    b.add({
      ...base,
      id: id('empty means left out'),
      kind: 'param-empty',
      says: `${p.name}= (empty) means no filter, as if left out`,
    });
  if (p.meaning && RULE_DESCRIPTORS[p.meaning.rule].letterCase === 'any' && Array.isArray(p.schema.enum))
    b.add({
      ...base,
      id: id('any case'),
      kind: 'param-any-case',
      says: `${p.name} takes any case of its values (${String(p.schema.enum[0]).toLowerCase()} is ${p.schema.enum[0]})`,
      detail: { keyword: 'enum', value: p.schema.enum, meaning: p.meaning },
    });
  if (p.meaning) meaningPromises(b, op, p, p.meaning, base);
}

type Base = { operations: string[]; subject: Subject; level: Provenance };

/** What a parameter's `x-meaning` promises about the rows, one facet each (spec/rules.ts says what each rule means). */
function meaningPromises(b: MapBuilder, op: Operation, p: Parameter, m: Meaning, base: Base): void {
  const id = (what: string) => `${op.operationId} ${p.in} ${p.name}: ${what}`;
  const add = (kind: Kind, what: string, says: string, detail: Detail = {}) =>
    b.add({ ...base, id: id(what), kind, says: `${p.name}: ${says}`, detail: { meaning: m, ...detail } });
  const rows = op.rows?.property ?? 'rows';
  switch (m.rule) {
    case 'atLeast':
    case 'atMost': {
      const sign = m.rule === 'atLeast' ? '>=' : '<=';
      add('bound', 'bound inclusive', `a row with ${m.field} equal to the value is kept (${sign}, inclusive)`, {
        field: m.field,
        keyword: 'inclusive',
      });
      add('bound', 'bound excludes', `no row with ${m.field} past the value`, { field: m.field, keyword: 'excludes' });
      break;
    }
    case 'ageAtLeastDays':
    case 'ageAtMostDays': {
      const words = m.rule === 'ageAtLeastDays' ? 'at least' : 'at most';
      add('age', 'age inclusive', `a row whose ${m.field} is ${words} that many days ago is kept`, {
        field: m.field,
        keyword: 'inclusive',
      });
      add('age', 'age excludes', `no row whose ${m.field} is past that many days`, {
        field: m.field,
        keyword: 'excludes',
      });
      break;
    }
    case 'wholeWildcard':
    case 'substringWildcard':
    case 'nameOrCode': {
      const field = m.field;
      if (m.rule === 'substringWildcard')
        add('text-substring', 'substring', `a part of ${field} matches (no need to match it whole)`, { field });
      else add('text-whole', 'whole value', `the whole of ${field} matches, no implicit wildcards`, { field });
      add('text-wildcard', 'wildcard', `* matches any run of characters in ${field}`, { field });
      add('text-case', 'any case', `${field} matches in any case`, { field });
      if (m.rule === 'substringWildcard' && m.raw)
        add('text-raw', 'across colour codes', `matches ${field}, ${m.raw} without its § colour codes`, {
          field: m.raw,
        });
      if (m.rule === 'nameOrCode')
        add('text-code', 'two letters are a code', `exactly two letters match ${m.codeField} (an ISO code)`, {
          field: m.codeField,
        });
      break;
    }
    case 'equals':
      for (const field of m.fields)
        add('equals-field', `equals ${field}`, `keeps the rows whose ${field} equals it`, { field });
      // Digits have no case: an integer parameter (asn) promises none.
      if (p.schema.type !== 'integer' && p.schema.type !== 'number')
        add('text-case', 'any case', `${m.fields.join(' or ')} match in any case`, { field: m.fields[0] });
      break;
    case 'flag':
      add('flag', 'on', `any value but '${m.off}' keeps only rows with ${m.field} ${JSON.stringify(m.value)}`, {
        field: m.field,
        keyword: 'on',
      });
      add('flag', 'off', `'${m.off}' keeps every row, as if left out`, { field: m.field, keyword: 'off' });
      break;
    case 'addsField':
      add('adds-field', 'on', `true adds ${m.field} to every row`, { field: m.field, keyword: 'on' });
      add('adds-field', 'off', `false (or left out) adds no ${m.field}`, { field: m.field, keyword: 'off' });
      break;
    case 'relativeTime':
      add('relative-time', 'on', `true gives ${m.field} as relative text`, { field: m.field, keyword: 'on' });
      add('relative-time', 'off', `false (or left out) gives ${m.field} as an ISO 8601 instant`, {
        field: m.field,
        keyword: 'off',
      });
      break;
    case 'revealsHidden':
      add('reveals-hidden', 'on', `true shows the hidden rows: '${m.hidden}' is gone and ${m.total} grows by it`, {
        keyword: 'on',
      });
      add('reveals-hidden', 'off', `false (or left out) hides them and says how many in '${m.hidden}'`, {
        keyword: 'off',
      });
      break;
    case 'limitsRows':
      add('limits-rows', 'cuts the rows', `at most that many ${rows}`, { keyword: 'cuts' });
      for (const count of m.counts)
        add('limits-rows', `leaves ${count} alone`, `${count} does not depend on it`, {
          keyword: 'counts',
          field: count,
        });
      break;
    case 'page':
      add('page-past-end', 'past the end', `a page past the last one is empty, not an error`);
      add('total-steady', `${m.total} steady`, `${m.total} is the same on every page of a query`, { field: m.total });
      add('total-reached', `${m.total} reached`, `paging reaches ${m.total} rows: every match, not the page's`, {
        field: m.total,
      });
      break;
    case 'sort':
      for (const [value, o] of Object.entries(m.orders))
        add(
          'sort-order',
          `order ${value}`,
          `${value} orders ${rows} by ${o.field} ${o.direction === 'asc' ? 'ascending' : 'descending'} ` +
            `(${o.compare}), within and across pages`,
          { order: value, field: o.field, direction: o.direction, compare: o.compare },
        );
      add('sort-tie-break', 'ties', `rows equal in the order asked come by ${m.tieBreak.join(', ')}, ascending`, {
        tieBreak: m.tieBreak,
      });
      if ('default' in p)
        add('sort-default', 'default order', `left out, ${rows} come in the ${String(p.default)} order`, {
          order: String(p.default),
        });
      break;
    case 'ignored':
      add(
        'ignored',
        'ignored',
        `any value answers as left out: the same ${rows}, in the same order, whatever the sort`,
      );
      break;
  }
}

/** The request body: each property's constraints, a property it does not know, an absent body. */
function bodyPromises(b: MapBuilder, op: Operation): void {
  const body = op.requestBody;
  if (!body?.schema) return;
  const doc = b.model.doc;
  const schema = deref<Record<string, any>>(doc, body.schema);
  const level = weakest(op.provenance, provenanceOf(schema) ?? op.provenance);
  for (const [name, raw] of Object.entries<any>(schema.properties ?? {})) {
    const prop = deref<Record<string, any>>(doc, raw);
    const propLevel = weakest(level, provenanceOf(prop));
    if (prop.type === 'string')
      b.add({
        operations: [op.operationId],
        subject: { area: 'body', name, in: 'body' },
        level: propLevel,
        id: `${op.operationId} body ${name}: type string`,
        kind: 'param-type',
        says: `${name} is a string: anything else is refused (400)`,
        detail: { keyword: 'type', value: 'string' },
      });
    valuePromises(b, op, { name, in: 'body', level: propLevel }, prop);
  }
  const subject = { area: 'body' as const, name: 'body', in: 'body' as const };
  if (schema.additionalProperties === false)
    b.add({
      operations: [op.operationId],
      subject,
      level,
      id: `${op.operationId} body: no other property`,
      kind: 'body-unknown',
      says: 'a property the schema does not list is refused (400)',
    });
  if (!body.required)
    b.add({
      operations: [op.operationId],
      subject,
      level,
      id: `${op.operationId} body: optional`,
      kind: 'body-optional',
      says: 'an empty or absent body is a valid request',
    });
}

/** A field of a schema, as met in the answers: where the spec writes it, its schema, whether required, its level. */
interface FieldSeen {
  owner: string;
  path: string;
  schema: Record<string, any>;
  required: boolean;
  nullable: boolean;
  level: Provenance;
  places: Place[];
  /** Properties the spec says a node must not have (`not: {required: [secret]}`). */
  absent: string[];
  /** A part that only requires a property another part declares: its presence is all it promises. */
  requiredOnly?: boolean;
}

/** Every field of every declared answer body, by the schema that declares it (`ServerCore.port`). */
function answerFields(model: SpecModel): Map<string, FieldSeen> {
  const doc = model.doc;
  const fields = new Map<string, FieldSeen>();
  const note = (f: Omit<FieldSeen, 'places'>, place: Place) => {
    const key = `${f.owner}${f.path ? `.${f.path}` : ''}`;
    const had = fields.get(key);
    if (had) {
      if (
        !had.places.some((p) => p.operation === place.operation && p.status === place.status && p.path === place.path)
      )
        had.places.push(place);
      had.absent = [...new Set([...had.absent, ...f.absent])];
    } else fields.set(key, { ...f, places: [place] });
  };
  const componentName = (ref: string) => ref.replace(/^#\/components\/(schemas|responses)\//, '');
  interface At {
    op: string;
    status: number;
    /** The path from the body's root. */
    body: string;
    owner: string;
    /** The path from the owner's root. */
    own: string;
    level: Provenance;
    required: boolean;
    stack: string[];
  }
  const walk = (node: unknown, at: At, absent: string[] = []): void => {
    if (!node || typeof node !== 'object') return;
    let s = node as Record<string, any>;
    let here = at;
    if (typeof s.$ref === 'string') {
      if (at.stack.includes(s.$ref)) return;
      const target = deref<Record<string, any>>(doc, s);
      here = {
        ...at,
        owner: componentName(s.$ref),
        own: '',
        level: weakest(at.level, provenanceOf(target) ?? at.level),
        stack: [...at.stack, s.$ref],
      };
      s = target;
    }
    const level = provenanceOf(s) ?? here.level;
    const alternatives: Record<string, any>[] = s.anyOf ?? s.oneOf ?? [];
    const nullable =
      s.nullable === true || alternatives.some((a) => deref<Record<string, any>>(doc, a)?.enum?.[0] === null);
    const place = { operation: here.op, status: here.status, path: here.body };
    const concrete = alternatives.filter((a) => deref<Record<string, any>>(doc, a)?.enum?.[0] !== null);
    // The node itself, as a field of its parent (the body's root is no field).
    if (here.body !== '' || s.type !== 'object')
      note({ owner: here.owner, path: here.own, schema: s, required: here.required, nullable, level, absent }, place);
    // A part that requires a property another part declares (`PingServer`: ServerCore's favicon, always present).
    const declared = new Map<string, unknown>();
    for (const part of s.allOf ?? [])
      for (const [name, prop] of Object.entries<any>(deref<Record<string, any>>(doc, part)?.properties ?? {}))
        declared.set(name, prop);
    for (const part of s.allOf ?? []) {
      const p = deref<Record<string, any>>(doc, part);
      for (const name of p?.required ?? []) {
        if (p.properties?.[name] !== undefined || declared.get(name) === undefined) continue;
        const prop = deref<Record<string, any>>(doc, declared.get(name));
        const join = (a: string) => (a ? `${a}.${name}` : name);
        note(
          {
            owner: here.owner,
            path: join(here.own),
            schema: prop,
            required: true,
            nullable: prop.nullable === true,
            level: provenanceOf(prop) ?? level,
            absent: [],
            requiredOnly: true,
          },
          { ...place, path: join(here.body) },
        );
      }
      const notRequired: string[] = p?.not?.required ?? [];
      walk(part, { ...here, required: here.required }, notRequired.length ? notRequired : absent);
      if (notRequired.length && here.body !== '')
        note(
          {
            owner: here.owner,
            path: here.own,
            schema: s,
            required: here.required,
            nullable,
            level,
            absent: notRequired,
          },
          place,
        );
    }
    // A nullable reference (`anyOf: [Region, NullValue]`): the referenced schema, at this field's place.
    if (concrete.length === 1) walk(concrete[0], { ...here, level });
    const required = new Set<string>(s.required ?? []);
    for (const [name, prop] of Object.entries<any>(s.properties ?? {})) {
      const join = (a: string) => (a ? `${a}.${name}` : name);
      walk(prop, {
        ...here,
        body: join(here.body),
        own: join(here.own),
        level: provenanceOf(prop) ?? level,
        required: required.has(name),
      });
    }
    if (s.items)
      walk(s.items, {
        ...here,
        body: here.body ? `${here.body}.*` : '*',
        own: here.own ? `${here.own}.*` : '*',
        level,
        required: true,
      });
  };
  for (const op of model.operations) {
    for (const [status, response] of op.responses) {
      if (!response.schema) continue;
      const raw = op.raw.responses?.[String(status)];
      const owner = typeof raw?.$ref === 'string' ? componentName(raw.$ref) : `${op.operationId} ${status}`;
      walk(response.schema, {
        op: op.operationId,
        status,
        body: '',
        owner,
        own: '',
        level: op.provenance,
        required: true,
        stack: [],
      });
    }
  }
  return fields;
}

/**
 * Each field's constraints: its type, format, enum, pattern, bounds, whether required or nullable, and the marks of the
 * spec.
 */
function fieldPromises(b: MapBuilder): void {
  for (const [key, f] of answerFields(b.model)) {
    const s = f.schema;
    const operations = [...new Set(f.places.map((p) => p.operation))];
    const subject = { area: 'field' as const, name: key };
    const base = { operations, subject, level: f.level };
    const detail = { places: f.places };
    const add = (kind: Kind, what: string, says: string, more: Detail = {}) =>
      b.add({ ...base, id: `${key}: ${what}`, kind, says: `${key}: ${says}`, detail: { ...detail, ...more } });
    const name = f.path.split('.').at(-1) ?? '';
    if (f.requiredOnly) {
      add('field-required', 'required', 'always present');
      continue;
    }
    if (name && name !== '*') {
      if (f.required)
        add(
          'field-required',
          'required',
          f.nullable ? 'always present, null when there is nothing (never left out)' : 'always present',
        );
      if (f.nullable) add('field-nullable', 'nullable', 'may be null');
      else if (f.required && s.type !== undefined) add('field-nullable', 'never null', 'never null', { value: false });
    }
    if (typeof s.type === 'string')
      add('field-type', `type ${s.type}`, `a${/^[aeiou]/.test(s.type) ? 'n' : ''} ${s.type}`, {
        keyword: 'type',
        value: s.type,
      });
    const alternatives: Record<string, any>[] = (s.anyOf ?? s.oneOf ?? []).map((a: unknown) =>
      deref<Record<string, any>>(b.model.doc, a),
    );
    if (alternatives.length > 1 && !alternatives.some((a) => a.enum?.[0] === null))
      add(
        'field-one-of',
        'one of',
        `one of ${alternatives.map((a) => a.format ?? a.enum?.join('|') ?? a.type).join(' or ')}`,
        {
          keyword: 'anyOf',
          value: alternatives,
        },
      );
    if (typeof s.format === 'string' && s.format !== 'password')
      add('field-format', `format ${s.format}`, `format ${s.format}`, { keyword: 'format', value: s.format });
    if (s.format === 'password')
      add('field-secret', 'secret', 'a secret: in the answer that creates it and in no other', {
        keyword: 'format',
        value: 'password',
      });
    if (Array.isArray(s.enum) && s.enum[0] !== null)
      add('field-enum', 'enum', `one of ${s.enum.map((v: unknown) => JSON.stringify(v)).join(', ')}`, {
        keyword: 'enum',
        value: s.enum,
      });
    if (typeof s.pattern === 'string')
      add('field-pattern', 'pattern', `matches ${s.pattern}`, { keyword: 'pattern', value: s.pattern });
    for (const [keyword, kind, words] of [
      ['minimum', 'field-minimum', 'at least'],
      ['maximum', 'field-maximum', 'at most'],
      ['minLength', 'field-min-length', 'at least'],
      ['maxLength', 'field-max-length', 'at most'],
    ] as const)
      if (typeof s[keyword] === 'number')
        add(
          kind,
          `${keyword} ${s[keyword]}`,
          `${words} ${s[keyword]}${keyword.endsWith('Length') ? ' characters' : ''}`,
          {
            keyword,
            value: s[keyword],
          },
        );
    for (const absent of f.absent)
      add('field-absent', `no ${absent}`, `never carries '${absent}'`, { keyword: 'not', value: absent });
    if (typeof s['x-count-of'] === 'string')
      add('field-count-of', 'count', `the length of ${s['x-count-of']}`, { field: s['x-count-of'] });
    for (const [other, value] of Object.entries(s['x-true-when'] ?? {}))
      add('field-true-when', 'true when', `true exactly when ${other} is ${JSON.stringify(value)}`, {
        field: other,
        value,
      });
  }
}

/** The headers each answer declares: present with a value their schema allows, and what the rate limits say of them. */
function headerPromises(b: MapBuilder): void {
  const byName = new Map<string, { places: Place[]; level: Provenance; schema: Record<string, any> }>();
  for (const op of b.model.operations)
    for (const [status, response] of op.responses)
      for (const h of response.headers.values()) {
        const had = byName.get(h.name) ?? { places: [], level: h.provenance, schema: h.schema };
        had.places.push({ operation: op.operationId, status, path: '' });
        byName.set(h.name, had);
      }
  for (const [name, h] of byName) {
    const operations = [...new Set(h.places.map((p) => p.operation))];
    const subject = { area: 'header' as const, name };
    const statuses = [...new Set(h.places.map((p) => p.status))].sort();
    b.add({
      operations,
      subject,
      level: h.level,
      id: `header ${name}: present`,
      kind: 'header-present',
      says: `every ${statuses.join(', ')} answer that declares it carries ${name}`,
      detail: { places: h.places },
    });
    b.add({
      operations,
      subject,
      level: h.level,
      id: `header ${name}: value`,
      kind: 'header-value',
      says:
        `${name} is a${h.schema.type === 'integer' ? 'n integer' : ` ${h.schema.type ?? 'value'}`}` +
        (typeof h.schema.minimum === 'number' ? ` >= ${h.schema.minimum}` : ''),
      detail: { places: h.places, keyword: 'type', value: h.schema.type },
    });
  }
  const limits = b.model.limits.rateLimits;
  const level = limits.provenance ?? 'assumed';
  const everything = b.model.operations.map((o) => o.operationId);
  const groups = [
    { pathPrefix: '', windowSeconds: limits.windowsSeconds[0]!, name: 'every path' },
    ...limits.groups.map((g) => ({ ...g, name: `${g.pathPrefix}*` })),
  ];
  for (const g of groups) {
    const subject = { area: 'rate-limits' as const, name: g.name };
    const detail = { pathPrefix: g.pathPrefix, windowSeconds: g.windowSeconds };
    const operations = everything.filter((id) =>
      g.pathPrefix ? b.model.byId.get(id)!.path.startsWith(g.pathPrefix) : true,
    );
    const base = { operations, subject, level, detail };
    b.add({
      ...base,
      id: `rate limits ${g.name}: countdown`,
      kind: 'rate-limit-countdown',
      says: `X-RateLimit-Remaining counts down from one answer to the next within a window (${g.windowSeconds} s)`,
    });
    b.add({
      ...base,
      id: `rate limits ${g.name}: reset`,
      kind: 'rate-limit-reset',
      says: `X-RateLimit-Reset is the end of the current ${g.windowSeconds} s window, in Unix seconds`,
    });
    b.add({
      ...base,
      id: `rate limits ${g.name}: warning`,
      kind: 'rate-limit-warning',
      says: 'a 429 comes only after X-RateLimit-Remaining said the window was running out',
    });
  }
  for (const [tier, values] of Object.entries(limits.tiers))
    b.add({
      operations: everything,
      subject: { area: 'rate-limits', name: `tier ${tier}` },
      level,
      id: `rate limits tier ${tier}`,
      kind: 'rate-limit-tier',
      says: `${tier} callers may send ${values.map((v, i) => `${v} per ${limits.windowsSeconds[i]} s`).join(', ')}`,
      detail: { value: values },
    });
}

/** Who may call each protected operation, and a public one's indifference to credentials. */
function securityPromises(b: MapBuilder, op: Operation): void {
  const operations = [op.operationId];
  if (op.isPublic) {
    b.add({
      operations,
      subject: { area: 'security', name: 'public' },
      level: op.provenance,
      id: `${op.operationId} security: public`,
      kind: 'public-credentials',
      says: 'needs no credential, and one it carries (even a bad one) does not get it refused',
    });
    return;
  }
  const { model } = b;
  const level = weakest(op.provenance, ...op.schemes.map((s) => model.schemes.get(s)?.provenance));
  const add = (kind: Kind, what: string, says: string, detail: Detail = {}) =>
    b.add({
      operations,
      subject: { area: 'security', name: detail.scheme ?? op.schemes.join(' or ') },
      level,
      id: `${op.operationId} security: ${what}`,
      kind,
      says,
      detail,
    });
  add('auth-missing', 'no credential', 'without a credential: 401');
  for (const scheme of op.schemes) {
    const s = model.schemes.get(scheme)!;
    const what = s.kind === 'bearer' ? 'API key' : `session cookie (${s.cookieName})`;
    add('auth-unknown', `unknown ${scheme}`, `an unknown ${what}: 401`, { scheme });
    add('auth-expired', `expired ${scheme}`, `an expired ${what}: 401`, { scheme });
    if (s.kind === 'bearer') {
      add('auth-malformed', 'malformed Authorization', 'an Authorization header that is no Bearer token: 401', {
        scheme,
      });
      add('auth-revoked', `revoked ${scheme}`, `a revoked ${what}: 401`, { scheme });
    }
    if (op.allowedSchemes.includes(scheme))
      add('auth-valid', `valid ${scheme}`, `a valid ${what} of a user with the permission: ${op.successStatus}`, {
        scheme,
      });
    else
      add(
        'auth-scheme',
        `x-credentials ${scheme}`,
        `a valid ${what}: 403, x-credentials allows ${op.allowedSchemes.join(', ')}`,
        {
          scheme,
        },
      );
  }
  if (op.permission)
    add('auth-permission', `permission ${op.permission}`, `valid credentials without '${op.permission}': 403`, {
      permission: op.permission,
    });
}

/** Paths that match no operation: 404, and a method a path does not declare: 405 with Allow. */
function routingPromises(b: MapBuilder): void {
  const { routing, operations } = b.model;
  b.add({
    operations: [],
    subject: { area: 'routing', name: 'unknown path' },
    level: routing.provenance,
    id: 'routing: unknown path',
    kind: 'routing-unknown-path',
    says: `a path the API does not have: ${routing.unknownPath}, as JSON`,
    detail: { status: routing.unknownPath },
  });
  const byPath = new Map<string, string[]>();
  for (const op of operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op.method]);
  for (const [path, methods] of byPath)
    b.add({
      operations: operations.filter((o) => o.path === path).map((o) => o.operationId),
      subject: { area: 'routing', name: path },
      level: routing.provenance,
      id: `routing ${path}: wrong method`,
      kind: 'routing-wrong-method',
      says: `a method ${path} does not declare: ${routing.wrongMethod} with Allow: ${methods.join(', ')}`,
      detail: { status: routing.wrongMethod, methods },
    });
}

/** The numbers the spec states as extensions, each where it applies. */
function limitPromises(b: MapBuilder): void {
  const { model } = b;
  const { limits } = model;
  const withBody = model.operations.filter((o) => o.requestBody);
  const add = (kind: Kind, name: string, operations: Operation[], says: string, detail: Detail = {}) =>
    b.add({
      operations: operations.map((o) => o.operationId),
      subject: { area: 'limit', name },
      level: weakest(...operations.map((o) => o.provenance)),
      id: `limit ${name}`,
      kind,
      says,
      detail,
    });
  add('body-limit', 'x-max-body-bytes', withBody, `a body over ${limits.maxBodyBytes} bytes: 413`, {
    value: limits.maxBodyBytes,
  });
  for (const op of model.operations) {
    if (op.raw['x-max-keys-per-user'] !== undefined)
      add('key-cap', 'x-max-keys-per-user', [op], `a user with ${limits.maxKeysPerUser} keys creating another: 409`, {
        value: limits.maxKeysPerUser,
      });
    if (op.raw['x-window-days'] !== undefined)
      add(
        'window-days',
        'x-window-days',
        [op],
        `counts only servers pinged in the last ${op.raw['x-window-days']} days`,
      );
    for (const p of op.parameters) {
      if (p.raw['x-max-by-plan'] !== undefined)
        add(
          'page-size-by-plan',
          'x-max-by-plan',
          [op],
          `${p.name} is cut to the caller's plan: ${Object.entries(limits.pageSizeByPlan)
            .map(([plan, n]) => `${plan} ${n}`)
            .join(', ')}`,
          { value: limits.pageSizeByPlan },
        );
      if (p.raw['x-default-port'] !== undefined)
        add('default-port', 'x-default-port', [op], `${p.name} without a port means port ${limits.defaultPort}`, {
          value: limits.defaultPort,
        });
    }
  }
  const refreshing = model.operations.filter((o) =>
    [...o.responses.values()].some((r) => {
      const s: Record<string, any> | undefined = r.schema ? deref(model.doc, r.schema) : undefined;
      return s?.['x-refresh-after-minutes'] !== undefined;
    }),
  );
  if (refreshing.length)
    add(
      'refresh-after',
      'x-refresh-after-minutes',
      refreshing,
      `a stored ping older than ${limits.refreshAfterMs / 60_000} minutes answers refreshing`,
      { value: limits.refreshAfterMs / 60_000 },
    );
}

/** What a client may do next with an answer, as its `links` say. */
function linkPromises(b: MapBuilder, op: Operation): void {
  for (const [status, response] of op.responses)
    for (const link of response.links)
      b.add({
        operations: [op.operationId, ...(link.operationId ? [link.operationId] : [])],
        subject: { area: 'link', name: link.name, status },
        level: weakest(op.provenance, link.provenance),
        id: `${op.operationId} ${status} link ${link.name}`,
        kind: 'link',
        says: `after ${op.operationId}, ${link.operationId ?? 'its target'}${
          Object.keys(link.parameters).length
            ? ` with ${Object.entries(link.parameters)
                .map(([k, v]) => `${k} = ${v}`)
                .join(', ')}`
            : ''
        } works on what it made`,
        detail: { status, ...(link.operationId ? { target: link.operationId } : {}) },
      });
}

/**
 * `x-cors`, each rule a browser holds an answer to (the `cors` judge's): an allowed origin
 * echoed, never `*` when credentials are allowed; `Vary: Origin`; the exposed headers; a
 * preflight's status, methods, headers and max age; an origin no deployment may allow
 * granted nothing. Every operation is a browser's to call.
 */
function corsPromises(b: MapBuilder): void {
  const cors = b.model.cors;
  const operations = b.model.operations.map((o) => o.operationId);
  const subject = { area: 'cors' as const, name: 'x-cors' };
  const origins = cors.origins.allowed.join(', ');
  const add = (kind: Kind, id: string, level: Provenance, says: string, detail: Detail = {}) =>
    b.add({ operations, subject, level, id: `x-cors: ${id}`, kind, says, detail });
  add(
    'cors-grant',
    'an allowed origin is echoed',
    weakest(cors.provenance, cors.origins.provenance),
    `an origin of ${origins} is echoed in Access-Control-Allow-Origin` +
      (cors.credentials ? ', never *, with Access-Control-Allow-Credentials: true' : ''),
    { value: cors.credentials },
  );
  add('cors-vary', 'Vary: Origin', cors.origins.provenance, 'an answer that depends on the Origin says Vary: Origin');
  if (cors.exposeHeaders.names.length)
    add(
      'cors-expose',
      'exposed headers',
      cors.exposeHeaders.provenance,
      `Access-Control-Expose-Headers lists ${cors.exposeHeaders.names.join(', ')}`,
      { value: cors.exposeHeaders.names },
    );
  const pf = cors.preflight;
  add(
    'cors-preflight',
    'a preflight allows the methods of its path',
    pf.provenance,
    `a preflight is answered ${pf.status} with every method of its path in Access-Control-Allow-Methods`,
    { status: pf.status },
  );
  if (pf.allowHeaders.length)
    add(
      'cors-preflight-headers',
      'a preflight allows the headers',
      pf.provenance,
      `a preflight allows ${pf.allowHeaders.join(', ')} in Access-Control-Allow-Headers`,
      { value: pf.allowHeaders },
    );
  if (pf.maxAgeSeconds !== undefined)
    add('cors-max-age', 'max age', pf.provenance, `a preflight says Access-Control-Max-Age: ${pf.maxAgeSeconds}`, {
      value: pf.maxAgeSeconds,
    });
  add(
    'cors-foreign',
    'another origin is granted nothing',
    cors.origins.provenance,
    'an origin no deployment may allow gets no Access-Control-Allow-Origin',
  );
}

/**
 * The extensions of the document, its operations and parameters no kind reads: each listed, held by the judges that say
 * so.
 */
function extensionPromises(b: MapBuilder): void {
  const doc: OpenApiDoc = b.model.doc;
  const found = new Map<string, { where: string[]; level: Provenance }>();
  const note = (node: Record<string, any> | undefined, where: string, level: Provenance) => {
    for (const key of Object.keys(node ?? {}))
      if (key.startsWith('x-') && !READ_EXTENSIONS.has(key)) {
        const had = found.get(key) ?? { where: [], level: provenanceOf(node?.[key]) ?? level };
        had.where.push(where);
        found.set(key, had);
      }
  };
  note(doc as unknown as Record<string, any>, 'the document', levelOf(doc.info));
  for (const op of b.model.operations) {
    note(op.raw, op.operationId, op.provenance);
    for (const p of op.parameters) note(p.raw, `${op.operationId} ${p.name}`, p.provenance);
  }
  for (const [name, { where, level }] of found)
    b.add({
      operations: b.model.operations.filter((o) => where.includes(o.operationId)).map((o) => o.operationId),
      subject: { area: 'extension', name },
      level,
      id: `extension ${name}`,
      kind: 'extension',
      entry: b.holders(name),
      says: `what ${name} states (${where.join(', ')})`,
    });
}

/**
 * Every promise the spec makes, in the spec's order: operations, their parameters, bodies and security; then fields,
 * headers, routing, limits, extensions.
 */
export function promiseMap(model: SpecModel, judges: readonly JudgeNames[] = registryNames()): SpecPromise[] {
  const b = new MapBuilder(model, judges);
  for (const op of model.operations) {
    operationPromises(b, op);
    for (const p of op.parameters) parameterPromises(b, op, p);
    bodyPromises(b, op);
    securityPromises(b, op);
    linkPromises(b, op);
  }
  fieldPromises(b);
  headerPromises(b);
  routingPromises(b);
  limitPromises(b);
  corsPromises(b);
  extensionPromises(b);
  return b.out;
}

/** The map's counts, for people: promises, covered and not, per area. */
export function promiseCounts(map: readonly SpecPromise[]): {
  total: number;
  covered: number;
  uncovered: number;
  byArea: Record<string, { total: number; covered: number }>;
} {
  const byArea: Record<string, { total: number; covered: number }> = {};
  for (const p of map) {
    const a = (byArea[p.subject.area] ??= { total: 0, covered: 0 });
    a.total++;
    if (!p.uncovered) a.covered++;
  }
  const covered = map.filter((p) => !p.uncovered).length;
  return { total: map.length, covered, uncovered: map.length - covered, byArea };
}
