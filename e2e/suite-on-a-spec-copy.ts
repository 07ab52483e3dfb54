// What the contract suite says about findServers on a copy of the spec that adds a rule (a filter, an order), against
// a server that honours the rule and one that ignores it:
// e2e/spec-adds-a-filter.test.ts and spec-adds-an-order.test.ts.
import { expect } from 'vitest';
import type { CheckResult } from '../contract-tests/shared/recorder.ts';
import { runSuite } from '../contract-tests/run/suite.ts';

/** The checks of a run on findServers alone with the spec copy, those `picked` keeps. */
export async function findServersChecks(
  baseUrl: string,
  spec: string,
  budget: number,
  picked: (r: CheckResult) => boolean,
): Promise<CheckResult[]> {
  const { outcome } = await runSuite({
    baseUrl,
    spec,
    only: ['findServers'],
    dredd: false,
    pace: false,
    env: {},
    budget,
  });
  return outcome.reports.flatMap((r) => r.results).filter(picked);
}

/** Against the server that honours the rule: the rule's checks ran, and every one passed. */
export function expectAllPass(honoured: readonly CheckResult[]): void {
  expect(honoured.length).toBeGreaterThan(0);
  expect(honoured.map((r) => `${r.status} ${r.check}`)).toEqual(honoured.map((r) => `pass ${r.check}`));
}

/** Against the server that ignores it: one of the rule's checks fails as `failed` says (any failure by default). */
export function expectOneFails(ignored: readonly CheckResult[], failed = (_r: CheckResult) => true): void {
  expect(
    ignored.some((r) => r.status === 'fail' && failed(r)),
    ignored.map((r) => `${r.status} ${r.check}: ${r.message ?? ''}`).join('\n'),
  ).toBe(true);
}
