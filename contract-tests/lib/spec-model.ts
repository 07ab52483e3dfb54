// What the contract suite needs to know about each operation, read from the spec and
// nowhere else: whether it is protected, by which schemes, which credentials may use it,
// its success status, schemas and provenance.
import { deref, loadSpec, operations, type OpenApiDoc } from '../../spec/load.ts';
import { provenanceOf, weakest, type Provenance } from './provenance.ts';

export interface ContractOperation {
  operationId: string;
  method: string; // upper case
  path: string; // template, e.g. /user/apikeys/{id}
  provenance: Provenance;
  /** Security scheme names that may authenticate it; empty for a public operation. */
  schemes: string[];
  /** Schemes whose valid credentials are allowed to perform it (`x-credentials`); others get 403. */
  allowedSchemes: string[];
  permission?: string;
  successStatus: number;
  /** Creates, changes or deletes data on the target. */
  isWrite: boolean;
  parameters: Record<string, any>[];
  op: Record<string, any>;
  pathPattern: RegExp;
}

export interface ContractModel {
  doc: OpenApiDoc;
  operations: ContractOperation[];
  byId: Map<string, ContractOperation>;
  /** `x-provenance` of the document itself: what "requests and responses are JSON" rests on. */
  documentProvenance: Provenance;
}

export function buildModel(doc: OpenApiDoc = loadSpec()): ContractModel {
  const ops = operations(doc).map(({ method, path, operationId, op, parameters, security, isPublic }): ContractOperation => {
    const schemes = isPublic ? [] : [...new Set(security.flatMap((req) => Object.keys(req)))];
    const success = Object.keys(op.responses ?? {}).find((s) => /^2\d\d$/.test(s));
    if (!success) throw new Error(`${operationId} declares no 2xx response`);
    return {
      operationId,
      method: method.toUpperCase(),
      path,
      provenance: provenanceOf(op) ?? 'assumed',
      schemes,
      allowedSchemes: Array.isArray(op['x-credentials']) ? op['x-credentials'] : schemes,
      permission: typeof op['x-permission'] === 'string' ? op['x-permission'] : undefined,
      successStatus: Number(success),
      isWrite: !['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase()),
      parameters,
      op,
      pathPattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    };
  });
  return {
    doc,
    operations: ops,
    byId: new Map(ops.map((o) => [o.operationId, o])),
    documentProvenance: provenanceOf(doc.info) ?? provenanceOf(doc) ?? 'interface',
  };
}

/** The operation a request path (relative to the base URL, query allowed) belongs to. */
export function findOperation(model: ContractModel, method: string, relativePath: string): ContractOperation | undefined {
  const pathname = relativePath.split('?')[0] ?? '';
  return model.operations.find((o) => o.method === method.toUpperCase() && o.pathPattern.test(pathname));
}

export function responseOf(model: ContractModel, op: ContractOperation, status: number | string): Record<string, any> | undefined {
  const ref = op.op.responses?.[String(status)];
  return ref ? deref<Record<string, any>>(model.doc, ref) : undefined;
}

/** The OpenAPI schema of a JSON response, undefined when the response has no JSON body. */
export function responseSchema(model: ContractModel, op: ContractOperation, status: number | string): unknown {
  return responseOf(model, op, status)?.content?.['application/json']?.schema;
}

/** The spec's example body for a response, shown to people as "what was expected". */
export function responseExample(model: ContractModel, op: ContractOperation, status: number | string): unknown {
  const media = responseOf(model, op, status)?.content?.['application/json'];
  if (!media) return undefined;
  if ('example' in media) return media.example;
  const first = Object.values<any>(media.examples ?? {})[0];
  return first ? deref<any>(model.doc, first).value : undefined;
}

export function parameter(op: ContractOperation, name: string, where = 'query'): Record<string, any> | undefined {
  return op.parameters.find((p) => p.name === name && p.in === where);
}

/** Provenance of a named property of a components schema (e.g. FindResponse.displayed). */
export function propertyProvenance(model: ContractModel, schema: string, property: string): Provenance {
  const s = model.doc.components.schemas[schema];
  return weakest(provenanceOf(s), provenanceOf(s?.properties?.[property]));
}

/** Provenance of the security schemes an operation relies on. */
export function schemesProvenance(model: ContractModel, op: ContractOperation): Provenance {
  return weakest(...op.schemes.map((name) => provenanceOf(model.doc.components.securitySchemes?.[name])));
}

export function securityScheme(model: ContractModel, name: string): Record<string, any> | undefined {
  return model.doc.components.securitySchemes?.[name];
}
