// The staging gate as the workflow runs it by default (--strict, writes off): the checks
// of operations that write are skipped because the run was not asked to write, and that
// alone does not fail a strict run; any other skip still does.
import { expect, test } from 'vitest';
import { fixtureEnv, runAgainstReference } from '../reference-server/in-process.ts';
import { verdictLine } from '../reports/outcome.ts';

const skips = (outcome: { reports: { results: { status: string; operationId: string; declined?: boolean }[] }[] }) =>
  outcome.reports.flatMap((r) => r.results).filter((r) => r.status === 'skip');

test('--strict with writes off: the skipped writes were asked for, and the run passes', async () => {
  const { outcome } = await runAgainstReference('none', {
    allowWrites: false,
    strict: true,
    only: ['createApiKey', 'listApiKeys'],
  });
  expect(verdictLine(outcome)).toMatch(/^PASSED: /);
  const writes = skips(outcome).filter((r) => r.operationId === 'createApiKey');
  expect(writes.length).toBeGreaterThan(0);
  expect(writes.every((r) => r.declined)).toBe(true);
});

test('--strict with writes off still fails on a skip the run was not told to make (no session cookie)', async () => {
  const env = { CONTRACT_API_KEY: fixtureEnv().CONTRACT_API_KEY! };
  const { outcome } = await runAgainstReference('none', {
    allowWrites: false,
    strict: true,
    env,
    only: ['listApiKeys'],
  });
  expect(outcome.exitCode).toBe(1);
  expect(skips(outcome).some((r) => !r.declined)).toBe(true);
});

test('with --allow-writes nothing is declined: the writes run', async () => {
  const { outcome } = await runAgainstReference('none', { allowWrites: true, strict: true, only: ['createApiKey'] });
  expect(outcome.exitCode).toBe(0);
  expect(skips(outcome).filter((r) => r.declined)).toEqual([]);
});
