// The docs page as a frontend developer meets it: headless Chromium opens
// /__mock/docs, sees the first operation on the first screen and every operation of
// the spec, the spec's long description below them, and a "Try it out" search call
// reaches the mock and succeeds. Screenshots are kept in reports/docs-*.png.
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../spec/model.ts';
import { launchChromium } from '../testing/chromium.ts';
import { startMock, type RunningMock } from '../mocks/node/server.ts';

const model = loadModel();
let mock: RunningMock;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mock = await startMock({ port: 0, host: '127.0.0.1', selfCheck: true, servers: 50 });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
  await page.goto(`${mock.origin}/__mock/docs`);
  await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
});

afterAll(async () => {
  await browser?.close();
  await mock?.close();
});

/** Opens an operation, presses Execute, and returns the status and body the docs show. */
async function tryIt(operationId: string, tag: string): Promise<{ status: string; body: string; url: string }> {
  const op = page.locator(`#operations-${tag}-${operationId}`);
  await op.locator('.opblock-summary').click();
  await op.locator('button.execute').click();
  const row = op.locator('.live-responses-table .response').first();
  await row.waitFor({ timeout: 30_000 });
  return {
    status: (await row.locator('.response-col_status').innerText()).trim(),
    body: await op.locator('.live-responses-table .response-col_description pre').first().innerText(),
    url: await op.locator('.request-url pre').innerText(),
  };
}

describe('the docs page in Chromium', () => {
  it(
    'leads with the operations: the first one is on the first screen (1280x800), the long description below ' + 'them',
    async () => {
      const first = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      try {
        await first.goto(`${mock.origin}/__mock/docs`);
        const op = first.locator('.opblock').first();
        await op.waitFor({ timeout: 30_000 });
        mkdirSync('reports', { recursive: true });
        await first.screenshot({ path: 'reports/docs-first-screen.png' });
        expect(await op.getAttribute('id')).toBe(
          `operations-${model.operations[0]!.raw.tags[0]}-${model.operations[0]!.operationId}`,
        );
        const box = (await op.boundingBox())!;
        expect(box.y + box.height).toBeLessThanOrEqual(800);
        // The top keeps the description's first paragraph; the rest is behind a link, below the operations.
        const info = await first.locator('.information-container').innerText();
        expect(info).toContain('HTTP JSON API over a listing of Minecraft servers');
        expect(info).not.toContain('Where each part comes from');
        const about = first.locator('#mock-about');
        expect(await about.innerText()).toContain('Where each part comes from');
        const lastOp = (await first.locator('.opblock').last().boundingBox())!;
        expect((await about.boundingBox())!.y).toBeGreaterThan(lastOp.y);
        await first.locator('.information-container a', { hasText: 'About this API' }).click();
        await expect.poll(async () => (await about.boundingBox())!.y, { timeout: 5_000 }).toBeLessThan(800);
        expect(first.context().pages()).toHaveLength(1);
      } finally {
        await first.close();
      }
    },
  );

  it('renders every operation of the spec', async () => {
    const rendered = await page.locator('.opblock').evaluateAll((els) => els.map((e) => e.id));
    expect(rendered.sort()).toEqual(model.operations.map((o) => `operations-${o.raw.tags[0]}-${o.operationId}`).sort());
    expect(await page.locator('.opblock-summary-path').allInnerTexts()).toContain('/servers/find');
    mkdirSync('reports', { recursive: true });
    await page.screenshot({ path: 'reports/docs-top.png' });
  });

  it('a "Try it out" search goes to this mock and succeeds', async () => {
    const res = await tryIt('findServers', 'servers');
    expect(res.url).toMatch(new RegExp(`^${mock.baseUrl}/servers/find`));
    expect(res.status).toBe('200');
    const body = JSON.parse(res.body);
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.displayed).toBe(body.results.length);
    mkdirSync('reports', { recursive: true });
    await page.screenshot({ path: 'reports/docs.png', fullPage: false });
  });

  it('the pre-authorized fixture key makes a protected call succeed', async () => {
    const res = await tryIt('listApiKeys', 'apikeys');
    expect(res.status).toBe('200');
    expect(JSON.parse(res.body).success).toBe(true);
  });

  it('picking a fixture session in the bar sets the cookie the next call sends', async () => {
    await page.locator('#mock-creds button', { hasText: 'forbidden-session' }).click();
    const op = page.locator('#operations-apikeys-listApiKeys');
    await op.locator('button.execute').click();
    await expect
      .poll(
        async () =>
          (await op.locator('.live-responses-table .response .response-col_status').first().innerText()).trim(),
        { timeout: 30_000 },
      )
      .toBe('403');
    await page.screenshot({ path: 'reports/docs-session.png' });
  });
});
