// Checks a schema validator cannot make on the document itself: that every example
// is valid, every part says where it comes from, every parameter has an example and
// the 401/403 bodies are exactly the promised ones. Each returns a list of problems
// (empty when all is well) so the CLI can print them and the tests can assert them.
import { deref, operations, type OpenApiDoc } from './load.ts';
import { SchemaValidator, describeErrors } from './validator.ts';

export const UNAUTHORIZED_MESSAGE = 'Unauthorized: Invalid API key or session';
export const FORBIDDEN_MESSAGE = "Forbidden: You don't have permission to access this resource";
export const PROVENANCE = ['interface', 'observed', 'assumed'] as const;

interface Example {
  where: string;
  value: unknown;
}

function examplesOf(where: string, node: Record<string, any>, doc: OpenApiDoc): Example[] {
  const out: Example[] = [];
  if ('example' in node) out.push({ where: `${where} example`, value: node.example });
  for (const [name, ex] of Object.entries(node.examples ?? {})) {
    out.push({ where: `${where} examples.${name}`, value: deref<any>(doc, ex).value });
  }
  return out;
}

/** Every response, request body, parameter and header example validates against its schema. */
export function checkExamples(doc: OpenApiDoc): string[] {
  const validator = new SchemaValidator(doc);
  const problems: string[] = [];
  const check = (where: string, schema: unknown, examples: Example[]) => {
    if (!schema) return;
    const validate = validator.compile(schema);
    for (const ex of examples) {
      if (!validate(ex.value)) problems.push(`${ex.where} is invalid: ${describeErrors(validate.errors)}`);
    }
  };
  for (const { method, path, op, parameters } of operations(doc)) {
    const at = `${method.toUpperCase()} ${path}`;
    for (const p of parameters) check(`${at} parameter '${p.name}'`, p.schema, examplesOf(`${at} parameter '${p.name}'`, p, doc));
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
        check(`${at} response ${status} header ${name}`, h.schema, examplesOf(`${at} response ${status} header ${name}`, h, doc));
      }
    }
  }
  return problems;
}

/** Every parameter has an example (Dredd refuses one without). */
export function checkParameterExamples(doc: OpenApiDoc): string[] {
  const problems: string[] = [];
  for (const { method, path, parameters } of operations(doc)) {
    for (const p of parameters) {
      if (!('example' in p) && !p.examples) problems.push(`${method.toUpperCase()} ${path} parameter '${p.name}' has no example`);
    }
  }
  return problems;
}

function provenanceProblem(where: string, node: Record<string, any>): string | undefined {
  const value = node['x-provenance'];
  if (value === undefined) return `${where} has no x-provenance`;
  if (!PROVENANCE.includes(value)) return `${where} has x-provenance '${value}', not one of ${PROVENANCE.join(', ')}`;
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
    (schema[key] ?? []).forEach((s: unknown, i: number) => schemaProvenance(doc, `${where}.${key}[${i}]`, s, problems, seen));
  }
  if (schema.items) schemaProvenance(doc, `${where}[]`, schema.items, problems, seen);
  if (schema.not) schemaProvenance(doc, `${where}.not`, schema.not, problems, seen);
}

/** Every operation, parameter and schema property carries a valid x-provenance. */
export function checkProvenance(doc: OpenApiDoc): string[] {
  const problems: string[] = [];
  const seen = new Set<unknown>();
  for (const { method, path, op, parameters } of operations(doc)) {
    const at = `${method.toUpperCase()} ${path}`;
    const opProblem = provenanceProblem(at, op);
    if (opProblem) problems.push(opProblem);
    for (const p of parameters) {
      const problem = provenanceProblem(`${at} parameter '${p.name}'`, p);
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
  return problems;
}

function messagesOf(doc: OpenApiDoc, response: unknown): unknown[] {
  const r = deref<any>(doc, response);
  return Object.values<any>(r?.content ?? {}).flatMap((media) =>
    examplesOf('', media, doc).map((ex) => (ex.value as { message?: unknown } | undefined)?.message),
  );
}

/** Protected operations declare 401 and 403 whose examples are exactly the promised bodies. */
export function checkAuthResponses(doc: OpenApiDoc): string[] {
  const problems: string[] = [];
  for (const { method, path, op, isPublic } of operations(doc)) {
    const at = `${method.toUpperCase()} ${path}`;
    if (isPublic) continue;
    for (const [status, expected] of [['401', UNAUTHORIZED_MESSAGE], ['403', FORBIDDEN_MESSAGE]] as const) {
      const response = op.responses?.[status];
      if (!response) {
        problems.push(`${at} is protected but declares no ${status}`);
        continue;
      }
      const messages = messagesOf(doc, response);
      if (messages.length === 0) problems.push(`${at} ${status} has no example message`);
      for (const m of messages) {
        if (m !== expected) problems.push(`${at} ${status} example message is ${JSON.stringify(m)}, expected ${JSON.stringify(expected)}`);
      }
    }
  }
  return problems;
}

export function checkAll(doc: OpenApiDoc): string[] {
  return [...checkExamples(doc), ...checkParameterExamples(doc), ...checkProvenance(doc), ...checkAuthResponses(doc)];
}
