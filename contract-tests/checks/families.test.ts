// Proof that the suite can fail: the reference server with no defect must pass every
// check; with each defect, the suite must fail and the summary must name it (the failing
// check, the level of the promise it breaks, and the words that say what is wrong). A
// full suite run is a few seconds of CPU, so defects that do not touch each other share
// a run: each named failure must then appear in its own run and in no other, which ties
// it to its defect. The same servers, checked with --provenance interface, must show
// the defects that break interface promises and nothing else; and failures that share a
// cause must be grouped into one finding.
// The reference server is not the mock: the runs pass it the fixture credentials as a
// QA engineer passes a deployment's own, and --allow-writes.
import { afterAll, describe, expect, test } from 'vitest';
import type { Provenance } from '../../spec/provenance.ts';
import { DEFECTS, startReferenceServer, type Defect, type RunningServer } from '../broken/reference-server.ts';
import { fixtureEnv, runContract, type CliRun } from './helpers.ts';

interface Named {
  operation: string;
  check: RegExp;
  why: RegExp;
  /** The level of the promise the failure breaks. */
  level: Provenance;
}

/** What the summary must say for each defect. */
const NAMED: Record<Exclude<Defect, 'none'>, Named[]> = {
  'auth-not-enforced': [{ operation: 'listApiKeys', check: /^auth: no credentials -> 401/, why: /status 200, expected 401/, level: 'assumed' }],
  'wrong-401-message': [{ operation: 'listApiKeys', check: /^auth: an unknown API key -> 401/, why: /body\.message is "Unauthorised", expected it to start with 'Unauthorized'/, level: 'assumed' }],
  'missing-field': [{ operation: 'findServers', check: /^Dredd: GET \/servers\/find -> 200 body matches FindResponse/, why: /body\.results\.0 must have property 'port'/, level: 'observed' }],
  'wrong-type': [{ operation: 'findServers', check: /^Dredd: GET \/servers\/find -> 200 body matches FindResponse/, why: /body\.results\.0\.port must be integer/, level: 'observed' }],
  'limit-ignored': [{ operation: 'findServers', check: /^paging: results\.length is at most limit/, why: /results\.length is \d+, more than limit=3: limit is ignored/, level: 'observed' }],
  'secret-in-list': [{ operation: 'createApiKey', check: /^keys: a created key's secret never appears in the list/, why: /listed key\(s\) carry a 'secret' field/, level: 'assumed' }],
  'wrong-status': [{ operation: 'createApiKey', check: /^Dredd: POST \/user\/apikeys -> 201/, why: /status 200, expected 201/, level: 'assumed' }],
  'nulls-past-page-one': [{ operation: 'findServers', check: /^sample: every row of every sampled page matches the spec's schema/, why: /&page=[2-9]\d*\): results\[\d+\]\.players_online must be integer/, level: 'observed' }],
  'false-as-true': [
    { operation: 'findServers', check: /^default: noFilter=false answers like noFilter left out/, why: /with noFilter=false the body's keys change: -filtered/, level: 'observed' },
    { operation: 'findServers', check: /^default: favicon=false answers like favicon left out/, why: /with favicon=false the rows change: .*\+favicon/, level: 'observed' },
  ],
  'wrong-default-sort': [{ operation: 'findServers', check: /^sort: \(no parameters\): rows in the default order/, why: /last_ping ".*" comes after last_ping ".*" \(descending expected\)/, level: 'observed' }],
  'ignored-filter': [{ operation: 'findServers', check: /^meaning: org matches a part of asn_name/, why: /\d+ of \d+ rows break it, e\.g\. .*asn_name/, level: 'observed' }],
  'motd-raw': [{ operation: 'findServers', check: /^meaning: motd matches a part of motd_stripped across § colour codes of motd/, why: /no row at all, but .* satisfies it/, level: 'observed' }],
  'total-counts-hidden': [
    { operation: 'findServers', check: /^sample: total equals the rows reachable by paging/, why: /total is \d+ but paging .* reached \d+ distinct rows/, level: 'observed' },
    { operation: 'findServers', check: /^meaning: noFilter=true shows the hidden rows/, why: /total is \d+ with noFilter=true, but \d+ \+ filtered \d+ = \d+ without it/, level: 'observed' },
  ],
  // A count that moves with the page, while page 1 asked again does not: a paging defect, not a live count.
  'total-per-page': [{ operation: 'findServers', check: /^sample: total is the same on every page of a query/, why: /total \d+ on page 1, \d+ on page \d+ \(page 1 again: \d+\)/, level: 'observed' }],
  'sql-500': [
    { operation: 'findServers', check: /^negative: query limit=abc \(not an integer\) -> 400/, why: /status 500, expected 400/, level: 'interface' },
    { operation: 'findServers', check: /^negative: query minUsers=abc \(not an integer\) -> 400/, why: /status 500, expected 400/, level: 'observed' },
    { operation: 'findServers', check: /^hygiene: no answer leaks/, why: /SQL text: .*You have an error in your SQL syntax/, level: 'assumed' },
    { operation: 'findServers', check: /^hygiene: no answer leaks/, why: /stack trace: .*Sequence\.js:47:14/, level: 'assumed' },
  ],
  'html-404': [{ operation: '(no operation)', check: /^errors: an unknown path -> 404 with the JSON error body/, why: /Content-Type is 'text\/html.*expected application\/json/, level: 'assumed' }],
  '404-wrong-method': [{ operation: 'findServers', check: /^errors: PUT \/servers\/find \(not declared\) -> 405 with Allow: GET/, why: /status 404, expected 405/, level: 'assumed' }],
  'out-of-range-accepted': [
    { operation: 'findServers', check: /^negative: query limit=501 \(above maximum 500\) -> 400/, why: /status 200, expected 400/, level: 'interface' },
    { operation: 'findServers', check: /^negative: query sort=zzzzz \(not one of users, version, address, port, updated\) -> 400/, why: /status 200, expected 400/, level: 'observed' },
  ],
  'limit-dependent-count': [{ operation: 'listVersions', check: /^meaning: limit cuts the rows and leaves unique_versions alone/, why: /unique_versions is \d+ with limit=\d+ but \d+ without: it must not depend on limit/, level: 'observed' }],
  'bare-error-body': [{ operation: 'findServers', check: /^negative: query limit=abc \(not an integer\) -> 400/, why: /body must have property 'success'; body must have property 'message'/, level: 'interface' }],
  'missing-route': [{ operation: 'listVersions', check: /^Dredd: GET \/metadata\/versions -> 200 as the spec says/, why: /status 404, expected 200/, level: 'observed' }],
  'no-rate-limit-headers': [{ operation: 'findServers', check: /^headers: every answer carries the headers its status declares/, why: /X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset missing from every one of its \d+ answers/, level: 'observed' }],
  'text-plain-json': [{ operation: 'findServers', check: /^Dredd: GET \/servers\/find -> 200 as the spec says/, why: /Content-Type is 'text\/plain; charset=UTF-8', expected application\/json/, level: 'interface' }],
  'refuses-credentials': [{ operation: 'listApiKeys', check: /^auth: a valid API key -> 200/, why: /status 401, expected 200/, level: 'assumed' }],
};

/** Every interface promise a defect breaks, each failure it may cause at that level: an interface-only run must show these and nothing else. */
const INTERFACE: Partial<Record<Defect, Omit<Named, 'level'>[]>> = {
  'sql-500': [{ operation: 'findServers', check: /^negative: query limit=abc/, why: /status 500, expected 400/ }],
  'out-of-range-accepted': [{ operation: 'findServers', check: /^negative: query limit=(0|501) /, why: /status 200, expected 400/ }],
  'bare-error-body': [{ operation: 'findServers', check: /^negative: query limit=/, why: /body must have property 'success'/ }],
  // Every JSON answer of the one interface operation says text/plain.
  'text-plain-json': [{ operation: 'findServers', check: /^(Dredd|negative|public): /, why: /Content-Type is 'text\/plain; charset=UTF-8'/ }],
};

/** Defects that share a run: none of them hides or imitates another's failure; at most one breaks an interface promise. */
const GROUPS: Defect[][] = [
  ['none'],
  ['auth-not-enforced', 'missing-field', 'html-404'],
  ['wrong-401-message', 'wrong-type', '404-wrong-method'],
  ['limit-ignored', 'secret-in-list', 'motd-raw'],
  ['wrong-status', 'nulls-past-page-one', 'sql-500', 'total-per-page'],
  ['false-as-true', 'wrong-default-sort', 'bare-error-body'],
  ['total-counts-hidden', 'out-of-range-accepted', 'ignored-filter', 'limit-dependent-count'],
  ['missing-route', 'no-rate-limit-headers'],
  ['text-plain-json', 'refuses-credentials'],
];

/** The interface-only runs: every defect that breaks no interface promise on one server (nothing may fail), and each group that has one. */
const QUIET: Defect[] = GROUPS.flat().filter((d) => d !== 'none' && !INTERFACE[d]);
const INTERFACE_GROUPS: Defect[][] = [QUIET, ...GROUPS.filter((g) => g.some((d) => INTERFACE[d]))];

interface Failure {
  operation: string;
  check: string;
  level: string;
  why: string;
}

/** The failures a summary lists: each `x [level] check` line under its operation, with its `why:` line, up to the verdict. */
function failures(stdout: string): Failure[] {
  const out: Failure[] = [];
  let operation = '';
  for (const line of stdout.split('\n')) {
    if (/^(PASSED|FAILED)/.test(line)) break;
    const op = /^(?:PASS|FAIL|SKIP)  (.+?)\s{2,}/.exec(line);
    if (op) operation = op[1]!;
    const x = /^ {6}x \[(\w+)\] (.*)$/.exec(line);
    if (x) out.push({ operation, level: x[1]!, check: x[2]!, why: '' });
    const why = /^ {10}why: +(.*)$/.exec(line);
    if (why && out.length) out[out.length - 1]!.why = why[1]!;
  }
  return out;
}

const names = (f: Failure, n: Omit<Named, 'level'>) => f.operation === n.operation && n.check.test(f.check) && n.why.test(f.why);

/** The causes a summary lists after its verdict: `[level] title: N failures`, with the checks under each. */
function causes(stdout: string): { level: string; title: string; count: number; checks: string[] }[] {
  const out: { level: string; title: string; count: number; checks: string[] }[] = [];
  const start = stdout.indexOf('\nCauses, worst level first:\n');
  if (start < 0) return out;
  for (const line of stdout.slice(start).split('\n').slice(2)) {
    const c = /^ {2}\[(\w+)\] (.*): (\d+) failures$/.exec(line);
    if (c) out.push({ level: c[1]!, title: c[2]!, count: Number(c[3]), checks: [] });
    else if (/^ {6}x /.test(line) && out.length) out[out.length - 1]!.checks.push(line.trim().slice(2));
    else if (!/^ {6}/.test(line)) break;
  }
  return out;
}

const servers: RunningServer[] = [];
const runs = new Map<string, Promise<CliRun>>();
const key = (group: Defect[], level = 'assumed') => `${level}:${group.join('+')}`;

/**
 * Each run is a Dredd run plus a few hundred requests. They start when the file starts,
 * two at a time (the machine has two cores), and each test awaits its own.
 */
function schedule(jobs: { group: Defect[]; level: Provenance }[], parallel = 2): void {
  const queue = [...jobs];
  const settle = new Map<string, (run: Promise<CliRun>) => void>();
  for (const j of jobs) runs.set(key(j.group, j.level), new Promise<CliRun>((resolve) => settle.set(key(j.group, j.level), (run) => resolve(run))));
  const worker = async (): Promise<void> => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const { group, level } = job;
      const run = (async () => {
        const server = await startReferenceServer(group);
        servers.push(server);
        return runContract(['--base-url', server.baseUrl, '--allow-writes', '--provenance', level], fixtureEnv());
      })();
      settle.get(key(group, level))!(run);
      await run.catch(() => undefined);
    }
  };
  for (let i = 0; i < parallel; i++) void worker();
}

schedule([...GROUPS.map((group) => ({ group, level: 'assumed' as const })), ...INTERFACE_GROUPS.map((group) => ({ group, level: 'interface' as const }))]);

afterAll(async () => {
  await Promise.allSettled([...runs.values()]);
  await Promise.all(servers.map((s) => s.close()));
});

describe('the suite against deliberately broken servers', () => {
  test('every defect is in exactly one run, and the interface-only runs cover every defect', () => {
    expect([...new Set(INTERFACE_GROUPS.flat())].sort()).toEqual(Object.keys(DEFECTS).filter((d) => d !== 'none').sort());
    const grouped = GROUPS.flat().filter((d) => d !== 'none').sort();
    expect(grouped).toEqual(Object.keys(DEFECTS).filter((d) => d !== 'none').sort());
  });

  test('the reference server without a defect passes every check', async () => {
    const result = await runs.get(key(['none']))!;
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^PASSED: \d+ checks run, 0 failed/m);
  });

  for (const group of GROUPS.filter((g) => g[0] !== 'none')) {
    for (const defect of group as Exclude<Defect, 'none'>[]) {
      test(`${defect}: ${DEFECTS[defect]}`, async () => {
        const result = await runs.get(key(group))!;
        expect(result.code, result.stdout + result.stderr).toBe(1);
        const found = failures(result.stdout);
        for (const n of NAMED[defect]) {
          expect(found.some((f) => names(f, n) && f.level === n.level), `${n.operation}: [${n.level}] ${n.check} / ${n.why}\n${result.stdout}`).toBe(true);
          // The same failure in no other run: it is this defect's doing.
          for (const other of GROUPS.filter((g) => g !== group)) {
            const elsewhere = failures((await runs.get(key(other))!).stdout).filter((f) => names(f, n));
            expect(elsewhere, `${defect}'s failure also appears with ${key(other)}`).toEqual([]);
          }
        }
        // Each failure shows the request, what was expected and what came back.
        expect(result.stdout).toMatch(/request: .*\n\s+expected: .*\n\s+got: /);
        expect(result.stdout).toMatch(/^Failures by level: interface \d+, observed \d+, assumed \d+$/m);
      });
    }
  }
}, 240_000);

describe('--provenance interface against the broken servers: only the defects that break interface promises', () => {
  test('the defects that break none: every interface check passes', async () => {
    const result = await runs.get(key(QUIET, 'interface'))!;
    expect(failures(result.stdout), result.stdout).toEqual([]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });

  for (const group of INTERFACE_GROUPS.slice(1)) {
    const breaking = group.filter((d) => INTERFACE[d]);
    test(`${group.join(', ')}: only ${breaking.join(', ')} shows, and only at interface level`, async () => {
      const result = await runs.get(key(group, 'interface'))!;
      expect(result.code, result.stdout + result.stderr).toBe(1);
      const found = failures(result.stdout);
      expect(found.length).toBeGreaterThan(0);
      for (const f of found) {
        expect(f.level).toBe('interface');
        expect(breaking.some((d) => INTERFACE[d]!.some((n) => names(f, n))), `${f.operation}: ${f.check} / ${f.why} is no interface break of ${breaking.join(', ')}`).toBe(true);
      }
      for (const d of breaking as Exclude<Defect, 'none'>[]) for (const n of NAMED[d].filter((x) => x.level === 'interface')) expect(found.some((f) => names(f, n)), `${d}: ${n.check}`).toBe(true);
      expect(result.stdout).toMatch(/^Failures by level: interface [1-9]\d*, observed 0, assumed 0$/m);
    });
  }
}, 240_000);

describe('failures that share a cause are one finding', () => {
  test('a missing route and a missing header family: two causes, every failure under one of them', async () => {
    const result = await runs.get(key(['missing-route', 'no-rate-limit-headers']))!;
    expect(result.stdout).toMatch(/^FAILED: \d+ checks run, (\d+) failed \(2 causes\), /m);
    const [route, headers] = causes(result.stdout);
    expect(route).toMatchObject({ level: 'observed', title: expect.stringMatching(/^route missing: GET \/metadata\/versions answers 404 to every request \(\d+ answers\)$/) });
    expect(route!.count).toBeGreaterThanOrEqual(5);
    expect(route!.checks).toContain('[observed] listVersions  Dredd: GET /metadata/versions -> 200 as the spec says');
    expect(route!.checks.every((c) => c.includes(' listVersions '))).toBe(true);
    // 8 operations declare the headers on the statuses they answered (listVersions answered none it declares).
    expect(headers).toMatchObject({ level: 'observed', title: 'response headers X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset missing from every answer of 8 operations', count: 8 });
    expect(route!.count + headers!.count).toBe(failures(result.stdout).length);
    expect(result.stdout).not.toContain('Other failures:');
  });

  test('a wrong content type everywhere and refused credentials: worst level first', async () => {
    const result = await runs.get(key(['text-plain-json', 'refuses-credentials']))!;
    const found = causes(result.stdout);
    expect(found.map((c) => `${c.level} ${c.title}`)).toEqual([
      "interface Content-Type is 'text/plain' where the spec promises application/json (on every answer)",
      'assumed valid credentials refused: every request with the API key, the session cookie, the forbidden API key (CONTRACT_FORBIDDEN_API_KEY) got 401',
    ]);
    expect(result.stdout).toContain('check that CONTRACT_API_KEY, CONTRACT_SESSION_COOKIE, CONTRACT_FORBIDDEN_API_KEY are valid on this target');
  });

  test('one wrong field type: the checks it fails are one schema cause', async () => {
    const result = await runs.get(key(['wrong-401-message', 'wrong-type', '404-wrong-method']))!;
    const schema = causes(result.stdout).find((c) => c.title.startsWith('schema: '));
    expect(schema).toMatchObject({ level: 'observed', title: expect.stringMatching(/^schema: body\.results\.\*\.port must be integer \(the same error in \d+ checks\)$/) });
    expect(schema!.checks).toEqual(expect.arrayContaining(['[observed] findServers  Dredd: GET /servers/find -> 200 body matches FindResponse', "[observed] findServers  sample: every row of every sampled page matches the spec's schema"]));
  });
}, 240_000);
