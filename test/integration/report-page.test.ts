import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { parseArgs } from '../../src/cli/command';
import { REPORT_KEY_ENV, reportCommand } from '../../src/cli/commands/report';
import { formatNumber } from '../../src/cli/report-html';
import { launchChromium } from '../support/browser';
import { DASHBOARD_FIXTURE } from '../support/dashboard-fixture';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { get, newReader, type Reader } from '../support/read-http';

// The dashboards' picture for people: `cli report` writes a self-contained HTML page from the API's own
// count answer. A real headless Chromium opens it: the chart's bars and the rate table show the
// API's numbers, nothing is loaded from anywhere, no key is inside, and hostile text stays text.

let ctx: TestContext;
let reader: Reader;
let browser: Browser;
let page: Page;
let dir: string;
let html: string;
const SLOW = 120_000;
const HOSTILE = '<img src=x onerror="document.title=\'pwned\'">';
const FILTERS = `fresh_after=2025-12-01&job_family=data`;
const requests: string[] = [];

// A record whose text is hostile: the report never shows record text, but the filters echo it.
const hostile = makeRecord({ normalized_title: HOSTILE, published_at: '2026-01-07T00:00:00Z' });

beforeAll(async () => {
  ctx = await createTestContext();
  reader = await newReader(ctx.deps);
  await storeAndIndex(ctx.deps, [...DASHBOARD_FIXTURE, hostile]);
  dir = await mkdtemp(path.join(tmpdir(), 'report-'));
  process.env[REPORT_KEY_ENV] = reader.key;
  const out = path.join(dir, 'report.html');
  const result = await reportCommand.run(
    parseArgs([
      '--api',
      ctx.baseUrl,
      '--filters',
      FILTERS,
      '--out',
      out,
      '--title',
      `Data ${HOSTILE}`,
    ]),
    () => Promise.reject(new Error('the report needs no database')),
  );
  expect(result).toMatchObject({ ok: true, out });
  html = await readFile(out, 'utf8');
  browser = await launchChromium();
  page = await browser.newPage();
  page.setDefaultTimeout(SLOW);
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(out).href, { waitUntil: 'load' });
}, SLOW);
afterAll(async () => {
  delete process.env[REPORT_KEY_ENV];
  await browser?.close();
  await rm(dir, { recursive: true, force: true });
  await ctx?.close();
});

const api = async (q: string) =>
  (await get(ctx.baseUrl, `/v1/opportunities/count?${q}`, { key: reader.key })).body;

it('the chart has one bar per week of the API histogram, with its count and height', async () => {
  const body = await api(`${FILTERS}&histogram=published&interval=week&stats=rate`);
  const bars = await page.$$eval('svg.chart rect.bar', (els) =>
    els.map((e) => ({
      start: e.getAttribute('data-start'),
      count: Number(e.getAttribute('data-count')),
      height: e.getBoundingClientRect().height,
      title: e.querySelector('title')?.textContent,
    })),
  );
  expect(bars.map(({ start, count }) => ({ start, count }))).toEqual(body.histogram);
  expect(body.histogram.some((b: { count: number }) => b.count === 0)).toBe(true);
  // Heights are proportional to the counts: the tallest bar is the largest count.
  const max = Math.max(...bars.map((b) => b.count));
  const tallest = Math.max(...bars.map((b) => b.height));
  for (const b of bars) {
    expect(b.height).toBeCloseTo((b.count / max) * tallest, 0);
    expect(b.title).toContain(String(b.count));
  }
  expect(await page.textContent('#total')).toBe(formatNumber(body.count));
});

it('the rate table shows the API rate_stats, row by row', async () => {
  const body = await api(`${FILTERS}&stats=rate`);
  const rows = await page.$$eval('#rates tbody tr', (trs) =>
    trs.map((tr) => {
      const cells = tr.querySelectorAll('td');
      const texts: (string | null)[] = [];
      for (let i = 0; i < cells.length; i++) texts.push(cells[i]?.textContent ?? null);
      return texts;
    }),
  );
  expect(rows).toEqual(
    body.rate_stats.map((e: Record<string, number | string | null>) => [
      e.unit,
      e.currency,
      formatNumber(e.count as number),
      ...['min', 'p25', 'median', 'p75', 'max'].map((k) => formatNumber(e[k] as number | null)),
    ]),
  );
  expect(rows.length).toBeGreaterThan(1);
});

it('is self-contained: no request beyond the file, no script, no key', async () => {
  expect(requests.every((u) => u.startsWith('file://'))).toBe(true);
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|www\.w3\.org\/2000\/svg)/);
  expect(html).not.toContain(reader.key);
  expect(html).not.toContain(reader.key.slice(0, 12));
});

it('escapes untrusted text: the hostile title stays text', async () => {
  expect(await page.title()).toBe(`Data ${HOSTILE}`);
  expect(await page.textContent('h1')).toBe(`Data ${HOSTILE}`);
  expect(await page.$$('img')).toHaveLength(0);
  expect(html).not.toContain('<img');
});

it('an API refusal is reported, and no page is written', async () => {
  const out = path.join(dir, 'refused.html');
  const result = await reportCommand.run(
    parseArgs(['--api', ctx.baseUrl, '--filters', 'job_family=nope', '--out', out]),
    () => Promise.reject(new Error('unused')),
  );
  expect(result).toMatchObject({ ok: false, status: 400, code: 'invalid_filter' });
  await expect(readFile(out)).rejects.toThrow();
});

// fetch refuses a URL with credentials in a message that quotes it, and the CLI printed that.
it('refuses an --api URL with credentials as a usage error that does not repeat them', async () => {
  const api = new URL(ctx.baseUrl);
  api.username = 'u';
  api.password = 'pw-secret-9';
  const refused = reportCommand.run(
    parseArgs(['--api', api.toString(), '--out', path.join(dir, 'never.html')]),
    () => Promise.reject(new Error('unused')),
  );
  await expect(refused).rejects.toThrow(/must not carry credentials/);
  await expect(refused).rejects.not.toThrow(/pw-secret-9/);
});
