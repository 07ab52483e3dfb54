// The depth phase's lanes: units one at a time in table order while nothing waits; the
// next unit of a free lane when all the units running wait on the target's limits; a
// fence after everything before it; results in table order whatever finished first; a
// stopped run begins no new family. No clock here: the waits are the test's to end.
import { describe, expect, test } from 'vitest';
import { createReferenceApp } from '../reference-server/app.ts';
import { fixtureEnv, REFERENCE_BASE } from '../reference-server/in-process.ts';
import { loadModel } from '../../spec/model.ts';
import { keyLifecycle, valueAt } from '../shared/key-lifecycle.ts';
import type { CheckResult } from '../shared/recorder.ts';
import { virtualClock } from '../testing/virtual-clock.ts';
import { collectionOf, runLanes, type Unit, unitPlace } from './lanes.ts';
import { runSuite } from './suite.ts';

/** A stand-in for the pacer: the test says when a unit waits and when the wait ends. */
function waitWatch() {
  let waiters = 0;
  const watchers = new Set<() => void>();
  return {
    get waiters() {
      return waiters;
    },
    onWait(watcher: () => void) {
      watchers.add(watcher);
      return () => watchers.delete(watcher);
    },
    async wait(until: Promise<void>) {
      waiters++;
      for (const w of watchers) w();
      try {
        await until;
      } finally {
        waiters--;
      }
    },
  };
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const result = (n: number): CheckResult => ({
  operationId: `op${n}`,
  check: `check ${n}`,
  provenance: 'interface',
  status: 'pass',
});

/** Units that log when they start and end; `waitsOn[n]` makes unit n wait until the test ends its wait. */
function plan(
  shape: { family?: string; lane: string; fence?: boolean }[],
  watch: ReturnType<typeof waitWatch>,
  waitsOn: Record<number, Promise<void>> = {},
) {
  const events: string[] = [];
  const units: Unit[] = shape.map((s, n) => ({
    family: s.family ?? 'f',
    lane: s.lane,
    fence: s.fence ?? false,
    run: async () => {
      events.push(`start ${n}`);
      expect(unitPlace()).toBe(n);
      if (waitsOn[n]) await watch.wait(waitsOn[n]);
      events.push(`end ${n}`);
      return [result(n)];
    },
  }));
  return { units, events };
}

describe('runLanes', () => {
  test('while nothing waits, the units run one at a time in table order, lanes or not', async () => {
    const watch = waitWatch();
    const { units, events } = plan([{ lane: 'a' }, { lane: 'b' }, { lane: 'c' }, { lane: 'a' }], watch);
    const recorded: string[] = [];
    await runLanes(units, {
      waits: watch,
      stopped: () => undefined,
      record: (r) => recorded.push(...r.map((x) => x.check)),
    });
    expect(events).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
    expect(recorded).toEqual(['check 0', 'check 1', 'check 2', 'check 3']);
  });

  test(
    'when every unit running waits, the next unit of a free lane starts; a fence waits for all before it; ' +
      'results are recorded in table order',
    async () => {
      const watch = waitWatch();
      const first = deferred();
      const { units, events } = plan(
        [{ lane: 'a' }, { lane: 'a' }, { lane: 'b' }, { lane: 'c' }, { lane: 'd', fence: true }, { lane: 'b' }],
        watch,
        { 0: first.promise },
      );
      const recorded: string[] = [];
      const done = runLanes(units, {
        waits: watch,
        stopped: () => undefined,
        record: (r) => recorded.push(...r.map((x) => x.check)),
      });
      // Unit 0 waits: lane a is busy, so units 2 and 3 (lanes b, c) run; the fence (4) and all after it do not.
      await new Promise((r) => setImmediate(r));
      expect(events).toEqual(['start 0', 'start 2', 'end 2', 'start 3', 'end 3']);
      expect(recorded).toEqual([]);
      first.resolve();
      await done;
      expect(events).toEqual([
        'start 0',
        'start 2',
        'end 2',
        'start 3',
        'end 3',
        'end 0',
        'start 1',
        'end 1',
        'start 4',
        'end 4',
        'start 5',
        'end 5',
      ]);
      expect(recorded).toEqual(['check 0', 'check 1', 'check 2', 'check 3', 'check 4', 'check 5']);
    },
  );

  test('a stopped run begins no family it had not begun; a family begun runs out', async () => {
    const watch = waitWatch();
    const first = deferred();
    let stopped: string | undefined;
    const { units, events } = plan(
      [
        { family: 'x', lane: 'a' },
        { family: 'x', lane: 'b' },
        { family: 'y', lane: 'c' },
      ],
      watch,
      { 0: first.promise },
    );
    const done = runLanes(units, { waits: watch, stopped: () => stopped, record: () => undefined });
    await new Promise((r) => setImmediate(r));
    // Unit 1 ran while unit 0 waited; unit 2 would have been next.
    expect(events).toEqual(['start 0', 'start 1', 'end 1', 'start 2', 'end 2']);
    stopped = 'the run was stopped';
    first.resolve();
    await done;
    const stopping = plan(
      [
        { family: 'x', lane: 'a' },
        { family: 'x', lane: 'b' },
        { family: 'y', lane: 'c' },
      ],
      watch,
    );
    let calls = 0;
    await runLanes(stopping.units, {
      waits: watch,
      // Stopped once the first unit has begun: family x runs out, family y never begins.
      stopped: () => (calls++ > 0 ? 'stopped' : undefined),
      record: () => undefined,
    });
    expect(stopping.events).toEqual(['start 0', 'end 0', 'start 1', 'end 1']);
  });

  test('a unit that throws: the units running end, no other starts, and the run rejects with its error', async () => {
    const watch = waitWatch();
    const units: Unit[] = [
      {
        family: 'f',
        lane: 'a',
        fence: false,
        run: async () => {
          throw new Error('broken check');
        },
      },
      { family: 'f', lane: 'b', fence: false, run: async () => [result(1)] },
    ];
    const recorded: CheckResult[] = [];
    await expect(
      runLanes(units, { waits: watch, stopped: () => undefined, record: (r) => recorded.push(...r) }),
    ).rejects.toThrow('broken check');
    expect(recorded).toEqual([]);
  });

  test("an operation's lane is the collection its path names", () => {
    expect(collectionOf('/user/apikeys/{id}')).toBe('user');
    expect(collectionOf('/metadata/regions')).toBe('metadata');
    expect(collectionOf('/')).toBe('');
  });
});

/** A whole run against the reference server enforcing the documented limits on a virtual clock, its wire watched. */
async function limitedRun(secondOfMinute: number, rateLimit: 'documented' | undefined) {
  const minute = Math.floor(Date.now() / 60_000) * 60_000;
  const clock = virtualClock(minute + secondOfMinute * 1000);
  const app = createReferenceApp('none', { ...(rateLimit ? { rateLimit } : {}), now: clock.now });
  const lifecycle = keyLifecycle(loadModel())!;
  const sent: { at: number; inFlight: number; place: number; request: string }[] = [];
  const created = new Set<string>();
  const revoked = new Set<string>();
  let inFlight = 0;
  const fetch = async (request: Request) => {
    inFlight++;
    sent.push({ at: clock.now(), inFlight, place: unitPlace() ?? -1, request: `${request.method} ${request.url}` });
    try {
      const res = await app.fetch(request);
      const path = new URL(request.url).pathname;
      if (request.method === 'POST' && res.status === 201)
        created.add(String(valueAt(await res.clone().json(), lifecycle.idPointer)));
      if (request.method === 'DELETE' && res.status < 300) revoked.add(decodeURIComponent(path.split('/').at(-1)!));
      return res;
    } finally {
      inFlight--;
    }
  };
  const { outcome } = await runSuite({
    baseUrl: REFERENCE_BASE,
    fetch,
    allowWrites: true,
    dredd: false,
    env: fixtureEnv(),
    promises: false,
    clock,
  });
  const checks = outcome.reports.flatMap((r) => r.results.map((c) => `${c.operationId} ${c.check}: ${c.status}`));
  return { outcome, clock, sent, created, revoked, checks };
}

describe('a whole run in lanes against the documented rate limits (a virtual clock: no real second waited)', () => {
  const name =
    'requests go out on other counters while a sender waits for its window; two interleavings make one report, in ' +
    'one order; every key the lanes created is revoked; a target that never makes it wait gets the sequential run';
  test(name, async () => {
    const early = await limitedRun(5, 'documented');
    const late = await limitedRun(35, 'documented');
    const unlimited = await limitedRun(5, undefined);
    for (const run of [early, late]) {
      const duringAWait = run.sent.filter(({ at }) => run.clock.waits.some((w) => at > w.at && at < w.at + w.ms));
      // Sequential sending would send nothing while it waits: here the other counters keep going.
      expect(duringAWait.length, 'requests sent while a sender waited').toBeGreaterThan(20);
      expect(run.created.size).toBeGreaterThan(0);
      expect([...run.created].filter((id) => !run.revoked.has(id))).toEqual([]);
    }
    expect(late.checks).toEqual(early.checks);
    // Two starts in the minute make two interleavings, with one report order.
    expect(early.sent.map((s) => s.request)).not.toEqual(late.sent.map((s) => s.request));
    // A target that never makes the suite wait gets the sequential run: never two requests at once, every request
    // of a unit before any of the next (the pre-flight's and the cleanup's are no unit's); a limited one interleaves.
    const inOrder = (run: typeof early) =>
      run.sent
        .map((s) => s.place)
        .filter((p) => p >= 0)
        .every((p, i, places) => i === 0 || p >= places[i - 1]!);
    expect(unlimited.clock.waits).toEqual([]);
    expect(Math.max(...unlimited.sent.map((s) => s.inFlight))).toBe(1);
    expect(inOrder(unlimited)).toBe(true);
    expect(inOrder(early)).toBe(false);
  }, 60_000);
});
