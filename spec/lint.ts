// The spec's linter: rules on the document itself that a schema validator cannot hold it
// to: every example is valid, every part says where it comes from, every parameter has an
// example, the 401/403 bodies are exactly the promised ones, the limits the prose states
// agree with their `x-` values, every filter has a meaning and every link a target, and the
// CORS contract lets a browser app send what the spec asks and read what it declares. Each
// rule returns a list of problems (empty when all is well) so `npm run spec:check` can
// print them and the tests can assert them. (A check, in this repository, is the contract
// suite's judgement of a server; this judges the document.)
import { deref, type OpenApiDoc } from './load.ts';
import { FORBIDDEN_MESSAGE, UNAUTHORIZED_MESSAGE } from './messages.ts';
import { buildModel, examplesOf as namedExamples, objectProperties, SpecError, type SpecModel } from './model.ts';
import { LEVELS } from './provenance.ts';
import { SchemaValidator, describeErrors } from './validator.ts';

interface Example {
  where: string;
  value: unknown;
}

/** Every example of a node, each named where it stands (`... example`, `... examples.page`). */
function examplesOf(where: string, node: Record<string, any>, doc: OpenApiDoc): Example[] {
  const named = namedExamples(doc, node);
  const out: Example[] = [];
  if ('example' in node) out.push({ where: `${where} example`, value: node.example });
  for (const name of Object.keys(node.examples ?? {}))
    out.push({ where: `${where} examples.${name}`, value: named.get(name) });
  return out;
}

/** The model, or the reason the document cannot be read as one. */
function modelOf(doc: OpenApiDoc): SpecModel | string {
  try {
    return buildModel(doc);
  } catch (err) {
    if (err instanceof SpecError) return err.message;
    throw err;
  }
}

/** Every response, request body, parameter and header example validates against its schema. */
export function lintExamples(doc: OpenApiDoc): string[] {
  const model = modelOf(doc);
  if (typeof model === 'string') return [model];
  const validator = new SchemaValidator(doc);
  const problems: string[] = [];
  const check = (_where: string, schema: unknown, examples: Example[]) => {
    if (!schema) return;
    const validate = validator.compile(schema);
    for (const ex of examples) {
      if (!validate(ex.value)) problems.push(`${ex.where} is invalid: ${describeErrors(validate.errors)}`);
    }
  };
  for (const { method, path, raw: op, parameters } of model.operations) {
    const at = `${method} ${path}`;
    for (const p of parameters)
      check(`${at} parameter '${p.name}'`, p.schema, examplesOf(`${at} parameter '${p.name}'`, p.raw, doc));
    const body = op.requestBody && deref(doc, op.requestBody);
    for (const [type, media] of Object.entries<any>(body?.content ?? {})) {
      check(`${at} request body ${type}`, media.schema, examplesOf(`${at} request body ${type}`, media, doc));
    }
    for (const [status, ref] of Object.entries(op.responses ?? {})) {
      const response = deref<any>(doc, ref);
      const content = Object.entries<any>(response.content ?? {});
      if (content.length === 0) continue;
      for (const [type, media] of content) {
        const where = `${at} response ${status} ${type}`;
        const examples = examplesOf(where, media, doc);
        if (examples.length === 0) problems.push(`${where} has no example`);
        check(where, media.schema, examples);
      }
      for (const [name, header] of Object.entries<any>(response.headers ?? {})) {
        const h = deref<any>(doc, header);
        check(
          `${at} response ${status} header ${name}`,
          h.schema,
          examplesOf(`${at} response ${status} header ${name}`, h, doc),
        );
      }
    }
  }
  return problems;
}

/** Every parameter has an example (Dredd refuses one without). */
export function lintParameterExamples(doc: OpenApiDoc): string[] {
  const model = modelOf(doc);
  if (typeof model === 'string') return [model];
  const problems: string[] = [];
  for (const { method, path, parameters } of model.operations) {
    for (const p of parameters) {
      if (!('example' in p.raw) && !p.raw.examples)
        problems.push(`${method} ${path} parameter '${p.name}' has no example`);
    }
  }
  return problems;
}

function provenanceProblem(where: string, node: Record<string, any>): string | undefined {
  const value = node['x-provenance'];
  if (value === undefined) return `${where} has no x-provenance`;
  if (!LEVELS.includes(value)) return `${where} has x-provenance '${value}', not one of ${LEVELS.join(', ')}`;
  return undefined;
}

/** Walks a schema and reports every property that does not say where it comes from. */
function schemaProvenance(doc: OpenApiDoc, where: string, schema: any, problems: string[], seen: Set<unknown>): void {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
  seen.add(schema);
  if (schema.$ref) return; // the referenced schema is checked where it is defined
  for (const [name, prop] of Object.entries<any>(schema.properties ?? {})) {
    // A bare $ref cannot carry siblings in OpenAPI 3.0: the target must say it instead.
    const target = prop.$ref ? deref<any>(doc, prop) : prop;
    const problem = provenanceProblem(`${where}.${name}`, target);
    if (problem) problems.push(problem);
    schemaProvenance(doc, `${where}.${name}`, prop, problems, seen);
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    (schema[key] ?? []).forEach((s: unknown, i: number) => {
      schemaProvenance(doc, `${where}.${key}[${i}]`, s, problems, seen);
    });
  }
  if (schema.items) schemaProvenance(doc, `${where}[]`, schema.items, problems, seen);
  if (schema.not) schemaProvenance(doc, `${where}.not`, schema.not, problems, seen);
}

/** Every operation, parameter, schema property and response header carries a valid x-provenance. */
export function lintProvenance(doc: OpenApiDoc): string[] {
  const model = modelOf(doc);
  if (typeof model === 'string') return [model];
  const problems: string[] = [];
  const seen = new Set<unknown>();
  for (const { method, path, raw: op, parameters } of model.operations) {
    const at = `${method} ${path}`;
    const opProblem = provenanceProblem(at, op);
    if (opProblem) problems.push(opProblem);
    for (const p of parameters) {
      const problem = provenanceProblem(`${at} parameter '${p.name}'`, p.raw);
      if (problem) problems.push(problem);
    }
  }
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    const problem = provenanceProblem(`schema ${name}`, schema);
    if (problem) problems.push(problem);
    schemaProvenance(doc, `schema ${name}`, schema, problems, seen);
  }
  for (const [name, response] of Object.entries<any>(doc.components.responses ?? {})) {
    for (const [type, media] of Object.entries<any>(response.content ?? {})) {
      schemaProvenance(doc, `response ${name} ${type}`, media.schema, problems, seen);
    }
  }
  // A response header is a promise of its own: a check that it is sent is only as firm as it.
  for (const [name, header] of Object.entries<any>(doc.components.headers ?? {})) {
    const problem = provenanceProblem(`header ${name}`, header);
    if (problem) problems.push(problem);
  }
  for (const { method, path, raw: op } of model.operations) {
    for (const [status, ref] of Object.entries<any>(op.responses ?? {})) {
      for (const [name, header] of Object.entries<any>(deref<any>(doc, ref)?.headers ?? {})) {
        if (header.$ref) continue; // checked where it is defined
        const problem = provenanceProblem(`${method} ${path} response ${status} header ${name}`, header);
        if (problem) problems.push(problem);
      }
    }
  }
  return problems;
}

function messagesOf(doc: OpenApiDoc, response: unknown): unknown[] {
  const r = deref<any>(doc, response);
  return Object.values<any>(r?.content ?? {}).flatMap((media) =>
    examplesOf('', media, doc).map((ex) => (ex.value as { message?: unknown } | undefined)?.message),
  );
}

/** Protected operations declare 401 and 403 whose examples are exactly the promised bodies. */
export function lintAuthResponses(doc: OpenApiDoc): string[] {
  const model = modelOf(doc);
  if (typeof model === 'string') return [model];
  const problems: string[] = [];
  for (const { method, path, raw: op, isPublic } of model.operations) {
    const at = `${method} ${path}`;
    if (isPublic) continue;
    for (const [status, expected] of [
      ['401', UNAUTHORIZED_MESSAGE],
      ['403', FORBIDDEN_MESSAGE],
    ] as const) {
      const response = op.responses?.[status];
      if (!response) {
        problems.push(`${at} is protected but declares no ${status}`);
        continue;
      }
      const messages = messagesOf(doc, response);
      if (messages.length === 0) problems.push(`${at} ${status} has no example message`);
      for (const m of messages) {
        if (m !== expected)
          problems.push(
            `${at} ${status} example message is ${JSON.stringify(m)}, expected ${JSON.stringify(expected)}`,
          );
      }
    }
  }
  return problems;
}

/**
 * Limits live in `x-` extensions, which the code reads; the prose and the examples that
 * repeat a limit for people must say the same number, so neither can drift alone.
 */
export function lintLimits(doc: OpenApiDoc): string[] {
  const model = modelOf(doc);
  if (typeof model === 'string') return [model];
  const { limits } = model;
  const problems: string[] = [];
  const says = (where: string, text: unknown, value: number | string) => {
    if (typeof text !== 'string' || !text.includes(String(value)))
      problems.push(`${where} does not mention the limit ${value}: ${JSON.stringify(text)}`);
  };
  const tooLarge = deref<any>(doc, doc.components.responses?.PayloadTooLarge);
  says(
    'response PayloadTooLarge example message',
    tooLarge?.content?.['application/json']?.example?.message,
    limits.maxBodyBytes,
  );
  says('response PayloadTooLarge description', tooLarge?.description, `${limits.maxBodyBytes / 1024} KiB`);
  for (const op of model.operations.filter((o) => o.raw['x-max-keys-per-user'] !== undefined)) {
    const conflict = op.responses.get(409);
    says(`${op.operationId} 409 description`, conflict?.description, limits.maxKeysPerUser);
    says(
      `${op.operationId} 409 example message`,
      (conflict?.examples.get('default') as { message?: unknown } | undefined)?.message,
      limits.maxKeysPerUser,
    );
  }
  for (const op of model.operations) {
    for (const p of op.parameters.filter((x) => x.raw['x-max-by-plan'])) {
      for (const n of new Set(Object.values(limits.pageSizeByPlan)))
        says(`${op.operationId} parameter '${p.name}' description`, p.description, n);
      const max = p.schema.maximum;
      if (typeof max === 'number' && Math.max(...Object.values(limits.pageSizeByPlan)) > max) {
        problems.push(
          `${op.operationId} parameter '${p.name}': x-max-by-plan allows more than the schema's maximum ${max}`,
        );
      }
    }
  }
  const tiers = Object.entries(limits.rateLimits.tiers).map(
    ([tier, l]) => `${tier === 'apiKey' ? 'API key' : tier === 'session' ? 'signed-in user' : tier} ${l.join('/')}`,
  );
  for (const t of tiers) says('info.description (Rate limits)', doc.info.description, t);
  return problems;
}

/**
 * Every query parameter of an operation that answers rows says what it does to them
 * (`x-meaning`), so the contract suite can check it; a filter without one would go
 * unchecked. (A malformed meaning already fails reading the model.)
 */
export function lintMeanings(doc: OpenApiDoc): string[] {
  const model = modelOf(doc);
  if (typeof model === 'string') return [model];
  const problems: string[] = [];
  for (const op of model.operations.filter((o) => o.rows)) {
    for (const p of op.parameters.filter((x) => x.in === 'query' && !x.meaning)) {
      problems.push(
        `${op.method} ${op.path} parameter '${p.name}' has no x-meaning: say what it does to the '` +
          `${op.rows!.property}' rows`,
      );
    }
  }
  return problems;
}

/**
 * The schema a JSON pointer (`/key/id`) reaches inside a body schema, following
 * `$ref`s and `allOf`; undefined when it reaches nothing.
 */
function schemaAt(doc: OpenApiDoc, schema: unknown, pointer: string): unknown {
  let node = schema;
  for (const raw of pointer.split('/').slice(1)) {
    const name = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = objectProperties(doc, node).get(name);
    if (node === undefined) return undefined;
  }
  return node;
}

/** A runtime expression of a link (OpenAPI 3.0, "Runtime Expressions"). */
const EXPRESSION = new RegExp(
  String.raw`^\$(url|method|statusCode|request\.(path|query|header)\.[\w-]+|request\.body(#.*)?` +
    String.raw`|response\.header\.[\w-]+|response\.body(#.*)?)$`,
);

/**
 * Every response link (what a client does next, read by the contract suite and by
 * generic tools for a stateful run) names an operation of the spec by its operationId,
 * gives only parameters that operation has and every path parameter it needs, takes
 * body values from places the response's schema has, and says where it comes from.
 */
export function lintLinks(doc: OpenApiDoc): string[] {
  const model = modelOf(doc);
  if (typeof model === 'string') return [model];
  const problems: string[] = [];
  for (const op of model.operations) {
    for (const response of op.responses.values()) {
      for (const link of response.links) {
        const at = `${op.method} ${op.path} response ${response.status} link '${link.name}'`;
        const raw = deref<any>(doc, deref<any>(doc, op.raw.responses[String(response.status)]).links[link.name]);
        const problem = provenanceProblem(at, raw);
        if (problem) problems.push(problem);
        const target = link.operationId === undefined ? undefined : model.byId.get(link.operationId);
        if (!target) {
          problems.push(
            link.operationId === undefined
              ? `${at} names no operationId (operationRef is not supported)`
              : `${at} names operationId '${link.operationId}', which no operation has`,
          );
          continue;
        }
        for (const [name, expression] of Object.entries(link.parameters)) {
          if (!target.parameters.some((p) => p.name === name))
            problems.push(`${at} sets parameter '${name}', which ${target.operationId} does not have`);
          if (typeof expression !== 'string' || !expression.startsWith('$')) continue;
          if (!EXPRESSION.test(expression))
            problems.push(`${at} parameter '${name}': '${expression}' is not a runtime expression`);
          const pointer = /^\$response\.body#(\/.*)$/.exec(expression)?.[1];
          if (pointer !== undefined && schemaAt(doc, response.schema, pointer) === undefined)
            problems.push(`${at} parameter '${name}': the ${response.status} body has nothing at ${pointer}`);
        }
        for (const p of target.parameters.filter((x) => x.in === 'path' && !(x.name in link.parameters)))
          problems.push(`${at} does not give ${target.operationId}'s path parameter '${p.name}'`);
      }
    }
  }
  return problems;
}

/** Response headers a page reads unexposed: the Fetch standard's CORS-safelisted response-header names. */
const SAFELISTED_RESPONSE_HEADERS = [
  'cache-control',
  'content-language',
  'content-length',
  'content-type',
  'expires',
  'last-modified',
  'pragma',
];

/**
 * The CORS contract (`x-cors`) lets a browser app do what the rest of the spec asks of it:
 * each part says where it comes from; credentials are never granted to every origin (any
 * page could then act with a user's session); every response header an operation declares
 * is exposed (a page cannot read it otherwise); a preflight allows the headers the
 * security schemes and the request bodies need; and the prose says what the data says.
 */
export function lintCors(doc: OpenApiDoc): string[] {
  const model = modelOf(doc);
  if (typeof model === 'string') return [model];
  const { cors } = model;
  const raw = doc['x-cors'] as Record<string, any>;
  const problems: string[] = [];
  for (const [where, node] of [
    ['x-cors', raw],
    ['x-cors.origins', raw.origins],
    ['x-cors.preflight', raw.preflight],
    ['x-cors.exposeHeaders', raw.exposeHeaders],
  ] as const) {
    const problem = provenanceProblem(where, node ?? {});
    if (problem) problems.push(problem);
  }
  if (cors.credentials && cors.origins.allowed.includes('*'))
    problems.push("x-cors allows credentials to every origin ('*'): any page could act with a user's session");
  const has = (list: string[], name: string) => list.some((n) => n.toLowerCase() === name.toLowerCase());
  const declared = new Set<string>();
  for (const op of model.operations)
    for (const response of op.responses.values()) for (const name of response.headers.keys()) declared.add(name);
  for (const name of declared) {
    if (!SAFELISTED_RESPONSE_HEADERS.includes(name.toLowerCase()) && !has(cors.exposeHeaders.names, name))
      problems.push(
        `response header ${name} is declared but not in x-cors.exposeHeaders: a browser app cannot read it`,
      );
  }
  const needs: [string, string][] = [];
  if ([...model.schemes.values()].some((s) => s.kind === 'bearer'))
    needs.push(['Authorization', 'a bearer security scheme sends it']);
  if (model.operations.some((o) => o.requestBody?.mediaTypes.includes('application/json')))
    needs.push(['Content-Type', 'a JSON request body needs it']);
  for (const [name, why] of needs) {
    if (!has(cors.preflight.allowHeaders, name))
      problems.push(`x-cors.preflight.allowHeaders leaves out ${name}: ${why}, so a browser's preflight fails`);
  }
  const prose = String(doc.info.description ?? '');
  const said = [
    ...cors.origins.allowed,
    `\`${cors.preflight.status}\``,
    ...cors.preflight.allowHeaders,
    ...cors.exposeHeaders.names,
    ...(cors.preflight.maxAgeSeconds === undefined ? [] : [`Access-Control-Max-Age: ${cors.preflight.maxAgeSeconds}`]),
  ];
  for (const words of said) {
    const quoted = words.startsWith('`') ? words : `\`${words}\``;
    if (!prose.includes(quoted)) problems.push(`info.description (x-cors) does not mention ${quoted}`);
  }
  return problems;
}

/** Every rule's problems with the document, in the rules' order. */
export function lintSpec(doc: OpenApiDoc): string[] {
  return [
    ...lintExamples(doc),
    ...lintParameterExamples(doc),
    ...lintProvenance(doc),
    ...lintAuthResponses(doc),
    ...lintLimits(doc),
    ...lintMeanings(doc),
    ...lintLinks(doc),
    ...lintCors(doc),
  ];
}
