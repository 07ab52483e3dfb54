// The CI gate as GitHub runs it (.github/workflows/contract.yml): the YAML parses, the
// suite's step builds a command line the runner accepts (against the mock, and against
// a deployment with the gate's flags), the summary step puts the markdown report on
// the job's summary page, and every report is uploaded. Each step's script runs here
// in bash as written; `npm` is replaced by a stand-in that records its arguments.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, test } from 'vitest';
import { parseOptions } from '../contract-tests/run/options.ts';
import { REPO } from './helpers.ts';

interface Step {
  name?: string;
  if?: string;
  run?: string;
  uses?: string;
  with?: Record<string, string>;
}

const workflow = load(readFileSync(join(REPO, '.github/workflows/contract.yml'), 'utf8')) as {
  jobs: { contract: { steps: Step[] } };
};
const steps = workflow.jobs.contract.steps;
const step = (name: string) => steps.find((s) => s.name === name)!;

/** Runs a step's script in bash, in `cwd`, with `npm` recording its arguments one per line. */
function runStep(script: string, cwd: string, env: Record<string, string>): string[] {
  const bin = mkdtempSync(join(tmpdir(), 'fake-npm-'));
  const log = join(bin, 'args');
  writeFileSync(join(bin, 'npm'), `#!/usr/bin/env bash\nprintf '%s\\n' "$@" > ${JSON.stringify(log)}\n`);
  chmodSync(join(bin, 'npm'), 0o755);
  writeFileSync(log, '');
  execFileSync('bash', ['-euo', 'pipefail', '-c', script], {
    cwd,
    env: { PATH: `${bin}:${process.env.PATH}`, ...env },
  });
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

describe('.github/workflows/contract.yml', () => {
  test('the suite step tests the mock on a push, strictly', () => {
    const args = runStep(step('Contract suite').run!, REPO, {
      TARGET: '',
      PROVENANCE: 'assumed',
      STRICT: 'true',
      ALLOW_WRITES: 'false',
    });
    expect(args).toEqual(['run', 'contract', '--', '--provenance', 'assumed', '--strict', '--start-mock']);
    expect(parseOptions(args.slice(3), {})).toMatchObject({ startMock: true, strict: true, provenance: 'assumed' });
  });

  test('started by hand against a deployment: its base URL, the chosen level, writes when asked', () => {
    const args = runStep(step('Contract suite').run!, REPO, {
      TARGET: 'https://staging.example.com/api/v0.1',
      PROVENANCE: 'interface',
      STRICT: 'false',
      ALLOW_WRITES: 'true',
    });
    expect(args).toEqual(['run', 'contract', '--', '--provenance', 'interface', '--allow-writes']);
    expect(parseOptions(args.slice(3), { CONTRACT_BASE_URL: 'https://staging.example.com/api/v0.1' })).toMatchObject({
      baseUrl: 'https://staging.example.com/api/v0.1',
      allowWrites: true,
      strict: false,
    });
  });

  test('the summary step appends the markdown report to the job summary, even after a failed run', () => {
    const publish = step('Publish the summary');
    expect(publish.if).toBe('always()');
    const cwd = mkdtempSync(join(tmpdir(), 'job-'));
    mkdirSync(join(cwd, 'reports'));
    writeFileSync(
      join(cwd, 'reports/contract-summary.md'),
      '## ❌ Contract suite: FAILED: 200 checks run, 3 failed (1 cause)\n',
    );
    const summary = join(cwd, 'step-summary.md');
    writeFileSync(summary, '# earlier steps\n');
    runStep(publish.run!, cwd, { GITHUB_STEP_SUMMARY: summary });
    expect(readFileSync(summary, 'utf8')).toBe(
      '# earlier steps\n## ❌ Contract suite: FAILED: 200 checks run, 3 failed (1 cause)\n',
    );
    // No report at all (npm ci failed): the page says so instead of the step failing.
    const empty = mkdtempSync(join(tmpdir(), 'job-'));
    runStep(publish.run!, empty, { GITHUB_STEP_SUMMARY: join(empty, 's.md') });
    expect(readFileSync(join(empty, 's.md'), 'utf8')).toMatch(/^## Contract suite: no report/);
  });

  test('every report is uploaded, whatever the outcome', () => {
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(upload.if).toBe('always()');
    expect(upload.with!.path!.trim().split('\n').sort()).toEqual([
      'reports/contract-dredd.log',
      'reports/contract-junit.xml',
      'reports/contract-report.html',
      'reports/contract-report.json',
      'reports/contract-summary.md',
    ]);
  });
});
