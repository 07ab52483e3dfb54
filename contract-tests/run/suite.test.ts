// The run's own promises, in process against the reference server: what it refuses,
// what --only, --provenance, --strict and --spec select, that it writes only when
// allowed, and that every key it created is gone when it ends, even when it is stopped
// half-way.
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { describe, expect, test } from 'vitest';
import { loadSpec } from '../../spec/load.ts';
import { createReferenceApp } from '../reference-server/app.ts';
import { REFERENCE_BASE, fixtureEnv, referenceFetch, runAgainstReference } from '../reference-server/in-process.ts';
import { summary } from '../reports/outcome.ts';
import { runSuite } from './suite.ts';

const checks = (o: Awaited<ReturnType<typeof runSuite>>['outcome']) =>
  o.reports.flatMap((r) => r.results.map((x) => ({ op: r.operationId, ...x })));

describe('what a run refuses (exit 2, nothing checked)', () => {
  test('a target that is not the mock, without credentials: the fixture credentials do not apply', async () => {
    const { outcome } = await runSuite({ baseUrl: REFERENCE_BASE, fetch: referenceFetch(), dredd: false, env: {} });
    expect(outcome).toMatchObject({
      exitCode: 2,
      refusal: expect.stringContaining(
        `refusing to test ${REFERENCE_BASE} without credentials: it does not identify as the mock (GET /__mock/info)`,
      ),
    });
  });

  test('an unknown --only operation, naming the known ones; a selection with nothing at that level', async () => {
    expect((await runAgainstReference('none', { only: ['nope'] })).outcome.refusal).toMatch(
      /^--only: no operation nope in the spec; known: findServers, /,
    );
    expect(
      (await runAgainstReference('none', { only: ['listApiKeys'], provenance: 'interface' })).outcome.refusal,
    ).toBe(
      'nothing was checked: --only listApiKeys with --provenance interface selects no check (every part it would rely on is softer than interface)',
    );
  });

  test('a spec that cannot be read', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'spec-')), 'broken.yaml');
    writeFileSync(file, 'openapi: 3.0.3\npaths: [');
    expect((await runAgainstReference('none', { spec: file })).outcome.refusal).toMatch(/^--spec .*broken\.yaml: /);
  });
});

describe('what a run selects', () => {
  test('--provenance interface checks only what the interface promises', async () => {
    const { outcome } = await runAgainstReference('none', { only: ['findServers'], provenance: 'interface' });
    expect(outcome.exitCode).toBe(0);
    const all = checks(outcome);
    expect(new Set(all.map((c) => c.provenance))).toEqual(new Set(['interface']));
    expect(all.map((c) => c.check)).toContain(
      "negative: query limit=501 (above maximum 500) -> 400 with the error body naming 'limit'",
    );
    expect(all.filter((c) => /^(sample|meaning|paging|headers|hygiene): /.test(c.check))).toEqual([]);
  });

  test('--strict fails a run whose checks were skipped; without it the same run passes', async () => {
    // Only an API key: every check that needs the session cookie is skipped.
    const env = { CONTRACT_API_KEY: fixtureEnv().CONTRACT_API_KEY! };
    const [lenient, strict] = await Promise.all(
      [false, true].map((s) => runAgainstReference('none', { only: ['listApiKeys'], env, strict: s })),
    );
    expect(lenient!.outcome.exitCode).toBe(0);
    expect(summary(lenient!.outcome)).toMatch(
      /skipped: auth: a valid session -> 200 \(no session: set CONTRACT_SESSION_COOKIE\)/,
    );
    expect(strict!.outcome.exitCode).toBe(1);
    expect(summary(strict!.outcome)).toMatch(
      /^FAILED: \d+ checks run, 0 failed, \d+ skipped \(2 unavoidable\); \d+ skips? fails? the run under --strict$/m,
    );
  });

  test('writes stay off on a target that is not the mock without --allow-writes: nothing is created or revoked', async () => {
    const methods = new Set<string>();
    const reference = referenceFetch();
    const { outcome } = await runSuite({
      baseUrl: REFERENCE_BASE,
      fetch: (r) => {
        methods.add(r.method);
        return reference(r);
      },
      dredd: false,
      env: fixtureEnv(),
      only: ['listRegions', 'createApiKey'],
    });
    expect(outcome.exitCode, summary(outcome)).toBe(0);
    expect(outcome.settings).toEqual(
      expect.arrayContaining([
        '  writes: off (the target is not the mock)',
        expect.stringMatching(/credentials: .* \(from environment\)/),
      ]),
    );
    expect(summary(outcome)).toMatch(
      /skipped: keys: the secret is in the create answer \(writes are off \(the target is not the mock\); pass --allow-writes/,
    );
    // PUT is refused (a method the path does not declare); a CORS preflight writes nothing.
    expect([...methods].sort()).toEqual(['GET', 'OPTIONS', 'PUT']);
  });

  test('--spec: another copy of the spec, its operations renamed, is what the run replays; the key checks follow its links', async () => {
    const doc = loadSpec();
    doc.paths['/user/apikeys']!.post.operationId = 'mintKey';
    doc.paths['/user/apikeys/{id}']!.delete.operationId = 'dropKey';
    doc.paths['/user/apikeys']!.post.responses['201'].links.revokeTheNewKey.operationId = 'dropKey';
    const file = join(mkdtempSync(join(tmpdir(), 'spec-')), 'renamed.yaml');
    writeFileSync(file, dump(doc));
    const { outcome } = await runAgainstReference('none', { spec: file, only: ['mintKey', 'dropKey'] });
    expect(outcome.exitCode, summary(outcome)).toBe(0);
    expect(outcome.settings[0]).toBe(`Contract suite: renamed.yaml against ${REFERENCE_BASE}`);
    const names = checks(outcome)
      .filter((c) => c.status === 'pass')
      .map((c) => `${c.op} ${c.check}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'mintKey keys: the secret is in the create answer',
        'dropKey keys: a revoked key stops working (401)',
        'mintKey auth: a valid session -> 201',
      ]),
    );
  });
});

describe('a run stopped half-way', () => {
  test('sends nothing more but the cleanup: every key it created is gone, and its report says it was stopped', async () => {
    const app = createReferenceApp('none');
    const session = { Cookie: `sls_session=${fixtureEnv().CONTRACT_SESSION_COOKIE}` };
    const listed = async () =>
      (
        (await (await app.fetch(new Request(`${REFERENCE_BASE}/user/apikeys`, { headers: session }))).json()) as {
          keys: { name: string | null }[];
        }
      ).keys;
    const before = (await listed()).length;
    const stop = new AbortController();
    let created = 0;
    const fetch = async (request: Request) => {
      const res = await app.fetch(request);
      if (request.method === 'POST' && res.status === 201 && ++created === 5) stop.abort('SIGTERM');
      return res;
    };
    const { outcome } = await runSuite({
      baseUrl: REFERENCE_BASE,
      fetch,
      dredd: false,
      env: fixtureEnv(),
      allowWrites: true,
      signal: stop.signal,
    });
    expect(created).toBe(5);
    expect(await listed()).toHaveLength(before);
    expect((await listed()).filter((k) => k.name?.startsWith('contract-test-'))).toEqual([]);
    expect(outcome.exitCode).toBe(1);
    expect(checks(outcome).find((c) => c.check === 'suite: the run finished')).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/^the run was stopped \(SIGTERM\) before every check ran/),
    });
    expect(checks(outcome).find((c) => c.op === 'cleanup')).toBeUndefined();
  });
});
