import { describe, expect, it } from 'vitest';
import { JudgeContext } from '../../../spec/judges/judge.ts';
import { loadModel } from '../../../spec/model.ts';
import { mockFindings } from './findings.ts';

const findingsOf = () => mockFindings(JudgeContext.of(loadModel()));
const get = (target: string, headers: Record<string, string> = {}) => ({ method: 'GET', target, headers });

describe("the mock's findings", () => {
  it('are the request judges, as warnings with their hint; nothing found is undefined', () => {
    const findings = findingsOf();
    expect(findings(get('/api/v0.1/servers/find?sortBy=users'))).toEqual([
      expect.objectContaining({
        judge: 'unknown-parameter',
        level: 'warning',
        hint: expect.stringContaining("'sort'"),
      }),
    ]);
    expect(findings(get('/api/v0.1/servers/find?sort=users'))).toBeUndefined();
  });

  it('a request judged again finds the same; what the judges read of it besides the target still counts', () => {
    const findings = findingsOf();
    const target = '/api/v0.1/user/apikeys';
    expect(findings(get(target, { authorization: 'Bearer' }))?.map((f) => f.judge)).toEqual(['malformed-credential']);
    expect(findings(get(target))).toBeUndefined();
    expect(findings(get(target, { authorization: 'Bearer' }))?.map((f) => f.judge)).toEqual(['malformed-credential']);
    expect(findings(get(target, { authorization: 'Bearer sk_live_abc' }))).toBeUndefined();
    const body = { method: 'POST', target, headers: { 'content-type': 'application/json' } };
    expect(findings({ ...body, body: '{"name":"a","colour":"red"}' })?.map((f) => f.judge)).toEqual([
      'unknown-body-field',
    ]);
    expect(findings({ ...body, body: '{"name":"a"}' })).toBeUndefined();
  });

  it("a bare GET's memory is its own: the same target by another method is judged as that method", () => {
    const findings = findingsOf();
    const target = '/api/v0.1/servers/find?sortBy=users';
    const asGet = findings(get(target));
    expect(asGet?.map((f) => f.judge)).toEqual(['unknown-parameter']);
    const asPost = findingsOf()({ method: 'POST', target, headers: {} });
    expect(findings({ method: 'POST', target, headers: {} })).toEqual(asPost);
    expect(asPost).not.toEqual(asGet);
    expect(findings(get(target))).toEqual(asGet);
  });

  it('remember a bounded number of requests: a flood of distinct targets is judged each, right', () => {
    const findings = findingsOf();
    for (let i = 0; i < 2000; i++) {
      expect(findings(get(`/api/v0.1/servers/find?sortBy${i}=1`))?.[0]?.why).toContain(`'sortBy${i}'`);
    }
    expect(findings(get('/api/v0.1/servers/find?sortBy0=1'))?.[0]?.why).toContain("'sortBy0'");
  });
});
