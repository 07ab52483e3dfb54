// Causes group failures on their fields: one field sent wrong wherever it sits is one cause,
// and a leaked secret is one cause whichever judge met it, named by what leaked and where.
import { describe, expect, test } from 'vitest';
import type { CheckResult } from '../shared/recorder.ts';
import { PAGING_REPEATS } from '../../spec/judges/comparisons.ts';
import { fieldError, findCauses } from './causes.ts';

const failure = (operationId: string, check: string, evidence: CheckResult['evidence']): CheckResult => ({
  operationId,
  check,
  provenance: 'observed',
  status: 'fail',
  request: `GET /${operationId}/${check}`,
  evidence,
});

describe('causes', () => {
  test('a schema error is about its field, wherever in the body it sits', () => {
    expect(fieldError('body.results.*.port must be integer')).toBe('port must be integer');
    expect(fieldError('body.server.port must be integer')).toBe('port must be integer');
    expect(fieldError("body.server must have property 'city'")).toBe("must have property 'city'");
    expect(fieldError("body.results.* must have property 'city'")).toBe("must have property 'city'");
    expect(fieldError("body must have property 'success'")).toBe("must have property 'success'");
  });

  test('one field sent as text in the rows of a search and in both pings: one cause naming each place', () => {
    const causes = findCauses(
      [
        failure('findServers', 'schema: a', { schemaErrors: ['body.results.*.port must be integer'] }),
        failure('pingServer', 'schema: b', { schemaErrors: ['body.server.port must be integer'] }),
        failure('pingServerHostPort', 'schema: c', { schemaErrors: ['body.server.port must be integer'] }),
      ],
      [],
      undefined,
    );
    expect(causes.map((c) => c.title)).toEqual([
      'schema: body.results.*.port must be integer (the same error in 3 checks; also body.server.port must be integer)',
    ]);
  });

  test('one format broken in several fields (every timestamp without its zone): one cause', () => {
    const causes = findCauses(
      [
        failure('findServers', 'schema: a', {
          schemaErrors: ['body.results.*.last_ping must match format "date-time"'],
        }),
        failure('listApiKeys', 'schema: b', { schemaErrors: ['body.keys.*.created_at must match format "date-time"'] }),
        failure('listApiKeys', 'schema: c', { schemaErrors: ['body.keys.*.created_at must be string'] }),
      ],
      [],
      undefined,
    );
    expect(causes.map((c) => c.failures.length).sort()).toEqual([1, 2]);
    expect(causes.map((c) => c.title)).toContain(
      'schema: body.results.*.last_ping must match format "date-time" (the same error in 2 checks; ' +
        'also body.keys.*.created_at must match format "date-time")',
    );
  });

  test('401 owed: an invalid credential taken, unless one with none got the same answer (then the status)', () => {
    const taken = 'an expired credential is taken, not refused with 401';
    const answered = (status: number) => ({ status, headers: {}, body: '' }) as never;
    const expired = failure('createApiKey', 'auth: expired', {
      finding: taken,
      expectedStatus: 401,
      answer: answered(403),
    });
    expect(findCauses([expired], [], undefined).map((c) => c.title)).toEqual([expect.stringMatching(taken)]);
    const none = failure('createApiKey', 'auth: none', { expectedStatus: 401, answer: answered(403) });
    expect(findCauses([expired, none], [], undefined).map((c) => [c.title, c.failures.length])).toEqual([
      ['answers 403 where the spec says 401: createApiKey (2 checks)', 2],
    ]);
    // A listing that checks no credential at all: the expired key's 200 is the same defect as no key's.
    const open = (check: string, finding?: string) =>
      failure('listApiKeys', check, { ...(finding ? { finding } : {}), expectedStatus: 401, answer: answered(200) });
    expect(findCauses([open('auth: expired', taken), open('auth: none')], [], undefined).map((c) => c.title)).toEqual([
      'answers 200 where the spec says 401: listApiKeys (2 checks)',
    ]);
  });

  test('paging that repeats rows is filed with the order that moved between its pages, whatever showed it', () => {
    const sort = { ...failure('findServers', 'sort: rows in order', { subject: 'sort' }), family: 'sort' };
    const total = failure('findServers', 'sample: total reached', {
      judge: 'total-reached',
      defect: PAGING_REPEATS,
    });
    const causes = findCauses([sort, total], [], undefined);
    expect(causes.map((c) => c.failures.length)).toEqual([2]);
  });

  test(
    "a leaked secret: the schema and the suite's own secrets meeting it are one cause, saying what leaked and " +
      'where',
    () => {
      const leak =
        "a secret leaks: listApiKeys answers carry each key's secret (keys.*.secret), which no answer but the one " +
        'that ' +
        'creates it may hold';
      const causes = findCauses(
        [
          failure('listApiKeys', 'schema: x', { schemaErrors: ['body.keys.*.secret must not be present'], leak }),
          failure('createApiKey', 'keys: y', { leak }),
        ],
        [],
        undefined,
      );
      expect(causes.map((c) => [c.title, c.failures.length])).toEqual([[leak, 2]]);
    },
  );
});
