// `npm test` runs the contract suite against a freshly started mock on a free port: every
// check must pass. Also the runner's own promises: --only, --provenance, exit 2.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort, runContract, startMockProcess, type MockProcess } from './helpers.ts';

let mock: MockProcess;

beforeAll(async () => {
  mock = await startMockProcess();
});
afterAll(async () => {
  await mock?.close();
});

describe.concurrent('the contract suite against the mock', () => {
  test('every check passes, JUnit has no failure', async () => {
    // The mock reports its rate limits without enforcing them (no --rate-limit): waiting on them would only slow the run.
    const run = await runContract(['--base-url', mock.baseUrl, '--pace', 'off']);
    expect(run.stdout).toContain('PASSED');
    expect(run.stdout).not.toMatch(/^FAIL/m);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    for (const op of ['findServers', 'listApiKeys', 'createApiKey', 'revokeApiKey']) expect(run.stdout).toMatch(new RegExp(`^PASS\\s+${op}`, 'm'));
    const xml = readFileSync(run.junit, 'utf8');
    expect(xml).toMatch(/<testsuites name="contract" tests="\d+" failures="0"/);
    expect(xml).toContain('auth: no credentials -&gt; 401');
    // Every family of the depth checks ran.
    for (const family of ['sample', 'sort', 'meaning', 'default', 'negative', 'errors', 'hygiene']) expect(xml, family).toContain(`name="${family}: `);
    // Every declared status was exercised but the two no request can provoke from a mock that does not enforce limits.
    const skipped = [...xml.matchAll(/name="([^"]+)"><skipped/g)].map((m) => m[1]);
    expect(skipped.filter((name) => !/^coverage: the declared (429|500) /.test(name!))).toEqual([]);
    expect(run.stdout).toMatch(/^Requests: \d+ sent by the suite \(budget 400\), \d+ to clean up and \d+ by Dredd$/m);
    expect(run.stdout).toMatch(/^Sample: \d+ rows in \d+ pages, 1000 distinct, 0 invalid \(0\.0%\); \d+ pings$/m);
    // Secrets are masked everywhere a person or CI can read them.
    expect(run.stdout + xml).not.toMatch(/sls_test_valid0{20}|sess_test_valid_alice_0{10}/);
  }, 120_000);

  test('--only and --provenance interface run only the hard promises of one operation', async () => {
    const run = await runContract(['--base-url', mock.baseUrl, '--only', 'listApiKeys', '--provenance', 'interface']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^PASS\s+listApiKeys/m);
    expect(run.stdout).not.toMatch(/findServers|createApiKey/);
    // listApiKeys itself is `assumed`: its 200 schema is out, the 401 rules (interface) and the hygiene scan are in.
    expect(run.stdout).toMatch(/listApiKeys\s+6 checks/);
    const xml = readFileSync(run.junit, 'utf8');
    expect(xml).toContain('auth: an unknown session cookie -&gt; 401 [interface]');
    expect(xml).not.toContain('[assumed]');
  }, 120_000);

  test('an unreachable target: clear message, exit 2', async () => {
    const port = await freePort();
    const run = await runContract(['--base-url', `http://127.0.0.1:${port}/api/v0.1`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`cannot reach http://127.0.0.1:${port}/api/v0.1`);
  });

  test('a non-local target without credentials: refused, exit 2, nothing sent', async () => {
    const run = await runContract(['--base-url', 'https://staging.invalid/api/v0.1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/refusing to test https:\/\/staging\.invalid\/api\/v0\.1 without credentials/);
    expect(run.stderr).toContain('CONTRACT_API_KEY');
  });

  test('an unknown --only operation: exit 2 naming the known ones', async () => {
    const run = await runContract(['--base-url', mock.baseUrl, '--only', 'nope']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no operation nope in the spec; known: findServers');
  });
});
