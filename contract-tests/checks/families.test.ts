// Proof that the check families can fail: the reference server with no defect must pass
// every check; with each defect, the run must fail and name it (the failing check, the
// level of the promise it breaks, and the words that say what is wrong). Defects that do
// not touch each other share a run: each named failure must then appear in its own run
// and in no other, which ties it to its defect. Every run names one cause per defect and
// no other, with every failure under one of them, and so does a server with many defects
// across the families. The same servers, checked with --provenance interface, must show
// the defects that break interface promises and nothing else; and no report names a
// check twice. Every run is in process (the reference server's app.fetch): no socket.
import { describe, expect, test } from 'vitest';
import type { Provenance } from '../../spec/provenance.ts';
import { DEFECTS, type Defect } from '../reference-server/defects.ts';
import { runAgainstReference } from '../reference-server/in-process.ts';
import { CAUSES, GROUPS, INTERFACE, MANY, NAMED, names, type Failure } from '../reference-server/named-defects.ts';
import { junit } from '../reports/junit.ts';
import { summary, type RunOutcome } from '../reports/outcome.ts';

/** The interface-only runs: every defect that breaks no interface promise on one server (nothing may fail), and each group that has one. */
const QUIET: Defect[] = GROUPS.flat().filter((d) => d !== 'none' && !INTERFACE[d]);
const INTERFACE_GROUPS: Defect[][] = [QUIET, ...GROUPS.filter((g) => g.some((d) => INTERFACE[d]))];

const runs = new Map<string, Promise<RunOutcome>>();
/** One run per group and level, each started once, the first time a test asks for it. */
function outcome(group: Defect[], level: Provenance = 'assumed'): Promise<RunOutcome> {
  const key = `${level}:${group.join('+')}`;
  if (!runs.has(key))
    runs.set(
      key,
      runAgainstReference(group, { provenance: level }).then((r) => r.outcome),
    );
  return runs.get(key)!;
}

function failures(o: RunOutcome): Failure[] {
  return o.reports.flatMap((r) =>
    r.results
      .filter((x) => x.status === 'fail')
      .map((x) => ({ operation: r.operationId, check: x.check, level: x.provenance, why: x.message ?? '' })),
  );
}

describe('the check families against deliberately broken servers', () => {
  test('every defect is in exactly one run, and the interface-only runs cover every defect', () => {
    const all = Object.keys(DEFECTS)
      .filter((d) => d !== 'none')
      .sort();
    expect([...new Set(INTERFACE_GROUPS.flat())].sort()).toEqual(all);
    expect(
      GROUPS.flat()
        .filter((d) => d !== 'none')
        .sort(),
    ).toEqual(all);
  });

  test('the reference server without a defect passes every check', async () => {
    const o = await outcome(['none']);
    expect(failures(o)).toEqual([]);
    expect(o.exitCode).toBe(0);
    expect(summary(o)).toMatch(/^PASSED: \d+ checks run, 0 failed/m);
  });

  for (const group of GROUPS.filter((g) => g[0] !== 'none')) {
    for (const defect of group as Exclude<Defect, 'none'>[]) {
      // The first of these waits for every group's run, each started when first asked for: on a busy
      // machine that takes longer than one run's test should.
      test(`${defect}: ${DEFECTS[defect]}`, { timeout: 120_000 }, async () => {
        const o = await outcome(group);
        expect(o.exitCode).toBe(1);
        const found = failures(o);
        for (const n of NAMED[defect]) {
          expect(
            found.some((f) => names(f, n) && f.level === n.level),
            `${n.operation}: [${n.level}] ${n.check} / ${n.why}\n${summary(o)}`,
          ).toBe(true);
          // The same failure in no other run: it is this defect's doing.
          for (const other of GROUPS.filter((g) => g !== group)) {
            expect(
              failures(await outcome(other)).filter((f) => names(f, n)),
              `${defect}'s failure also appears with ${other.join('+')}`,
            ).toEqual([]);
          }
        }
        // Each failure shows the request, what was expected and what came back.
        expect(summary(o)).toMatch(/request: .*\n\s+expected: .*\n\s+got: /);
        expect(summary(o)).toMatch(/^Failures by level: interface \d+, observed \d+, assumed \d+$/m);
      });
    }
  }

  test('a check failing on several requests is one test case: no suite of any report names a check twice', async () => {
    for (const group of GROUPS) {
      const xml = junit(await outcome(group));
      for (const [, suite, body] of xml.matchAll(/<testsuite name="([^"]+)"(.*?)<\/testsuite>/gs)) {
        const cases = [...body!.matchAll(/<testcase [^>]*name="([^"]+)"/g)].map((m) => m[1]);
        expect(
          cases.filter((c, i) => cases.indexOf(c) !== i),
          `${group.join('+')}: ${suite}`,
        ).toEqual([]);
      }
    }
  });
});

/** Each defect's cause, and the causes no defect accounts for. */
function causesOf(
  o: RunOutcome,
  defects: Exclude<Defect, 'none'>[],
): { byDefect: Map<string, string[]>; unexplained: string[] } {
  const titles = o.causes.map((c) => c.title);
  const byDefect = new Map(defects.map((d) => [d, titles.filter((t) => CAUSES[d].test(t))]));
  return { byDefect, unexplained: titles.filter((t) => !defects.some((d) => CAUSES[d].test(t))) };
}

describe('one cause per defect, every failure under one', () => {
  for (const [label, group] of [
    ...GROUPS.filter((g) => g[0] !== 'none').map((g) => [g.join(', '), g] as const),
    [`many defects across the families (${MANY.length})`, MANY] as const,
  ]) {
    test(label, async () => {
      const defects = group as Exclude<Defect, 'none'>[];
      const o = await outcome(defects);
      const { byDefect, unexplained } = causesOf(o, defects);
      const text = o.causes.map((c) => `[${c.level}] ${c.title}: ${c.failures.length}`).join('\n');
      for (const [d, titles] of byDefect) expect(titles, `${d} in\n${text}`).toHaveLength(1);
      expect(unexplained, text).toEqual([]);
      expect(o.causes).toHaveLength(defects.length);
      // No failure is left outside a cause, and none is in two.
      const failing = o.reports.flatMap((r) => r.results.filter((x) => x.status === 'fail'));
      const under = o.causes.flatMap((c) => c.failures);
      expect(under).toHaveLength(failing.length);
      expect(new Set(under)).toEqual(new Set(failing));
      expect(summary(o)).not.toMatch(/other failure/i);
      // Each defect's named failure is under that defect's cause.
      for (const d of defects) {
        const cause = o.causes.find((c) => CAUSES[d].test(c.title))!;
        for (const n of NAMED[d]) {
          const f = cause.failures.find((x) =>
            names({ operation: x.operationId, check: x.check, level: x.provenance, why: x.message ?? '' }, n),
          );
          expect(f, `${d}: ${n.check} is not under "${cause.title}"`).toBeDefined();
        }
      }
    });
  }

  test('the summary leads with the causes, each with its level, count and one example that can be repeated; the detail follows', async () => {
    const o = await outcome(MANY);
    const text = summary(o);
    const causes = text.indexOf('Causes, worst level first:');
    expect(causes).toBeGreaterThan(0);
    expect(text.indexOf('Every check, per operation:')).toBeGreaterThan(causes);
    const listed = [...text.matchAll(/^ {2}(\d+)\. \[(interface|observed|assumed)\] (.+): (\d+) failures?$/gm)];
    expect(listed.map((m) => m[3])).toEqual(o.causes.map((c) => c.title));
    expect(listed.map((m) => Number(m[4]))).toEqual(o.causes.map((c) => c.failures.length));
    expect(text.match(/^ {7}e\.g\. \[/gm)).toHaveLength(o.causes.length);
    // Every failure of the target's carries a curl line; its cause is named beside it.
    const failing = o.reports.flatMap((r) => r.results.filter((x) => x.status === 'fail'));
    expect(failing.filter((f) => !f.repro?.startsWith('curl -i '))).toEqual([]);
    expect(text.match(/^ {10}cause: {4}\d+\. /gm)).toHaveLength(failing.length);
  });

  test("the expected line says what that check expects, its parameter and its status, not the spec's example message", async () => {
    const o = await outcome(MANY);
    const negatives = o.reports.flatMap((r) =>
      r.results.filter((x) => x.status === 'fail' && x.check.startsWith('negative: ')),
    );
    expect(negatives.length).toBeGreaterThan(5);
    for (const f of negatives) {
      const [, name = '', value = ''] = /^negative: \w+ (\w+)=(\S+)/.exec(f.check)!;
      expect(f.expected, f.check).toMatch(
        new RegExp(
          `^400 with the error body, its message naming '${name}' \\(${name}=${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `,
        ),
      );
    }
    // The spec's example of a 400 is about 'limit' alone: no check quotes it.
    expect(o.reports.flatMap((r) => r.results).filter((x) => /must be integer/.test(x.expected ?? ''))).toEqual([]);
  });
});

describe('--provenance interface against the broken servers: only the defects that break interface promises', () => {
  test('the defects that break none: every interface check passes', async () => {
    const o = await outcome(QUIET, 'interface');
    expect(failures(o)).toEqual([]);
    expect(o.exitCode).toBe(0);
  });

  for (const group of INTERFACE_GROUPS.slice(1)) {
    const breaking = group.filter((d) => INTERFACE[d]);
    test(`${group.join(', ')}: only ${breaking.join(', ')} shows, and only at interface level`, async () => {
      const o = await outcome(group, 'interface');
      expect(o.exitCode).toBe(1);
      const found = failures(o);
      expect(found.length).toBeGreaterThan(0);
      for (const f of found) {
        expect(f.level).toBe('interface');
        expect(
          breaking.some((d) => INTERFACE[d]!.some((n) => names(f, n))),
          `${f.operation}: ${f.check} / ${f.why} is no interface break of ${breaking.join(', ')}`,
        ).toBe(true);
      }
      for (const d of breaking as Exclude<Defect, 'none'>[])
        for (const n of NAMED[d].filter((x) => x.level === 'interface'))
          expect(
            found.some((f) => names(f, n)),
            `${d}: ${n.check}`,
          ).toBe(true);
      expect(summary(o)).toMatch(/^Failures by level: interface [1-9]\d*, observed 0, assumed 0$/m);
    });
  }
});

describe('failures that share a cause are one finding', () => {
  test('a missing route and a missing header family: two causes, every failure under one of them', async () => {
    const o = await outcome(['missing-route', 'no-rate-limit-headers']);
    const [route, headers] = o.causes;
    expect(route).toMatchObject({
      level: 'observed',
      title: expect.stringMatching(
        /^route missing: GET \/metadata\/versions answers 404 to every request \(\d+ answers\)$/,
      ),
    });
    expect(route!.failures.length).toBeGreaterThanOrEqual(5);
    expect(route!.failures.map((f) => f.check)).toContain('public: a request with a valid API key still succeeds');
    expect(route!.failures.every((f) => f.operationId === 'listVersions')).toBe(true);
    // 8 operations declare the headers on the statuses they answered (listVersions answered none it declares).
    expect(headers).toMatchObject({
      level: 'observed',
      title:
        'response headers X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset missing from every answer of 8 operations',
    });
    expect(headers!.failures).toHaveLength(8);
    expect(o.causes).toHaveLength(2);
    expect(o.causes.flatMap((c) => c.failures)).toHaveLength(
      o.reports.flatMap((r) => r.results).filter((r) => r.status === 'fail').length,
    );
  });

  test('a wrong content type everywhere and refused credentials: worst level first', async () => {
    const o = await outcome(['text-plain-json', 'refuses-credentials']);
    expect(o.causes.map((c) => `${c.level} ${c.title}`)).toEqual([
      "interface Content-Type is 'text/plain' where the spec promises application/json (on every answer)",
      'assumed valid credentials refused: every request with the API key, the session cookie, the forbidden API key (CONTRACT_FORBIDDEN_API_KEY) got 401',
    ]);
    expect(summary(o)).toContain(
      'check that CONTRACT_API_KEY, CONTRACT_SESSION_COOKIE, CONTRACT_FORBIDDEN_API_KEY are valid on this target',
    );
  });

  test('one wrong field type: the checks it fails are one schema cause', async () => {
    const o = await outcome(['wrong-401-message', 'wrong-type', '404-wrong-method']);
    const schema = o.causes.find((c) => c.title.startsWith('schema: '));
    expect(schema).toMatchObject({
      level: 'observed',
      title: expect.stringMatching(
        /^schema: body\.results\.\*\.port must be integer \(the same error in \d+ checks\)$/,
      ),
    });
    expect(schema!.failures.map((f) => `${f.operationId}  ${f.check}`)).toEqual(
      expect.arrayContaining([
        'findServers  schema: the body matches the schema its status declares',
        "findServers  sample: every row of every sampled page matches the spec's schema",
      ]),
    );
  });
});
