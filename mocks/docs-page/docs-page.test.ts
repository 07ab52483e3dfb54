// The docs page, its assets and the served spec, over HTTP. What a browser makes of
// them (rendering, "Try it out") is checked in headless Chromium by e2e/mock-docs-page.browser.ts.
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { credential, json, model, useApp } from '../testing/test-app.ts';

const t = useApp();
const at = (origin: string, path: string) => t.fetch(`${origin}${path}`);

describe('/__mock/docs', () => {
  it('serves a page that loads Swagger UI from the mock itself, no CDN', async () => {
    const res = await at('http://127.0.0.1:4010', '/__mock/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(urls.length).toBeGreaterThan(2);
    for (const u of urls) expect(u, u).toMatch(/^\/__mock\//);
    // The fixture credentials are offered on the page.
    expect(html).toContain(credential('valid-key').value);
    expect(html).toContain(credential('valid-session').value);
  });

  it('serves the Swagger UI assets it names, and 404 JSON for any other name', async () => {
    const js = await at('http://127.0.0.1:4010', '/__mock/docs/swagger-ui-bundle.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect((await js.text()).length).toBeGreaterThan(100_000);
    expect((await at('http://127.0.0.1:4010', '/__mock/docs/swagger-ui.css')).headers.get('content-type')).toMatch(
      /^text\/css/,
    );
    for (const bad of ['package.json', '..%2F..%2Fpackage.json', 'swagger-ui-bundle.js.map']) {
      const res = await at('http://127.0.0.1:4010', `/__mock/docs/${bad}`);
      expect(res.status, bad).toBe(404);
      expect(await json(res)).toMatchObject({ success: false, message: expect.stringContaining('/__mock/docs') });
    }
  });
});

describe('/__mock/openapi.json and .yaml', () => {
  it('is the spec, with servers pointing at the origin the caller used', async () => {
    for (const origin of ['http://127.0.0.1:4010', 'http://192.168.1.5:4010', 'http://localhost:5555']) {
      const doc = await json(await at(origin, '/__mock/openapi.json'));
      expect(doc.servers).toEqual([{ url: `${origin}/api/v0.1`, description: expect.any(String) }]);
      expect(Object.keys(doc.paths)).toEqual(Object.keys(model.doc.paths));
      const yaml = await at(origin, '/__mock/openapi.yaml');
      expect(yaml.headers.get('content-type')).toMatch(/yaml/);
      expect(load(await yaml.text())).toEqual(doc);
    }
  });

  it('lists the fixture credentials where the docs show authentication', async () => {
    const doc = await json(await at('http://127.0.0.1:4010', '/__mock/openapi.json'));
    expect(doc.components.securitySchemes.apiKey.description).toContain(credential('valid-key').value);
    expect(doc.components.securitySchemes.session.description).toContain(credential('valid-session').value);
  });
});

describe('GET /api/v0.1', () => {
  it('answers an index of every operation with links to the docs and the spec', async () => {
    for (const path of ['/api/v0.1', '/api/v0.1/']) {
      const res = await at('http://127.0.0.1:4010', path);
      expect(res.status, path).toBe(200);
      const body = await json(res);
      expect(body.docs).toBe('http://127.0.0.1:4010/__mock/docs');
      expect(body.openapi).toEqual({
        json: 'http://127.0.0.1:4010/__mock/openapi.json',
        yaml: 'http://127.0.0.1:4010/__mock/openapi.yaml',
      });
      expect(body.operations.map((o: any) => `${o.method} ${o.path}`)).toEqual(
        model.operations.map((o) => `${o.method} /api/v0.1${o.path}`),
      );
      const find = body.operations.find((o: any) => o.operationId === 'findServers');
      expect(find).toMatchObject({
        public: true,
        summary: expect.stringMatching(/\w/),
        docs: 'http://127.0.0.1:4010/__mock/docs#/servers/findServers',
      });
      expect(body.operations.find((o: any) => o.operationId === 'createApiKey').credentials).toEqual(['session']);
    }
  });
});

describe('an unknown path', () => {
  it('points at the index and the docs', async () => {
    const res = await at('http://127.0.0.1:4010', '/docs');
    expect(res.status).toBe(404);
    expect((await json(res)).message).toBe(
      'Not Found: no route for GET /docs; the API lives under /api/v0.1 (GET /api/v0.1 lists every operation; ' +
        'docs at /__mock/docs)',
    );
  });
});
