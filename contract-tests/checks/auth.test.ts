// The auth matrix comes from the spec, and never writes to a target unless allowed.
import { describe, expect, test } from 'vitest';
import { loadModel } from '../../spec/model.ts';
import { referenceFetch, referenceRun } from '../reference-server/in-process.ts';
import { authFamily, matrixCases } from './auth.ts';

const model = loadModel();
const op = (id: string) => model.byId.get(id)!;

describe('the auth matrix', () => {
  test(
    'createApiKey: x-credentials [session] makes a valid API key a 403; expired credentials 401; a public ' +
      'operation has none',
    async () => {
      const { run } = referenceRun();
      expect(matrixCases(op('createApiKey'), run).map((c) => `${c.variant}:${c.status}`)).toEqual([
        'none:401',
        'unknownKey:401',
        'malformed:401',
        'unknownSession:401',
        'expiredKey:401',
        'expiredSession:401',
        'forbidden:403',
        'apiKey:403',
        'session:201',
      ]);
      expect(await authFamily.perOperation!(op('findServers'), run)).toEqual([]);
    },
  );

  test('with writes off, POST and DELETE checks are skipped with the reason, and nothing is sent', async () => {
    const methods: string[] = [];
    const reference = referenceFetch();
    const { run } = referenceRun({
      allowWrites: false,
      fetch: (request) => {
        methods.push(request.method);
        return reference(request);
      },
    });
    const results = [
      ...(await authFamily.perOperation!(op('createApiKey'), run)),
      ...(await authFamily.perOperation!(op('revokeApiKey'), run)),
    ];
    expect(methods).toEqual([]);
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((r) => r.status === 'skip' && r.message?.includes('pass --allow-writes'))).toBe(true);
  });

  test(
    'with writes on, every case passes against a correct server, and the keys it made to aim at are removed ' + 'again',
    async () => {
      const { run } = referenceRun();
      const results = await authFamily.perOperation!(op('revokeApiKey'), run);
      expect(results.filter((r) => r.status !== 'pass')).toEqual([]);
      expect(await run.keys.removeAll()).toEqual([]);
      expect(run.keys.open()).toEqual([]);
    },
  );
});
