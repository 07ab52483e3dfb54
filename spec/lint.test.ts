import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import {
  lintSpec,
  lintAuthResponses,
  lintCors,
  lintExamples,
  lintLimits,
  lintLinks,
  lintMeanings,
  lintParameterExamples,
  lintProvenance,
} from './lint.ts';
import { loadSpec, SPEC_PATH } from './load.ts';
import { FORBIDDEN_MESSAGE, UNAUTHORIZED_MESSAGE } from './messages.ts';

// Each rule of the spec's linter must pass on the real document and fail on a copy broken
// on purpose, so a rule that silently stopped holding would be caught here.
const fresh = () => loadSpec();

describe('spec/openapi.yaml', () => {
  it('is valid OpenAPI 3.0.3 for swagger-parser', async () => {
    const api = await SwaggerParser.validate(SPEC_PATH);
    expect((api as { openapi: string }).openapi).toBe('3.0.3');
  });

  it('passes every rule of the linter', () => {
    expect(lintSpec(fresh())).toEqual([]);
  });
});

describe('lintExamples', () => {
  it('finds no invalid example in the spec', () => {
    expect(lintExamples(fresh())).toEqual([]);
  });
  it('reports an example of the wrong type', () => {
    const doc = fresh();
    doc.paths['/servers/find']!.get.responses['200'].content['application/json'].examples.page.value.results[0].port =
      '25565';
    expect(lintExamples(doc)).toEqual([
      expect.stringMatching(
        /GET \/servers\/find response 200 .*examples\.page is invalid: value\.results\.0\.port must be integer/,
      ),
    ]);
  });
  it('reports a response without any example', () => {
    const doc = fresh();
    delete doc.components.responses!.TooManyRequests.content['application/json'].example;
    expect(lintExamples(doc)).toContain('GET /servers/find response 429 application/json has no example');
  });
  it('reports a parameter example outside its bounds', () => {
    const doc = fresh();
    doc.components.parameters!.limit.example = 501;
    expect(lintExamples(doc).join('\n')).toMatch(/parameter 'limit' example is invalid: value must be <= 500/);
  });
});

describe('lintParameterExamples', () => {
  it('finds every parameter with an example', () => {
    expect(lintParameterExamples(fresh())).toEqual([]);
  });
  it('reports a parameter without one', () => {
    const doc = fresh();
    delete doc.components.parameters!.sort.example;
    expect(lintParameterExamples(doc)).toEqual(["GET /servers/find parameter 'sort' has no example"]);
  });
});

describe('lintProvenance', () => {
  it('finds provenance everywhere', () => {
    expect(lintProvenance(fresh())).toEqual([]);
  });
  it('reports a property, a parameter and an operation without it, and a bad value', () => {
    const doc = fresh();
    delete doc.components.schemas.ServerCore.properties.port['x-provenance'];
    delete doc.components.parameters!.city['x-provenance'];
    delete doc.paths['/metadata/regions']!.get['x-provenance'];
    doc.components.schemas.Player.properties.name['x-provenance'] = 'guessed';
    expect(lintProvenance(doc).sort()).toEqual([
      'GET /metadata/regions has no x-provenance',
      "GET /servers/find parameter 'city' has no x-provenance",
      "schema Player.name has x-provenance 'guessed', not one of interface, observed, assumed",
      'schema ServerCore.port has no x-provenance',
    ]);
  });
  it('reports a response header without it, in components and inline', () => {
    const doc = fresh();
    delete doc.components.headers!['X-RateLimit-Reset']['x-provenance'];
    doc.paths['/metadata/regions']!.get.responses['200'].headers['X-Extra'] = {
      description: 'inline',
      schema: { type: 'string' },
    };
    expect(lintProvenance(doc).sort()).toEqual([
      'GET /metadata/regions response 200 header X-Extra has no x-provenance',
      'header X-RateLimit-Reset has no x-provenance',
    ]);
  });
});

describe('lintAuthResponses', () => {
  it('finds the exact 401 and 403 bodies on every protected operation', () => {
    expect(lintAuthResponses(fresh())).toEqual([]);
    const examples = fresh().components.responses!;
    expect(examples.Unauthorized.content['application/json'].example).toEqual({
      success: false,
      message: UNAUTHORIZED_MESSAGE,
    });
    expect(examples.Forbidden.content['application/json'].example).toEqual({
      success: false,
      message: FORBIDDEN_MESSAGE,
    });
  });
  it('reports a changed message and a missing 403', () => {
    const doc = fresh();
    doc.components.responses!.Unauthorized.content['application/json'].example.message = 'Unauthorized';
    delete doc.paths['/user/apikeys/{id}']!.delete.responses['403'];
    const problems = lintAuthResponses(doc);
    expect(problems).toContain('DELETE /user/apikeys/{id} is protected but declares no 403');
    expect(problems).toContain(
      `GET /user/apikeys 401 example message is "Unauthorized", expected "${UNAUTHORIZED_MESSAGE}"`,
    );
  });
});

describe('lintLimits', () => {
  it('finds the prose and examples agreeing with the x- limits', () => {
    expect(lintLimits(fresh())).toEqual([]);
  });
  it('reports prose that states another number than the extension', () => {
    const doc = fresh();
    doc.paths['/user/apikeys']!.post['x-max-keys-per-user'] = 30;
    doc['x-max-body-bytes'] = 8192;
    const problems = lintLimits(doc);
    expect(problems).toContain(
      'createApiKey 409 description does not mention the limit 30: "The user already has the maximum number ' +
        'of keys (25); revoke one first."',
    );
    expect(problems.join('\n')).toMatch(/PayloadTooLarge example message does not mention the limit 8192/);
  });
  it("reports a page cap above the parameter's own maximum", () => {
    const doc = fresh();
    doc.components.parameters!.limit['x-max-by-plan'].paid = 1000;
    expect(lintLimits(doc).join('\n')).toMatch(/x-max-by-plan allows more than the schema's maximum 500/);
  });
  it('reports a limit the model cannot read instead of throwing', () => {
    const doc = fresh();
    delete doc['x-rate-limits'];
    expect(lintSpec(doc)).toContain('the document has no x-rate-limits');
  });
});

describe('lintMeanings', () => {
  it('finds every row-answering parameter with a meaning', () => {
    expect(lintMeanings(fresh())).toEqual([]);
  });
  it('reports a filter that does not say what it does', () => {
    const doc = fresh();
    delete doc.components.parameters!.city['x-meaning'];
    expect(lintMeanings(doc)).toEqual([
      "GET /servers/find parameter 'city' has no x-meaning: say what it does to the 'results' rows",
    ]);
  });
});

describe('lintLinks', () => {
  const links = (doc: ReturnType<typeof fresh>) => doc.paths['/user/apikeys']!.post.responses['201'].links;
  it('finds the links from a new key to its revocation and the list valid', () => {
    expect(Object.keys(links(fresh()))).toEqual(['revokeTheNewKey', 'listTheKeys']);
    expect(lintLinks(fresh())).toEqual([]);
  });
  it(
    'reports a link to no operation, a parameter the target lacks, a pointer into nothing and a missing path ' +
      'parameter',
    () => {
      const doc = fresh();
      links(doc).listTheKeys.operationId = 'listKeys';
      links(doc).revokeTheNewKey.parameters = { key: '$response.body#/key/id', ...{} };
      expect(lintLinks(doc)).toEqual([
        "POST /user/apikeys response 201 link 'revokeTheNewKey' sets parameter 'key', which revokeApiKey does not have",
        "POST /user/apikeys response 201 link 'revokeTheNewKey' does not give revokeApiKey's path parameter 'id'",
        "POST /user/apikeys response 201 link 'listTheKeys' names operationId 'listKeys', which no operation has",
      ]);
      const other = fresh();
      links(other).revokeTheNewKey.parameters.id = '$response.body#/key/uuid';
      delete links(other).revokeTheNewKey['x-provenance'];
      expect(lintLinks(other)).toEqual([
        "POST /user/apikeys response 201 link 'revokeTheNewKey' has no x-provenance",
        "POST /user/apikeys response 201 link 'revokeTheNewKey' parameter 'id': the 201 body has nothing at /key/uuid",
      ]);
    },
  );
});

describe('lintCors', () => {
  const cors = (doc: ReturnType<typeof fresh>) => doc['x-cors'] as Record<string, any>;
  it('finds the CORS contract complete and said in the prose', () => {
    expect(lintCors(fresh())).toEqual([]);
  });
  it('reports a header a browser app could not read, or send, and credentials for every origin', () => {
    const doc = fresh();
    cors(doc).exposeHeaders.names = ['X-RateLimit-Limit', 'X-RateLimit-Reset', 'Allow'];
    cors(doc).preflight.allowHeaders = ['Content-Type'];
    cors(doc).origins.allowed = ['*', 'https://app.example.test'];
    expect(lintCors(doc)).toEqual([
      "x-cors allows credentials to every origin ('*'): any page could act with a user's session",
      'response header X-RateLimit-Remaining is declared but not in x-cors.exposeHeaders: a browser app cannot read it',
      'response header Retry-After is declared but not in x-cors.exposeHeaders: a browser app cannot read it',
      'x-cors.preflight.allowHeaders leaves out Authorization: a bearer security scheme sends it, ' +
        "so a browser's preflight fails",
      'info.description (x-cors) does not mention `https://app.example.test`',
    ]);
  });
  it('reports a part without provenance, and prose that says another number', () => {
    const doc = fresh();
    delete cors(doc).preflight['x-provenance'];
    cors(doc).preflight.maxAgeSeconds = 300;
    expect(lintCors(doc)).toEqual([
      'x-cors.preflight has no x-provenance',
      'info.description (x-cors) does not mention `Access-Control-Max-Age: 300`',
    ]);
  });
});
