import { randomUUID } from 'node:crypto';
import { storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { FIXTURE } from '../support/read-fixture';
import { expectError, get, newReader, type Json, type Reader } from '../support/read-http';

// Request errors of the list, count and detail endpoints over HTTP (contract §4.7, §6, §17.2, §20.1,
// 8): exact envelopes with details.parameter/reason, the 400/422 split, page sizes, request ids.

let ctx: TestContext;
let reader: Reader;
let free: Reader;

beforeAll(async () => {
  ctx = await createTestContext();
  reader = await newReader(ctx.deps);
  // A plain Free account page size (25), with room only in the request rate.
  free = await newReader(ctx.deps, { page_size_override: null });
  await storeAndIndex(ctx.deps, FIXTURE.slice(0, 30));
});
afterAll(() => ctx.close());

const list = (query: string, key = reader.key, headers: Record<string, string> = {}) =>
  get(ctx.baseUrl, `/v1/opportunities?${query}`, { key, headers });

function expectNoStore(res: Json) {
  expect(res.headers.get('cache-control')).toBe('no-store');
}

/** [query, status, code, parameter, reason (exact, or a pattern, or any)] */
type Row = [string, number, string, string, (string | RegExp)?];
const ANY = /^[a-z_]+$/;

const ROWS: Row[] = [
  // 400 invalid_filter: unknown, repeated, list-for-one, unknown values and ids.
  ['foo=1', 400, 'invalid_filter', 'foo', 'unknown_parameter'],
  ['Level=senior', 400, 'invalid_filter', 'Level', 'unknown_parameter'],
  ['level=senior&level=staff', 400, 'invalid_filter', 'level', 'repeated'],
  ['country=US&country=CA', 400, 'invalid_filter', 'country', 'repeated'],
  ['engagement_model=c2c,1099', 400, 'invalid_filter', 'engagement_model', ANY],
  ['country=US,CA', 400, 'invalid_filter', 'country', ANY],
  ['rate_min=80,90', 400, 'invalid_filter', 'rate_min', ANY],
  ['commercial_eligibility=eligible,unknown', 400, 'invalid_filter', 'commercial_eligibility', ANY],
  ['level=ceo', 400, 'invalid_filter', 'level', 'unknown_value'],
  ['level=Senior', 400, 'invalid_filter', 'level', 'unknown_value'],
  ['pay_basis=hourly,weekly', 400, 'invalid_filter', 'pay_basis', 'unknown_value'],
  ['work_structure=permanent', 400, 'invalid_filter', 'work_structure', 'unknown_value'],
  ['engagement_model=freelance', 400, 'invalid_filter', 'engagement_model', 'unknown_value'],
  ['liveness_status=alive', 400, 'invalid_filter', 'liveness_status', 'unknown_value'],
  ['management_track=manager', 400, 'invalid_filter', 'management_track', 'unknown_value'],
  ['actionability=yes', 400, 'invalid_filter', 'actionability', 'unknown_value'],
  ['job_family=nonexistent', 400, 'invalid_filter', 'job_family', 'unknown_value'],
  ['job_family=Data', 400, 'invalid_filter', 'job_family', 'unknown_value'],
  ['job_family=Software%20Engineering', 400, 'invalid_filter', 'job_family', 'unknown_value'],
  ['job_class=data', 400, 'invalid_filter', 'job_class', 'unknown_value'],
  ['job_domain=data', 400, 'invalid_filter', 'job_domain', 'unknown_value'],
  ['job_subfamily=Data%20Engineering', 400, 'invalid_filter', 'job_subfamily', 'unknown_value'],
  [
    'job_family=software_engineering&job_subfamily=data_engineering',
    400,
    'invalid_filter',
    'job_subfamily',
    ANY,
  ],
  ['country=ZQ', 400, 'invalid_filter', 'country', 'unknown_value'],
  ['country=USA', 400, 'invalid_filter', 'country', 'unknown_value'],
  ['country=UK', 400, 'invalid_filter', 'country', 'unknown_value'],
  // 422 validation_error: wrong type or format.
  ['limit=abc', 422, 'validation_error', 'limit', ANY],
  ['limit=0', 422, 'validation_error', 'limit', ANY],
  ['limit=-1', 422, 'validation_error', 'limit', ANY],
  ['limit=1.5', 422, 'validation_error', 'limit', ANY],
  ['remote=maybe', 422, 'validation_error', 'remote', ANY],
  ['remote=1', 422, 'validation_error', 'remote', ANY],
  ['rate_min=-1', 422, 'validation_error', 'rate_min', ANY],
  ['rate_min=1e3', 422, 'validation_error', 'rate_min', ANY],
  ['rate_max=abc', 422, 'validation_error', 'rate_max', ANY],
  ['published_after=yesterday', 422, 'validation_error', 'published_after', 'bad_format'],
  ['published_before=2026-13-01', 422, 'validation_error', 'published_before', 'bad_format'],
  ['fresh_after=2026-02-30', 422, 'validation_error', 'fresh_after', 'bad_format'],
  [
    'first_seen_after=2026-09-15T10:00:00',
    422,
    'validation_error',
    'first_seen_after',
    'bad_format',
  ],
  ['changed_since=1700000000', 422, 'validation_error', 'changed_since', 'bad_format'],
  ['changed_since=2026-09-15T25:00:00Z', 422, 'validation_error', 'changed_since', 'bad_format'],
  ['published_after=2026%2F09%2F15', 422, 'validation_error', 'published_after', 'bad_format'],
  ['level=', 422, 'validation_error', 'level', ANY],
  // 400 page_size_exceeded: above 100 whatever the account.
  ['limit=101', 400, 'page_size_exceeded', 'limit', ANY],
  ['limit=100000000000000000000', 400, 'page_size_exceeded', 'limit', ANY],
];

describe('list: bad parameters', () => {
  it.each(ROWS)('%s → %i %s', async (query, status, code, parameter, reason) => {
    const res = await list(query);
    expectError(res, status, code, { parameter, reason: reason ?? ANY });
    expectNoStore(res);
  });
});

describe('count: the same parameter rules, and no paging parameters', () => {
  it.each(ROWS.filter(([q]) => !q.startsWith('limit=')))(
    '%s → %i %s',
    async (query, status, code, parameter) => {
      const res = await get(ctx.baseUrl, `/v1/opportunities/count?${query}`, { key: reader.key });
      expectError(res, status, code, { parameter });
      expectNoStore(res);
    },
  );

  it.each([['cursor=abc'], ['limit=5']])('%s → 400 invalid_filter', async (query) => {
    const res = await get(ctx.baseUrl, `/v1/opportunities/count?${query}`, { key: reader.key });
    expectError(res, 400, 'invalid_filter', { parameter: query.split('=')[0] ?? '' });
  });
});

describe("the account's page size", () => {
  it('Free: default 25, limit=25 accepted, limit=26 → 400 page_size_exceeded', async () => {
    const dflt = await list('', free.key);
    expect(dflt.status).toBe(200);
    expect(dflt.body.pagination.limit).toBe(25);
    expect(dflt.body.data).toHaveLength(25);
    expect((await list('limit=25', free.key)).status).toBe(200);
    const res = await list('limit=26', free.key);
    expectError(res, 400, 'page_size_exceeded', { parameter: 'limit' });
    expectNoStore(res);
  });
});

describe('a key in the query string', () => {
  const SECRET = 'oppk_ThisLooksLikeAKeyAndMustNeverBeEchoed0123';
  it('is an unknown parameter, never echoed nor logged (with a valid header key)', async () => {
    const res = await list(`api_key=${SECRET}`);
    expectError(res, 400, 'invalid_filter', { parameter: 'api_key', reason: 'unknown_parameter' });
    expect(res.body.error.message).toContain('"api_key" holds an API key');
    expect(res.text).not.toContain(SECRET);
    expect(ctx.logs.join('\n')).not.toContain(SECRET);
  });

  // Every endpoint says the value holds a key, whatever the name: list, count, the detail, usage
  // and the change feed said only "Unknown parameter" for a name they do not read.
  it.each([
    ['/healthz', 'api_key'],
    ['/readyz', 'key'],
    ['/metrics', 'token'],
    ['/docs', 'apiKey'],
    ['/llms.txt', 'access'],
    ['/v1/taxonomy/occupations', 'api_key'],
    ['/v1/openapi.json', 'api_key'],
    ['/v1/preview/opportunities', 'api_key'],
    ['/v1/opportunities', 'foo'],
    ['/v1/opportunities/count', 'token'],
    ['/v1/opportunities/changes', 'api_key'],
    ['/v1/opportunities/4b0ae1f6-3c55-4f7e-9d4c-2f1a7f0c9e11', 'api_key'],
    ['/v1/usage', 'api_key'],
  ])('is refused on %s too (?%s=…), saying it holds a key', async (path, name) => {
    const res = await get(ctx.baseUrl, `${path}?${name}=${SECRET}`, { key: reader.key });
    expectError(res, 400, 'invalid_filter', { parameter: name, reason: 'unknown_parameter' });
    expect(res.body.error.message).toContain(`"${name}" holds an API key`);
    expect(res.text).not.toContain(SECRET);
    expect(ctx.logs.join('\n')).not.toContain(SECRET);
  });

  it.each(['/healthz', '/v1/opportunities'])(
    'is refused as a parameter name too (%s?oppk_…), and not echoed',
    async (path) => {
      const res = await get(ctx.baseUrl, `${path}?${SECRET}`, { key: reader.key });
      expectError(res, 400, 'invalid_filter', {
        parameter: 'oppk_[redacted]',
        reason: 'unknown_parameter',
      });
      // It said only "Unknown parameter" (contract §6.14: a message saying that it holds a key).
      expect(res.body.error.message).toContain('"oppk_[redacted]" holds an API key');
      expect(res.text).not.toContain(SECRET);
      expect(ctx.logs.join('\n')).not.toContain(SECRET);
    },
  );

  it.each([
    ['/v1/opportunities', 'level'],
    ['/v1/opportunities', 'q'],
    ['/v1/opportunities/count', 'normalized_title'],
    ['/v1/opportunities/count', 'group_by'],
    // The preview is answered by the app-wide check first: it said "Unknown parameter".
    ['/v1/preview/opportunities', 'region'],
    ['/healthz', 'probe'],
  ])(
    'as the value of a parameter %s reads (%s=oppk_…): refused, never echoed',
    async (path, name) => {
      const res = await get(ctx.baseUrl, `${path}?${name}=${SECRET}`, { key: reader.key });
      expectError(res, 400, 'invalid_filter', { parameter: name, reason: 'unknown_parameter' });
      expect(res.text).not.toContain(SECRET);
      expect(res.body.error.message).toContain(`"${name}" holds an API key`);
    },
  );

  it('in the change feed (since=oppk_…) too: refused as a pasted key, never echoed', async () => {
    const res = await get(ctx.baseUrl, `/v1/opportunities/changes?since=${SECRET}`, {
      key: reader.key,
    });
    expectError(res, 400, 'invalid_filter', { parameter: 'since', reason: 'unknown_parameter' });
    expect(res.text).not.toContain(SECRET);
  });

  // contract §5.5: the id is a path segment, not a parameter: one shaped like a key is an id that
  // is not a uuid (it was 400 "Unknown parameter opportunity_id"), never echoed.
  it('as the detail id (/v1/opportunities/oppk_…): 422 must be a uuid, never echoed', async () => {
    const res = await get(ctx.baseUrl, `/v1/opportunities/${SECRET}`, { key: reader.key });
    expectError(res, 422, 'validation_error', {
      parameter: 'opportunity_id',
      reason: 'bad_format',
    });
    expect(res.text).not.toContain(SECRET);
  });

  it('leaves the other parameters of those endpoints ignored (a probe of its own)', async () => {
    expect((await get(ctx.baseUrl, '/healthz?probe=1')).status).toBe(200);
  });

  it('is never accepted as a key (no header → 401 missing_api_key), nor echoed', async () => {
    const res = await get(ctx.baseUrl, `/v1/opportunities?api_key=${reader.key}`);
    expectError(res, 401, 'missing_api_key');
    expect(res.text).not.toContain(reader.key);
    expect(ctx.logs.join('\n')).not.toContain(reader.key);
    expectNoStore(res);
  });
});

describe('detail', () => {
  it.each([['not-a-uuid'], ['12345'], ['00000000-0000-0000-0000-00000000000g']])(
    '%s → 422 validation_error',
    async (id) => {
      const res = await get(ctx.baseUrl, `/v1/opportunities/${id}`, { key: reader.key });
      expectError(res, 422, 'validation_error', { parameter: 'opportunity_id' });
      expectNoStore(res);
    },
  );

  it('an unknown uuid → 404 opportunity_not_found', async () => {
    const res = await get(ctx.baseUrl, '/v1/opportunities/4b0d6a55-7c1e-4b8a-9f7e-3a2b1c0d9e8f', {
      key: reader.key,
    });
    expectError(res, 404, 'opportunity_not_found');
    expect(res.body.error.details).toBeUndefined();
    expectNoStore(res);
  });
});

describe('X-Request-ID', () => {
  it('is echoed in the header and meta (list, count, detail) and in error.request_id', async () => {
    const ok = await list('limit=1', reader.key, { 'X-Request-ID': 'req-list.1:a_b' });
    expect(ok.headers.get('x-request-id')).toBe('req-list.1:a_b');
    expect(ok.body.meta.request_id).toBe('req-list.1:a_b');
    const count = await get(ctx.baseUrl, '/v1/opportunities/count', {
      key: reader.key,
      headers: { 'X-Request-ID': 'req-count-1' },
    });
    expect(count.body.meta.request_id).toBe('req-count-1');
    const id = ok.body.data[0].id as string;
    const detail = await get(ctx.baseUrl, `/v1/opportunities/${id}`, {
      key: reader.key,
      headers: { 'X-Request-ID': 'req-detail-1' },
    });
    expect(detail.body.meta).toEqual({ request_id: 'req-detail-1' });
    expect(detail.headers.get('x-request-id')).toBe('req-detail-1');
    const bad = await list('level=ceo', reader.key, { 'X-Request-ID': 'req-bad-1' });
    expectError(bad, 400, 'invalid_filter', { parameter: 'level' });
    expect(bad.body.error.request_id).toBe('req-bad-1');
  });

  it('is generated (a uuid) when missing', async () => {
    const res = await list('limit=1');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.meta.request_id).toBe(res.headers.get('x-request-id'));
  });

  it('accepts 128 characters of the allowed alphabet', async () => {
    const id = 'a'.repeat(127) + '9';
    expect((await list('limit=1', reader.key, { 'X-Request-ID': id })).status).toBe(200);
  });

  it.each([
    ['200 characters', 'x'.repeat(200)],
    ['129 characters', 'x'.repeat(129)],
    ['a space', 'has space'],
    ['a slash', 'a/b'],
  ])('with %s → 422 validation_error, not echoed', async (_label, value) => {
    const res = await list('limit=1', reader.key, { 'X-Request-ID': value });
    expectError(res, 422, 'validation_error', { parameter: 'X-Request-ID' });
    expect(res.body.error.request_id).not.toBe(value);
    expect(res.text).not.toContain(value);
  });

  // contract §18.2: refused once the key is known good, it is an authenticated response like any
  // other, with the account's usage headers and the key's window.
  it('an invalid one beside a good key: 422 with the usage and rate-limit headers', async () => {
    const res = await list('limit=1', reader.key, { 'X-Request-ID': 'has space' });
    expectError(res, 422, 'validation_error', { parameter: 'X-Request-ID' });
    expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    expect(res.headers.get('x-service-opportunity-used')).toMatch(/^\d+$/);
  });

  // contract §14.4: no key, or a bad one, is what such a request is told first.
  it('an invalid one with no key or a bad key: the 401 comes first', async () => {
    const headers = { 'X-Request-ID': 'has space' };
    expectError(await list('limit=1', '', headers), 401, 'missing_api_key');
    expectError(await list('limit=1', `oppk_${'C'.repeat(40)}`, headers), 401, 'invalid_api_key');
  });

  it('an invalid one on a public route is 422 with or without a key', async () => {
    for (const key of [undefined, reader.key]) {
      const res = await get(ctx.baseUrl, '/v1/taxonomy/occupations', {
        ...(key ? { key } : {}),
        headers: { 'X-Request-ID': 'has space' },
      });
      expectError(res, 422, 'validation_error', { parameter: 'X-Request-ID' });
    }
  });

  it('an invalid one still gets Cache-Control: no-store on an authenticated endpoint', async () => {
    const res = await list('limit=1', reader.key, { 'X-Request-ID': 'has space' });
    expect(res.status).toBe(422);
    expectNoStore(res);
  });
});

describe('errors after authentication carry the headers of contract §18.2', () => {
  it.each([
    ['/v1/opportunities?level=ceo'],
    ['/v1/opportunities?limit=0'],
    ['/v1/opportunities?limit=101'],
    ['/v1/opportunities?cursor=abc'],
    ['/v1/opportunities/count?country=USA'],
    ['/v1/opportunities/not-a-uuid'],
    [`/v1/opportunities/${randomUUID()}`],
  ])('%s', async (path) => {
    const res = await get(ctx.baseUrl, path, { key: reader.key });
    expect(res.status).toBeGreaterThanOrEqual(400);
    for (const name of [
      'x-request-id',
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'x-service-opportunity-limit',
      'x-service-opportunity-used',
      'x-service-opportunity-remaining',
      'x-service-new-opportunity-count',
      'x-service-period-end',
    ]) {
      expect({ name, value: res.headers.get(name) }).toEqual({ name, value: expect.any(String) });
    }
    expect(res.headers.get('x-service-new-opportunity-count')).toBe('0');
  });
});

// contract §8.4: "Any cursor problem (not a JWS, ...) → 400 malformed_cursor". An empty cursor is
// not a JWS; today it is answered 422 validation_error by the generic empty-value check.
it('an empty cursor is a cursor problem → 400 malformed_cursor', async () => {
  const res = await list('cursor=');
  expectError(res, 400, 'malformed_cursor', { parameter: 'cursor' });
});
