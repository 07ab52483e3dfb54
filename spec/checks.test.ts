import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import {
  checkAuthResponses,
  checkExamples,
  checkParameterExamples,
  checkProvenance,
  FORBIDDEN_MESSAGE,
  UNAUTHORIZED_MESSAGE,
} from './checks.ts';
import { loadSpec, operations, SPEC_PATH } from './load.ts';

// Each check must pass on the real document and fail on a copy broken on purpose,
// so a check that silently stopped checking would be caught here.
const fresh = () => loadSpec();

describe('spec/openapi.yaml', () => {
  it('is valid OpenAPI 3.0.3 for swagger-parser', async () => {
    const api = await SwaggerParser.validate(SPEC_PATH);
    expect((api as { openapi: string }).openapi).toBe('3.0.3');
  });

  it('covers every operation the service has', () => {
    const ids = operations(fresh()).map((o) => `${o.method.toUpperCase()} ${o.path} ${o.operationId}`);
    expect(ids).toEqual([
      'GET /servers/find findServers',
      'GET /status/ping/{address} pingServer',
      'GET /status/ping/{host}/{port} pingServerHostPort',
      'GET /metadata/versions listVersions',
      'GET /metadata/countries listCountries',
      'GET /metadata/regions listRegions',
      'GET /user/apikeys listApiKeys',
      'POST /user/apikeys createApiKey',
      'DELETE /user/apikeys/{id} revokeApiKey',
    ]);
  });

  it('keeps every /servers/find parameter: limit (x-provenance interface) and the 20 others (observed)', () => {
    const find = operations(fresh()).find((o) => o.operationId === 'findServers')!;
    expect(find.parameters.map((p) => p.name).sort()).toEqual(
      ['limit', 'page', 'version', 'minUsers', 'maxUsers', 'minAge', 'maxAge', 'region', 'country', 'country_code', 'city', 'motd', 'org', 'asn', 'modpack', 'sort', 'order', 'favicon', 'relativeTime', 'noFilter', 'offlineOnly'].sort(),
    );
  });

  it('marks public operations public and protected ones with bearer OR cookie', () => {
    const doc = fresh();
    for (const { operationId, op, path } of operations(doc)) {
      if (path.startsWith('/user/')) expect(op.security, operationId).toEqual([{ apiKey: [] }, { session: [] }]);
      else expect(op.security, operationId).toEqual([]);
    }
    expect(doc.components.securitySchemes?.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes?.session).toMatchObject({ type: 'apiKey', in: 'cookie' });
  });
});

describe('checkExamples', () => {
  it('finds no invalid example in the spec', () => {
    expect(checkExamples(fresh())).toEqual([]);
  });
  it('reports an example of the wrong type', () => {
    const doc = fresh();
    doc.paths['/servers/find']!.get.responses['200'].content['application/json'].examples.page.value.results[0].port = '25565';
    expect(checkExamples(doc)).toEqual([expect.stringMatching(/GET \/servers\/find response 200 .*examples\.page is invalid: value\.results\.0\.port must be integer/)]);
  });
  it('reports a response without any example', () => {
    const doc = fresh();
    delete doc.components.responses!.TooManyRequests.content['application/json'].example;
    expect(checkExamples(doc)).toContain('GET /servers/find response 429 application/json has no example');
  });
  it('reports a parameter example outside its bounds', () => {
    const doc = fresh();
    doc.components.parameters!.limit.example = 501;
    expect(checkExamples(doc).join('\n')).toMatch(/parameter 'limit' example is invalid: value must be <= 500/);
  });
});

describe('checkParameterExamples', () => {
  it('finds every parameter with an example', () => {
    expect(checkParameterExamples(fresh())).toEqual([]);
  });
  it('reports a parameter without one', () => {
    const doc = fresh();
    delete doc.components.parameters!.sort.example;
    expect(checkParameterExamples(doc)).toEqual(["GET /servers/find parameter 'sort' has no example"]);
  });
});

describe('checkProvenance', () => {
  it('finds provenance everywhere', () => {
    expect(checkProvenance(fresh())).toEqual([]);
  });
  it('reports a property, a parameter and an operation without it, and a bad value', () => {
    const doc = fresh();
    delete doc.components.schemas.ServerCore.properties.port['x-provenance'];
    delete doc.components.parameters!.city['x-provenance'];
    delete doc.paths['/metadata/regions']!.get['x-provenance'];
    doc.components.schemas.Player.properties.name['x-provenance'] = 'guessed';
    expect(checkProvenance(doc).sort()).toEqual([
      "GET /metadata/regions has no x-provenance",
      "GET /servers/find parameter 'city' has no x-provenance",
      "schema Player.name has x-provenance 'guessed', not one of interface, observed, assumed",
      'schema ServerCore.port has no x-provenance',
    ]);
  });
});

describe('checkAuthResponses', () => {
  it('finds the exact 401 and 403 bodies on every protected operation', () => {
    expect(checkAuthResponses(fresh())).toEqual([]);
    const examples = fresh().components.responses!;
    expect(examples.Unauthorized.content['application/json'].example).toEqual({ success: false, message: UNAUTHORIZED_MESSAGE });
    expect(examples.Forbidden.content['application/json'].example).toEqual({ success: false, message: FORBIDDEN_MESSAGE });
  });
  it('reports a changed message and a missing 403', () => {
    const doc = fresh();
    doc.components.responses!.Unauthorized.content['application/json'].example.message = 'Unauthorized';
    delete doc.paths['/user/apikeys/{id}']!.delete.responses['403'];
    const problems = checkAuthResponses(doc);
    expect(problems).toContain('DELETE /user/apikeys/{id} is protected but declares no 403');
    expect(problems).toContain(`GET /user/apikeys 401 example message is "Unauthorized", expected "${UNAUTHORIZED_MESSAGE}"`);
  });
});
