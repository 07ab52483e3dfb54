// The suite against the reference server in this process: its Hono app's `fetch` stands
// in for the network, so a whole run needs no socket and no child process. The
// reference server is not the mock: a run passes it the fixture credentials as a QA
// engineer passes a deployment's own.
import { loadFixtures } from '../../fixtures/load.ts';
import { loadModel } from '../../spec/model.ts';
import { resolveCredentials } from '../shared/credentials.ts';
import { assembleRun, type AssembledRun } from '../run/assemble.ts';
import { Scope } from '../shared/scope.ts';
import { runSuite, type SuiteOptions, type SuiteRun } from '../run/suite.ts';
import { createReferenceApp, type ReferenceOptions } from './app.ts';
import type { Defect } from './defects.ts';

/** The base URL an in-process reference server answers at (any host would do: no request leaves the process). */
export const REFERENCE_BASE = 'http://reference.test/api/v0.1';

/** The fixture credentials, as CONTRACT_* variables. */
export function fixtureEnv(): Record<string, string> {
  const value = (name: string) => loadFixtures().credentials.find((c) => c.name === name)!.value;
  return {
    CONTRACT_API_KEY: value('valid-key'),
    CONTRACT_SESSION_COOKIE: value('valid-session'),
    CONTRACT_FORBIDDEN_API_KEY: value('forbidden-key'),
    CONTRACT_EXPIRED_API_KEY: value('expired-key'),
    CONTRACT_EXPIRED_SESSION_COOKIE: value('expired-session'),
  };
}

/** The reference server's app, and a fetch into it. */
export function referenceFetch(
  defects: Defect | Defect[] = 'none',
  options: ReferenceOptions = {},
): (request: Request) => Promise<Response> {
  const app = createReferenceApp(defects, options);
  return async (request) => app.fetch(request);
}

/**
 * A whole run against a reference server with these defects: writes allowed, the fixture credentials, no replay (Dredd
 * needs a socket).
 */
export function runAgainstReference(
  defects: Defect | Defect[],
  options: Partial<SuiteOptions> & { reference?: ReferenceOptions } = {},
): Promise<SuiteRun> {
  const { reference, ...suite } = options;
  return runSuite({
    baseUrl: REFERENCE_BASE,
    fetch: referenceFetch(defects, reference),
    allowWrites: true,
    dredd: false,
    env: fixtureEnv(),
    ...suite,
  });
}

/**
 * What a run provides to its families, against a reference server, for a test of one family: `fetch` defaults to one
 * into a correct reference server.
 */
export function referenceRun(
  options: { fetch?: (request: Request) => Promise<Response>; allowWrites?: boolean } = {},
): AssembledRun {
  const model = loadModel();
  const writes =
    options.allowWrites === false
      ? { allowed: false, reason: 'the target is not the mock' }
      : { allowed: true, reason: '--allow-writes' };
  return assembleRun({
    model,
    baseUrl: REFERENCE_BASE,
    fetch: options.fetch ?? referenceFetch(),
    scope: new Scope('assumed', [], writes),
    credentials: resolveCredentials(fixtureEnv(), false, model),
    budget: 400,
    pace: false,
    clock: { now: Date.now, sleep: async () => undefined },
    runId: 'unit',
    seed: 1,
  });
}
