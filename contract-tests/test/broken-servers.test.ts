// Proof that the suite can fail: the reference server with no defect must pass every
// check; with each defect, the suite must fail and the summary must name it (the failing
// check and the words that say what is wrong). A full suite run is a few seconds of CPU,
// so defects that do not touch each other share a run: each named failure must then
// appear in its own run and in no other, which ties it to its defect.
import { afterAll, describe, expect, test } from 'vitest';
import { DEFECTS, startReferenceServer, type Defect, type RunningServer } from '../broken/reference-server.ts';
import { runContract, type CliRun } from './helpers.ts';

interface Named {
  operation: string;
  check: RegExp;
  why: RegExp;
}

/** What the summary must say for each defect. */
const NAMED: Record<Exclude<Defect, 'none'>, Named[]> = {
  'auth-not-enforced': [{ operation: 'listApiKeys', check: /^auth: no credentials -> 401/, why: /status 200, expected 401/ }],
  'wrong-401-message': [{ operation: 'listApiKeys', check: /^auth: an unknown API key -> 401/, why: /body\.message is "Unauthorised", expected it to start with 'Unauthorized'/ }],
  'missing-field': [{ operation: 'findServers', check: /^Dredd: GET \/servers\/find -> 200/, why: /Missing required property: port/ }],
  'wrong-type': [{ operation: 'findServers', check: /^Dredd: GET \/servers\/find -> 200/, why: /At '\/results\/0\/port' Invalid type: string \(expected integer\)/ }],
  'limit-ignored': [{ operation: 'findServers', check: /^paging: results\.length is at most limit/, why: /results\.length is \d+, more than limit=3: limit is ignored/ }],
  'secret-in-list': [{ operation: 'createApiKey', check: /^keys: a created key's secret never appears in the list/, why: /listed key\(s\) carry a 'secret' field/ }],
  'wrong-status': [{ operation: 'createApiKey', check: /^Dredd: POST \/user\/apikeys -> 201/, why: /Expected status code '201', but got '200'/ }],
  'nulls-past-page-one': [{ operation: 'findServers', check: /^sample: every row of every sampled page matches the spec's schema/, why: /&page=[2-9]\d*\): results\[\d+\]\.players_online must be integer/ }],
  'false-as-true': [
    { operation: 'findServers', check: /^default: noFilter=false answers like noFilter left out/, why: /with noFilter=false the body's keys change: -filtered/ },
    { operation: 'findServers', check: /^default: favicon=false answers like favicon left out/, why: /with favicon=false the rows change: .*\+favicon/ },
  ],
  'wrong-default-sort': [{ operation: 'findServers', check: /^sort: \(no parameters\): rows in the default order/, why: /last_ping ".*" comes after last_ping ".*" \(descending expected\)/ }],
  'ignored-filter': [{ operation: 'findServers', check: /^meaning: org matches a part of asn_name/, why: /\d+ of \d+ rows break it, e\.g\. .*asn_name/ }],
  'motd-raw': [{ operation: 'findServers', check: /^meaning: motd matches a part of motd_stripped across § colour codes of motd/, why: /no row at all, but .* satisfies it/ }],
  'total-counts-hidden': [
    { operation: 'findServers', check: /^sample: total equals the rows reachable by paging/, why: /total is \d+ but paging .* reached \d+ distinct rows/ },
    { operation: 'findServers', check: /^meaning: noFilter=true shows the hidden rows/, why: /total is \d+ with noFilter=true, but \d+ \+ filtered \d+ = \d+ without it/ },
  ],
  'sql-500': [
    { operation: 'findServers', check: /^negative: query minUsers=abc \(not an integer\) -> 400/, why: /status 500, expected 400/ },
    { operation: 'findServers', check: /^hygiene: no answer leaks/, why: /SQL text: .*You have an error in your SQL syntax/ },
    { operation: 'findServers', check: /^hygiene: no answer leaks/, why: /stack trace: .*Sequence\.js:47:14/ },
  ],
  'html-404': [{ operation: '(no operation)', check: /^errors: an unknown path -> 404 with the JSON error body/, why: /Content-Type is 'text\/html.*expected application\/json/ }],
  '404-wrong-method': [{ operation: 'findServers', check: /^errors: PUT \/servers\/find \(not declared\) -> 405 with Allow: GET/, why: /status 404, expected 405/ }],
  'out-of-range-accepted': [
    { operation: 'findServers', check: /^negative: query limit=501 \(above maximum 500\) -> 400/, why: /status 200, expected 400/ },
    { operation: 'findServers', check: /^negative: query sort=zzzzz \(not one of users, version, address, port, updated\) -> 400/, why: /status 200, expected 400/ },
  ],
  'limit-dependent-count': [{ operation: 'listVersions', check: /^meaning: limit cuts the rows and leaves unique_versions alone/, why: /unique_versions is \d+ with limit=\d+ but \d+ without: it must not depend on limit/ }],
  'bare-error-body': [{ operation: 'findServers', check: /^negative: query limit=abc \(not an integer\) -> 400/, why: /body must have property 'success'; body must have property 'message'/ }],
};

/** Defects that share a run: none of them hides or imitates another's failure. */
const GROUPS: Defect[][] = [
  ['none'],
  ['auth-not-enforced', 'missing-field', 'html-404'],
  ['wrong-401-message', 'wrong-type', '404-wrong-method'],
  ['limit-ignored', 'secret-in-list', 'motd-raw'],
  ['wrong-status', 'nulls-past-page-one', 'sql-500'],
  ['false-as-true', 'wrong-default-sort', 'bare-error-body'],
  ['total-counts-hidden', 'out-of-range-accepted', 'ignored-filter', 'limit-dependent-count'],
];

interface Failure {
  operation: string;
  check: string;
  why: string;
}

/** The failures a summary lists: each `x check` line under its operation, with its `why:` line. */
function failures(stdout: string): Failure[] {
  const out: Failure[] = [];
  let operation = '';
  for (const line of stdout.split('\n')) {
    const op = /^(?:PASS|FAIL|SKIP)  (.+?)\s{2,}/.exec(line);
    if (op) operation = op[1]!;
    const x = /^ {6}x (.*)$/.exec(line);
    if (x) out.push({ operation, check: x[1]!, why: '' });
    const why = /^ {10}why: +(.*)$/.exec(line);
    if (why && out.length) out[out.length - 1]!.why = why[1]!;
  }
  return out;
}

const names = (f: Failure, n: Named) => f.operation === n.operation && n.check.test(f.check) && n.why.test(f.why);

const servers: RunningServer[] = [];
const runs = new Map<string, Promise<CliRun>>();
const key = (group: Defect[]) => group.join('+');

/**
 * Each run is a Dredd run plus a few hundred requests. They start when the file starts,
 * two at a time (the machine has two cores), and each test awaits its own.
 */
function schedule(groups: Defect[][], parallel = 2): void {
  const queue = [...groups];
  const settle = new Map<string, (run: Promise<CliRun>) => void>();
  for (const g of groups) runs.set(key(g), new Promise<CliRun>((resolve) => settle.set(key(g), (run) => resolve(run))));
  const worker = async (): Promise<void> => {
    for (let group = queue.shift(); group; group = queue.shift()) {
      const run = (async () => {
        const server = await startReferenceServer(group);
        servers.push(server);
        return runContract(['--base-url', server.baseUrl]);
      })();
      settle.get(key(group))!(run);
      await run.catch(() => undefined);
    }
  };
  for (let i = 0; i < parallel; i++) void worker();
}

schedule(GROUPS);

afterAll(async () => {
  await Promise.allSettled([...runs.values()]);
  await Promise.all(servers.map((s) => s.close()));
});

describe('the suite against deliberately broken servers', () => {
  test('every defect is in exactly one run', () => {
    const grouped = GROUPS.flat().filter((d) => d !== 'none').sort();
    expect(grouped).toEqual(Object.keys(DEFECTS).filter((d) => d !== 'none').sort());
  });

  test('the reference server without a defect passes every check', async () => {
    const result = await runs.get('none')!;
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
          expect(found.some((f) => names(f, n)), `${n.operation}: ${n.check} / ${n.why}\n${result.stdout}`).toBe(true);
          // The same failure in no other run: it is this defect's doing.
          for (const other of GROUPS.filter((g) => g !== group)) {
            const elsewhere = failures((await runs.get(key(other))!).stdout).filter((f) => names(f, n));
            expect(elsewhere, `${defect}'s failure also appears with ${key(other)}`).toEqual([]);
          }
        }
        // Each failure shows the request, what was expected and what came back.
        expect(result.stdout).toMatch(/request: .*\n\s+expected: .*\n\s+got: /);
      });
    }
  }
}, 240_000);
