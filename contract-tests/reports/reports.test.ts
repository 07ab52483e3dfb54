// The reports of a run: the JSON report validates against its JSON Schema (failing,
// passing and not-run alike) and carries every check with its result, level, cause,
// request, expected, got and repro; every writer renders results that came from
// anywhere (a proxy judging live traffic builds its outcome with `outcomeOf`).
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { CheckResult } from '../shared/recorder.ts';
import { runAgainstReference } from '../reference-server/in-process.ts';
import { notRun } from '../run/figures.ts';
import { htmlReport } from './html.ts';
import { type jsonReport, jsonText, REPORT_FORMAT } from './json.ts';
import { junit } from './junit.ts';
import { markdown } from './markdown.ts';
import { outcomeOf, summary } from './outcome.ts';

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;
const schema = JSON.parse(readFileSync(new URL('./contract-report.schema.json', import.meta.url), 'utf8')) as object;
// Strict, but a `then` may require properties its parent declares (ajv's
// strictRequired looks only at the `then` itself).
const validate = addFormats(new Ajv({ allErrors: true, strict: true, strictRequired: false })).compile(schema);

/** The report as a program reads it back from the file, checked against the schema. */
function valid(text: string): ReturnType<typeof jsonReport> {
  const report = JSON.parse(text) as ReturnType<typeof jsonReport>;
  expect(validate(report), JSON.stringify(validate.errors, null, 2)).toBe(true);
  return report;
}

describe('contract-report.json', () => {
  test(
    'a failing run: valid, every check with its result and level, every failure with its cause, request, ' +
      'expected, got and repro',
    async () => {
      const { outcome } = await runAgainstReference(['sql-500', 'wrong-401-message', 'encoded-colon-404']);
      const report = valid(jsonText(outcome));
      expect(report).toMatchObject({ format: REPORT_FORMAT, verdict: 'failed', exitCode: 1 });
      expect(report.checks).toHaveLength(outcome.reports.flatMap((r) => r.results).length);
      expect(report.causes.map((c) => c.title)).toEqual(outcome.causes.map((c) => c.title));
      const failures = report.checks.filter((c) => c.result === 'fail');
      expect(failures.length).toBe(report.totals.failed);
      for (const f of failures) {
        expect(f, f.check).toMatchObject({
          cause: expect.any(Number),
          request: expect.any(String),
          expected: expect.any(String),
          got: expect.any(String),
          why: expect.any(String),
          repro: expect.stringMatching(/^curl -i /),
        });
        expect(report.causes[f.cause! - 1]!.count).toBeGreaterThan(0);
      }
      // Each cause's count is the number of failures that name it; its example is one of them.
      for (const c of report.causes) {
        const mine = failures.filter((f) => f.cause === c.id);
        expect(mine).toHaveLength(c.count);
        expect(mine.some((f) => f.operation === c.example.operation && f.check === c.example.check)).toBe(true);
      }
      expect(JSON.stringify(report)).not.toMatch(/sls_test_valid0{20}|sess_test_valid_alice_0{10}/);
    },
  );

  test('a passing run and a run that checked nothing are valid too', async () => {
    const { outcome } = await runAgainstReference('none', { only: ['listRegions'] });
    expect(valid(jsonText(outcome))).toMatchObject({ verdict: 'passed', exitCode: 0, causes: [] });
    const refused = valid(
      jsonText(
        notRun(
          'cannot reach http://127.0.0.1:9/api/v0.1: connection refused',
          new Date(),
          'http://127.0.0.1:9/api/v0.1',
        ),
      ),
    );
    expect(refused).toMatchObject({
      verdict: 'not run',
      exitCode: 2,
      refusal: expect.stringMatching(/^cannot reach/),
      checks: [],
    });
  });
});

describe('the report writers take results from anywhere', () => {
  // What a validation proxy holds after judging two live answers: results of its own, no run behind them.
  const results: CheckResult[] = [
    {
      operationId: 'findServers',
      method: 'GET',
      route: '/servers/find',
      check: 'proxy: the answer matches the spec',
      provenance: 'interface',
      status: 'fail',
      request: 'GET /api/v0.1/servers/find?limit=abc (no credentials)',
      expected: '400 application/json {"success": false, "message": "Bad Request: …"}',
      actual: '500 text/plain Error: boom',
      message: 'status 500, expected 400',
      repro: "curl -i 'https://staging.example/api/v0.1/servers/find?limit=abc'",
      evidence: { answer: { status: 500, type: 'text/plain' }, crash: '500 Error: boom' },
    },
    {
      operationId: 'listRegions',
      method: 'GET',
      route: '/metadata/regions',
      check: 'proxy: the answer matches the spec',
      provenance: 'interface',
      status: 'fail',
      request: 'GET /api/v0.1/metadata/regions?x=1 (no credentials)',
      actual: '500 text/plain Error: boom',
      message: 'status 500',
      repro: "curl -i 'https://staging.example/api/v0.1/metadata/regions?x=1'",
      evidence: { answer: { status: 500, type: 'text/plain' }, crash: '500 Error: boom' },
    },
    {
      operationId: 'listVersions',
      check: 'proxy: the answer matches the spec',
      provenance: 'interface',
      status: 'pass',
    },
  ];
  const operations = [
    { operationId: 'findServers', method: 'GET', path: '/servers/find', declares404: false, isProtected: false },
    { operationId: 'listVersions', method: 'GET', path: '/metadata/versions', declares404: false, isProtected: false },
    { operationId: 'listRegions', method: 'GET', path: '/metadata/regions', declares404: false, isProtected: false },
  ];
  const outcome = outcomeOf({
    results,
    operations,
    settings: ['Validation proxy in front of https://staging.example/api/v0.1'],
    startedAt: new Date(),
    durationMs: 1200,
  });

  test('one cause for the one crash, and every format renders it with its repro', () => {
    expect(outcome.exitCode).toBe(1);
    expect(outcome.causes.map((c) => `${c.title}: ${c.failures.length}`)).toEqual([
      'server error: 500 Error: boom (GET /servers/find, GET /metadata/regions): 2',
    ]);
    expect(valid(jsonText(outcome)).checks.filter((c) => c.cause === 1)).toHaveLength(2);
    expect(summary(outcome)).toContain("repro:    curl -i 'https://staging.example/api/v0.1/metadata/regions?x=1'");
    expect(junit(outcome)).toContain("repro:    curl -i 'https://staging.example/api/v0.1/servers/find?limit=abc'");
    expect(markdown(outcome)).toContain(
      "```sh\n   curl -i 'https://staging.example/api/v0.1/servers/find?limit=abc'\n   ```",
    );
    expect(htmlReport(outcome)).toContain(
      "<dt>repro</dt><dd>curl -i 'https://staging.example/api/v0.1/servers/find?limit=abc'</dd>",
    );
  });
});
