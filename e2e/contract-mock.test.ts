// `npm test` runs the contract suite against a freshly started mock on a free port: every
// check must pass. Also the runner's own promises: --only, --provenance, --strict, the
// reports of a run that exits 2, and which targets get the fixture credentials.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer, type RunningServer } from '../broken/reference-server.ts';
import { fixtureEnv, freePort, runContract, startMockProcess, type MockProcess } from './helpers.ts';

let mock: MockProcess;
let reference: RunningServer;

beforeAll(async () => {
  [mock, reference] = await Promise.all([startMockProcess(), startReferenceServer('none')]);
});
afterAll(async () => {
  await Promise.all([mock?.close(), reference?.close()]);
});

const levels = (xml: string) => new Set([...xml.matchAll(/name="[^"]* \[(\w+)\]"/g)].map((m) => m[1]));

describe.concurrent('the contract suite against the mock', () => {
  test('every check passes, JUnit has no failure', async () => {
    // The mock reports its rate limits without enforcing them (no --rate-limit): waiting on them would only slow the run.
    const run = await runContract(['--base-url', mock.baseUrl, '--pace', 'off']);
    expect(run.stdout).toContain('PASSED');
    expect(run.stdout).not.toMatch(/^FAIL/m);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    for (const op of ['findServers', 'listApiKeys', 'createApiKey', 'revokeApiKey']) expect(run.stdout).toMatch(new RegExp(`^PASS\\s+${op}`, 'm'));
    // It knew the mock for what it is: the fixture credentials, by name, and writes on.
    expect(run.stdout).toMatch(/^ {2}target: server-listing-mock \d+\.\d+\.\d+ \(seed 1337, 1000 servers\)$/m);
    expect(run.stdout).toContain('credentials: API key [fixture valid-key], session [fixture valid-session], forbidden key [fixture forbidden-key] (from fixtures/auth.json, as the target is the mock)');
    expect(run.stdout).toContain('writes: on (the target is the mock)');
    const xml = readFileSync(run.junit, 'utf8');
    expect(xml).toMatch(/<testsuites name="contract" tests="\d+" failures="0" errors="0" skipped="\d+" timestamp="[^"]+" time="\d+\.\d{3}">/);
    expect(xml).toContain('auth: no credentials -&gt; 401');
    expect(xml).toMatch(/<testcase [^>]*time="\d+\.\d{3}"/);
    // Every family of the depth checks ran, and the header check.
    for (const family of ['sample', 'sort', 'meaning', 'default', 'negative', 'errors', 'hygiene', 'headers']) expect(xml, family).toContain(`name="${family}: `);
    // Every declared status was exercised but the two no request can provoke from a mock that does not enforce limits.
    const skipped = [...xml.matchAll(/name="([^"]+)" time="[\d.]+"><skipped/g)].map((m) => m[1]);
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.filter((name) => !/^coverage: the declared (429|500) /.test(name!))).toEqual([]);
    expect(run.stdout).toMatch(/^Requests: \d+ sent by the suite \(budget 400\), \d+ to clean up, \d+ by Dredd and \d+ by the pre-flight$/m);
    expect(run.stdout).toMatch(/^Sample: \d+ rows in \d+ pages, 1000 distinct, 0 invalid \(0\.0%\); \d+ pings$/m);
    // Secrets are masked everywhere a person or CI can read them.
    const everything = run.stdout + xml + readFileSync(run.html, 'utf8') + readFileSync(run.markdown, 'utf8');
    expect(everything).not.toMatch(/sls_test_valid0{20}|sess_test_valid_alice_0{10}/);
  }, 120_000);

  test('--provenance interface checks only what the interface promises', async () => {
    const run = await runContract(['--base-url', mock.baseUrl, '--only', 'findServers', '--provenance', 'interface', '--pace', 'off']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const xml = readFileSync(run.junit, 'utf8');
    expect([...levels(xml)]).toEqual(['interface']);
    // The operation, its `limit` and the error body are the interface's; the rows, the other parameters, the headers are not.
    expect(xml).toContain('name="Dredd: GET /servers/find -&gt; 200 as the spec says [interface]"');
    expect(xml).toContain("name=\"negative: query limit=501 (above maximum 500) -&gt; 400 with the error body naming 'limit' [interface]\"");
    expect(xml).not.toMatch(/name="(sample|meaning|paging|headers|hygiene): /);
    // An operation with nothing at that level: nothing to check is a mistake of the flags, not a pass.
    const none = await runContract(['--base-url', mock.baseUrl, '--only', 'listApiKeys', '--provenance', 'interface']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('nothing was checked: --only listApiKeys with --provenance interface selects no check');
  }, 120_000);

  test('--strict fails a run whose checks were skipped; without it the same run passes', async () => {
    // Only an API key: every check that needs the session cookie is skipped.
    const env = { CONTRACT_API_KEY: fixtureEnv().CONTRACT_API_KEY };
    const [lenient, strict] = await Promise.all([
      runContract(['--base-url', mock.baseUrl, '--only', 'listApiKeys'], env),
      runContract(['--base-url', mock.baseUrl, '--only', 'listApiKeys', '--strict'], env),
    ]);
    expect(lenient.code, lenient.stdout).toBe(0);
    expect(lenient.stdout).toMatch(/skipped: auth: a valid session -> 200 \(no session: set CONTRACT_SESSION_COOKIE\)/);
    expect(strict.code, strict.stdout).toBe(1);
    expect(strict.stdout).toMatch(/^FAILED: \d+ checks run, 0 failed, \d+ skipped \(2 unavoidable\); \d+ skips? fails? the run under --strict$/m);
    expect(strict.stdout).toContain('skipped (fails under --strict): auth: a valid session -> 200');
    expect(readFileSync(strict.junit, 'utf8')).toContain('<failure message="skipped, and --strict fails a skip: no session: set CONTRACT_SESSION_COOKIE">');
  }, 120_000);

  test('a base URL without the spec\'s server path: exit 2 with the URL that answers', async () => {
    const origin = mock.baseUrl.replace(/\/api\/v0\.1$/, '');
    const run = await runContract(['--base-url', origin]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`did you mean --base-url ${origin}/api/v0.1?`);
    expect(run.stdout).not.toMatch(/^FAIL/m);
  });

  test('an unreachable target: exit 2 naming the cause, and the last run\'s green reports are replaced', async () => {
    const port = await freePort();
    const reports = mkdtempSync(join(tmpdir(), 'contract-stale-'));
    const green = '<testsuites name="contract" tests="200" failures="0"></testsuites>';
    mkdirSync(reports, { recursive: true });
    writeFileSync(join(reports, 'contract-junit.xml'), green);
    writeFileSync(join(reports, 'contract-dredd.log'), 'complete: 200 passing');
    const run = await runContract(['--base-url', `http://127.0.0.1:${port}/api/v0.1`], {}, reports);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`cannot reach http://127\\.0\\.0\\.1:${port}/api/v0\\.1: connection refused: nothing listens on that host and port \\(ECONNREFUSED`));
    const xml = readFileSync(run.junit, 'utf8');
    expect(xml).not.toContain('tests="200"');
    expect(xml).toMatch(/<testsuites name="contract" tests="1" failures="0" errors="1"/);
    expect(xml).toContain('<error message="cannot reach');
    expect(existsSync(join(reports, 'contract-dredd.log'))).toBe(false);
    expect(readFileSync(run.html, 'utf8')).toContain('Contract suite: NOT RUN');
    expect(readFileSync(run.markdown, 'utf8')).toMatch(/^## ⛔ Contract suite: NOT RUN: cannot reach/);
  });

  test('a flag that does not parse still writes its JUnit, in error', async () => {
    const run = await runContract(['--bogus']);
    expect(run.code).toBe(2);
    expect(readFileSync(run.junit, 'utf8')).toContain("<error message=\"unknown argument '--bogus'\">");
  });

  test('an unknown --only operation: exit 2 naming the known ones', async () => {
    const run = await runContract(['--base-url', mock.baseUrl, '--only', 'nope']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no operation nope in the spec; known: findServers');
  });
});

describe.concurrent('a loopback server that is not the mock', () => {
  test('gets no fixture credentials: a run with protected operations is refused', async () => {
    const run = await runContract(['--base-url', reference.baseUrl]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`refusing to test ${reference.baseUrl} without credentials: it does not identify as the mock (GET /__mock/info)`);
  });

  test('with credentials of its own, writes stay off without --allow-writes', async () => {
    const run = await runContract(['--base-url', reference.baseUrl, '--only', 'listRegions,createApiKey'], fixtureEnv());
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('target: not the mock');
    expect(run.stdout).toContain('writes: off (the target is not the mock)');
    expect(run.stdout).toContain('(from environment)');
    expect(run.stdout).toMatch(/skipped: Dredd: POST \/user\/apikeys -> 201 as the spec says \(writes are off \(the target is not the mock\); pass --allow-writes/);
    expect(run.stdout).not.toMatch(/^ {6}x /m);
  }, 120_000);
});
