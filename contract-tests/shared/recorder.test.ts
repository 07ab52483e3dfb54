// One result per check: a second result of the same check of the same operation joins
// the first (one JUnit test case listing both), and every string is masked on the way in.
import { describe, expect, test } from 'vitest';
import { rememberSecret } from './mask.ts';
import { Recorder } from './recorder.ts';

describe('Recorder', () => {
  test('joins the results of one check, the worse status first, each request kept', () => {
    const r = new Recorder();
    r.add([{ operationId: 'op', check: 'c', provenance: 'assumed', status: 'pass', message: 'fine' }]);
    r.add([
      { operationId: 'op', check: 'c', provenance: 'assumed', status: 'fail', request: 'GET /a', message: 'broke' },
    ]);
    r.add([
      { operationId: 'op', check: 'c', provenance: 'assumed', status: 'fail', request: 'GET /b', message: 'broke too' },
    ]);
    r.add([{ operationId: 'other', check: 'c', provenance: 'assumed', status: 'pass' }]);
    expect(r.all()).toEqual([
      {
        operationId: 'op',
        check: 'c',
        provenance: 'assumed',
        status: 'fail',
        request: 'GET /a',
        message: 'broke | GET /b: broke too',
      },
      { operationId: 'other', check: 'c', provenance: 'assumed', status: 'pass' },
    ]);
  });

  test('masks every string it keeps', () => {
    const secret = 'sls_live_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1234';
    rememberSecret(secret);
    const r = new Recorder();
    r.add([
      {
        operationId: 'op',
        check: 'c',
        provenance: 'assumed',
        status: 'fail',
        request: `GET /x (Authorization: Bearer ${secret})`,
        message: `got ${secret}`,
      },
    ]);
    expect(JSON.stringify(r.all())).not.toContain(secret);
  });
});
