// Coverage across sides: a run against the reference server given hand-built usage
// profiles lists what of them it checked (read from what its transport sent) and what it
// never did; --require-usage fails the run on the latter, and without it the run passes
// (under --strict too: no setting makes the suite send what it does not).
import { describe, expect, test } from 'vitest';
import { loadModel } from '../../spec/model.ts';
import { UsageAccumulator, type UsageProfile } from '../../spec/usage-profile.ts';
import { runAgainstReference } from '../reference-server/in-process.ts';
import { usageCoverage } from './usage-coverage.ts';

const model = loadModel();

function profile(consumer: string, notes: { operationId: string; query?: Record<string, string> }[]): UsageProfile {
  const acc = new UsageAccumulator(consumer, { model });
  for (const n of notes) acc.note({ ...n, status: 200 });
  return acc.toJSON();
}

const web = profile('web', [
  { operationId: 'findServers', query: { country: 'DE', limit: '20' } },
  { operationId: 'findServers', query: { colour: 'red' } },
  { operationId: 'listRegions' },
]);
const legacy = profile('legacy-app', [{ operationId: 'listCities' }]);

const checks = (outcome: {
  reports: { results: { check: string; operationId: string; status: string; message?: string }[] }[];
}) => outcome.reports.flatMap((r) => r.results).filter((r) => r.check.startsWith('usage: '));

describe('--usage', () => {
  test('lists what the run verified of what consumers use, and what it never checked, and why', async () => {
    const { outcome } = await runAgainstReference('none', {
      only: ['findServers', 'listRegions'],
      usage: [web, legacy],
      strict: true,
    });
    expect(outcome.exitCode).toBe(0);
    const results = checks(outcome);
    const status = (operationId: string, what: string) =>
      results.find((r) => r.operationId === operationId && r.check.includes(what))?.status;
    expect(status('findServers', 'the operation')).toBe('pass');
    expect(status('findServers', 'parameter country')).toBe('pass');
    expect(status('findServers', 'parameter limit')).toBe('pass');
    expect(status('listRegions', 'the operation')).toBe('pass');
    expect(status('findServers', 'parameter colour')).toBe('skip');
    expect(status('listCities', 'the operation')).toBe('skip');
    expect(results.find((r) => r.operationId === 'listCities')!.message).toMatch(
      /no operation of the spec has this operationId/,
    );
    expect(outcome.figures.at(-1)).toBe(
      'Usage (web, legacy-app): 4 of 6 operations and parameters they use were checked against the target; ' +
        'never checked: findServers colour (web, 1 request), listCities (legacy-app, 1 request)',
    );
  });

  test('--require-usage fails the run on what it never checked', async () => {
    const { outcome } = await runAgainstReference('none', { only: ['findServers'], usage: [web], requireUsage: true });
    expect(outcome.exitCode).toBe(1);
    const failed = checks(outcome).filter((r) => r.status === 'fail');
    // listRegions was left out by --only: the run never sent it.
    expect(failed.map((r) => `${r.operationId} ${r.message}`).sort()).toEqual([
      'findServers never checked: the spec declares no such parameter',
      'listRegions never checked: no request of the run sent it',
    ]);
  });
});

test('a parameter counts as checked only when a request of the run sent it and got an answer', () => {
  const sent = new UsageAccumulator('contract suite');
  sent.note({ operationId: 'findServers', query: { limit: '1' }, status: 200 });
  sent.note({ operationId: 'listRegions' });
  const { results } = usageCoverage([web], sent.toJSON(), model, false);
  const by = (id: string, what: string) => results.find((r) => r.operationId === id && r.check.includes(what))!;
  expect(by('findServers', 'parameter limit').status).toBe('pass');
  expect(by('findServers', 'parameter country')).toMatchObject({
    status: 'skip',
    unavoidable: true,
    provenance: 'observed',
    message: 'never checked: no request of the run sent it (--require-usage fails the run on it)',
  });
  expect(by('listRegions', 'the operation').status).toBe('skip');
});
