// The suite finds an API key's life from the spec's links, methods and schemas, never
// from operation names.
import { describe, expect, test } from 'vitest';
import { loadSpec } from '../../spec/load.ts';
import { buildModel } from '../../spec/model.ts';
import { keyLifecycle, valueAt } from './key-lifecycle.ts';

describe('keyLifecycle', () => {
  test('create, revoke and list from the links of the create answer; the id and the secret by pointer', () => {
    const lc = keyLifecycle(buildModel(loadSpec()))!;
    expect([
      lc.create.method,
      lc.create.path,
      lc.revoke?.op.method,
      lc.revoke?.op.path,
      lc.revoke?.param,
      lc.list?.path,
    ]).toEqual(['POST', '/user/apikeys', 'DELETE', '/user/apikeys/{id}', 'id', '/user/apikeys']);
    expect([lc.idPointer, lc.secretPointer]).toEqual(['/key/id', '/key/secret']);
    expect(valueAt({ key: { id: 'key_1' } }, lc.idPointer)).toBe('key_1');
  });

  test('operations renamed: found all the same', () => {
    const doc = loadSpec();
    const rename = (path: string, method: string, id: string) => (doc.paths[path]![method].operationId = id);
    rename('/user/apikeys', 'post', 'mintKey');
    rename('/user/apikeys', 'get', 'keys');
    rename('/user/apikeys/{id}', 'delete', 'dropKey');
    const links = doc.paths['/user/apikeys']!.post.responses['201'].links;
    links.revokeTheNewKey.operationId = 'dropKey';
    links.listTheKeys.operationId = 'keys';
    const lc = keyLifecycle(buildModel(doc))!;
    expect([lc.create.operationId, lc.revoke?.op.operationId, lc.list?.operationId]).toEqual([
      'mintKey',
      'dropKey',
      'keys',
    ]);
  });

  test('without links there is no key life to check', () => {
    const doc = loadSpec();
    delete doc.paths['/user/apikeys']!.post.responses['201'].links;
    expect(keyLifecycle(buildModel(doc))).toBeUndefined();
  });
});
