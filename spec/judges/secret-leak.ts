// What a leaked secret is, in words that say what leaked and where: the spec marks a
// secret `format: password` (the new key's `secret`, shown once), and says where it must
// never be (`not: {required: [secret]}` on the listed keys). A key listing that carries
// each key's secret is one defect, whether the schema or the suite's own secrets met it.
import type { Operation, SpecModel } from '../model.ts';

const byModel = new WeakMap<SpecModel, ReadonlySet<string>>();

/** The names of the properties the spec marks as secrets (`format: password`), anywhere in its schemas. */
export function secretNames(model: SpecModel): ReadonlySet<string> {
  let names = byModel.get(model);
  if (!names) {
    const found = new Set<string>();
    const walk = (node: unknown): void => {
      if (!node || typeof node !== 'object') return;
      for (const [name, prop] of Object.entries((node as Record<string, any>).properties ?? {}))
        if ((prop as Record<string, unknown>)?.format === 'password') found.add(name);
      for (const value of Object.values(node)) walk(value);
    };
    walk(model.doc.components);
    byModel.set(model, (names = found));
  }
  return names;
}

/** `keys.*.secret` -> each key's secret (keys.*.secret); `key.secret` -> its secret (key.secret). */
function whose(path: string): string {
  const parts = path.split('.');
  const name = parts.at(-1)!;
  const star = parts.lastIndexOf('*');
  const owner = star > 0 ? parts[star - 1]!.replace(/s$/, '') : undefined;
  return `${owner ? `each ${owner}'s` : 'its'} ${name} (${path})`;
}

/** The words of a leak: what leaked, where. */
export function leakOf(op: Operation, path: string): string {
  return (
    `a secret leaks: ${op.operationId} answers carry ${whose(path)}, which no answer but the one that creates ` +
    `it may hold`
  );
}

/** Where in a body a string equal to `secret` sits, row indexes as `*` (`keys.*.secret`); undefined when nowhere. */
export function pathOf(body: unknown, secret: string, at = ''): string | undefined {
  if (typeof body === 'string') return body === secret ? at : undefined;
  if (!body || typeof body !== 'object') return undefined;
  for (const [k, v] of Object.entries(body)) {
    const key = Array.isArray(body) ? '*' : k;
    const found = pathOf(v, secret, at ? `${at}.${key}` : key);
    if (found !== undefined) return found;
  }
  return undefined;
}
