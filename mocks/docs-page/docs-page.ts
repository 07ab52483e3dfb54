// Interactive API docs for frontend developers, served by the mock itself: Swagger UI
// (its files shipped in the package's dist/swagger-ui/, or in a clone from
// node_modules/swagger-ui-dist; no network) at /__mock/docs, and the spec at
// /__mock/openapi.json and /__mock/openapi.yaml with `servers` set to the origin the
// browser used, so "Try it out" calls this mock. The fixture credentials are offered
// in a bar above the docs (an API key pre-authorized, a session set as the cookie) and
// listed in the security schemes' descriptions, where the docs show authentication.
// The page leads with the operations: the spec's long description (provenance,
// authentication, errors, limits) is cut to its first paragraph at the top and shown
// whole below the operations ("About this API"), so the first operation is on the
// first screen.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context, Env, Hono } from 'hono';
import { html, raw } from 'hono/html';
import type * as JsYaml from 'js-yaml';
import type { Fixtures } from '../../fixtures/load.ts';
import { jsYaml } from '../../spec/load.ts';
import type { SpecModel } from '../../spec/model.ts';

// js-yaml only when someone asks for the YAML: nothing else at start needs it.
const dump: typeof JsYaml.dump = (...args) => jsYaml().dump(...args);

export const DOCS_PATH = '/__mock/docs';
export const SPEC_JSON_PATH = '/__mock/openapi.json';
export const SPEC_YAML_PATH = '/__mock/openapi.yaml';

/**
 * The Swagger UI files the page loads, by the name it asks for: a Map, so a name from the
 * URL is looked up among these entries only (`constructor` or `__proto__` is no asset).
 */
const ASSETS = new Map<string, string>([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
  ['favicon-32x32.png', 'image/png'],
]);

interface DocsDeps {
  model: SpecModel;
  fixtures: Fixtures;
  fail: (c: Context, status: number, detail?: string) => Response;
}

/** Swagger UI's files the page loads: the package copies them into dist/swagger-ui/ (scripts/build-package.ts). */
export const SWAGGER_UI_FILES = [...ASSETS.keys()];

/**
 * Where they are: beside the bundle in the installed package (it does not depend on
 * swagger-ui-dist, whose install-time telemetry it would bring: decision 0027), else
 * swagger-ui-dist, a devDependency (a clone, the tests).
 */
function assetDir(): string {
  const shipped = fileURLToPath(new URL('./swagger-ui/', import.meta.url));
  return existsSync(join(shipped, 'swagger-ui-bundle.js'))
    ? shipped
    : dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

/** Read once, on the first request: a mock that nobody opens the docs of never loads 2 MB. */
let assetCache: Map<string, Buffer> | undefined;
function asset(name: string): Buffer {
  if (!assetCache) {
    const dir = assetDir();
    assetCache = new Map([...ASSETS.keys()].map((n) => [n, readFileSync(join(dir, n))]));
  }
  return assetCache.get(name)!;
}

/** Deep-link of an operation in Swagger UI (`deepLinking`): `#/<first tag>/<operationId>`. */
export function docsAnchor(op: { operationId: string; raw: Record<string, any> }): string {
  const tag = Array.isArray(op.raw.tags) && op.raw.tags[0] ? op.raw.tags[0] : 'default';
  return `#/${encodeURIComponent(tag)}/${encodeURIComponent(op.operationId)}`;
}

/** The spec as this mock serves it: `servers` is this mock, the schemes list the fixture credentials. */
function servedSpec(model: SpecModel, fixtures: Fixtures, origin: string): Record<string, any> {
  const doc = structuredClone(model.doc) as Record<string, any>;
  doc.servers = [
    {
      url: `${origin}${model.basePath}`,
      description: 'This mock (npm run mock); the deployed service is in spec/openapi.yaml.',
    },
  ];
  // "Try it out" fills every parameter's example in, and all the search filters' examples
  // together match nothing: optional query parameters start empty (their schema default
  // still applies), and their example moves into the description.
  const optionalQuery = (p: Record<string, any>) => p.in === 'query' && !p.required && 'example' in p;
  const params = [
    ...Object.values<any>(doc.components?.parameters ?? {}),
    ...Object.values<any>(doc.paths).flatMap((item) =>
      Object.values<any>(item).flatMap((op) => (Array.isArray(op?.parameters) ? op.parameters : [])),
    ),
  ].filter((p) => p && !p.$ref && optionalQuery(p));
  for (const p of params) {
    p.description = `${p.description ?? ''} Example: \`${String(p.example)}\`.`.trim();
    delete p.example;
  }
  for (const [name, scheme] of Object.entries<any>(doc.components?.securitySchemes ?? {})) {
    const creds = fixtures.credentials.filter((c) => c.type === name);
    if (creds.length === 0) continue;
    const how =
      model.schemes.get(name)?.kind === 'cookie'
        ? 'In these docs, pick a session in the bar at the top: it sets the cookie (a browser lets no page send ' +
          'a Cookie header itself).'
        : 'In these docs, pick one in the bar at the top, or paste it in Authorize.';
    const rows = creds.map((c) => `| \`${c.name}\` | \`${c.value}\` | ${c.expect} |`).join('\n');
    scheme.description =
      `${scheme.description ?? ''}\n\n**This mock's fixture credentials** (fake; ` +
      `\`fixtures/auth.json\`). ${how}\n\n| name | value | GET /user/apikeys answers |\n|---|---|---|\n${rows}\n`;
  }
  return doc;
}

/** JSON for an inline <script>, as markup: `<` escaped so no value can close the script element. */
const scriptJson = (value: unknown) => raw(JSON.stringify(value).replace(/</g, '\\u003c'));

/**
 * The page. Written with Hono's `html` tag: every value put in it is escaped as text
 * (a fixture user's email, the spec's title), and only what is marked `raw` (the
 * script's JSON, escaped for a script) is markup.
 */
function page(model: SpecModel, fixtures: Fixtures): string {
  const credentials = fixtures.credentials.map((c) => ({
    name: c.name,
    scheme: c.type,
    kind: model.schemes.get(c.type)?.kind,
    value: c.value,
    expect: c.expect,
  }));
  const users = fixtures.users.map((u) => u.email);
  const title = `${String(model.doc.info.title ?? 'API')} (mock docs)`;
  return String(html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png">
<link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
<style>
  body { margin: 0; font-family: sans-serif; }
  #mock-bar { padding: 10px 20px; background: #1b1b1b; color: #eee; font-size: 14px; line-height: 2; }
  #mock-bar b { color: #fff; }
  #mock-bar button {
    margin: 0 4px;
    padding: 2px 8px;
    cursor: pointer;
    border-radius: 3px;
    border: 1px solid #888;
    background: #333;
    color: #eee;
  }
  #mock-bar button.active { background: #49cc90; color: #000; border-color: #49cc90; }
  #mock-bar a { color: #8fd3ff; }
  #mock-about { margin: 40px 0 20px; padding-top: 10px; border-top: 1px solid #ddd; }
  #mock-about h2 { font-size: 24px; margin: 0 0 10px; }
</style></head>
<body>
<div id="mock-bar">
  <b>Mock credentials</b> (fake, from fixtures/auth.json; the number is what GET /user/apikeys answers):
  <span id="mock-creds"></span><br>
  <button id="mock-login">Log in as ${users[0] ?? 'the first user'} (POST /__mock/login)</button>
  <span id="mock-using"></span>
  &middot; spec: <a href="${SPEC_YAML_PATH}">openapi.yaml</a>, <a href="${SPEC_JSON_PATH}">openapi.json</a>
</div>
<div id="swagger-ui"></div>
<script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
<script>
const CREDENTIALS = ${scriptJson(credentials)};
const COOKIE = ${scriptJson(model.cookieName ?? null)};
const USER = ${scriptJson(users[0] ?? null)};
const bar = document.getElementById('mock-creds');
const using = document.getElementById('mock-using');
const setCookie = (value) => {
  if (COOKIE) document.cookie = COOKIE + '=' + (value ?? '') + '; Path=/; SameSite=Lax' + (value ? '' : '; Max-Age=0');
};
function use(cred) {
  for (const b of bar.querySelectorAll('button')) b.classList.toggle('active', b.dataset.name === cred.name);
  // One credential at a time: a key in Authorization, or a session in the cookie.
  for (const c of CREDENTIALS) if (c.kind === 'bearer') window.ui.authActions.logout([c.scheme]);
  setCookie(null);
  if (cred.kind === 'bearer') window.ui.preauthorizeApiKey(cred.scheme, cred.value);
  else setCookie(cred.value);
  using.textContent = 'using ' + cred.name;
}
// The operations first: the spec's description is cut to its first paragraph at the top,
// with a link to the whole of it, which follows the operations.
const ABOUT = 'mock-about';
const AboutLast = (system) => ({
  wrapComponents: {
    info: (Info) => (props) => {
      const full = props.info && props.info.get('description');
      if (!full) return system.React.createElement(Info, props);
      const first = String(full).split(/\\n\\s*\\n/)[0];
      const about = 'About this API: where each part comes from, authentication, errors, limits (below the operations)';
      const short = first + '\\n\\n[' + about + '](#' + ABOUT + ')';
      return system.React.createElement(Info, { ...props, info: props.info.set('description', short) });
    },
    operations: (Operations) => (props) => {
      const Markdown = system.getComponent('Markdown', true);
      const full = system.specSelectors.info().get('description');
      return system.React.createElement('div', null,
        system.React.createElement(Operations, props),
        full ? system.React.createElement('section', { id: ABOUT, className: 'info' },
          system.React.createElement('h2', null, 'About this API'),
          system.React.createElement(Markdown, { source: full })) : null);
    },
  },
});
// Swagger UI opens the description's links in a new tab: this one scrolls this page.
document.addEventListener('click', (event) => {
  const link = event.target.closest && event.target.closest('a');
  if (!link || link.getAttribute('href') !== '#' + ABOUT) return;
  event.preventDefault();
  document.getElementById(ABOUT).scrollIntoView();
});
window.ui = SwaggerUIBundle({
  url: ${scriptJson(SPEC_JSON_PATH)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  tryItOutEnabled: true,
  displayRequestDuration: true,
  presets: [SwaggerUIBundle.presets.apis],
  plugins: [AboutLast],
  layout: 'BaseLayout',
  onComplete() {
    for (const c of CREDENTIALS) {
      const b = document.createElement('button');
      b.textContent = c.name + ' ' + c.expect;
      b.dataset.name = c.name;
      b.title = (c.kind === 'bearer' ? 'Authorization: Bearer ' : COOKIE + '=') + c.value;
      b.onclick = () => use(c);
      bar.appendChild(b);
    }
    const first = CREDENTIALS.find((c) => c.kind === 'bearer' && c.expect === 200);
    if (first) use(first);
  },
});
document.getElementById('mock-login').onclick = async () => {
  const res = await fetch('/__mock/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ user: USER }),
  });
  const body = await res.json();
  for (const c of CREDENTIALS) if (c.kind === 'bearer') window.ui.authActions.logout([c.scheme]);
  for (const b of bar.querySelectorAll('button')) b.classList.remove('active');
  using.textContent = res.ok ? 'logged in as ' + body.user.email + ' (session cookie)' : body.message;
};
</script>
</body></html>`);
}

/** The origin the browser used to reach the mock (the Host it sent), for links back to it. */
export function requestOrigin(c: Context): string {
  return new URL(c.req.url).origin;
}

/** The docs routes on any app: they read nothing the app's other stages set. */
export function mountDocs<E extends Env>(app: Hono<E>, deps: DocsDeps): void {
  const { model, fixtures, fail } = deps;
  // The served spec differs per origin the browser used (the Host header, which the client
  // picks) only in its server URL: it is serialised once with a slot for the URL, filled
  // per request, so no cache grows with the hosts clients name. A JSON string is also a
  // YAML double-quoted scalar, and js-yaml writes the slot's name bare. Each is made on its
  // first request: a mock in a unit test never serves them, and should not pay for them.
  const SLOT = '__MOCK_SERVER_URL__';
  let withSlot: Record<string, any> | undefined;
  const slotted = () => {
    if (withSlot) return withSlot;
    withSlot = servedSpec(model, fixtures, '');
    withSlot.servers[0].url = SLOT;
    return withSlot;
  };
  let json: string | undefined;
  let yaml: string | undefined;
  let html: ReturnType<typeof page> | undefined;
  const fill = (text: string, slot: string, origin: string) =>
    text.replace(slot, () => JSON.stringify(`${origin}${model.basePath}`));

  app.get(DOCS_PATH, (c) => c.html((html ??= page(model, fixtures))));
  app.get(`${DOCS_PATH}/`, (c) => c.redirect(DOCS_PATH));
  app.get(`${DOCS_PATH}/:asset`, (c) => {
    const name = c.req.param('asset');
    const type = ASSETS.get(name);
    if (!type)
      return fail(
        c,
        404,
        `no such docs asset (the page loads ${[...ASSETS.keys()].join(', ')}); the docs are at ${DOCS_PATH}`,
      );
    try {
      return c.body(new Uint8Array(asset(name)), 200, {
        'Content-Type': type,
        'Cache-Control': 'public, max-age=3600',
      });
    } catch (err) {
      return fail(c, 503, `the docs need swagger-ui-dist (npm install): ${(err as Error).message}`);
    }
  });
  app.get(SPEC_JSON_PATH, (c) =>
    c.body(fill((json ??= JSON.stringify(slotted())), `"${SLOT}"`, requestOrigin(c)), 200, {
      'Content-Type': 'application/json',
    }),
  );
  app.get(SPEC_YAML_PATH, (c) => {
    yaml ??= dump(slotted(), { lineWidth: 120, noRefs: true });
    return c.body(fill(yaml, SLOT, requestOrigin(c)), 200, { 'Content-Type': 'application/yaml; charset=utf-8' });
  });
}
