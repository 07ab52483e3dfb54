// The suite's building blocks: the spec-to-JSON-Schema conversion that closes Dredd's
// type hole, the auth matrix read from the spec, masking, the never-write rule, JUnit.
import { createRequire } from 'node:module';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadSpec } from '../../spec/load.ts';
import { runAuthMatrix, matrixCases } from '../lib/auth-matrix.ts';
import { parseArgs, reportFlags, type RunConfig } from '../lib/config.ts';
import { SuiteContext } from '../lib/context.ts';
import { toJsonSchema } from '../../spec/json-schema.ts';
import { describeHeaders, redact, rememberSecret } from '../lib/mask.ts';
import { nameFixtureSecrets, resolveCredentials } from '../lib/credentials.ts';
import { loadFixtures } from '../../fixtures/load.ts';
import { loadModel } from '../../spec/model.ts';
import { junit } from '../lib/junit.ts';
import type { RunOutcome } from '../lib/report.ts';
import { readResults } from '../lib/results.ts';
import { startReferenceServer, type RunningServer } from '../broken/reference-server.ts';

const doc = loadSpec();
const fixtureValue = (name: string) => loadFixtures().credentials.find((c) => c.name === name)!.value;
// Dredd's own validator, to show the hole and the fix on exactly what Dredd runs.
const gavel = createRequire(import.meta.url)('gavel') as { validate(expected: object, real: object): { valid: boolean } };

function config(overrides: Partial<RunConfig> = {}): RunConfig {
  const dir = mkdtempSync(join(tmpdir(), 'contract-unit-'));
  return {
    baseUrl: 'http://127.0.0.1:9/api/v0.1', only: [], provenance: 'assumed', allowWrites: true, writesReason: 'loopback target',
    credentials: { apiKey: 'sls_test_valid0000000000000000000000000000000a11ce', session: 'sess_test_valid_alice_0000000000000001', forbiddenKey: 'sls_test_forbidden000000000000000000000000000000b0b', source: 'fixtures/auth.json' },
    resultsFile: join(dir, 'r.jsonl'), ledgerFile: join(dir, 'l.jsonl'), statsFile: join(dir, 's.json'), runId: 'unit', budget: 400, pace: true, ...overrides,
  };
}

describe("closing Dredd's type hole", () => {
  const row = { displayed: 1, total: 1, results: [{ port: 'x' }] };
  const example = JSON.stringify({ displayed: 1, total: 1, results: [{ port: 25565 }] });
  const real = { statusCode: '200', headers: { 'content-type': 'application/json' }, body: JSON.stringify(row) };

  test('Gavel with only the example (what Dredd does for OpenAPI 3) lets "port": "x" through', () => {
    expect(gavel.validate({ statusCode: '200', headers: { 'content-type': 'application/json' }, body: example }, real).valid).toBe(true);
  });

  test('with the spec schema as bodySchema, Gavel rejects it', () => {
    const bodySchema = toJsonSchema(doc, { $ref: '#/components/schemas/FindResponse' });
    expect(gavel.validate({ statusCode: '200', headers: {}, body: example, bodySchema }, real).valid).toBe(false);
  });

  test('$refs are inlined, nullable becomes a null type, OpenAPI-only keys go', () => {
    const schema = toJsonSchema(doc, { $ref: '#/components/schemas/ServerCore' });
    expect(JSON.stringify(schema)).not.toMatch(/\$ref|nullable|x-provenance|"example"/);
    expect(schema.properties.city.type).toEqual(['string', 'null']);
    expect(JSON.stringify(schema.properties.region)).toContain('"EU"');
  });

  // Real rows hold nulls and odd values (the spec's "gaps" example); `region` is a
  // nullable $ref, written as anyOf [Region, NullValue] since OpenAPI 3.0 allows no
  // `nullable` beside a $ref. Gavel (what Dredd runs) must read it as the spec means it.
  test('the real-world gaps pass Gavel with the converted schema; a wrong region or uuid does not', () => {
    const bodySchema = toJsonSchema(doc, { $ref: '#/components/schemas/FindResponse' });
    const gaps = doc.paths['/servers/find']!.get.responses['200'].content['application/json'].examples.gaps.value;
    const check = (body: unknown) =>
      gavel.validate({ statusCode: '200', headers: {}, body: JSON.stringify(body), bodySchema }, { statusCode: '200', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).valid;
    const withRow = (over: Record<string, unknown>) => ({ ...gaps, results: [{ ...gaps.results[0], ...over }] });
    expect(gaps.results[0].region).toBeNull();
    expect(check(gaps)).toBe(true);
    expect(check(withRow({ region: 'EU' }))).toBe(true);
    expect(check(withRow({ region: 'XX' }))).toBe(false);
    expect(check(withRow({ region: 'null' }))).toBe(false);
    expect(check(withRow({ players: [{ uuid: 'not-a-uuid', name: 'Steve' }] }))).toBe(false);
    expect(check(withRow({ country_code: 'xx' }))).toBe(false);
  });

  test('--provenance interface cuts softer parts, and their required entries', () => {
    const schema = toJsonSchema(doc, { $ref: '#/components/schemas/FindResponse' }, 'interface');
    expect(schema.properties).toBeUndefined();
    const unauthorized = toJsonSchema(doc, doc.components.responses!.Unauthorized.content['application/json'].schema, 'interface');
    expect(JSON.stringify(unauthorized)).toContain('Unauthorized: Invalid API key or session');
  });
});

describe('the auth matrix comes from the spec', () => {
  const ctx = new SuiteContext(config());
  test('createApiKey: x-credentials [session] makes a valid API key a 403', () => {
    const cases = matrixCases(ctx, ctx.model.byId.get('createApiKey')!);
    expect(cases.map((c) => `${c.principal}:${c.status}`)).toEqual([
      'none:401', 'unknownKey:401', 'malformed:401', 'unknownSession:401', 'forbidden:403', 'apiKey:403', 'session:201',
    ]);
  });
  test('a public operation has no matrix', () => {
    expect(ctx.model.byId.get('findServers')!.schemes).toEqual([]);
  });
});

describe('never writes to a target unless allowed', () => {
  let server: RunningServer;
  const methods: string[] = [];
  const realFetch = globalThis.fetch;
  beforeAll(async () => {
    server = await startReferenceServer('none');
    globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
      methods.push(init?.method ?? 'GET');
      return realFetch(input, init);
    }) as typeof fetch;
  });
  afterAll(async () => {
    globalThis.fetch = realFetch;
    await server.close();
  });

  test('with writes off, POST and DELETE checks are skipped with the reason, and nothing is sent', async () => {
    const cfg = config({ baseUrl: server.baseUrl, allowWrites: false, writesReason: 'not a loopback target' });
    const ctx = new SuiteContext(cfg);
    await runAuthMatrix(ctx, ctx.model.byId.get('createApiKey')!, '/user/apikeys');
    await runAuthMatrix(ctx, ctx.model.byId.get('revokeApiKey')!, '/user/apikeys/key_2f9c1e7a4b');
    expect(methods).toEqual([]);
    const results = readResults(cfg.resultsFile);
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((r) => r.status === 'skip' && r.message?.includes('pass --allow-writes'))).toBe(true);
  });

  test('with writes on, the keys it made to aim at are removed again', async () => {
    const cfg = config({ baseUrl: server.baseUrl });
    const ctx = new SuiteContext(cfg);
    await runAuthMatrix(ctx, ctx.model.byId.get('revokeApiKey')!, '/user/apikeys/key_2f9c1e7a4b');
    const { removeOpenKeys } = await import('../lib/keys.ts');
    expect(await removeOpenKeys(ctx)).toEqual([]);
    expect(ctx.ledger.open()).toEqual([]);
    expect(readResults(cfg.resultsFile).filter((r) => r.status !== 'pass')).toEqual([]);
  });
});

describe('runner inputs and outputs', () => {
  test('the fixture credentials only for a target that identifies as the mock; the environment first', () => {
    const model = loadModel();
    expect(resolveCredentials({}, false, model)).toEqual({ source: 'none' });
    expect(resolveCredentials({}, true, model)).toEqual({ apiKey: fixtureValue('valid-key'), session: fixtureValue('valid-session'), forbiddenKey: fixtureValue('forbidden-key'), source: 'fixtures/auth.json' });
    expect(resolveCredentials({ CONTRACT_SESSION_COOKIE: 'sls_session=sess_real_1234567890abcdef' }, true, model)).toEqual({ session: 'sess_real_1234567890abcdef', source: 'environment' });
  });
  test('where the reports go, read even from flags that do not parse', () => {
    expect(reportFlags(['--bogus', '--reports', 'out', '--junit=x.xml'])).toEqual({ reports: 'out', junit: 'x.xml' });
    expect(parseArgs(['--strict', '--reports', 'r'])).toMatchObject({ strict: true, reports: 'r' });
  });
  test('flags and environment', () => {
    const o = parseArgs(['--only', 'findServers,listApiKeys', '--provenance=interface'], { CONTRACT_BASE_URL: 'http://x' });
    expect(o).toMatchObject({ baseUrl: 'http://x', only: ['findServers', 'listApiKeys'], provenance: 'interface', allowWrites: false });
    expect(() => parseArgs(['--provenance', 'maybe'])).toThrow(/interface, observed or assumed/);
    expect(parseArgs([], {}).budget).toBe(400);
    expect(parseArgs([], {}).pace).toBeUndefined(); // the runner decides: on, or off with --start-mock
    expect(parseArgs(['--budget', '50', '--pace', 'off'])).toMatchObject({ budget: 50, pace: false });
    expect(() => parseArgs(['--budget', '-1'])).toThrow("--budget must be a whole number of requests, got '-1'");
    expect(() => parseArgs(['--pace', 'maybe'])).toThrow("--pace must be on or off, got 'maybe'");
  });
  test('secrets are masked to a short prefix and their last 4 characters', () => {
    rememberSecret('sls_live_0123456789abcdef0123456789abcdef01234567');
    expect(redact('key sls_live_0123456789abcdef0123456789abcdef01234567 used')).toBe('key sls_live…4567 used');
    expect(redact('"secret":"sls_other_99999999999"')).toBe('"secret":"sls_…99"');
    expect(describeHeaders({ Authorization: 'Bearer sls_live_0123456789', Cookie: 'sls_session=sess_abcdefghijkl' })).toBe('Authorization: Bearer sls_…89, Cookie: sls_session=sess…kl');
    expect(describeHeaders({ Authorization: 'Bearer short' })).toBe('Authorization: Bearer …');
    expect(describeHeaders({ Authorization: 'Bearer sls_live_0123456789abcdef0123456789abcdef01234567' })).toBe('Authorization: Bearer sls_live…4567');
  });
  test('two credentials that share a prefix print differently, and neither is revealed', () => {
    const [a, b] = ['sls_live_7f3a9c0e11d24b6f8a5c3e7d9b1f2a4c6e8d0b2f', 'sls_live_7f3a9c0e11d24b6f8a5c3e7d9b1f2a4c6e8d9e1a'];
    rememberSecret(a);
    rememberSecret(b);
    const shown = redact(`first ${a}, then ${b}`);
    expect(shown).toBe('first sls_live…0b2f, then sls_live…9e1a');
    expect(shown).not.toContain('7f3a9c0e');
  });
  test('fixture credentials print as their names, so the valid, expired and revoked keys are told apart', () => {
    nameFixtureSecrets(loadModel());
    const keys = ['valid-key', 'expired-key', 'revoked-key'].map((name) => fixtureValue(name));
    // Same prefix and same last characters: only the name tells them apart.
    expect(new Set(keys.map((k) => `${k.slice(0, 8)}${k.slice(-4)}`)).size).toBe(1);
    expect(keys.map((k) => redact(`Bearer ${k}`))).toEqual(['Bearer [fixture valid-key]', 'Bearer [fixture expired-key]', 'Bearer [fixture revoked-key]']);
    expect(describeHeaders({ Cookie: `sls_session=${fixtureValue('valid-session')}` })).toBe('Cookie: sls_session=[fixture valid-session]');
  });
  const outcome = (results: RunOutcome['reports'][number]['results'], over: Partial<RunOutcome> = {}): RunOutcome => ({
    exitCode: 1, settings: [], reports: [{ operationId: 'op', results }], causes: [], single: [], figures: [], strict: false, startedAt: new Date('2026-03-01T12:00:00Z'), durationMs: 2500, ...over,
  });
  test('JUnit escapes and carries request, expected, got, and the time of each case, suite and run', () => {
    const xml = junit(outcome([{ operationId: 'op', check: 'a <b>', provenance: 'interface', status: 'fail', request: 'GET /x', expected: '401 "m"', actual: '200 &', message: 'status 200', ms: 42 }]));
    expect(xml).toContain('name="a &lt;b&gt; [interface]" time="0.042"');
    expect(xml).toContain('expected: 401 &quot;m&quot;');
    expect(xml).toContain('<failure message="status 200">');
    expect(xml).toMatch(/<testsuites name="contract" tests="1" failures="1" errors="0" skipped="0" timestamp="2026-03-01T12:00:00.000Z" time="2.500">/);
    expect(xml).toMatch(/<testsuite name="op" tests="1" failures="1" errors="0" skipped="0" time="0.042">/);
  });
  test('JUnit of a run that checked nothing: one test case in error saying why', () => {
    const xml = junit(outcome([], { exitCode: 2, refusal: 'cannot reach http://x: connection refused (ECONNREFUSED)', reports: [] }));
    expect(xml).toMatch(/tests="1" failures="0" errors="1"/);
    expect(xml).toContain('<error message="cannot reach http://x: connection refused (ECONNREFUSED)">');
  });
  test('--strict turns an avoidable skip into a JUnit failure, never an unavoidable one', () => {
    const results = [
      { operationId: 'op', check: 'keys: x', provenance: 'assumed' as const, status: 'skip' as const, message: 'no credentials' },
      { operationId: 'op', check: 'coverage: the declared 500', provenance: 'assumed' as const, status: 'skip' as const, message: 'cannot be provoked', unavoidable: true },
    ];
    expect(junit(outcome(results, { exitCode: 0 }))).toMatch(/failures="0" errors="0" skipped="2"/);
    const strict = junit(outcome(results, { strict: true }));
    expect(strict).toMatch(/failures="1" errors="0" skipped="1"/);
    expect(strict).toContain('<failure message="skipped, and --strict fails a skip: no credentials">');
  });
});
