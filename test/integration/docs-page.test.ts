import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/browser';
import { createTestContext, type TestContext } from '../support/harness';
import { get } from '../support/read-http';

// GET /docs (decisions 11) in a real headless browser: the page renders every documented path,
// loads nothing from outside the instance, and "Try it out" on the preview returns 200.

let ctx: TestContext;
let browser: Browser;
let page: Page;
const outside: string[] = [];
// A cold browser parsing Swagger UI's 1.5 MB bundle on a loaded two-core machine can take a minute:
// generous bounds, since timings are never what is tested here.
const SLOW = 180_000;
const cspViolations: string[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  browser = await launchChromium();
  page = await browser.newPage();
  page.setDefaultTimeout(SLOW);
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(`${ctx.baseUrl}/`) && !url.startsWith('data:')) outside.push(url);
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) {
      cspViolations.push(m.text());
    }
  });
  const res = await page.goto(`${ctx.baseUrl}/docs`, { waitUntil: 'load', timeout: SLOW });
  expect(res?.status()).toBe(200);
  await page.waitForSelector('.opblock-summary-path', { timeout: SLOW });
}, SLOW);
afterAll(async () => {
  await browser?.close();
  await ctx?.close();
});

it('shows every path of the served document', async () => {
  const doc = (await get(ctx.baseUrl, '/v1/openapi.json')).body as { paths: object };
  const shown = await page.$$eval('.opblock-summary-path', (els) =>
    els.map((e) => e.getAttribute('data-path')),
  );
  expect([...new Set(shown)].sort()).toEqual(Object.keys(doc.paths).sort());
});

it(
  '"Try it out" on the preview sends the request to this instance and gets 200',
  async () => {
    const block = page.locator('#operations-default-previewOpportunities');
    await block.locator('.opblock-summary').first().click();
    await block.locator('button.try-out__btn').click();
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().startsWith(`${ctx.baseUrl}/v1/preview/opportunities`)),
      block.locator('button.execute').click(),
    ]);
    expect(response.status()).toBe(200);
    // The page itself shows the live response's status (the table's first row is its header).
    const status = block.locator('.live-responses-table tr.response .response-col_status').first();
    await status.waitFor({ timeout: SLOW });
    expect((await status.textContent())?.trim()).toMatch(/^200\b/);
  },
  SLOW,
);

it('loads nothing from outside the instance and breaks no Content-Security-Policy rule', () => {
  expect(outside).toEqual([]);
  expect(cspViolations).toEqual([]);
});

it('serves only the named assets, with a CSP that forbids other origins', async () => {
  const res = await fetch(`${ctx.baseUrl}/docs`);
  expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
  expect((await fetch(`${ctx.baseUrl}/docs/assets/index.html`)).status).toBe(404);
  expect((await fetch(`${ctx.baseUrl}/docs/assets/..%2Fpackage.json`)).status).toBe(404);
});
