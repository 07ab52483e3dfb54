// Proof that the suite can fail: one reference server, one defect at a time. The suite
// must pass the correct one and fail each broken one with a message naming the defect.
import { afterAll, describe, expect, test } from 'vitest';
import { DEFECTS, startReferenceServer, type Defect, type RunningServer } from '../broken/reference-server.ts';
import { runContract, type CliRun } from './helpers.ts';

/** What the summary must say for each defect: the failing check and the words that name it. */
const NAMED: Record<Exclude<Defect, 'none'>, { operation: string; check: RegExp; why: RegExp }> = {
  'auth-not-enforced': { operation: 'listApiKeys', check: /x auth: no credentials -> 401/, why: /why:\s+status 200, expected 401/ },
  'wrong-401-message': { operation: 'listApiKeys', check: /x auth: an unknown API key -> 401/, why: /body\.message is "Unauthorised", expected it to start with 'Unauthorized'/ },
  'missing-field': { operation: 'findServers', check: /x Dredd: GET \/servers\/find -> 200/, why: /Missing required property: port/ },
  'wrong-type': { operation: 'findServers', check: /x Dredd: GET \/servers\/find -> 200/, why: /At '\/results\/0\/port' Invalid type: string \(expected integer\)/ },
  'limit-ignored': { operation: 'findServers', check: /x paging: results\.length is at most limit/, why: /results\.length is \d+, more than limit=3: limit is ignored/ },
  'secret-in-list': { operation: 'createApiKey', check: /x keys: a created key's secret never appears in the list/, why: /listed key\(s\) carry a 'secret' field/ },
  'wrong-status': { operation: 'createApiKey', check: /x Dredd: POST \/user\/apikeys -> 201/, why: /Expected status code '201', but got '200'/ },
};

const servers: RunningServer[] = [];
const runs = new Map<Defect, Promise<CliRun>>();

/**
 * Each case is a Dredd run of a few seconds of CPU. They start when the file starts, two at
 * a time (the machine has two cores), and each test awaits its own; so the file takes
 * about half the sum instead of piling eight Dredd processes onto two cores.
 */
function schedule(defects: Defect[], parallel = 2): void {
  const queue = [...defects];
  // Reserve every entry up front so a test never finds its run missing.
  const settle = new Map<Defect, (run: Promise<CliRun>) => void>();
  for (const d of defects) runs.set(d, new Promise<CliRun>((resolve) => settle.set(d, (run) => resolve(run))));
  const worker = async (): Promise<void> => {
    for (let defect = queue.shift(); defect; defect = queue.shift()) {
      const run = (async () => {
        const server = await startReferenceServer(defect);
        servers.push(server);
        return runContract(['--base-url', server.baseUrl]);
      })();
      settle.get(defect)!(run);
      await run.catch(() => undefined);
    }
  };
  for (let i = 0; i < parallel; i++) void worker();
}

schedule(['none', ...(Object.keys(NAMED) as Defect[])]);

afterAll(async () => {
  await Promise.allSettled([...runs.values()]);
  await Promise.all(servers.map((s) => s.close()));
});

describe('the suite against deliberately broken servers', () => {
  test('the reference server without a defect passes every check', async () => {
    const result = await runs.get('none')!;
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });

  for (const [defect, named] of Object.entries(NAMED)) {
    test(`${defect}: ${DEFECTS[defect as Defect]}`, async () => {
      const result = await runs.get(defect as Defect)!;
      expect(result.code, result.stdout + result.stderr).toBe(1);
      expect(result.stdout).toMatch(new RegExp(`^FAIL\\s+${named.operation}\\s`, 'm'));
      expect(result.stdout).toMatch(named.check);
      expect(result.stdout).toMatch(named.why);
      // Each failure shows the request, what was expected and what came back.
      expect(result.stdout).toMatch(/request: .*\n\s+expected: .*\n\s+got: /);
    });
  }
}, 180_000);
