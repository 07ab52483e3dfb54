// What the mock chooses for a request rather than the request earning it, for a judge that
// holds the mock's answers to the spec (the fuzzer, the generated-requests test): a
// `Prefer` it honours (the status asked for, or a 400 for one it cannot), a Host header of
// a site it does not answer (the host check's 403, before any rule of the API). Such an
// answer owes nothing to what the request is; its shape is still the spec's.
import type { Known } from '../../spec/judges/exchange.ts';
import { parsePrefer } from './prefer/prefer.ts';

/** `headers` with lower-cased names; `host`: the Host the request named, when it named one of its own. */
export function steeredBy(headers: Record<string, string>, host?: string): Known | undefined {
  if (headers.prefer === undefined && host === undefined) return undefined;
  const asked = parsePrefer(headers.prefer)?.code;
  return { steered: true, ...(asked !== undefined ? { askedStatus: asked } : {}) };
}
