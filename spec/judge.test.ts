// The one judge of an answer: a whole exchange as the fuzzer and a proxy ask it, and its
// parts as the contract suite and the mock's self-check ask them, at every level.
import { describe, expect, it } from 'vitest';
import { AnswerJudge, mediaType, type Answer } from './judge.ts';
import { loadModel } from './model.ts';

const model = loadModel();
const judge = new AnswerJudge(model);
const json = { 'content-type': 'application/json' };
const limits = { 'x-ratelimit-limit': '20', 'x-ratelimit-remaining': '19', 'x-ratelimit-reset': '1795456260' };
const answer = (status: number, body: unknown, headers: Record<string, string> = { ...json, ...limits }): Answer => ({
  status,
  headers,
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
const kinds = (method: string, path: string, a: Answer, req?: Record<string, string>) =>
  judge.exchange({ request: { method, path, headers: req }, response: a }).map((f) => f.kind);

describe('a whole exchange (the fuzzer, a validation proxy)', () => {
  it('accepts a declared answer with its body and headers, and a well-formed error', () => {
    expect(
      kinds('GET', '/api/v0.1/metadata/regions', answer(200, { unique_regions: 0, total_servers: 0, regions: [] })),
    ).toEqual([]);
    expect(
      kinds('GET', '/api/v0.1/nope', answer(404, { success: false, message: 'Not Found: no route' }, json)),
    ).toEqual([]);
    expect(
      kinds(
        'GET',
        '/api/v0.1/servers/find',
        answer(
          429,
          { success: false, message: 'Rate limit exceeded. Try again in 3 seconds.' },
          { ...json, ...limits, 'retry-after': '3' },
        ),
      ),
    ).toEqual([]);
    expect(kinds('OPTIONS', '/api/v0.1/servers/find', answer(204, ''))).toEqual([]);
  });

  it('reads the path as a server does: dot segments removed', () => {
    const notFound = answer(404, { success: false, message: 'Not Found: no route for GET /api/v0.1/status/ping/' });
    expect(kinds('GET', '/api/v0.1/status/ping/.', notFound)).toEqual([]);
    expect(kinds('GET', '/api/v0.1/status/ping/%2e', notFound)).toEqual([]);
    expect(kinds('GET', '/api/v0.1/status/ping/example.org', notFound)).toEqual(['schema']);
  });

  it('reports a 5xx, unless the request asked for it with Prefer', () => {
    const failed = answer(500, { success: false, message: 'Internal Server Error: boom' }, json);
    expect(kinds('GET', '/api/v0.1/metadata/regions', failed)).toEqual(['5xx']);
    expect(kinds('GET', '/api/v0.1/metadata/regions', failed, { Prefer: 'code=500' })).toEqual([]);
  });

  it('reports a body that is not JSON, or not labelled so', () => {
    expect(kinds('GET', '/api/v0.1/metadata/regions', answer(400, '', {}))).toEqual(['not-json']);
    expect(
      kinds('GET', '/x', answer(400, { success: false, message: 'Bad Request: x' }, { 'content-type': 'text/plain' })),
    ).toEqual(['not-json']);
  });

  it('reports an error out of shape or without its reason phrase', () => {
    expect(kinds('GET', '/x', answer(400, { error: 'bad' }, json))).toEqual(['error-shape']);
    expect(kinds('GET', '/x', answer(404, { success: false, message: 'no such thing' }, json))).toEqual([
      'error-shape',
    ]);
  });

  it('reports a declared answer that breaks its schema or lacks a declared header, and an undeclared success', () => {
    expect(
      kinds('GET', '/api/v0.1/metadata/regions', answer(200, { unique_regions: '1', total_servers: 0, regions: [] })),
    ).toEqual(['schema']);
    expect(
      kinds(
        'GET',
        '/api/v0.1/metadata/regions',
        answer(200, { unique_regions: 0, total_servers: 0, regions: [] }, json),
      ),
    ).toEqual(['header', 'header', 'header']);
    expect(
      kinds('GET', '/api/v0.1/metadata/regions', answer(201, { unique_regions: 0, total_servers: 0, regions: [] })),
    ).toEqual(['undeclared']);
  });

  it('gives each finding the level of the promise it breaks', () => {
    const levels = (path: string, a: Answer) =>
      judge
        .exchange({ request: { method: 'GET', path }, response: a })
        .map((f) => `${f.kind} ${f.level}${f.keys ? ` ${f.keys.join(',')}` : ''}`);
    // The search is the interface's; its rows are observed; the rate-limit headers observed.
    expect(
      levels('/api/v0.1/servers/find', answer(200, { displayed: 1, total: 1, results: [{ port: 'x' }] }, json)),
    ).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^schema observed .*body\.results\.\*\.port must be integer/),
        'header observed X-RateLimit-Limit',
      ]),
    );
    expect(levels('/api/v0.1/servers/find', answer(500, 'boom', {}))).toEqual(['5xx interface', 'not-json interface']);
    expect(
      AnswerJudge.of(model, 'interface').exchange({
        request: { method: 'GET', path: '/api/v0.1/metadata/regions' },
        response: answer(200, { unique_regions: '1' }, json),
      }),
    ).toEqual([]);
  });
});

describe('the parts the suite and the self-check ask', () => {
  const find = model.byId.get('findServers')!;
  const row = { displayed: 1, total: 1, results: [{ port: 'x' }] };

  it('a body against the declared schema: the problem, and its key without the row', () => {
    expect(judge.body(find, 200, answer(200, row))).toEqual({
      problems: [expect.stringContaining('body.results.0.port must be integer')],
      schemaErrors: expect.arrayContaining(['body.results.*.port must be integer']),
    });
    expect(judge.body(find, 200, { status: 200, headers: {}, body: '<html>' }).problems).toEqual([
      'body is not JSON: <html>',
    ]);
    expect(
      judge.body(model.byId.get('listRegions')!, 200, {
        status: 200,
        headers: {},
        body: '',
        json: { unique_regions: 0, total_servers: 0, regions: [] },
      }),
    ).toEqual({ problems: [], schemaErrors: [] });
  });

  it('the error body, exactly', () => {
    expect(judge.errorBody(answer(400, { success: false, message: 'Bad Request: x' })).problems).toEqual([]);
    expect(judge.errorBody(answer(400, { error: 'x' })).problems).toEqual([
      "body must have property 'success'; body must have property 'message'",
    ]);
  });

  it('JSON where the spec declares a body, said so in Content-Type (a charset is fine)', () => {
    expect(judge.contentType(find, answer(200, row, { 'content-type': 'application/json; charset=UTF-8' }))).toEqual(
      [],
    );
    expect(judge.contentType(find, answer(200, row, { 'content-type': 'text/plain; charset=UTF-8' }))).toEqual([
      "Content-Type is 'text/plain; charset=UTF-8', expected application/json",
    ]);
    expect(judge.contentType(find, answer(200, row, {}))).toEqual([
      'Content-Type is missing, expected application/json',
    ]);
    expect(mediaType('Application/JSON; charset=utf-8')).toBe('application/json');
  });

  it('the declared headers: missing, or a value their schema refuses ("19" is an integer in a header)', () => {
    expect(judge.headers(find, 200, answer(200, row))).toEqual([]);
    expect(
      judge
        .headers(find, 200, answer(200, row, { ...limits, 'x-ratelimit-remaining': 'many' }))
        .map((h) => [h.name, h.value]),
    ).toEqual([['X-RateLimit-Remaining', 'many']]);
    expect(judge.headers(find, 200, answer(200, row, json)).map((h) => h.name)).toEqual([
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
    ]);
  });

  it('at a level, holds an answer only to what that level promises', () => {
    const strict = new AnswerJudge(model, 'interface');
    // The search's body is observed, not promised by the interface: nothing of it is checked there.
    expect(strict.body(find, 200, answer(200, row)).problems).toEqual([]);
    expect(strict.bodyLevel(find, 200)).toBeUndefined();
    expect(judge.bodyLevel(find, 200)).toBe('observed');
    // The 400 body the interface does promise.
    expect(strict.errorBodyLevel()).toBe('interface');
    expect(strict.errorBody(answer(400, { error: 'x' })).problems).toHaveLength(1);
    expect(strict.headers(find, 200, answer(200, row, json))).toEqual([]);
  });
});
