// What a buggy browser app meets: headless Chromium on another origin posts a body too
// big, then calls again on the same connection pool, and sends hostile filters. Each
// answer must be readable by the page (CORS headers on errors too) and come at once.
// Run by `npm run test:browser` (needs Debian's chromium; CI installs it).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../mocks/node/server.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Each step's status and body, as JSON in <pre id="out">.
const PAGE = `<!doctype html><pre id="out">pending</pre><script>
(async () => {
  const api = new URLSearchParams(location.search).get('api') + '/api/v0.1';
  const out = {};
  for (const [name, path, init] of [
    [
      'tooBig',
      '/user/apikeys',
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'x'.repeat(40000) }),
      },
    ],
    ['after', '/servers/find?limit=1'],
    ['stars', '/servers/find?motd=' + encodeURIComponent('*'.repeat(12) + 'zq')],
    ['badEscape', '/servers/find?limit=1&motd=%'],
  ]) {
    try {
      const res = await fetch(api + path, init);
      out[name] = { status: res.status, body: await res.json() };
    } catch (e) { out[name] = { error: String(e) }; }
  }
  document.getElementById('out').textContent = JSON.stringify(out);
})();
</script>`;

let mock: RunningMock;
let page: Server;

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`);
  mock = await startMock({ port: 0, host: '127.0.0.1', selfCheck: true, servers: 50 });
  page = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(PAGE));
  await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
});

afterAll(async () => {
  await mock?.close();
  page?.close();
});

describe('a browser app sending what it should not', () => {
  it('reads the 413 for a body too big and carries on; hostile filters answer at once', async () => {
    const profile = mkdtempSync(join(tmpdir(), 'slm-chromium-'));
    const url = `http://localhost:${(page.address() as AddressInfo).port}/?api=${encodeURIComponent(mock.origin)}`;
    let dom: string;
    try {
      const flags = [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ];
      dom = (
        await promisify(execFile)(
          CHROMIUM,
          [...flags, `--user-data-dir=${profile}`, '--virtual-time-budget=10000', '--dump-dom', url],
          { timeout: 60_000 },
        )
      ).stdout;
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
    const steps = JSON.parse(
      (/<pre id="out">([^<]*)<\/pre>/.exec(dom)?.[1] ?? '{}').replace(/&quot;/g, '"').replace(/&amp;/g, '&'),
    );
    expect(steps.tooBig).toEqual({
      status: 413,
      body: { success: false, message: 'Payload Too Large: the request body is over 16384 bytes' },
    });
    expect(steps.after.status).toBe(200);
    expect(steps.stars).toMatchObject({ status: 200, body: { total: 0 } });
    expect(steps.badEscape.status).toBe(200);
  });
});
