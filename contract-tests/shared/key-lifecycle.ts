// Which operations make up an API key's life, read from the spec, never from operation
// names: the operation that creates a key is the write whose answer links (OpenAPI
// `links`) to a DELETE taking the new key's id from that answer (the revocation), and
// to a GET with no parameter (the list). The secret is the create answer's string of
// `format: password`.
import { deref } from '../../spec/load.ts';
import { objectProperties, type Operation, type SpecModel } from '../../spec/model.ts';

export interface KeyLifecycle {
  create: Operation;
  /** Revokes one key: `param` takes the id from the create answer. */
  revoke?: { op: Operation; param: string };
  list?: Operation;
  /** Where the new key's id is in the create answer (a JSON pointer: `/key/id`). */
  idPointer: string;
  /** Where its secret is, if the answer's schema marks one. */
  secretPointer?: string;
}

/** The value at a JSON pointer (`/key/id`) of a parsed body. */
export function valueAt(json: unknown, pointer: string): unknown {
  let node = json;
  for (const raw of pointer.split('/').slice(1)) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

/** The pointer to the first string property of `format: password` in a body schema. */
function secretIn(model: SpecModel, schema: unknown, at = '', depth = 0): string | undefined {
  if (depth > 8) return undefined;
  for (const [name, prop] of objectProperties(model.doc, schema)) {
    const s = deref<Record<string, any>>(model.doc, prop);
    if (s?.type === 'string' && s.format === 'password') return `${at}/${name}`;
    const inner = secretIn(model, s, `${at}/${name}`, depth + 1);
    if (inner) return inner;
  }
  return undefined;
}

export function keyLifecycle(model: SpecModel): KeyLifecycle | undefined {
  for (const create of model.operations.filter((o) => o.isWrite)) {
    const success = create.responses.get(create.successStatus);
    const targets = (success?.links ?? []).flatMap((link) => {
      const op = link.operationId === undefined ? undefined : model.byId.get(link.operationId);
      return op ? [{ op, parameters: link.parameters }] : [];
    });
    const revoke = targets.flatMap(({ op, parameters }) => {
      if (op.method !== 'DELETE') return [];
      const [param, expression] = Object.entries(parameters).find(([, e]) => /^\$response\.body#\//.test(e)) ?? [];
      return param && expression ? [{ op, param, idPointer: expression.slice('$response.body#'.length) }] : [];
    })[0];
    if (!revoke) continue;
    const list = targets.find(({ op }) => op.method === 'GET' && !op.parameters.some((p) => p.in === 'path'))?.op;
    return {
      create,
      revoke: { op: revoke.op, param: revoke.param },
      ...(list ? { list } : {}),
      idPointer: revoke.idPointer,
      ...(success?.schema ? { secretPointer: secretIn(model, success.schema) } : {}),
    };
  }
  return undefined;
}
