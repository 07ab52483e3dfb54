// The registry over whole exchanges, as the proxy, the fuzzer and the suite hand them in:
// which judges speak, at what level, and what a finding carries.
import { describe, expect, it } from 'vitest';
import { loadModel } from '../model.ts';
import type { Exchange } from './exchange.ts';
import { findingsOf, JudgeContext, judgeExchange } from './registry.ts';
import { exchange, JSON_TYPE, LIMIT_HEADERS } from '../testing/exchanges.ts';

const model = loadModel();
const ctx = JudgeContext.of(model);
const names = (ex: Exchange, c = ctx) => findingsOf(ex, c).map((f) => f.judge);
const regions = { unique_regions: 0, total_servers: 0, regions: [] };

describe('the registry on one exchange', () => {
  it('finds nothing in a declared answer with its body and headers, a well-formed error, a preflight', () => {
    expect(names(exchange('GET /api/v0.1/metadata/regions', 200, regions))).toEqual([]);
    expect(names(exchange('GET /api/v0.1/nope', 404, { success: false, message: 'Not Found: no route' }))).toEqual([]);
    const limited = { success: false, message: 'Rate limit exceeded. Try again in 3 seconds.' };
    const headers = { ...JSON_TYPE, ...LIMIT_HEADERS, 'retry-after': '3' };
    expect(names(exchange('GET /api/v0.1/servers/find', 429, limited, { headers }))).toEqual([]);
    expect(names(exchange('OPTIONS /api/v0.1/servers/find', 204, '', { headers: {} }))).toEqual([]);
  });

  it(
    'reads the path as the mock routes it: dot segments resolved, percent-decoding, exact case, no trailing ' + 'slash',
    () => {
      const notFound = { success: false, message: 'Not Found: no route for GET /api/v0.1/status/ping/' };
      expect(names(exchange('GET /api/v0.1/status/ping/.', 404, notFound))).toEqual([]);
      expect(names(exchange('GET /api/v0.1/status/ping/%2e', 404, notFound))).toEqual([]);
      expect(names(exchange('GET /api/v0.1/status/ping/example.org', 404, notFound))).toEqual(['schema']);
      const broken = { displayed: 1, total: 1, results: [{ port: 'x' }] };
      // The same answer, asked in four spellings: the operation's, or a path the API does not have.
      expect(names(exchange('GET /api/v0.1/servers/%66ind', 200, broken))).toEqual(['schema']);
      for (const path of ['/servers/find/', '/Servers/Find', '//servers/find']) {
        expect(names(exchange(`GET /api/v0.1${path}`, 200, broken)), path).toEqual(['routing']);
      }
    },
  );

  it('reports a 5xx, unless the sender says it asked for that status', () => {
    const failed = exchange('GET /api/v0.1/metadata/regions', 500, {
      success: false,
      message: 'Internal Server Error: boom',
    });
    expect(names(failed)).toEqual(['server-error']);
    expect(names({ ...failed, known: { askedStatus: 500 } })).toEqual([]);
    // A Prefer header is no excuse: only the mock knows it honours one.
    const preferred = exchange(
      'GET /api/v0.1/metadata/regions',
      500,
      { success: false, message: 'Internal Server Error: x' },
      {
        request: { Prefer: 'code=500' },
      },
    );
    expect(names(preferred)).toEqual(['server-error']);
  });

  it('reports a body that is not JSON, or not labelled so', () => {
    expect(names(exchange('GET /api/v0.1/metadata/regions?region=zz', 400, '', { headers: LIMIT_HEADERS }))).toEqual([
      'json',
    ]);
    const plain = { 'content-type': 'text/plain' };
    expect(
      names(exchange('GET /api/v0.1/x', 404, { success: false, message: 'Not Found: x' }, { headers: plain })),
    ).toEqual(['json']);
  });

  it('reports an error out of shape, or without its reason phrase', () => {
    expect(names(exchange('GET /api/v0.1/x', 404, { error: 'bad' }))).toEqual(['error-body']);
    expect(names(exchange('GET /api/v0.1/x', 404, { success: false, message: 'no such thing' }))).toEqual([
      'error-body',
    ]);
  });

  it('reports a declared answer that breaks its schema, lacks its headers, or a success it does not declare', () => {
    expect(names(exchange('GET /api/v0.1/metadata/regions', 200, { ...regions, unique_regions: '1' }))).toEqual([
      'schema',
    ]);
    expect(names(exchange('GET /api/v0.1/metadata/regions', 200, regions, { headers: JSON_TYPE }))).toEqual([
      'headers',
    ]);
    expect(names(exchange('GET /api/v0.1/metadata/regions', 201, regions))).toEqual(['declared-status']);
  });

  it('holds a timestamp to format date-time: no zone fails; relativeTime=true replaces the format', () => {
    const example = model.byId.get('findServers')!.responses.get(200)!.examples.get('page') as { results: object[] };
    const row = (last_ping: string) => ({ ...example.results[0], last_ping });
    const page = (lastPing: string) => ({ displayed: 1, total: 1, filtered: 0, results: [row(lastPing)] });
    const schemaErrors = (target: string, lastPing: string) =>
      findingsOf(exchange(target, 200, page(lastPing)), ctx).flatMap((f) => f.evidence?.schemaErrors ?? []);
    expect(schemaErrors('GET /api/v0.1/servers/find', '2024-08-26T05:30:29.000Z')).toEqual([]);
    expect(schemaErrors('GET /api/v0.1/servers/find', '2024-08-26T05:30:29')).toEqual([
      'body.results.*.last_ping must match format "date-time"',
    ]);
    expect(schemaErrors('GET /api/v0.1/servers/find', '2 hours ago')).toHaveLength(1);
    expect(schemaErrors('GET /api/v0.1/servers/find?relativeTime=true', '2 hours ago')).toEqual([]);
    // Sent off, the field is the switch's to judge: relative text is `switches`' finding, not the schema's.
    expect(schemaErrors('GET /api/v0.1/servers/find?relativeTime=false', '2 hours ago')).toEqual([]);
    expect(names(exchange('GET /api/v0.1/servers/find?relativeTime=false', 200, page('2 hours ago')))).toEqual([
      'switches',
    ]);
    // A timestamp without its zone is no relative text: the switch says nothing of it.
    expect(names(exchange('GET /api/v0.1/servers/find?relativeTime=false', 200, page('2024-08-26T05:30:29')))).toEqual(
      [],
    );
  });

  it('gives each finding the level of the promise it breaks, and cuts what a level does not hold', () => {
    const levels = (ex: Exchange, c = ctx) => findingsOf(ex, c).map((f) => `${f.judge} ${f.level}`);
    const rows = { displayed: 1, total: 1, results: [{ port: 'x' }] };
    // The search is the interface's; its rows are observed; the rate-limit headers observed.
    expect(levels(exchange('GET /api/v0.1/servers/find', 200, rows, { headers: JSON_TYPE }))).toEqual([
      'schema observed',
      'headers observed',
    ]);
    expect(levels(exchange('GET /api/v0.1/servers/find', 500, 'boom', { headers: {} }))).toEqual([
      'server-error interface',
      'json interface',
    ]);
    const strict = JudgeContext.of(model, 'interface');
    expect(levels(exchange('GET /api/v0.1/metadata/regions', 200, { unique_regions: '1' }), strict)).toEqual([]);
  });

  it('lists the judges that applied, passes included', () => {
    const verdicts = judgeExchange(exchange('GET /api/v0.1/metadata/regions', 200, regions), ctx);
    expect(verdicts.map((v) => v.judge.name)).toEqual([
      'readable',
      'server-error',
      'success',
      'declared-status',
      'json',
      'schema',
      'headers',
      'hygiene',
    ]);
    expect(verdicts.every((v) => v.findings.length === 0)).toBe(true);
  });

  it('an answer the client could not use fails readable, one defect per kind; the body judges do not run on it', () => {
    const cut = exchange('GET /api/v0.1/metadata/regions', 200, '');
    cut.answer.unreadable = { kind: 'cut', detail: 'the connection closed after 10 of 52 bytes' };
    const verdicts = judgeExchange(cut, ctx);
    expect(verdicts.map((v) => v.judge.name)).toEqual([
      'readable',
      'server-error',
      'success',
      'declared-status',
      'headers',
    ]);
    expect(findingsOf(cut, ctx).map((f) => [f.judge, f.why])).toEqual([
      ['readable', 'status 200: the connection closed after 10 of 52 bytes'],
    ]);
    const defects = (['x-foo', 'x-bar'] as const).map((e) => {
      const odd = exchange('GET /api/v0.1/metadata/regions', 200, '');
      odd.answer.unreadable = { kind: 'unknown-encoding', detail: `encoded as ${e}` };
      return findingsOf(odd, ctx)[0]!.defect;
    });
    expect(defects[0]).toBe(defects[1]);
  });
});
