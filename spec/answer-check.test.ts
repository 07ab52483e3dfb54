// The fuzz runs' judge on its own: what it accepts and what it reports.
import { describe, expect, it } from 'vitest';
import { AnswerChecker, type Answer } from './answer-check.ts';
import { loadModel } from './model.ts';

const checker = new AnswerChecker(loadModel());
const json = { 'content-type': 'application/json' };
const limits = { 'x-ratelimit-limit': '20', 'x-ratelimit-remaining': '19', 'x-ratelimit-reset': '1795456260' };
const answer = (status: number, body: unknown, headers: Record<string, string> = { ...json, ...limits }): Answer => ({ status, headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
const kinds = (method: string, path: string, a: Answer, req?: Record<string, string>) => checker.check(method, path, a, req).map((f) => f.kind);

describe('AnswerChecker', () => {
  it('accepts a declared answer with its body and headers, and a well-formed error', () => {
    expect(kinds('GET', '/api/v0.1/metadata/regions', answer(200, { unique_regions: 0, total_servers: 0, regions: [] }))).toEqual([]);
    expect(kinds('GET', '/api/v0.1/nope', answer(404, { success: false, message: 'Not Found: no route' }, json))).toEqual([]);
    expect(kinds('GET', '/api/v0.1/servers/find', answer(429, { success: false, message: 'Rate limit exceeded. Try again in 3 seconds.' }, { ...json, ...limits, 'retry-after': '3' }))).toEqual([]);
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
    expect(kinds('GET', '/x', answer(400, { success: false, message: 'Bad Request: x' }, { 'content-type': 'text/plain' }))).toEqual(['not-json']);
  });

  it('reports an error out of shape or without its reason phrase', () => {
    expect(kinds('GET', '/x', answer(400, { error: 'bad' }, json))).toEqual(['error-shape']);
    expect(kinds('GET', '/x', answer(404, { success: false, message: 'no such thing' }, json))).toEqual(['error-shape']);
  });

  it('reports a declared answer that breaks its schema or lacks a declared header, and an undeclared success', () => {
    expect(kinds('GET', '/api/v0.1/metadata/regions', answer(200, { unique_regions: '1', total_servers: 0, regions: [] }))).toEqual(['schema']);
    expect(kinds('GET', '/api/v0.1/metadata/regions', answer(200, { unique_regions: 0, total_servers: 0, regions: [] }, json))).toEqual(['schema', 'schema', 'schema']);
    expect(kinds('GET', '/api/v0.1/metadata/regions', answer(201, { unique_regions: 0, total_servers: 0, regions: [] }))).toEqual(['undeclared']);
  });
});
