// What a generic tool (Schemathesis: its examples phase, then its stateful phase) does
// with the spec against the mock as `npm run mock` starts it (seed 1337, 1000 servers):
// each operation called with the spec's own examples answers its success status, not a
// 404 for a server or key that exists nowhere; and each `link` of a success answer,
// followed as the spec writes it, reaches its target's success status.
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../spec/model.ts';
import { authHeaders, credential, json, model, useApp } from '../testing/test-app.ts';
import { DEFAULT_OPTIONS } from '../node/options.ts';

const m = useApp({ servers: DEFAULT_OPTIONS.servers, seed: DEFAULT_OPTIONS.seed });
// A logged-in session may call every operation (createApiKey takes only a session).
const session = authHeaders(credential('valid-session'));

/** The operation's path with each path parameter's example. */
function examplePath(op: Operation, values: Record<string, unknown> = {}): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(values[name] ?? op.parameters.find((p) => p.name === name)?.example)),
  );
}

const byId = (id: string) => model.operations.find((o) => o.operationId === id)!;

describe("the spec's examples on the mock's default data", () => {
  it.each(
    model.operations
      .filter((op) => op.parameters.some((p) => p.in === 'path'))
      .map((op) => [op.operationId, op] as const),
  )('%s with its path examples answers its success status', async (_id, op) => {
    await m.fetch(`${m.origin()}/__mock/reset`, { method: 'POST' });
    const res = await m.fetch(m.url(examplePath(op)), { method: op.method, headers: session });
    expect(res.status, JSON.stringify(await json(res))).toBe(op.successStatus);
  });

  it.each(
    model.operations.flatMap((op) =>
      [...op.responses.values()].flatMap((r) =>
        r.links.map((link) => [`${op.operationId} -> ${link.name}`, op, link] as const),
      ),
    ),
  )('the link %s, followed, reaches its target', async (_name, op, link) => {
    await m.fetch(`${m.origin()}/__mock/reset`, { method: 'POST' });
    const first = await m.fetch(m.url(examplePath(op)), { method: op.method, headers: session });
    expect(first.status).toBe(op.successStatus);
    const body = await json(first);
    // `$response.body#/key/id`: a JSON pointer into the answer.
    const values = Object.fromEntries(
      Object.entries(link.parameters).map(([name, expr]) => {
        const pointer = /^\$response\.body#(\/.*)$/.exec(String(expr))?.[1];
        expect(pointer, `${name}: ${String(expr)}`).toBeDefined();
        return [
          name,
          pointer!
            .split('/')
            .slice(1)
            .reduce<any>((v, key) => v?.[key], body),
        ];
      }),
    );
    for (const [name, value] of Object.entries(values)) expect(value, name).toBeDefined();
    const target = byId(link.operationId!);
    const res = await m.fetch(m.url(examplePath(target, values)), { method: target.method, headers: session });
    expect(res.status).toBe(target.successStatus);
  });
});
