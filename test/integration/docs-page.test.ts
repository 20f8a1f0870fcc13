import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/browser';
import { createTestContext, type TestContext } from '../support/harness';
import { get, newReader } from '../support/read-http';

// GET /docs (contract §5.8.2) in a real headless browser: the page renders every documented path,
// loads nothing from outside the instance, and "Try it out" on the preview returns 200. Also:
// operations grouped by the five tags, a first screen that says how to get a key, where /mcp and
// /llms.txt are and what costs what, "Try it out" on from the start, the key kept across a
// reload, and the contract's acceptable use where the change feed is described.

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

// Each test expands the operation it reads and closes it after: Swagger UI renders every open
// operation again at each change of its state, so operations left open made each later click and
// response cost the browser more.
afterEach(async () => {
  for (const summary of await page.locator('.opblock.is-open > .opblock-summary').all()) {
    await summary.click();
  }
});

/** An operation's block (Swagger UI ids it #operations-<tag>-<operationId>), expanded. */
async function expand(tag: string, operationId: string) {
  const block = page.locator(`#operations-${tag}-${operationId}`);
  if (!(await block.locator('.opblock-body').count())) {
    await block.locator('.opblock-summary').first().click();
  }
  await block.locator('.opblock-body').waitFor({ timeout: SLOW });
  return block;
}

it('groups the operations under the five tags, none untitled', async () => {
  const tags = await page.$$eval('.opblock-tag-section h3.opblock-tag', (els) =>
    els.map((e) => e.getAttribute('data-tag')),
  );
  expect(tags).toEqual(['Opportunities', 'Taxonomy', 'Account', 'Preview', 'Discovery']);
  const inGroup = (tag: string) =>
    page.$$eval(`.opblock-tag-section:has(h3[data-tag="${tag}"]) .opblock`, (els) =>
      els.map((e) => e.id),
    );
  expect(await inGroup('Opportunities')).toEqual([
    'operations-Opportunities-listOpportunities',
    'operations-Opportunities-countOpportunities',
    'operations-Opportunities-listOpportunityChanges',
    'operations-Opportunities-getOpportunity',
  ]);
  expect(await inGroup('Preview')).toEqual(['operations-Preview-previewOpportunities']);
});

it('the first screen says how to get a key, where /mcp and /llms.txt are, and what costs what', async () => {
  const intro = page.locator('.information-container .info .description');
  const text = (await intro.innerText()).replace(/\s+/g, ' ');
  expect(text).toContain('Get a key');
  expect(text).toMatch(/key create --account/);
  expect(text).toMatch(/Authorize/);
  const links = await intro
    .locator('a')
    .evaluateAll((els) => els.map((e) => e.getAttribute('href')));
  expect(links).toEqual(expect.arrayContaining(['/mcp', '/llms.txt']));
  // The cost table: which operations are metered and which are free.
  const [metered, free] = await intro
    .locator('table tbody tr td')
    .evaluateAll((els) => els.map((e) => (e.textContent ?? '').replace(/\s+/g, ' ')));
  expect(await intro.locator('table thead').innerText()).toMatch(/Metered[\s\S]*Free/);
  for (const path of [
    '/v1/opportunities',
    '/v1/opportunities/{opportunity_id}',
    '/v1/opportunities/changes',
  ]) {
    expect(metered).toContain(path);
  }
  for (const path of [
    '/v1/opportunities/count',
    '/v1/usage',
    '/v1/taxonomy/occupations',
    '/v1/preview/opportunities',
  ]) {
    expect(free).toContain(path);
  }
});

it('describes the change feed as keeping an integration current, with the acceptable use', async () => {
  const block = await expand('Opportunities', 'listOpportunityChanges');
  // The body appears before its rendered description on a busy machine (CI once read the summary
  // and the Execute button only): wait for the description's text itself.
  await block
    .locator('.opblock-description-wrapper')
    .getByText('Acceptable use', { exact: false })
    .first()
    .waitFor({ timeout: SLOW });
  const text = (await block.innerText()).replace(/\s+/g, ' ');
  expect(text).toMatch(/keep an integration current/i);
  expect(text).toContain('Acceptable use');
  expect(text).toContain(
    'does not authorize systematic reconstruction of the dataset, a competing mirror',
  );
  expect(text).not.toMatch(/for mirrors/i);
});

it('"Try it out" is on without a click: the Execute button is already there', async () => {
  const block = await expand('Opportunities', 'countOpportunities');
  await expect(block.locator('button.execute').count()).resolves.toBe(1);
  // The toggle offers to cancel, i.e. try-it-out mode is already enabled.
  expect((await block.locator('button.try-out__btn').innerText()).trim()).toBe('Cancel');
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
    const block = await expand('Preview', 'previewOpportunities');
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

it(
  'keeps the key given to Authorize across a reload, and sends it',
  async () => {
    const reader = await newReader(ctx.deps);
    await page.locator('.auth-wrapper button.authorize').click();
    const dialog = page.locator('.dialog-ux .modal-ux');
    await dialog.locator('input[type=text], input[type=password]').first().fill(reader.key);
    await dialog.locator('button.authorize').click();
    await dialog.locator('button.close-modal').click();
    await page.reload({ waitUntil: 'load', timeout: SLOW });
    await page.waitForSelector('.opblock-summary-path', { timeout: SLOW });
    // After the reload the lock is still closed and a keyed call carries the key.
    await expect(page.locator('.auth-wrapper button.authorize.locked').count()).resolves.toBe(1);
    const block = await expand('Account', 'getUsage');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().startsWith(`${ctx.baseUrl}/v1/usage`)),
      block.locator('button.execute').click(),
    ]);
    expect(response.request().headers()['x-api-key']).toBe(reader.key);
    expect(response.status()).toBe(200);
  },
  SLOW,
);

it(
  '"Try it out" sends a list as one comma-separated value (style: form, explode: false)',
  async () => {
    // Runs after the reload above: the key is still authorized.
    const block = await expand('Opportunities', 'countOpportunities');
    await block.locator('tr[data-param-name="level"] select').selectOption(['senior', 'staff']);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().startsWith(`${ctx.baseUrl}/v1/opportunities/count`)),
      block.locator('button.execute').click(),
    ]);
    expect(new URL(response.url()).searchParams.getAll('level')).toEqual(['senior,staff']);
    expect(response.status()).toBe(200);
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
