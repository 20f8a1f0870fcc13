import type { Opportunity } from '../../src/domain/record';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { FIXTURE, expected, idsOf, qs, type Query } from '../support/read-fixture';
import { expectError, get, newReader, outsideUuids } from '../support/read-http';

// The anonymous preview (contract §9): no key, live records only, at most five, its
// own parameter list, no pagination, source details redacted, rate limited per client address.

let ctx: TestContext;

beforeAll(async () => {
  // A generous preview rate here; the limit itself is tested in its own context below.
  ctx = await createTestContext({ PREVIEW_REQUESTS_PER_MINUTE: '1000' });
  await storeAndIndex(ctx.deps, [...FIXTURE]);
});
afterAll(() => ctx.close());

const preview = (query = '', headers: Record<string, string> = {}) =>
  get(ctx.baseUrl, `/v1/preview/opportunities${query ? `?${query}` : ''}`, { headers });

/** What the preview should show for a query: live matches, first `limit` in list order. */
const livePreview = (q: Query, limit = 5) =>
  expected(q)
    .filter((r) => r.liveness_status === 'live')
    .slice(0, limit);

// contract §9.5: no URL to reach the record either.
const redacted = (r: Opportunity) => ({
  ...r,
  canonical_url: null,
  application_url: null,
  sources: r.sources.map((s) => ({ source: s.source })),
});

describe('without a key', () => {
  it('returns the five freshest live records, sources reduced to { source }', async () => {
    // The freshest five of the inventory include a dead record, so "live only" is observable.
    expect(idsOf(expected({}).slice(0, 5))).not.toEqual(idsOf(livePreview({})));
    const res = await preview();
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(livePreview({}).map(redacted));
    for (const r of res.body.data as Opportunity[]) {
      for (const s of r.sources) expect(Object.keys(s)).toEqual(['source']);
    }
    // No URL or external id of the records shown appears anywhere in the page outside its uuids
    // (the fixture's external id '123' once matched inside the random request id).
    const page = outsideUuids(res.text);
    for (const r of livePreview({})) {
      for (const hidden of [
        r.canonical_url,
        r.application_url,
        ...r.sources.flatMap((s) => [s.url, s.external_id]),
      ]) {
        if (hidden) expect(page).not.toContain(hidden);
      }
    }
    expect(res.body.pagination).toEqual({
      returned: 5,
      next_cursor: null,
      has_more: false,
      limit: 5,
    });
    expect(res.body.meta).toEqual({
      request_id: res.headers.get('x-request-id'),
      applied_filters: {},
    });
  });

  it('limit 1..5 is the page size; an empty result is a 200', async () => {
    const three = await preview('limit=3');
    expect(idsOf(three.body.data)).toEqual(idsOf(livePreview({}, 3)));
    expect(three.body.pagination).toEqual({
      returned: 3,
      next_cursor: null,
      has_more: false,
      limit: 3,
    });
    const none = await preview('liveness_status=dead');
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual([]);
    expect(none.body.pagination).toEqual({
      returned: 0,
      next_cursor: null,
      has_more: false,
      limit: 5,
    });
  });

  it('spends no request id: the same X-Request-ID twice is fine', async () => {
    const headers = { 'X-Request-ID': 'preview-same' };
    expect((await preview('', headers)).status).toBe(200);
    const again = await preview('', headers);
    expect(again.status).toBe(200);
    expect(again.body.meta.request_id).toBe('preview-same');
  });
});

describe('each preview parameter (contract §9.2) matches the oracle, live only', () => {
  const cases: [string, Query][] = [
    ['published_after', { published_after: '2026-09-08' }],
    ['job_family', { job_family: 'data' }],
    ['job_subfamily', { job_subfamily: 'data_engineering' }],
    ['job_class', { job_class: 'react_developer' }],
    [
      'job_family + job_subfamily',
      { job_family: 'software_engineering', job_subfamily: 'backend_engineering' },
    ],
    ['level', { level: 'senior' }],
    ['engagement_model', { engagement_model: 'c2c' }],
    ['commercial_eligibility', { commercial_eligibility: 'eligible' }],
    ['remote', { remote: 'false' }],
    ['region', { region: 'california' }],
    ['rate_min', { rate_min: '100' }],
    ['pay_basis', { pay_basis: 'hourly' }],
    ['work_structure', { work_structure: 'ongoing_contract' }],
    ['liveness_status', { liveness_status: 'live' }],
    ['combined', { job_family: 'data', remote: 'true', rate_min: '80' }],
  ];
  it.each(cases)('%s', async (_label, q) => {
    const want = livePreview(q);
    expect(want.length).toBeGreaterThan(0);
    const res = await preview(qs(q));
    expect(res.status).toBe(200);
    expect(idsOf(res.body.data)).toEqual(idsOf(want));
  });
});

describe('rejected requests', () => {
  it.each([
    ['limit=6', 400, 'page_size_exceeded', 'limit'],
    ['limit=100', 400, 'page_size_exceeded', 'limit'],
    ['limit=0', 422, 'validation_error', 'limit'],
    ['limit=abc', 422, 'validation_error', 'limit'],
    ['cursor=abc', 400, 'invalid_filter', 'cursor'],
    ['foo=1', 400, 'invalid_filter', 'foo'],
    ['api_key=oppk_NotAKeyButMustNotBeEchoed0123456789', 400, 'invalid_filter', 'api_key'],
    ['level=senior,staff', 400, 'invalid_filter', 'level'],
    ['job_family=data,software_engineering', 400, 'invalid_filter', 'job_family'],
    ['level=senior&level=staff', 400, 'invalid_filter', 'level'],
    ['level=ceo', 400, 'invalid_filter', 'level'],
    ['job_family=Data', 400, 'invalid_filter', 'job_family'],
    ['remote=maybe', 422, 'validation_error', 'remote'],
    ['rate_min=-1', 422, 'validation_error', 'rate_min'],
    ['published_after=yesterday', 422, 'validation_error', 'published_after'],
  ])('%s → %i %s', async (query, status, code, parameter) => {
    const res = await preview(query);
    expectError(res, status, code, { parameter });
    expect(res.text).not.toContain('oppk_NotAKey');
  });

  // Filters of 4.2 that 4.1 does not list: unsupported in the preview.
  it.each([
    ['country', 'US'],
    ['changed_since', '2026-09-01'],
    ['published_before', '2026-09-01'],
    ['fresh_after', '2026-09-01'],
    ['first_seen_after', '2026-09-01'],
    ['job_domain', 'software_data_ai'],
    ['normalized_title', 'data engineer'],
    ['management_track', 'unknown'],
    ['specializations', 'dbt'],
    ['actionability', 'actionable'],
    ['city', 'Austin'],
    ['state', 'CA'],
    ['rate_max', '100'],
    ['currency', 'USD'],
    ['source', 'greenhouse'],
  ])('%s → 400 invalid_filter', async (name, value) => {
    const res = await preview(qs({ [name]: value }));
    expectError(res, 400, 'invalid_filter', { parameter: name });
  });
});

describe('rate limit per client address', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestContext({
      PREVIEW_REQUESTS_PER_MINUTE: '3',
      TRUST_PROXY: 'loopback',
    });
  });
  afterAll(() => limited.close());

  const from = (address: string) =>
    get(limited.baseUrl, '/v1/preview/opportunities', { headers: { 'X-Forwarded-For': address } });

  it('→ 429 preview_rate_limit_exceeded with an integer Retry-After; other clients unaffected', async () => {
    for (let i = 0; i < 3; i++) expect((await from('198.51.100.7')).status).toBe(200);
    const res = await from('198.51.100.7');
    expectError(res, 429, 'preview_rate_limit_exceeded');
    const retryAfter = res.headers.get('retry-after') ?? '';
    expect(retryAfter).toMatch(/^[1-9]\d*$/);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    // Another address has its own budget; authenticated reads are limited separately.
    expect((await from('198.51.100.8')).status).toBe(200);
    const reader = await newReader(limited.deps);
    const list = await get(limited.baseUrl, '/v1/opportunities/count', {
      key: reader.key,
      headers: { 'X-Forwarded-For': '198.51.100.7' },
    });
    expect(list.status).toBe(200);
  });
});

// contract §9.5: no URL or external id of a source appears anywhere in a preview record, however
// the source's text quotes it. Only an evidence item holding one exactly as stored was left out:
// a URL without its scheme or in capitals, an id as a number, a URL in the title went through.
describe('redaction of what the source text quotes', () => {
  let quoting: TestContext;
  afterAll(() => quoting?.close());

  it('shows none of the URLs or external ids, in any case or form', async () => {
    quoting = await createTestContext({ PREVIEW_REQUESTS_PER_MINUTE: '1000' });
    const url = 'https://boards.greenhouse.io/acmeaudit/jobs/99887766';
    const quote = (excerpt: string, value: string | number = 'c2c') => ({
      field: 'engagement_models',
      value,
      strength: 'explicit' as const,
      excerpt,
      source: 'greenhouse',
    });
    const records = [
      quote('See boards.greenhouse.io/acmeaudit/jobs/99887766 for more'),
      quote('Apply at HTTPS://CAREERS.ACME-AUDIT.EXAMPLE/JOBS/aud-7781/ today'),
      quote('posting', 99887766),
    ].map((evidence, i) =>
      makeRecord({
        title: i === 0 ? `Senior Engineer ${url}` : `Senior Engineer ${i}`,
        canonical_url: 'https://careers.acme-audit.example/jobs/AUD-7781/',
        application_url: null,
        sources: [
          {
            source: 'greenhouse',
            external_id: i === 2 ? '99887766' : 'AUD-7781',
            url,
            observed_at: '2026-10-01T12:00:00.000Z',
          },
        ],
        evidence: [evidence, quote('C2C welcome')],
      }),
    );
    await storeAndIndex(quoting.deps, records);
    const res = await get(quoting.baseUrl, '/v1/preview/opportunities');
    expect(res.status).toBe(200);
    expect(idsOf(res.body.data).sort()).toEqual(idsOf(records).sort());
    const page = res.text.toLowerCase();
    for (const hidden of [
      'greenhouse.io/acmeaudit',
      '99887766',
      'aud-7781',
      'acme-audit.example',
    ]) {
      expect(page).not.toContain(hidden);
    }
    for (const r of res.body.data as Opportunity[]) {
      expect(r.evidence.map((e) => e.excerpt)).toEqual(['C2C welcome']);
    }
  });
});
