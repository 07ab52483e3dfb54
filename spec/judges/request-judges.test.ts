// The judges of a request alone: what a client sent that its operation does not have,
// each with what was probably meant. They owe no status; the mock runs them on every
// request it receives.
import { describe, expect, it } from 'vitest';
import { loadModel } from '../model.ts';
import { JudgeContext, judgeRequest } from './registry.ts';
import { nearMiss } from './request-judges.ts';

const ctx = JudgeContext.of(loadModel());
const KEY = 'sls_test_valid0000000000000000000000000000000a11ce';

function found(line: string, headers: Record<string, string> = {}, body?: string) {
  const [method, target] = line.split(' ') as [string, string];
  return judgeRequest({ request: { method, target, headers, ...(body !== undefined ? { body } : {}) } }, ctx).map(
    (f) => ({ judge: f.judge, why: f.why, hint: f.hint }),
  );
}

describe('the request judges', () => {
  it('find nothing in a request the spec describes, or in one to a path the API does not have', () => {
    expect(found('GET /api/v0.1/servers/find?limit=10&sort=users&version=1.20*')).toEqual([]);
    expect(found('GET /api/v0.1/user/apikeys', { authorization: `Bearer ${KEY}` })).toEqual([]);
    expect(found('POST /api/v0.1/user/apikeys', { 'content-type': 'application/json' }, '{"name":"ci"}')).toEqual([]);
    expect(found('GET /api/v0.1/servers/lost?sortBy=users')).toEqual([]);
  });

  it('name a query parameter the operation does not have, with the one meant', () => {
    expect(found('GET /api/v0.1/servers/find?sortBy=users&limt=5')).toEqual([
      {
        judge: 'unknown-parameter',
        why: "'sortBy' is not a parameter of findServers; the real service ignores it",
        hint: "did you mean 'sort'?",
      },
      {
        judge: 'unknown-parameter',
        why: "'limt' is not a parameter of findServers; the real service ignores it",
        hint: "did you mean 'limit'?",
      },
    ]);
  });

  it("say when a parameter is another operation's, and what this one takes when nothing is near", () => {
    const [other] = found('GET /api/v0.1/user/apikeys?sort=users', { authorization: `Bearer ${KEY}` });
    expect(other!.why).toBe(
      "'sort' is not a parameter of listApiKeys (it is one of findServers); the real service ignores it",
    );
    expect(other!.hint).toBe('listApiKeys takes no query parameters');
  });

  it('name a body field the schema lacks, with the field meant', () => {
    expect(found('POST /api/v0.1/user/apikeys', { 'content-type': 'application/json' }, '{"nmae":"ci"}')).toEqual([
      {
        judge: 'unknown-body-field',
        why: "the body's 'nmae' is not a field of createApiKey's body",
        hint: "did you mean 'name'?",
      },
    ]);
  });

  it('name a credential no scheme reads: a Basic header, a bearer placeholder, an empty session cookie', () => {
    expect(found('GET /api/v0.1/servers/find', { authorization: 'Basic YWxpY2U6c2VjcmV0' })).toEqual([
      {
        judge: 'malformed-credential',
        why: 'Authorization: Basic … is no credential any scheme of the spec reads, so the request carries none',
        hint: "send 'Authorization: Bearer <API key>'",
      },
    ]);
    expect(found('GET /api/v0.1/user/apikeys', { authorization: 'Bearer undefined' }).map((f) => f.judge)).toEqual([
      'malformed-credential',
    ]);
    // A key sent without `Bearer ` is the secret itself: the finding says its length, never the key.
    const key = 'sls_test_valid0000000000000000000000000000000a11ce';
    const bare = found('GET /api/v0.1/user/apikeys', { authorization: key });
    expect(bare.map((f) => f.why)).toEqual([
      `Authorization: <${key.length} characters, no scheme word> is no credential any scheme of the spec reads, ` +
        'so the request carries none',
    ]);
    expect(JSON.stringify(bare)).not.toContain(key.slice(0, 12));
    expect(found('GET /api/v0.1/user/apikeys', { authorization: 'Token abc' }).map((f) => f.why)).toEqual([
      'Authorization: Token … is no credential any scheme of the spec reads, so the request carries none',
    ]);
    expect(found('GET /api/v0.1/user/apikeys', { cookie: 'sls_session=' }).map((f) => f.hint)).toEqual([
      'send the session cookie the dev login sets, or none',
    ]);
  });

  it('show a name the client sent as text, cut, whatever it holds', () => {
    const [f] = found(`GET /api/v0.1/servers/find?${encodeURIComponent(`x\u001b[31m${'y'.repeat(200)}`)}=1`);
    expect(f!.why).toMatch(/^'x\\u001b\[31my{58}…' is not a parameter of findServers/);
  });
});

describe('nearMiss', () => {
  it('finds another case, a near spelling, or the name a longer one starts with', () => {
    expect(nearMiss('MaxAge', ['maxAge', 'minAge'])).toBe('maxAge');
    expect(nearMiss('limt', ['limit', 'page'])).toBe('limit');
    expect(nearMiss('sortBy', ['sort', 'order'])).toBe('sort');
    expect(nearMiss('zzz', ['sort', 'order'])).toBeUndefined();
  });
});
