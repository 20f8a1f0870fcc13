import {
  DASHBOARD_FIXTURE,
  FAR_RECORD,
  histogramOracle,
  matching,
  rateOracle,
} from '../support/dashboard-fixture';
import { qs, type Query } from '../support/read-fixture';
import { expectError, get } from '../support/read-http';
import { startFastApp, type FastApp } from './support/fast-app';

// contract §10.4, §10.5 over the in-memory index (the fast suite): histograms and rate statistics equal the
// oracle, the bucket bound and bad parameters, MIN_AGGREGATE_COUNT, and nothing consumed.
// test/integration/dashboards.test.ts holds OpenSearch to the same oracle.

const ALL = [...DASHBOARD_FIXTURE, FAR_RECORD];
let app: FastApp;
let key: string;

beforeAll(async () => {
  app = await startFastApp(ALL);
  ({ key } = app.reader());
});
afterAll(() => app.close());

const count = (q: Query, as = key, base = app.baseUrl) =>
  get(base, `/v1/opportunities/count?${qs(q)}`, { key: as });

it.each([
  ['published', 'week', {}],
  ['published', 'month', { job_family: 'data' }],
  ['first_seen', 'day', { fresh_after: '2025-12-01', country: 'GB' }],
] as const)('histogram=%s interval=%s with %j equals the oracle', async (field, interval, q) => {
  const res = await count({ ...q, histogram: field, interval, stats: 'rate' });
  expect(res.status).toBe(200);
  const records = matching(ALL, {
    family: 'job_family' in q ? q.job_family : undefined,
    country: 'country' in q ? q.country : undefined,
    freshAfter: 'fresh_after' in q ? q.fresh_after : undefined,
  });
  expect(res.body.histogram).toEqual(histogramOracle(records, field, interval));
  expect(res.body.rate_stats).toEqual(rateOracle(records));
});

it('too many buckets and bad parameters → 400 invalid_filter', async () => {
  expectError(await count({ histogram: 'published', interval: 'day' }), 400, 'invalid_filter', {
    parameter: 'interval',
    reason: 'out_of_range',
  });
  expectError(await count({ histogram: 'x', interval: 'day' }), 400, 'invalid_filter', {
    parameter: 'histogram',
  });
  expectError(await count({ stats: 'x' }), 400, 'invalid_filter', { parameter: 'stats' });
  expectError(await count({ histogram: 'published' }), 400, 'invalid_filter', {
    parameter: 'interval',
  });
});

it('consumes nothing', async () => {
  const fresh = app.reader();
  const res = await count(
    { histogram: 'published', interval: 'week', stats: 'rate', group_by: 'currency' },
    fresh.key,
  );
  expect(res.status).toBe(200);
  expect(res.headers.get('x-service-opportunity-used')).toBe('0');
  const usage = await get(app.baseUrl, '/v1/usage', { key: fresh.key });
  expect(usage.body.opportunities.used).toBe(0);
});

it('MIN_AGGREGATE_COUNT nulls the statistics of small entries', async () => {
  const small = await startFastApp(DASHBOARD_FIXTURE, { MIN_AGGREGATE_COUNT: '2' });
  try {
    const res = await count({ stats: 'rate' }, small.reader().key, small.baseUrl);
    expect(res.body.rate_stats).toEqual(rateOracle(DASHBOARD_FIXTURE, 2));
  } finally {
    await small.close();
  }
});

it('combines with q like the other filters', async () => {
  const res = await count({ q: 'java', histogram: 'published', interval: 'month', stats: 'rate' });
  expect(res.status).toBe(200);
  const records = matching(ALL, { family: 'software_engineering' });
  expect(res.body.histogram).toEqual(histogramOracle(records, 'published', 'month'));
  expect(res.body.rate_stats).toEqual(rateOracle(records));
});
