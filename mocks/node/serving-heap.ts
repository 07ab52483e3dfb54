// How V8 runs the mock's own process while it serves (the CLI only: a mock made in a
// test's process, createMock(), leaves that process as it is). Decision 0049.
//
// V8 moves an allocation site's objects straight to the old generation when, at one
// young collection, most of them are still alive ("pretenuring"). A server's
// per-request objects die within the request, but a collection that lands while a
// batch of requests is in flight finds them alive: in about 6 runs of 10 under load,
// V8 pretenured a site on the request path and every answer then left 3.4 KB in the
// old generation, a full collection every 2,500 answers (12 per 30,000 against none),
// and the plain query 0.91 of its throughput in the other runs (--trace-gc-nvp,
// `node scripts/bench-ab.mjs`). Set once the inputs are loaded: generating or reading
// a large dataset keeps what it makes, and is where pretenuring pays.
import { setFlagsFromString } from 'node:v8';

/** The V8 flags the mock serves under. */
export const SERVING_V8_FLAGS: readonly string[] = ['--no-allocation-site-pretenuring'];

let applied: readonly string[] = [];

/** Sets them, for the rest of this process. */
export function tuneForServing(): void {
  for (const flag of SERVING_V8_FLAGS) setFlagsFromString(flag);
  applied = SERVING_V8_FLAGS;
}

/** The flags this process has set (GET /__mock/info says them): none in a process that only makes mocks. */
export const servingFlags = (): readonly string[] => applied;
