// The replay phase over real sockets (Dredd has an HTTP client of its own): reference
// servers listening on 127.0.0.1, the suite run in this process with the replay alone
// (no depth family). Against a correct server every replayed success passes; against
// the defects the replay names, it names each, at the level of the promise it breaks.
import { afterAll, describe, expect, test } from 'vitest';
import type { Defect } from '../contract-tests/reference-server/defects.ts';
import { startReferenceServer, type RunningServer } from '../contract-tests/reference-server/socket.ts';
import { fixtureEnv } from '../contract-tests/reference-server/in-process.ts';
import { REPLAY_NAMED, names, type Failure } from '../contract-tests/reference-server/named-defects.ts';
import { summary, type RunOutcome } from '../contract-tests/reports/outcome.ts';
import { runSuite, type SuiteRun } from '../contract-tests/run/suite.ts';

const servers: RunningServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

async function replay(defects: Defect[]): Promise<SuiteRun> {
  const server = await startReferenceServer(defects);
  servers.push(server);
  return runSuite({ baseUrl: server.baseUrl, allowWrites: true, env: fixtureEnv(), families: [] });
}

const failures = (o: RunOutcome): Failure[] =>
  o.reports.flatMap((r) =>
    r.results
      .filter((x) => x.status === 'fail')
      .map((x) => ({ operation: r.operationId, check: x.check, level: x.provenance, why: x.message ?? '' })),
  );

/** Defects the replay names, two runs of defects that do not touch each other. */
const GROUPS: Defect[][] = [
  ['missing-field', 'wrong-status', 'missing-route'],
  ['wrong-type', 'text-plain-json'],
];

describe('the replay phase (Dredd), over a socket', () => {
  const runs = new Map<string, Promise<SuiteRun>>();
  // One after the other: Dredd's loggers are one per process, and the replay says so by queueing.
  const start = (group: Defect[]) =>
    runs.get(group.join('+')) ?? runs.set(group.join('+'), replay(group)).get(group.join('+'))!;

  test(
    "against a correct server: each operation's documented success, replayed with real credentials and ids, " +
      "passes; Dredd's log says so",
    async () => {
      const { outcome, dreddLog } = await start(['none']);
      expect(failures(outcome), summary(outcome)).toEqual([]);
      // The replay's own results (the judges' verdicts on every answer are listed apart).
      const replayed = outcome.reports.flatMap((r) => r.results.filter((x) => x.family === 'Dredd'));
      const checks = replayed.map((x) => `${x.operationId} ${x.check}`);
      expect(checks).toHaveLength(18);
      expect(checks.every((c) => / Dredd: /.test(c))).toBe(true);
      expect(dreddLog).toMatch(/^complete: 9 passing, 0 failing, 0 errors/m);
      expect(outcome.figures[0]).toMatch(
        /^Requests: \d+ sent by the suite \(budget 500\), \d+ to clean up, 9 by Dredd and 2 by the pre-flight$/,
      );
    },
  );

  for (const group of GROUPS) {
    test(`names ${group.join(', ')}`, async () => {
      const { outcome } = await start(group);
      const found = failures(outcome);
      for (const defect of group as Exclude<Defect, 'none'>[]) {
        for (const n of REPLAY_NAMED[defect]!)
          expect(
            found.some((f) => names(f, n) && f.level === n.level),
            `${defect}: [${n.level}] ${n.check} / ${n.why}\n${summary(outcome)}`,
          ).toBe(true);
      }
    });
  }

  test('every defect the replay names is in one of the groups', () => {
    expect(GROUPS.flat().sort()).toEqual(Object.keys(REPLAY_NAMED).sort());
  });
});
