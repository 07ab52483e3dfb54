// An override is checked once, the same for mock.use() and POST /__mock/overrides: every
// problem named (with its near miss), a body held to the spec's schema for its status,
// and offContract the only way past that check.
import { describe, expect, it } from 'vitest';
import { model } from '../../testing/test-app.ts';
import { ResponseChecker } from '../self-check/self-check.ts';
import { OverrideError, parseOverride } from './override.ts';

const ctx = { model, checker: () => new ResponseChecker(model) };
const problems = (raw: unknown): string[] => {
  try {
    parseOverride(raw, 1, ctx);
  } catch (err) {
    if (err instanceof OverrideError) return err.problems;
    throw err;
  }
  return [];
};

describe('parseOverride', () => {
  it(
    'takes an operation by operationId, or by method and path (a template or a concrete path, with or without ' +
      'the base)',
    () => {
      expect(parseOverride({ operationId: 'findServers', status: 500 }, 1, ctx).op?.operationId).toBe('findServers');
      expect(parseOverride({ method: 'get', path: '/servers/find', delay: 5 }, 1, ctx).op?.operationId).toBe(
        'findServers',
      );
      const concrete = parseOverride({ method: 'DELETE', path: '/api/v0.1/user/apikeys/key_x', status: 404 }, 1, ctx);
      expect([concrete.op?.operationId, concrete.path]).toEqual(['revokeApiKey', '/user/apikeys/key_x']);
      expect(parseOverride({ method: 'DELETE', path: '/user/apikeys/{id}', status: 404 }, 1, ctx).path).toBeUndefined();
    },
  );

  it('names every problem, with the near miss', () => {
    expect(problems({ operationId: 'findServer', stauts: 500 })).toEqual([
      "unknown field 'stauts': did you mean 'status'?",
      'operationId "findServer" is not an operation of the spec: did you mean \'findServers\'?',
      'an override needs something to do: a status, an example, a body, a delay or a fault',
    ]);
    expect(problems({ operationId: 'findServers', when: { query: { sortBy: 'users' } }, status: 500 })).toEqual([
      "when.query: 'sortBy' is not a parameter of findServers: did you mean 'sort'?",
    ]);
    expect(problems({ method: 'PUT', path: '/servers/find', status: 500 })[0]).toMatch(
      /^PUT \/servers\/find is no operation/,
    );
    expect(problems([])).toEqual(['an override is a JSON object, not an array']);
    expect(problems({ operationId: 'findServers', delay: -1, times: 0, rate: 2, fault: 'explode' })).toEqual([
      'delay is whole milliseconds from 0 to 60000, got -1',
      'fault is one of reset, truncate, no-answer, got "explode"',
      'an override needs something to do: a status, an example, a body, a delay or a fault',
      'times is a whole number from 1 (once), got 0',
      'rate is a share of the requests, above 0 and at most 1, got 2',
    ]);
  });

  it('answers only a status the operation declares, with an example it has', () => {
    expect(problems({ operationId: 'listRegions', status: 418 })).toEqual([
      'listRegions does not declare a 418 response (declared: 200, 400, 429, 500)',
    ]);
    expect(problems({ operationId: 'findServers', example: 'nothing' })).toEqual([
      'example "nothing" is not an example of findServers\'s 200 response (examples: page, gaps, empty)',
    ]);
    const conflict = parseOverride({ operationId: 'createApiKey', status: 409 }, 1, ctx);
    expect(conflict.answer).toMatchObject({ status: 409, example: true });
  });

  it("holds a given body to the spec's schema for its status, and answers it off the contract only when told", () => {
    expect(problems({ operationId: 'findServers', body: { results: [] } })).toEqual([
      "the body is not what findServers may answer with 200: body must have property 'displayed'; body must " +
        "have property 'total'" +
        ' (offContract: true answers it anyway, marked as off the contract)',
    ]);
    const allowed = parseOverride(
      { operationId: 'findServers', body: { results: [] }, offContract: 'old backend' },
      1,
      ctx,
    );
    expect(allowed.answer?.offContract).toMatch(/^old backend: body must have property 'displayed'/);
    const undeclared = parseOverride({ operationId: 'listRegions', status: 418, offContract: true }, 1, ctx);
    expect(undeclared.answer?.offContract).toBe('allowed by the override: listRegions does not declare 418');
    const valid = parseOverride(
      { operationId: 'findServers', body: { displayed: 0, total: 0, filtered: 0, results: [] } },
      1,
      ctx,
    );
    expect(valid.answer).toEqual({
      status: 200,
      body: { displayed: 0, total: 0, filtered: 0, results: [] },
      example: false,
      headers: {},
    });
  });

  it(
    'refuses what cannot go together: a reset with an ' + 'answer, a seed without a rate, headers without an answer',
    () => {
      expect(problems({ operationId: 'findServers', fault: 'reset', status: 500 })).toEqual([
        "fault 'reset' sends no answer: leave out status, example and body",
      ]);
      expect(problems({ fault: 'reset', seed: 3 })).toEqual([
        'seed goes with rate: it draws which requests the rate takes',
      ]);
      expect(problems({ operationId: 'findServers', delay: 5, headers: { 'X-A': 'b' } })).toEqual([
        'headers go with an answer: give a status, an example or a body',
      ]);
      expect(problems({ operationId: 'findServers', status: 500, headers: { 'Content-Length': '1' } })).toEqual([
        "headers: Content-Length is the mock's to write, not an override's",
      ]);
      expect(problems({ status: 500 })).toEqual([
        'an answer needs its operation: give operationId, or method and path',
      ]);
    },
  );
});
