// The suite as QA and CI run it: its CLI as a process, against the mock on a real socket.
// With the replay (Dredd) on, every check passes and every report is written, secrets
// masked; with --dredd off the same depth checks run; a target it cannot reach and a
// flag it cannot read stop it with exit 2 and reports that say so (what the pre-flight
// tells apart is in preflight.test.ts); and Ctrl-C half-way still removes every key it
// created.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningMock } from '../mocks/node/server.ts';
import { freePort, fixtureEnv, mockOnSocket, runContract, startContract, type CliRun } from './helpers.ts';

let mock: RunningMock;
/** A second mock for the run beside it: two runs on one mock race for the same user's key cap. */
let beside: RunningMock;
/** A mock whose every answer takes a few milliseconds, so a run can be stopped half-way on purpose. */
let slow: RunningMock;

beforeAll(async () => {
  [mock, beside, slow] = await Promise.all([
    mockOnSocket(),
    mockOnSocket(),
    mockOnSocket({ latency: { min: 3, max: 3 } }),
  ]);
});
afterAll(async () => {
  await Promise.all([mock?.close(), beside?.close(), slow?.close()]);
});

/** The test cases of a JUnit report, as `suite / name`. */
const cases = (run: CliRun) =>
  [...readFileSync(run.junit, 'utf8').matchAll(/<testsuite name="([^"]+)"(.*?)<\/testsuite>/gs)].flatMap(
    ([, suite, body]) => [...body!.matchAll(/<testcase [^>]*name="([^"]+)"/g)].map((m) => `${suite} / ${m[1]}`),
  );

// Whole runs of the suite, two at once beside a third: on a busy two-core machine longer than one test should take.
describe.concurrent('the CLI against the mock', { timeout: 90_000 }, () => {
  let withDredd: Promise<CliRun>;
  let withoutDredd: Promise<CliRun>;
  beforeAll(() => {
    // The mock reports its rate limits without enforcing them (no --rate-limit): waiting on them would only slow the
    // run.
    withDredd = runContract(['--base-url', mock.baseUrl, '--pace', 'off']);
    withoutDredd = runContract(['--base-url', beside.baseUrl, '--pace', 'off', '--dredd', 'off']);
  });

  test(
    'with the replay: every check passes, Dredd replays each documented success, every report is written and ' +
      'masked',
    async () => {
      const run = await withDredd;
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^PASSED: \d+ checks run, 0 failed/m);
      expect(run.stdout).toMatch(
        /^Requests: \d+ sent by the suite \(budget 500\), \d+ to clean up, 9 by Dredd and \d+ by the pre-flight$/m,
      );
      const xml = readFileSync(run.junit, 'utf8');
      expect(xml).toContain('name="Dredd: GET /servers/find -&gt; 200 as the spec says [interface]"');
      expect(xml).toContain('name="Dredd: POST /user/apikeys -&gt; 201 body matches CreatedApiKey [assumed]"');
      expect(xml).toContain('name="Dredd: DELETE /user/apikeys/{id} -&gt; 200 as the spec says [assumed]"');
      const log = readFileSync(run.dreddLog, 'utf8');
      expect(log).toMatch(/^complete: 9 passing, 0 failing, 0 errors, \d+ skipped/m);
      expect(JSON.parse(readFileSync(run.json, 'utf8'))).toMatchObject({ verdict: 'passed', exitCode: 0, causes: [] });
      const everything =
        run.stdout +
        xml +
        log +
        readFileSync(run.html, 'utf8') +
        readFileSync(run.markdown, 'utf8') +
        readFileSync(run.json, 'utf8');
      expect(everything).not.toMatch(/sls_test_valid0{20}|sess_test_valid_alice_0{10}/);
      expect(run.stderr).toBe('');
    },
  );

  test("--dredd off: the same checks but the replay's, and no Dredd log", async () => {
    const [on, off] = await Promise.all([withDredd, withoutDredd]);
    expect(off.code, off.stdout + off.stderr).toBe(0);
    expect(off.stdout).toContain('--dredd off: no replay');
    expect(cases(off)).toEqual(cases(on).filter((c) => !c.includes(' / Dredd: ')));
    expect(existsSync(off.dreddLog)).toBe(false);
  });

  test("an unreachable target: exit 2 naming the cause, and the last run's green reports are replaced", async () => {
    const port = await freePort();
    const reports = mkdtempSync(join(tmpdir(), 'contract-stale-'));
    mkdirSync(reports, { recursive: true });
    writeFileSync(
      join(reports, 'contract-junit.xml'),
      '<testsuites name="contract" tests="200" failures="0"></testsuites>',
    );
    writeFileSync(join(reports, 'contract-dredd.log'), 'complete: 200 passing');
    const run = await runContract(['--base-url', `http://127.0.0.1:${port}/api/v0.1`], {}, reports);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      new RegExp(
        `^contract: NOT RUN: cannot reach http://127\\.0\\.0\\.1:${port}/api/v0\\.1: connection refused: nothing ` +
          `listens on that host and port \\(ECONNREFUSED`,
      ),
    );
    // Said once: not again on stdout, which names the reports alone.
    expect((run.stdout + run.stderr).match(/cannot reach/g)).toHaveLength(1);
    expect(run.stdout).toMatch(/^Reports: .*contract-report\.json \(JSON\)/);
    expect(JSON.parse(readFileSync(run.json, 'utf8'))).toMatchObject({ verdict: 'not run', exitCode: 2 });
    const xml = readFileSync(run.junit, 'utf8');
    expect(xml).toMatch(/<testsuites name="contract" tests="1" failures="0" errors="1"/);
    expect(xml).toContain('<error message="cannot reach');
    expect(existsSync(run.dreddLog)).toBe(false);
    expect(readFileSync(run.html, 'utf8')).toContain('Contract suite: NOT RUN');
    expect(readFileSync(run.markdown, 'utf8')).toMatch(/^## ⛔ Contract suite: NOT RUN: cannot reach/);
  });

  test('--version prints the package version and exits 0; the summary names the suite and its version', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const run = await runContract(['--version']);
    expect([run.code, run.stdout, run.stderr]).toEqual([0, `${version}\n`, '']);
    const on = await withDredd;
    expect(on.stdout).toContain(`\n  suite: server-listing-mock ${version} (server-listing-contract)\n`);
    expect(readFileSync(on.markdown, 'utf8')).toContain(
      `> suite: server-listing-mock ${version} (server-listing-contract)\n`,
    );
  });

  test('a mistyped flag: exit 2, what was meant, the usage once, and its JUnit still written, in error', async () => {
    const run = await runContract(['--bse-url', mock.baseUrl]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      new RegExp(
        String.raw`^contract: NOT RUN: unknown flag '--bse-url': did you mean --base-url\? \(see --help\)\n\n` +
          'Usage: server-listing-contract',
      ),
    );
    expect((run.stdout + run.stderr).match(/unknown flag/g)).toHaveLength(1);
    expect((run.stdout + run.stderr).match(/Usage: /g)).toHaveLength(1);
    expect(readFileSync(run.junit, 'utf8')).toContain(
      '<error message="unknown flag \'--bse-url\': did you mean --base-url? (see --help)">',
    );
  });
});

describe.concurrent('Ctrl-C half-way', { timeout: 90_000 }, () => {
  test(
    'reaches the run (its whole process group, as a terminal sends it): it stops, removes every key it created, ' +
      'and its reports say so',
    async () => {
      const session = { Cookie: `sls_session=${fixtureEnv().CONTRACT_SESSION_COOKIE}` };
      const ours = async () =>
        (
          (await (await fetch(`${slow.baseUrl}/user/apikeys`, { headers: session })).json()) as {
            keys: { name: string | null }[];
          }
        ).keys.filter((k) => k.name?.startsWith('contract-test-'));
      const run = startContract(['--base-url', slow.baseUrl, '--pace', 'off', '--dredd', 'off']);
      let finished = false;
      void run.done.then(() => (finished = true));
      // The key cap check holds many keys at once: interrupt it there.
      while ((await ours()).length < 5) {
        expect(finished, 'the run ended before it held 5 keys').toBe(false);
        await new Promise((r) => setTimeout(r, 5));
      }
      process.kill(-run.child.pid!, 'SIGINT');
      const result = await run.done;
      expect(result.stderr).toContain('SIGINT: stopping');
      expect(result.code, result.stdout + result.stderr).toBe(1);
      expect(result.stdout).toMatch(
        /x \[interface\] suite: the run finished\n.*\n?.*why: +the run was stopped \(SIGINT\) before every check ran/,
      );
      expect(await ours()).toEqual([]);
      expect(readFileSync(result.junit, 'utf8')).toContain('name="suite: the run finished [interface]"');
    },
  );
});
