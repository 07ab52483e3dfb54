// The HTML report as a person meets it: a real run (in process) against a reference
// server with two defects, its report written to a file and opened in headless
// Chromium. The verdict and both cause headings must be on the first screen and
// readable, the first cause's example with the curl line that repeats it too; every
// failure carries its request, expected, got, why, cause and repro; the page must load
// nothing but itself. The screenshot is kept in reports/contract-report.png.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgainstReference } from '../contract-tests/reference-server/in-process.ts';
import { htmlReport } from '../contract-tests/reports/html.ts';
import type { RunOutcome } from '../contract-tests/reports/outcome.ts';
import { launchChromium } from '../testing/chromium.ts';

const VIEWPORT = { width: 1280, height: 900 };
let outcome: RunOutcome;
const run = { html: join(mkdtempSync(join(tmpdir(), 'contract-report-')), 'contract-report.html') };
let browser: Browser;
let page: Page;
const requested: string[] = [];

beforeAll(async () => {
  ({ outcome } = await runAgainstReference(['missing-route', 'no-rate-limit-headers']));
  writeFileSync(run.html, htmlReport(outcome));
  browser = await launchChromium();
  page = await browser.newPage({ viewport: VIEWPORT });
  page.on('request', (req) => requested.push(req.url()));
  await page.goto(`file://${run.html}`);
  mkdirSync('reports', { recursive: true });
  await page.screenshot({ path: 'reports/contract-report.png' });
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

/** WCAG contrast ratio of two `rgb(...)` colours. */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/\d+(\.\d+)?/g) ?? [])
      .slice(0, 3)
      .map((v) => Number(v) / 255)
      .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** Visible, wholly inside the first screen, large enough and with enough contrast against what is behind it. */
async function readableOnFirstScreen(el: Locator, minPx: number): Promise<void> {
  const selector = el.toString();
  await expect(el.isVisible()).resolves.toBe(true);
  const box = (await el.boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, `${selector} ends below the first screen`).toBeLessThanOrEqual(VIEWPORT.height);
  const style = await el.evaluate((node) => {
    const own = getComputedStyle(node);
    let bg = 'rgba(0, 0, 0, 0)';
    for (let n: Element | null = node; n && /rgba\(0, 0, 0, 0\)|transparent/.test(bg); n = n.parentElement)
      bg = getComputedStyle(n).backgroundColor;
    return { size: parseFloat(own.fontSize), color: own.color, bg };
  });
  expect(style.size, `${selector} font size`).toBeGreaterThanOrEqual(minPx);
  expect(contrast(style.color, style.bg), `${selector} contrast`).toBeGreaterThanOrEqual(4.5);
}

describe('the HTML report in Chromium', () => {
  it('comes from a failing run', () => {
    expect(outcome.exitCode).toBe(1);
  });

  it('shows the verdict first, readable, with the failures per level', async () => {
    await readableOnFirstScreen(page.locator('#verdict h1'), 28);
    expect(await page.locator('#verdict h1').innerText()).toBe('Contract suite: FAILED');
    expect(await page.locator('#verdict p').first().innerText()).toMatch(
      /^\d+ checks run, \d+ failed \(2 causes\), \d+ skipped/,
    );
    expect(await page.locator('#levels').innerText()).toMatch(
      /^Failures by level: interface 0 observed \d+ assumed \d+$/,
    );
  });

  it('shows both causes, worst level first, on the first screen', async () => {
    const headings = page.locator('.cause h3');
    expect(await headings.allInnerTexts()).toEqual([
      expect.stringMatching(/^observed 1\. route missing: GET \/metadata\/versions answers 404 to every request/),
      expect.stringMatching(
        new RegExp(
          String.raw`^observed 2\. response headers X-RateLimit-Limit, X-RateLimit-Remaining,` +
            String.raw` X-RateLimit-Reset missing from every answer of \d+ operations$`,
        ),
      ),
    ]);
    await readableOnFirstScreen(headings.nth(0), 16);
    await readableOnFirstScreen(headings.nth(1), 16);
  });

  it(
    "shows each cause's count and one example, whose " + 'curl line is on the first screen for the first cause',
    async () => {
      const first = page.locator('.cause').first();
      expect(await first.locator('.hint').innerText()).toMatch(
        /^\d+ failures: the target does not serve GET \/metadata\/versions/,
      );
      expect(await first.locator('.example').innerText()).toMatch(/^e\.g\. listVersions: /);
      expect(await first.locator('dt').allInnerTexts()).toEqual(['request', 'got', 'repro']);
      const repro = first.locator('dd').last();
      expect(await repro.innerText()).toMatch(/^curl -i 'http:\/\/reference\.test\/api\/v0\.1\/metadata\/versions/);
      await readableOnFirstScreen(repro, 13);
    },
  );

  it(
    'gives each failure its request, what was expected, what came back, why, its cause and its repro, and a ' +
      'table of the operations',
    async () => {
      const first = page.locator('details.failure').first();
      expect(await first.locator('dt').allInnerTexts()).toEqual([
        'request',
        'expected',
        'got',
        'why',
        'cause',
        'repro',
      ]);
      const rows = page.locator('#operations + table tbody tr');
      expect(await rows.count()).toBe(10);
      expect(await rows.filter({ hasText: 'listVersions' }).innerText()).toMatch(
        /^listVersions\tGET \/metadata\/versions\tFAIL\t\d+\t\d+\t\d+$/,
      );
    },
  );

  it('is self-contained: no script, no stylesheet or font from anywhere, nothing requested but itself', () => {
    const html = readFileSync(run.html, 'utf8');
    expect(html).not.toMatch(/<script|<link|@import|url\(|@font-face/i);
    expect(requested).toEqual([`file://${run.html}`]);
  });
});
