// The CI gate as GitHub runs it (.github/workflows/contract.yml): the YAML parses, the
// suite's step builds a command line the runner accepts (against the mock, and against
// a deployment with the gate's flags), the summary step puts the markdown report on
// the job's summary page, the checks show as tests, and every report is uploaded. The
// spec diff of a pull request (.github/workflows/spec-diff.yml): its trigger, its
// command line, its markdown on the summary page and its exit code. Each step's script
// runs here in bash as written; `npm` is replaced by a stand-in that records its
// arguments (and, for the diff, prints what the diff would and exits as it would).
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, test } from 'vitest';
import { parseFlags } from '../cli/flags.ts';
import { DIFF_FLAGS } from '../contract-tests/diff/command.ts';
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

/**
 * Runs a step's script in bash (as GitHub does: -e, pipefail), in `cwd`, with `npm`
 * recording its arguments one per line, printing `FAKE_OUT` and exiting `FAKE_EXIT`.
 */
function runStep(script: string, cwd: string, env: Record<string, string>): string[] {
  return runStepExit(script, cwd, env).args;
}

function runStepExit(script: string, cwd: string, env: Record<string, string>): { args: string[]; code: number } {
  const bin = mkdtempSync(join(tmpdir(), 'fake-npm-'));
  const log = join(bin, 'args');
  writeFileSync(
    join(bin, 'npm'),
    `#!/usr/bin/env bash\nprintf '%s\\n' "$@" > ${JSON.stringify(log)}\nprintf '%s' "\${FAKE_OUT:-}"\nexit ` +
      `"\${FAKE_EXIT:-0}"\n`,
  );
  chmodSync(join(bin, 'npm'), 0o755);
  writeFileSync(log, '');
  let code = 0;
  try {
    execFileSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
      cwd,
      env: { PATH: `${bin}:${process.env.PATH}`, ...env },
      stdio: 'pipe',
    });
  } catch (err) {
    code = (err as { status: number }).status;
  }
  return { args: readFileSync(log, 'utf8').split('\n').filter(Boolean), code };
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

  test('every check shows as a test on the job page: a JUnit action pinned to a version, after any outcome', () => {
    const junit = steps.find((s) => s.uses?.startsWith('mikepenz/action-junit-report@'))!;
    expect(junit.uses).toMatch(/@v\d+\.\d+\.\d+$/);
    expect(junit.if).toBe('always()');
    expect(junit.with).toMatchObject({ report_paths: 'reports/contract-junit.xml', include_passed: true });
    expect((workflowOf('contract.yml') as any).permissions).toEqual({ contents: 'read', checks: 'write' });
  });

  test(
    'started by hand, its defaults are the strict gate with writes off, and its inputs say that skipped writes ' +
      'do not fail it',
    () => {
      const inputs = (workflowOf('contract.yml') as any).on.workflow_dispatch.inputs;
      expect(inputs.strict.default).toBe(true);
      expect(inputs.allow_writes.default).toBe(false);
      expect(inputs.strict.description).toMatch(
        /skipped because allow_writes is off were asked for and do not fail it/,
      );
    },
  );
});

function workflowOf(file: string): Record<string, any> {
  return load(readFileSync(join(REPO, '.github/workflows', file), 'utf8')) as Record<string, any>;
}

describe('.github/workflows/spec-diff.yml', () => {
  const diff = workflowOf('spec-diff.yml');
  const diffSteps = diff.jobs.diff.steps as Step[];
  const script = diffSteps.find((s) => s.name === 'Spec diff')!.run!;
  const env = { BASE_REF: 'origin/main', FAIL_ON: 'breaking' };

  test('runs on a pull request that changes the spec, with the history the base ref needs', () => {
    expect(diff.on.pull_request.paths).toContain('spec/openapi.yaml');
    expect(diffSteps.find((s) => s.uses?.startsWith('actions/checkout@'))!.with).toEqual({ 'fetch-depth': 0 });
    expect(diff.jobs.diff.env).toEqual({ BASE_REF: 'origin/${{ github.base_ref }}', FAIL_ON: 'breaking' });
  });

  test('the diff against the base branch, in markdown, on the summary page; a breaking change fails the step', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'job-'));
    const summary = join(cwd, 'summary.md');
    writeFileSync(summary, '');
    const markdown = '## ❌ Spec diff: 1 breaking, 0 warnings, 0 info (FAILED: --fail-on breaking)\n';
    const { args, code } = runStepExit(script, cwd, {
      ...env,
      GITHUB_STEP_SUMMARY: summary,
      FAKE_OUT: markdown,
      FAKE_EXIT: '1',
    });
    expect(args).toEqual([
      'run',
      '--silent',
      'contract',
      '--',
      'diff',
      '--base',
      'origin/main',
      '--format',
      'markdown',
      '--fail-on',
      'breaking',
    ]);
    expect(parseFlags(DIFF_FLAGS, args.slice(5), {}).values).toMatchObject({
      base: 'origin/main',
      format: 'markdown',
      failOn: 'breaking',
    });
    expect(code).toBe(1);
    expect(readFileSync(summary, 'utf8')).toBe(markdown);
    expect(readFileSync(join(cwd, 'spec-diff.md'), 'utf8')).toBe(markdown);
  });

  test('usage profiles in usage-profiles/ weigh the changes', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'job-'));
    mkdirSync(join(cwd, 'usage-profiles'));
    writeFileSync(join(cwd, 'usage-profiles/web.json'), '{}');
    writeFileSync(join(cwd, 'usage-profiles/app.json'), '{}');
    const { args, code } = runStepExit(script, cwd, {
      ...env,
      GITHUB_STEP_SUMMARY: join(cwd, 's.md'),
      FAKE_OUT: 'ok\n',
    });
    expect(code).toBe(0);
    expect(args.slice(-3)).toEqual(['--usage', 'usage-profiles/app.json', 'usage-profiles/web.json']);
    expect(parseFlags(DIFF_FLAGS, args.slice(5), {}, { positionals: true }).values.usage).toEqual([
      'usage-profiles/app.json',
    ]);
  });

  test('a diff that could not run (exit 2) says so on the summary page and fails the step', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'job-'));
    const summary = join(cwd, 's.md');
    const { code } = runStepExit(script, cwd, { ...env, GITHUB_STEP_SUMMARY: summary, FAKE_EXIT: '2' });
    expect(code).toBe(2);
    expect(readFileSync(summary, 'utf8')).toBe("## Spec diff: not run (exit 2; the step's log says why)\n");
  });
});
