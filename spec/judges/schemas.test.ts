// The spec's schemas compiled for judging: a body against its declared schema, the error
// body, Content-Type, the declared headers, at every level.
import { describe, expect, it } from 'vitest';
import { loadModel } from '../model.ts';
import { mediaType } from './exchange.ts';
import { type Answer, Schemas } from './schemas.ts';

const model = loadModel();
const judge = new Schemas(model);
const json = { 'content-type': 'application/json' };
const limits = { 'x-ratelimit-limit': '20', 'x-ratelimit-remaining': '19', 'x-ratelimit-reset': '1795456260' };
const answer = (status: number, body: unknown, headers: Record<string, string> = { ...json, ...limits }): Answer => ({
  status,
  headers,
  body: typeof body === 'string' ? body : JSON.stringify(body),
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
    const strict = new Schemas(model, 'interface');
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
