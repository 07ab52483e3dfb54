// The contract suite against the mock, in process: the mock's Hono app answers through
// `app.fetch`, no socket, no child process (the replay phase, which needs a socket for
// Dredd's own HTTP client, is in contract-cli.test.ts). Every check must pass, every
// family must have run, and the suite must know the mock for what it is.
import { describe, expect, test } from 'vitest';
import { junit } from '../contract-tests/reports/junit.ts';
import { htmlReport } from '../contract-tests/reports/html.ts';
import { markdown } from '../contract-tests/reports/markdown.ts';
import { summary } from '../contract-tests/reports/outcome.ts';
import { runSuite, type SuiteOptions } from '../contract-tests/run/suite.ts';
import { buildMock } from '../mocks/node/load.ts';
import { DEFAULT_OPTIONS } from '../mocks/node/options.ts';

// Called by a name of its own: the mock answers it only when told (--allowed-host).
const mock = buildMock({ ...DEFAULT_OPTIONS, port: 0, quiet: true, cacheDir: null, allowedHosts: ['mock.test'] });
const BASE = `http://mock.test${mock.basePath}`;
const againstMock = (options: Partial<SuiteOptions> = {}) =>
  runSuite({
    baseUrl: BASE,
    fetch: async (request) => mock.app.fetch(request),
    dredd: false,
    pace: false,
    env: {},
    ...options,
  });

describe('the contract suite against the mock, in process', () => {
  test('every check passes; every family ran; the mock is known for what it is', async () => {
    const { outcome } = await againstMock();
    const text = [summary(outcome), ...outcome.figures].join('\n');
    expect(outcome.exitCode, text).toBe(0);
    expect(text).not.toMatch(/^FAIL/m);
    for (const op of ['findServers', 'listApiKeys', 'createApiKey', 'revokeApiKey'])
      expect(text).toMatch(new RegExp(`^PASS\\s+${op}`, 'm'));
    expect(outcome.settings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ {2}target: server-listing-mock \d+\.\d+\.\d+ \(seed 1337, 1000 servers\)$/),
        '  credentials: API key [fixture valid-key], session [fixture valid-session], forbidden key [fixture ' +
          'forbidden-key], expired key [fixture expired-key], expired session [fixture expired-session] (from ' +
          'fixtures/auth.json, as the target is the mock)',
        '  writes: on (the target is the mock)',
      ]),
    );
    const xml = junit(outcome);
    expect(xml).toMatch(
      new RegExp(
        String.raw`<testsuites name="contract" tests="\d+" failures="0" errors="0" skipped="\d+" ` +
          String.raw`timestamp="[^"]+" time="\d+\.\d{3}">`,
      ),
    );
    for (const family of [
      'auth',
      'public',
      'paging',
      'keys',
      'sample',
      'sort',
      'meaning',
      'default',
      'negative',
      'errors',
      'generated',
      'hygiene',
      'headers',
      'coverage',
    ])
      expect(xml, family).toContain(`name="${family}: `);
    // The generated requests found nothing: each of their 22 checks ran and passed.
    const generated = outcome.reports.flatMap((r) => r.results.filter((x) => x.check.startsWith('generated: ')));
    expect(generated).toHaveLength(22);
    expect(generated.filter((x) => x.status !== 'pass')).toEqual([]);
    // Every declared status was exercised but the two no request can provoke from a mock that does not enforce limits.
    const skipped = outcome.reports.flatMap((r) => r.results.filter((x) => x.status === 'skip').map((x) => x.check));
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.filter((name) => !/^coverage: the declared (429|500) /.test(name))).toEqual([]);
    expect(text).toMatch(
      new RegExp(
        String.raw`^Requests: \d+ sent by the suite \(budget 500\), \d+ to clean up, ` +
          String.raw`0 by Dredd \(--dredd off\) and \d+ by the pre-flight$`,
        'm',
      ),
    );
    expect(text).toMatch(/^Sample: \d+ rows in \d+ pages, 1000 distinct, 0 invalid \(0\.0%\); \d+ pings$/m);
    // Secrets are masked everywhere a person or CI can read them.
    expect(text + xml + htmlReport(outcome) + markdown(outcome)).not.toMatch(
      /sls_test_valid0{20}|sess_test_valid_alice_0{10}/,
    );
  });

  test('--provenance interface checks only what the interface promises', async () => {
    const { outcome } = await againstMock({ only: ['findServers'], provenance: 'interface' });
    expect(outcome.exitCode, summary(outcome)).toBe(0);
    const xml = junit(outcome);
    expect(new Set([...xml.matchAll(/name="[^"]* \[(\w+)\]"/g)].map((m) => m[1]))).toEqual(new Set(['interface']));
    expect(xml).toContain(
      'name="negative: query limit=501 (above maximum 500) -&gt; 400 with the error body naming \'limit\' [interface]"',
    );
    expect(xml).not.toMatch(/name="(sample|meaning|paging|headers|hygiene): /);
  });
});
