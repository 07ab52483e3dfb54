// Changes weighed by hand-built usage profiles (the accumulator fed as a recorder would
// feed it): a breaking change that recorded requests meet stays breaking and names them;
// one no recorded request meets becomes a warning and says why.
import { describe, expect, test } from 'vitest';
import { loadSpec, type OpenApiDoc } from '../../spec/load.ts';
import { loadModel } from '../../spec/model.ts';
import { UsageAccumulator, usageNoteOf, type UsageProfile } from '../../spec/usage-profile.ts';
import type { Change } from './change.ts';
import { diffDocuments } from './diff.ts';
import { weighAll } from './usage.ts';

const SPEC = loadSpec();
const model = loadModel();
const edited = (edit: (doc: any) => void): OpenApiDoc => {
  const doc = structuredClone(SPEC);
  edit(doc);
  return doc;
};

function profile(consumer: string, requests: [url: string, times: number, status?: number][]): UsageProfile {
  const acc = new UsageAccumulator(consumer, { recordedBy: 'hand', model });
  for (const [url, times, status] of requests)
    for (let i = 0; i < times; i++) acc.note(usageNoteOf(model, { method: 'GET', url }, status ?? 200)!);
  return acc.toJSON();
}

const web = profile('web', [
  ['/api/v0.1/servers/find?country=Germany&limit=20', 312],
  ['/api/v0.1/servers/find?limit=50&region=EU', 40],
  ['/api/v0.1/metadata/regions', 7],
]);
const bot = profile('status-bot', [['/api/v0.1/status/ping/example.org', 25]]);

const weighed = (edit: (doc: any) => void, profiles = [web, bot]): Change[] =>
  weighAll(diffDocuments(SPEC, edited(edit)), profiles);

const findServers = (d: any) => d.paths['/servers/find'].get;
const withoutParameter = (name: string) => (d: any) => {
  findServers(d).parameters = findServers(d).parameters.filter(
    (p: any) => p.$ref !== `#/components/parameters/${name}`,
  );
};

describe('diff --usage', () => {
  test('a removed filter that web sends: still breaking, and says how many of whose requests it breaks', () => {
    const [change] = weighed(withoutParameter('countryFilter'));
    expect(change).toMatchObject({ rule: 'request-parameter-removed', severity: 'breaking' });
    expect(change!.usage).toEqual({
      requests: { web: 312 },
      summary: 'breaks 312 recorded requests of `web` (findServers with `country`)',
    });
  });

  test('a removed filter nobody sends: a warning that says why', () => {
    const [change] = weighed(withoutParameter('org'));
    expect(change).toMatchObject({ rule: 'request-parameter-removed', severity: 'warning' });
    expect(change!.usage!.summary).toBe(
      'no recorded consumer uses it (359 recorded requests of `web`, 25 recorded requests of `status-bot`)',
    );
    expect(change!.why).toBe('so a warning, not breaking');
  });

  test('a lowered bound breaks only if a recorded number was beyond it', () => {
    const below = weighed((d) => (d.components.parameters.limit.schema.maximum = 100)).find(
      (c) => c.rule === 'request-parameter-max-decreased',
    )!;
    expect(below.severity).toBe('warning');
    const beyond = weighed((d) => (d.components.parameters.limit.schema.maximum = 30)).find(
      (c) => c.rule === 'request-parameter-max-decreased',
    )!;
    expect(beyond.severity).toBe('breaking');
    // The profile keeps the largest number sent, not each one: it says "up to".
    expect(beyond.usage!.summary).toBe(
      'breaks up to 352 recorded requests of `web` (findServers with `limit` above 30)',
    );
  });

  test('a removed enum value breaks the requests that sent that value only', () => {
    const changes = weighed((d) => (d.components.schemas.Region.enum = ['NA', 'AS', 'SA', 'AF', 'OC', 'AN']));
    const find = changes.find(
      (c) => c.rule === 'request-parameter-enum-value-removed' && c.operationId === 'findServers',
    )!;
    expect(find.usage!.summary).toBe('breaks 40 recorded requests of `web` (findServers with `region`=EU)');
    const other = weighed((d) => (d.components.schemas.Region.enum = ['NA', 'EU', 'AS', 'SA', 'AF', 'OC']));
    expect(other.find((c) => c.rule === 'request-parameter-enum-value-removed')!.severity).toBe('warning');
  });

  test('an answer that changes breaks the consumers that met that status; each consumer counted on its own', () => {
    const changes = weighed((d) => (d.components.schemas.ServerCore.properties.port.type = 'string'));
    const ping = changes.find((c) => c.operationId === 'pingServer')!;
    expect(ping.usage!.summary).toBe('breaks 25 recorded requests of `status-bot` (pingServer answered 200)');
    const rate = weighed((d) => (d['x-rate-limits'].tiers.anonymous[0] = 10)).find(
      (c) => c.rule === 'rate-limit-decreased',
    )!;
    expect(rate.usage!.requests).toEqual({ web: 359, 'status-bot': 25 });
  });

  test('a removed operation a consumer calls, and a new one nobody can have called', () => {
    const [removed] = weighed((d) => delete d.paths['/metadata/regions']);
    expect(removed!.usage!.summary).toBe('breaks 7 recorded requests of `web` (listRegions)');
    const [added] = weighed((d) => {
      d.paths['/metadata/cities'] = structuredClone(d.paths['/metadata/regions']);
      d.paths['/metadata/cities'].get.operationId = 'listCities';
    });
    expect(added).toMatchObject({ rule: 'endpoint-added', severity: 'warning' });
    expect(added!.usage!.summary).toMatch(/cannot tell/);
  });

  test('without profiles nothing is weighed', () => {
    const [change] = weighAll(diffDocuments(SPEC, edited(withoutParameter('org'))), []);
    expect(change).toMatchObject({ severity: 'breaking' });
    expect(change!.usage).toBeUndefined();
  });
});
