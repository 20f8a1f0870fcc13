import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sdkClient } from '../support/sdk-client';
import {
  DASHBOARD_FIXTURE,
  FAR_RECORD,
  histogramOracle,
  matching,
  percentile,
  rateOracle,
  type OracleFilter,
  type RateEntry,
} from '../support/dashboard-fixture';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { qs, type Query } from '../support/read-fixture';
import { expectError, get, newReader, type Reader } from '../support/read-http';

// contract §10.4, §10.5, histograms and rate statistics, against the real OpenSearch through REST and MCP,
// compared with an oracle computed from the fixture (test/support/dashboard-fixture.ts): bucket
// edges, empty buckets, records without a rate, one-sided rates, several units and currencies;
// every combination with filters and group_by; bad parameters; free of charge.

let ctx: TestContext;
let reader: Reader;
const ALL = [...DASHBOARD_FIXTURE, FAR_RECORD];

beforeAll(async () => {
  ctx = await createTestContext();
  reader = await newReader(ctx.deps);
  await storeAndIndex(ctx.deps, ALL);
});
afterAll(() => ctx.close());

const count = (q: Query) =>
  get(ctx.baseUrl, `/v1/opportunities/count?${qs(q)}`, { key: reader.key });

/** The REST query of an oracle filter. */
const restOf = (f: OracleFilter): Query => ({
  ...(f.family ? { job_family: f.family } : {}),
  ...(f.country ? { country: f.country } : {}),
  ...(f.freshAfter ? { fresh_after: f.freshAfter } : {}),
});

/** The statistics match the oracle: count, min and max exactly, the percentiles within 5 %. */
function expectRates(actual: RateEntry[], expected: RateEntry[]): void {
  expect(
    actual.map(({ unit, currency, count: n, min, max }) => ({ unit, currency, n, min, max })),
  ).toEqual(
    expected.map(({ unit, currency, count: n, min, max }) => ({ unit, currency, n, min, max })),
  );
  actual.forEach((a, i) => {
    const e = expected[i] as RateEntry;
    expect(Object.keys(a)).toEqual([
      'unit',
      'currency',
      'count',
      'min',
      'max',
      'p25',
      'median',
      'p75',
    ]);
    for (const k of ['p25', 'median', 'p75'] as const) {
      if (e[k] === null) expect(a[k]).toBeNull();
      else
        expect(Math.abs((a[k] as number) - (e[k] as number))).toBeLessThanOrEqual(
          0.05 * Math.abs(e[k] as number),
        );
    }
  });
}

/** The entry's quartiles against R-7 over `sorted`, within `tolerance` of each (relative). */
function expectQuartiles(entry: RateEntry | undefined, sorted: number[], tolerance: number): void {
  for (const [k, p] of [
    ['p25', 0.25],
    ['median', 0.5],
    ['p75', 0.75],
  ] as const) {
    const exact = percentile(sorted, p);
    expect(Math.abs((entry?.[k] as number) - exact)).toBeLessThanOrEqual(tolerance * exact);
  }
}

const RECENT = '2025-12-01';
const FILTERS: OracleFilter[] = [
  { freshAfter: RECENT },
  { freshAfter: RECENT, family: 'data' },
  { freshAfter: RECENT, country: 'US' },
  { freshAfter: '2026-02-01', family: 'data', country: 'GB' },
];

describe.each(FILTERS.map((f) => [JSON.stringify(f), f] as const))('filters %s', (_l, f) => {
  const records = () => matching(ALL, f);

  it.each([
    ['published', 'day'],
    ['published', 'week'],
    ['published', 'month'],
    ['first_seen', 'day'],
    ['first_seen', 'week'],
    ['first_seen', 'month'],
  ] as const)('histogram=%s interval=%s equals the oracle', async (field, interval) => {
    const res = await count({ ...restOf(f), histogram: field, interval });
    expect(res.status).toBe(200);
    expect(res.body.histogram).toEqual(histogramOracle(records(), field, interval));
    expect(res.body.count).toBe(records().length);
    // The histogram's buckets account for every matching record.
    const sum = (res.body.histogram as { count: number }[]).reduce((s, b) => s + b.count, 0);
    expect(sum).toBe(records().length);
    expect(res.body.meta.applied_filters).toEqual(
      expect.not.objectContaining({ histogram: expect.anything() }),
    );
  });

  it('stats=rate equals the oracle', async () => {
    const res = await count({ ...restOf(f), stats: 'rate' });
    expect(res.status).toBe(200);
    expectRates(res.body.rate_stats, rateOracle(records()));
  });

  it('histogram, stats and group_by combine in one answer', async () => {
    const res = await count({
      ...restOf(f),
      histogram: 'published',
      interval: 'week',
      stats: 'rate',
      group_by: 'currency',
    });
    expect(res.status).toBe(200);
    expect(res.body.histogram).toEqual(histogramOracle(records(), 'published', 'week'));
    expectRates(res.body.rate_stats, rateOracle(records()));
    expect(res.body.groups.length).toBeGreaterThan(0);
    expect(Object.keys(res.body)).toEqual([
      'count',
      'groups',
      'other_count',
      'histogram',
      'rate_stats',
      'meta',
    ]);
  });
});

describe('the rules on the fixture', () => {
  it('weeks start on Monday, months on the 1st, in UTC; empty buckets are included', async () => {
    const res = await count({ fresh_after: RECENT, histogram: 'published', interval: 'week' });
    const starts = (res.body.histogram as { start: string; count: number }[]).map((b) => b.start);
    for (const s of starts) expect(new Date(s).getUTCDay()).toBe(1);
    // The week across the new year holds 2025-12-29, 2025-12-31 and 2026-01-01 together.
    expect(res.body.histogram[0]).toEqual({ start: '2025-12-29T00:00:00.000Z', count: 4 });
    // Sunday 2026-01-04 23:59:59 (first_seen of an unpublished record) is in that week too; Monday
    // 2026-01-05 00:00 starts the next; 01-12 and 01-19 are empty.
    expect(res.body.histogram.slice(1, 4)).toEqual([
      { start: '2026-01-05T00:00:00.000Z', count: 1 },
      { start: '2026-01-12T00:00:00.000Z', count: 0 },
      { start: '2026-01-19T00:00:00.000Z', count: 0 },
    ]);
    const months = await count({ fresh_after: RECENT, histogram: 'published', interval: 'month' });
    expect(months.body.histogram).toEqual([
      { start: '2025-12-01T00:00:00.000Z', count: 2 },
      { start: '2026-01-01T00:00:00.000Z', count: 4 },
      { start: '2026-02-01T00:00:00.000Z', count: 4 },
      { start: '2026-03-01T00:00:00.000Z', count: 0 },
      { start: '2026-04-01T00:00:00.000Z', count: 0 },
      { start: '2026-05-01T00:00:00.000Z', count: 5 },
    ]);
  });

  it('one-sided rates count by their one bound; records without a rate are in no entry', async () => {
    const res = await count({ fresh_after: RECENT, stats: 'rate' });
    const gbpDay = (res.body.rate_stats as RateEntry[]).find(
      (e) => e.unit === 'day' && e.currency === 'GBP',
    );
    // 550, 450 (min only), 700 (max only), 600, 600, 450, 550
    expect(gbpDay).toEqual({
      unit: 'day',
      currency: 'GBP',
      count: 7,
      min: 450,
      max: 700,
      p25: 500,
      median: 550,
      p75: 600,
    });
    const total = (res.body.rate_stats as RateEntry[]).reduce((s, e) => s + e.count, 0);
    expect(total).toBe(DASHBOARD_FIXTURE.filter((r) => r.rate).length);
    expect(res.body.rate_stats[0]).toMatchObject({ unit: 'day', currency: 'GBP' });
  });

  it('nothing matching: an empty histogram and no statistics', async () => {
    const res = await count({
      country: 'FR',
      histogram: 'first_seen',
      interval: 'day',
      stats: 'rate',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 0, histogram: [], rate_stats: [] });
  });

  it('more than 400 buckets → 400 invalid_filter naming interval', async () => {
    const res = await count({ histogram: 'published', interval: 'day' });
    expectError(res, 400, 'invalid_filter', { parameter: 'interval', reason: 'out_of_range' });
    // A week histogram of the same records fits (2023-06-12 to 2026-05-11: 153 weeks).
    const weeks = await count({ histogram: 'published', interval: 'week' });
    expect(weeks.status).toBe(200);
    expect(weeks.body.histogram).toEqual(histogramOracle(ALL, 'published', 'week'));
    expect(weeks.body.histogram.length).toBeLessThanOrEqual(400);
  });
});

describe('bad parameters → 400 invalid_filter naming the parameter', () => {
  it.each([
    [{ histogram: 'published', interval: 'year' }, 'interval', 'unknown_value'],
    [{ histogram: 'published', interval: 'hour' }, 'interval', 'unknown_value'],
    [{ histogram: 'changed_at', interval: 'week' }, 'histogram', 'unknown_value'],
    [{ histogram: 'published_at', interval: 'week' }, 'histogram', 'unknown_value'],
    [{ stats: 'salary' }, 'stats', 'unknown_value'],
    [{ stats: 'rate,salary' }, 'stats', undefined],
    [{ histogram: 'published' }, 'interval', 'missing'],
    [{ interval: 'week' }, 'interval', 'unsupported'],
    // Each was silently ignored: a lone group_limit, a repeated include.
    [{ group_limit: '5' }, 'group_limit', 'unsupported'],
    [{ include: 'new_count,new_count' }, 'include', 'repeated'],
    [{ histogram: 'published,first_seen', interval: 'week' }, 'histogram', undefined],
  ] as const)('%j', async (q, parameter, reason) => {
    expectError(await count(q as Query), 400, 'invalid_filter', {
      parameter,
      ...(reason ? { reason } : {}),
    });
  });

  it('the list endpoint does not take them', async () => {
    const res = await get(ctx.baseUrl, '/v1/opportunities?stats=rate', { key: reader.key });
    expectError(res, 400, 'invalid_filter', { parameter: 'stats' });
  });
});

describe('free like counts', () => {
  it('a count with histogram, stats and group_by consumes nothing', async () => {
    const fresh = await newReader(ctx.deps);
    const usage = async () =>
      (await get(ctx.baseUrl, '/v1/usage', { key: fresh.key })).body.opportunities;
    const before = await usage();
    for (let i = 0; i < 3; i++) {
      const res = await get(
        ctx.baseUrl,
        `/v1/opportunities/count?${qs({ histogram: 'published', interval: 'week', stats: 'rate', group_by: 'job_family' })}`,
        { key: fresh.key },
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('x-service-opportunity-used')).toBe('0');
    }
    expect(await usage()).toEqual(before);
    expect(before.used).toBe(0);
  });
});

describe('MCP count_opportunities', () => {
  let client: Client;
  beforeAll(async () => {
    client = sdkClient('dashboards-test');
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${ctx.baseUrl}/mcp`), {
        requestInit: { headers: { 'X-API-Key': reader.key } },
      }),
    );
    await client.listTools(); // every result is then validated against the output schema
  });
  afterAll(() => client.close());

  const call = async (args: Record<string, unknown>) => {
    const result = await client.callTool({ name: 'count_opportunities', arguments: args });
    return {
      isError: result.isError === true,
      body: result.structuredContent as Record<string, unknown> & {
        error?: { code: string; details?: { parameter: string } };
      },
    };
  };

  it('declares the arguments and teaches the one free call for a day rate', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'count_opportunities');
    const props = tool?.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(props.histogram).toMatchObject({ type: 'string', enum: ['published', 'first_seen'] });
    expect(props.interval).toMatchObject({ type: 'string', enum: ['day', 'week', 'month'] });
    expect(props.stats).toMatchObject({ type: 'string', enum: ['rate'] });
    expect(tool?.description).toMatch(/stats: "rate"/);
    expect(tool?.description).toMatch(/senior data engineer/i);
    expect(tool?.description).toMatch(/median/);
  });

  it.each(FILTERS.map((f) => [JSON.stringify(f), f] as const))(
    'histogram and stats equal the oracle with filters %s',
    async (_l, f) => {
      const args = {
        ...(f.family ? { job_family: [f.family] } : {}),
        ...(f.country ? { country: f.country } : {}),
        ...(f.freshAfter ? { fresh_after: f.freshAfter } : {}),
        histogram: 'first_seen',
        interval: 'month',
        stats: 'rate',
      };
      const { isError, body } = await call(args);
      expect(isError).toBe(false);
      const records = matching(ALL, f);
      expect(body.histogram).toEqual(histogramOracle(records, 'first_seen', 'month'));
      expectRates(body.rate_stats as RateEntry[], rateOracle(records));
    },
  );

  it.each([
    [{ histogram: 'published', interval: 'fortnight' }, 'interval'],
    [{ histogram: 'posted', interval: 'week' }, 'histogram'],
    [{ stats: 'salary' }, 'stats'],
    [{ histogram: 'published', interval: 'day' }, 'interval'],
    [{ interval: 'day' }, 'interval'],
  ])('%j → isError invalid_filter', async (args, parameter) => {
    const { isError, body } = await call(args);
    expect(isError).toBe(true);
    expect(body.error?.code).toBe('invalid_filter');
    expect(body.error?.details?.parameter).toBe(parameter);
  });
});

describe('MIN_AGGREGATE_COUNT', () => {
  let small: TestContext;
  let key: string;
  beforeAll(async () => {
    small = await createTestContext({ MIN_AGGREGATE_COUNT: '3' });
    key = (await newReader(small.deps)).key;
    await storeAndIndex(small.deps, DASHBOARD_FIXTURE);
  });
  afterAll(() => small.close());

  it('an entry from fewer records keeps its count and nulls its statistics', async () => {
    const res = await get(small.baseUrl, '/v1/opportunities/count?stats=rate', { key });
    expect(res.status).toBe(200);
    const expected = rateOracle(DASHBOARD_FIXTURE, 3);
    expectRates(res.body.rate_stats, expected);
    // Some entries are suppressed (one record of EUR day), some not (seven of GBP day).
    expect(expected.some((e) => e.median === null)).toBe(true);
    expect(expected.some((e) => e.median !== null)).toBe(true);
  });
});

describe('percentiles of a large distribution (TDigest)', () => {
  let big: TestContext;
  let key: string;
  // 1,500 distinct values (more than the exact path reads), skewed: most rates low, a long tail.
  const VALUES = Array.from({ length: 1500 }, (_, i) => 40 + (i * i) / 5000 + i * 0.01);
  beforeAll(async () => {
    big = await createTestContext();
    key = (await newReader(big.deps)).key;
    await storeAndIndex(
      big.deps,
      VALUES.map((v, i) =>
        makeRecord({
          id: `00000000-0000-4000-9000-${String(i + 1).padStart(12, '0')}`,
          rate:
            i % 3 === 0
              ? { min: v, max: null, currency: 'CHF', unit: 'hour' }
              : { min: v - 5, max: v + 5, currency: 'CHF', unit: 'hour' },
        }),
      ),
    );
  });
  afterAll(() => big.close());

  it('count, min and max exact; p25, median and p75 within 5 %', async () => {
    const res = await get(big.baseUrl, '/v1/opportunities/count?stats=rate', { key });
    expect(res.status).toBe(200);
    const sorted = [...VALUES].sort((a, b) => a - b);
    expect(res.body.rate_stats).toHaveLength(1);
    const [entry] = res.body.rate_stats as RateEntry[];
    expect(entry).toMatchObject({ unit: 'hour', currency: 'CHF', count: 1500 });
    expect(entry?.min).toBeCloseTo(sorted[0] as number, 9);
    expect(entry?.max).toBeCloseTo(sorted[sorted.length - 1] as number, 9);
    expectQuartiles(entry, sorted, 0.05);
  });
});

// contract §10.5: within 5 % on ANY set. A gap at a quartile (a cluster near 100, another near
// 10,000) is where a digest's value is far off: R-7 interpolates across the gap. The entry is made
// exact from the engine (search/exact-quartiles.ts); the digest gave p25 42 % low here.
describe('percentiles of a large distribution with a gap at a quartile', () => {
  let gap: TestContext;
  let key: string;
  const LOW = Array.from({ length: 375 }, (_, i) => 100 + i * 0.0027);
  const HIGH = Array.from({ length: 1125 }, (_, i) => 10_000 + i * 0.089);
  beforeAll(async () => {
    gap = await createTestContext();
    key = (await newReader(gap.deps)).key;
    await storeAndIndex(
      gap.deps,
      [...LOW, ...HIGH].map((v, i) =>
        makeRecord({
          id: `00000000-0000-4000-9000-${String(i + 1).padStart(12, '0')}`,
          rate: { min: v, max: v, currency: 'CHF', unit: 'year' },
        }),
      ),
    );
  });
  afterAll(() => gap.close());

  it('p25, median and p75 are the exact interpolated order statistics', async () => {
    const res = await get(gap.baseUrl, '/v1/opportunities/count?stats=rate', { key });
    expect(res.status).toBe(200);
    const [entry] = res.body.rate_stats as RateEntry[];
    expect(entry).toMatchObject({ unit: 'year', currency: 'CHF', count: 1500 });
    const sorted = [...LOW, ...HIGH].sort((a, b) => a - b);
    expectQuartiles(entry, sorted, 1e-6);
    // The p25 falls in the gap: between the two clusters, not near either.
    expect(entry?.p25).toBeGreaterThan(5_000);
    expect(entry?.p25).toBeLessThan(9_000);
  });
});

// contract §10.5: a record's value is the midpoint of min and max, whatever they are. Two rates
// past half the largest double made (min + max) / 2 Infinity, stored as no value: the entry's
// count had the record, its min, max and percentiles did not (all null when every record did).
describe('rates near the largest double', () => {
  let huge: TestContext;
  let key: string;
  beforeAll(async () => {
    huge = await createTestContext();
    key = (await newReader(huge.deps)).key;
    await storeAndIndex(huge.deps, [
      makeRecord({ rate: { min: 1e308, max: 1e308, currency: 'CHF', unit: 'month' } }),
      makeRecord({ rate: { min: 10, max: 20, currency: 'CHF', unit: 'month' } }),
      makeRecord({ rate: { min: 1.5e308, max: 1.7e308, currency: 'USD', unit: 'hour' } }),
    ]);
  });
  afterAll(() => huge.close());

  it('count each record in the statistics of their entry', async () => {
    const res = await get(huge.baseUrl, '/v1/opportunities/count?stats=rate', { key });
    expect(res.status).toBe(200);
    const byUnit = Object.fromEntries(
      (res.body.rate_stats as RateEntry[]).map((e) => [`${e.unit} ${e.currency}`, e]),
    );
    expect(byUnit['month CHF']).toMatchObject({ count: 2, min: 15, max: 1e308 });
    expect(byUnit['month CHF']?.median).toBeCloseTo(15 / 2 + 1e308 / 2, -300);
    const hour = byUnit['hour USD'];
    expect(hour).toMatchObject({ count: 1, min: 1.6e308, max: 1.6e308 });
    expect([hour?.p25, hour?.median, hour?.p75]).toEqual([1.6e308, 1.6e308, 1.6e308]);
  });
});

describe('with q (keyword search)', () => {
  it('histogram and stats count the records q matches', async () => {
    // "java" matches the Java backend class label, so exactly the software_engineering records.
    const res = await count({
      q: 'java',
      histogram: 'first_seen',
      interval: 'week',
      stats: 'rate',
    });
    expect(res.status).toBe(200);
    const records = matching(ALL, { family: 'software_engineering' });
    expect(res.body.count).toBe(records.length);
    expect(res.body.histogram).toEqual(histogramOracle(records, 'first_seen', 'week'));
    expectRates(res.body.rate_stats, rateOracle(records));
  });
});
