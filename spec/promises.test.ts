// The promise map: read from the model, every promise held by a judge of the registry (or
// a comparison) or saying why none does; every operation, parameter, body property,
// answer field, declared header and security requirement of the spec has its promises;
// a promise the spec adds shows up with no code; and what a run put to the test is read
// from its exchanges.
import { describe, expect, it } from 'vitest';
import { exchange } from './testing/exchanges.ts';
import { registryNames, JudgeContext } from './judges/registry.ts';
import { deref, loadSpec } from './load.ts';
import { buildModel, loadModel, objectProperties } from './model.ts';
import { promiseCoverage } from './promise-coverage.ts';
import { promiseCounts, promiseMap } from './promises.ts';

const model = loadModel();
const map = promiseMap(model);
const names = new Set(registryNames().map((j) => j.name));
const of = (pred: (p: (typeof map)[number]) => boolean) => map.filter(pred);

describe('the promise map', () => {
  it('every promise is held by judges of the registry, or says why none holds it; ids are unique', () => {
    for (const p of map) {
      if (p.uncovered) expect(p.judges, p.id).toEqual([]);
      else {
        expect(p.judges.length, p.id).toBeGreaterThan(0);
        for (const j of p.judges) expect(names.has(j), `${p.id}: ${j}`).toBe(true);
        expect(p.provokedBy.length, p.id).toBeGreaterThan(0);
      }
    }
    expect(new Set(map.map((p) => p.id)).size).toBe(map.length);
    const c = promiseCounts(map);
    expect(c.covered + c.uncovered).toBe(c.total);
    // What no judge can hold is said: the plan a caller is on, the countries' window, which field is refreshed, the
    // tiers.
    expect(of((p) => Boolean(p.uncovered)).map((p) => p.kind)).toEqual(
      expect.arrayContaining(['page-size-by-plan', 'window-days', 'refresh-after', 'rate-limit-tier']),
    );
  });

  it(
    'covers every operation, parameter, body property, declared status and header, and protected operation of the ' +
      'spec',
    () => {
      for (const op of model.operations) {
        const mine = of((p) => p.operations.includes(op.operationId));
        expect(
          mine.some((p) => p.kind === 'route'),
          op.operationId,
        ).toBe(true);
        for (const status of op.responses.keys())
          expect(
            mine.some((p) => p.kind === 'status' && p.detail.status === status),
            `${op.operationId} ${status}`,
          ).toBe(true);
        for (const param of op.parameters)
          expect(
            mine.some((p) => p.subject.area === 'parameter' && p.subject.name === param.name),
            `${op.operationId} ${param.name}`,
          ).toBe(true);
        const body = op.requestBody?.schema;
        for (const name of body ? objectProperties(model.doc, body).keys() : [])
          expect(
            mine.some((p) => p.subject.area === 'body' && p.subject.name === name),
            `${op.operationId} ${name}`,
          ).toBe(true);
        for (const [status, response] of op.responses)
          for (const header of response.headers.keys())
            expect(
              of((p) => p.kind === 'header-present' && p.subject.name === header).some((p) =>
                p.detail.places?.some((pl) => pl.operation === op.operationId && pl.status === status),
              ),
              `${op.operationId} ${status} ${header}`,
            ).toBe(true);
        if (op.isPublic) expect(mine.some((p) => p.kind === 'public-credentials')).toBe(true);
        else
          for (const kind of ['auth-missing', 'auth-unknown', 'auth-expired', 'auth-permission'])
            expect(
              mine.some((p) => p.kind === kind),
              `${op.operationId} ${kind}`,
            ).toBe(true);
      }
    },
  );

  it('reads x-cors as promises the cors judge holds, on every operation, not as an extension no kind reads', () => {
    const cors = of((p) => p.subject.area === 'cors');
    expect(cors.map((p) => p.kind)).toEqual(
      expect.arrayContaining(['cors-grant', 'cors-vary', 'cors-expose', 'cors-preflight', 'cors-foreign']),
    );
    for (const p of cors) {
      expect(p.judges).toEqual(['cors']);
      expect(p.operations).toEqual(model.operations.map((o) => o.operationId));
    }
    expect(of((p) => p.id === 'extension x-cors')).toEqual([]);
    expect(of((p) => p.kind === 'cors-grant')[0]!.says).toMatch(/never \*, with Access-Control-Allow-Credentials/);
  });

  it('covers every field of every declared answer, once per schema that declares it, with each of its keywords', () => {
    const port = of((p) => p.subject.name === 'ServerCore.port').map((p) => p.kind);
    expect(port).toEqual(['field-required', 'field-nullable', 'field-type', 'field-minimum', 'field-maximum']);
    // One promise wherever it is answered: the search's rows and both pings.
    const type = of((p) => p.id === 'ServerCore.port: type integer')[0]!;
    expect(type.detail.places?.map((pl) => `${pl.operation} ${pl.path}`)).toEqual([
      'findServers results.*.port',
      'pingServer server.port',
      'pingServerHostPort server.port',
    ]);
    expect(of((p) => p.subject.name === 'ServerCore.last_ping').map((p) => p.kind)).toContain('field-format');
    expect(of((p) => p.subject.name === 'ServerCore.city').map((p) => p.id)).toContain('ServerCore.city: nullable');
    expect(of((p) => p.kind === 'field-absent').map((p) => p.id)).toEqual(['ApiKeyList.keys.*: no secret']);
    expect(of((p) => p.kind === 'field-required' && p.subject.name === 'PingServer.favicon')).toHaveLength(1);
  });

  it(
    'reads each way a parameter is constrained: both sides of a bound, its meaning, its case, both directions of an ' +
      'order',
    () => {
      const minUsers = of((p) => p.id.startsWith('findServers query minUsers:')).map((p) => p.id.split(': ')[1]);
      expect(minUsers).toEqual([
        'type integer',
        'minimum 0 accepted',
        'minimum 0 refused past it',
        'empty means left out',
        'bound inclusive',
        'bound excludes',
      ]);
      expect(of((p) => p.kind === 'param-any-case').map((p) => p.id)).toEqual([
        'findServers query region: any case',
        'listRegions query region: any case',
      ]);
      expect(of((p) => p.kind === 'sort-order').map((p) => `${p.detail.order} ${p.detail.direction}`)).toEqual([
        'users desc',
        'version desc',
        'address asc',
        'port asc',
        'updated desc',
      ]);
      expect(of((p) => p.kind === 'text-wildcard').map((p) => p.subject.name)).toEqual([
        'version',
        'country',
        'city',
        'motd',
        'org',
        'version',
        'country',
      ]);
    },
  );

  it(
    'a promise the spec adds appears with no code: a parameter, and an extension held by the judges that say ' + 'so',
    () => {
      const doc = loadSpec();
      const copy = structuredClone(doc);
      copy.paths['/metadata/regions']!.get.parameters.push({
        name: 'minServers',
        in: 'query',
        'x-provenance': 'assumed',
        schema: { type: 'integer', minimum: 1, maximum: 99 },
      });
      (copy as unknown as Record<string, unknown>)['x-sunset'] = { date: '2030-01-01', 'x-provenance': 'assumed' };
      const added = buildModel(copy);
      const ids = promiseMap(added).map((p) => p.id);
      expect(ids).toEqual(
        expect.arrayContaining([
          'listRegions query minServers: minimum 1 accepted',
          'listRegions query minServers: maximum 99 refused past it',
        ]),
      );
      const unheld = promiseMap(added, registryNames()).find((p) => p.id === 'extension x-sunset')!;
      expect(unheld.uncovered).toBe('no judge of the registry says it holds x-sunset');
      const held = promiseMap(added, [...registryNames(), { name: 'sunset', holds: ['x-sunset'] }]).find(
        (p) => p.id === 'extension x-sunset',
      )!;
      expect(held).toMatchObject({ judges: ['sunset'] });
      expect(held.uncovered).toBeUndefined();
      // The spec itself is untouched: the copy made the promises.
      expect(doc.paths['/metadata/regions']!.get.parameters.map((p: unknown) => deref(doc, p).name)).toEqual([
        'region',
      ]);
    },
  );
});

describe('what a run put to the test', () => {
  const ctx = JudgeContext.of(model);
  const coverage = (...exchanges: Parameters<typeof exchange>[]) =>
    new Map(
      promiseCoverage(
        map,
        exchanges.map((e) => exchange(...e)),
        [],
        ctx,
      ).promises.map((p) => [p.id, p.times]),
    );
  const row = { address: '10.0.0.1', port: 25565, players_online: 5, region: 'EU', city: null };
  const page = (...rows: object[]) => ({ displayed: rows.length, total: rows.length, filtered: 0, results: rows });

  it('a bound is put to the test at the bound itself only when the row at the bound is answered', () => {
    const at = coverage(['GET /api/v0.1/servers/find?minUsers=5', 200, page(row)]);
    expect(at.get('findServers query minUsers: bound inclusive')).toBe(1);
    const past = coverage(['GET /api/v0.1/servers/find?minUsers=4', 200, page(row)]);
    expect(past.get('findServers query minUsers: bound inclusive')).toBe(0);
    expect(past.get('findServers query minUsers: bound excludes')).toBe(1);
  });

  it('an edge value, another case, a null met, a field met', () => {
    const seen = coverage(
      ['GET /api/v0.1/servers/find?limit=500', 200, page(row)],
      ['GET /api/v0.1/servers/find?region=eu', 200, page(row)],
    );
    expect(seen.get('findServers query limit: maximum 500 accepted')).toBe(1);
    expect(seen.get('findServers query limit: minimum 1 accepted')).toBe(0);
    expect(seen.get('findServers query region: any case')).toBe(1);
    expect(seen.get('ServerCore.city: nullable')).toBe(2);
    expect(seen.get('ServerCore.port: type integer')).toBe(2);
    expect(seen.get('ServerCore.country: nullable')).toBe(0);
  });
});
