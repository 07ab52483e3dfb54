// Causes group failures on their fields: one field sent wrong wherever it sits is one cause,
// and a leaked secret is one cause whichever judge met it, named by what leaked and where.
import { describe, expect, test } from 'vitest';
import type { CheckResult } from '../kit/recorder.ts';
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

  test("a leaked secret: the schema and the suite's own secrets meeting it are one cause, saying what leaked and where", () => {
    const leak =
      "a secret leaks: listApiKeys answers carry each key's secret (keys.*.secret), which no answer but the one that creates it may hold";
    const causes = findCauses(
      [
        failure('listApiKeys', 'schema: x', { schemaErrors: ['body.keys.*.secret must not be present'], leak }),
        failure('createApiKey', 'keys: y', { leak }),
      ],
      [],
      undefined,
    );
    expect(causes.map((c) => [c.title, c.failures.length])).toEqual([[leak, 2]]);
  });
});
