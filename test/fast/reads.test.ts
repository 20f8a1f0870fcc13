import { randomUUID } from 'node:crypto';
import { facetOracle } from '../support/facet-oracle';
import { FIXTURE, expected, idsOf, qs, type Query } from '../support/read-fixture';
import { expectError, get, listAll } from '../support/read-http';
import { startFastApp, type FastApp } from './support/fast-app';

// The authenticated REST reads over the in-memory capabilities: list, count, detail and
// the change feed, answered by the real app and compared with the fixture's oracle.

let app: FastApp;
let key: string;

beforeAll(async () => {
  app = await startFastApp(FIXTURE);
  ({ key } = app.reader());
});
afterAll(() => app.close());

const read = (path: string, headers: Record<string, string> = {}, as = key) =>
  get(app.baseUrl, path, { key: as, headers });

describe('GET /v1/opportunities', () => {
  it.each<Query>([
    {},
    { job_family: 'data' },
    { country: 'us', remote: 'true' },
    { rate_min: '90', currency: 'USD' },
    { work_structure: 'ongoing_contract', liveness_status: 'live' },
  ])('filters %j: every page in list order, as the oracle says', async (q) => {
    const { records, pages } = await listAll(app.baseUrl, key, qs(q), 4);
    expect(idsOf(records)).toEqual(idsOf(expected(q)));
    expect(pages[0]?.meta.applied_filters).toBeDefined();
  });

  it('a cursor of other filters, or a forged one, is 400 malformed_cursor', async () => {
    const first = await read('/v1/opportunities?limit=2&country=US');
    const cursor = encodeURIComponent(first.body.pagination.next_cursor);
    expectError(
      await read(`/v1/opportunities?limit=2&country=GB&cursor=${cursor}`),
      400,
      'malformed_cursor',
    );
    expectError(await read('/v1/opportunities?cursor=not-a-cursor'), 400, 'malformed_cursor');
  });

  it('a cursor spelled otherwise (padding, spaces) is 400 malformed_cursor; as sent, it pages', async () => {
    const first = await read('/v1/opportunities?limit=2');
    const cursor: string = first.body.pagination.next_cursor;
    for (const spelling of [`${cursor}=`, ` ${cursor}`, `${cursor} `]) {
      const res = await read(`/v1/opportunities?limit=2&cursor=${encodeURIComponent(spelling)}`);
      expectError(res, 400, 'malformed_cursor');
    }
    const next = await read(`/v1/opportunities?limit=2&cursor=${encodeURIComponent(cursor)}`);
    expect(next.status).toBe(200);
  });

  it.each([
    ['limit=101', 400, 'page_size_exceeded', 'limit'],
    ['foo=1', 400, 'invalid_filter', 'foo'],
    ['published_after=yesterday', 422, 'validation_error', 'published_after'],
    ['level=wizard', 400, 'invalid_filter', 'level'],
    ['limit=abc', 422, 'validation_error', 'limit'],
  ] as const)('?%s is %i %s', async (query, status, code, parameter) => {
    expectError(await read(`/v1/opportunities?${query}`), status, code, { parameter });
  });

  it('limit above the account page size is 400 page_size_exceeded', async () => {
    const small = app.reader({ page_size_override: 5 });
    expectError(await read('/v1/opportunities?limit=6', {}, small.key), 400, 'page_size_exceeded', {
      parameter: 'limit',
    });
  });

  it('unseen_only leaves out what the account received this period; max_new caps the new ones', async () => {
    const fresh = app.reader();
    const seen = await read('/v1/opportunities?limit=5', {}, fresh.key);
    expect(seen.headers.get('x-service-new-opportunity-count')).toBe('5');
    const unseen = await read('/v1/opportunities?limit=100&unseen_only=true', {}, fresh.key);
    const seenIds = new Set(idsOf(seen.body.data));
    expect(unseen.body.data).toHaveLength(FIXTURE.length - 5);
    expect(unseen.body.data.some((r: { id: string }) => seenIds.has(r.id))).toBe(false);

    const budget = app.reader();
    await read('/v1/opportunities?limit=2', {}, budget.key);
    const capped = await read('/v1/opportunities?limit=10&max_new=3', {}, budget.key);
    expect(capped.headers.get('x-service-new-opportunity-count')).toBe('3');
    // Two repeats, then three new: the page stops before the fourth new record.
    expect(capped.body.data).toHaveLength(5);
    expect(capped.body.pagination.has_more).toBe(true);
  });

  it('a weak ETag; If-None-Match of a page already delivered is 304 with headers, no body', async () => {
    const first = await read('/v1/opportunities?limit=3');
    const etag = first.headers.get('etag') as string;
    expect(etag).toMatch(/^W\/"/);
    const again = await read('/v1/opportunities?limit=3', { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('x-service-new-opportunity-count')).toBe('0');
    expect(again.headers.get('x-ratelimit-limit')).toBe('1000');
  });
});

describe('GET /v1/opportunities/count', () => {
  it.each<Query>([{}, { job_family: 'data' }, { source: 'LEVER', remote: 'false' }])(
    'counts %j as the oracle does, free of charge',
    async (q) => {
      const res = await read(`/v1/opportunities/count?${qs(q)}`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(expected(q).length);
      expect(res.headers.get('x-service-usage-charge-millicents')).toBe('0');
    },
  );

  it.each([['level'], ['job_family', 'country'], ['work_structure', 'source']])(
    'group_by=%s (and a nested dimension) equals the facet oracle',
    async (...dims) => {
      const q: Query = { country: 'US' };
      const res = await read(
        `/v1/opportunities/count?${qs({ ...q, group_by: dims.join(','), group_limit: '3' })}`,
      );
      const { count, groups, other_count } = res.body;
      expect({ count, groups, other_count }).toEqual(facetOracle(q, dims, 3));
    },
  );

  it('include=new_count counts what the account has not received, and its cost', async () => {
    const wallet = app.reader({ billing_model: 'legacy_wallet', balance_millicents: 100_000 });
    await read('/v1/opportunities?limit=10', {}, wallet.key);
    const res = await read('/v1/opportunities/count?include=new_count', {}, wallet.key);
    expect(res.body).toMatchObject({
      count: FIXTURE.length,
      new_count: FIXTURE.length - 10,
      // legacy_wallet includes nothing: every new record costs 400 millicents.
      new_cost_millicents: (FIXTURE.length - 10) * 400,
    });
  });

  it('If-None-Match of the current count is 304', async () => {
    const first = await read('/v1/opportunities/count?country=US');
    const etag = first.headers.get('etag') as string;
    expect(
      (await read('/v1/opportunities/count?country=US', { 'If-None-Match': etag })).status,
    ).toBe(304);
    expect(
      (await read('/v1/opportunities/count?country=GB', { 'If-None-Match': etag })).status,
    ).toBe(200);
  });
});

describe('GET /v1/opportunities/:id', () => {
  it('200 with the record, 404 for an unknown uuid, 422 for anything else', async () => {
    const record = FIXTURE[3] as (typeof FIXTURE)[number];
    const found = await read(`/v1/opportunities/${record.id.toUpperCase()}`);
    expect(found.status).toBe(200);
    expect(found.body.data).toEqual(JSON.parse(JSON.stringify(record)));
    expectError(await read(`/v1/opportunities/${randomUUID()}`), 404, 'opportunity_not_found');
    expectError(await read('/v1/opportunities/not-a-uuid'), 422, 'validation_error', {
      parameter: 'opportunity_id',
    });
  });
});

describe('GET /v1/opportunities/changes', () => {
  // A world of its own: this block removes a record, which the other blocks must not see.
  let feed: FastApp;
  let reader: { key: string };
  beforeAll(async () => {
    feed = await startFastApp(FIXTURE);
    reader = feed.reader();
  });
  afterAll(() => feed.close());

  const changes = (query: string, headers: Record<string, string> = {}) =>
    get(feed.baseUrl, `/v1/opportunities/changes?${query}`, { key: reader.key, headers });

  /** Every page from `query` on, following next_cursor while has_more. */
  async function drain(query: string) {
    const items: { id: string; deleted?: true }[] = [];
    let res = await changes(query);
    for (;;) {
      expect(res.status).toBe(200);
      expect(res.body.pagination.next_cursor).toEqual(expect.any(String));
      items.push(...res.body.data);
      if (!res.body.pagination.has_more) return { items, last: res };
      res = await changes(`cursor=${encodeURIComponent(res.body.pagination.next_cursor)}&limit=5`);
    }
  }

  it('every record once, in the order of its changes, metered like list', async () => {
    const { items, last } = await drain('limit=5');
    expect(items.map((i) => i.id)).toEqual(FIXTURE.map((r) => r.id));
    expect(last.headers.get('x-service-opportunity-used')).toBe(String(FIXTURE.length));
    // Polling from the last cursor: nothing new yet, and the cursor stays open.
    const cursor = encodeURIComponent(last.body.pagination.next_cursor);
    const poll = await changes(`cursor=${cursor}`);
    expect(poll.body.data).toEqual([]);
    expect(poll.body.pagination).toMatchObject({ has_more: false, returned: 0 });
    expect(poll.body.pagination.next_cursor).toEqual(expect.any(String));
  });

  it('since keeps the changes at or after it', async () => {
    const since = [...FIXTURE].map((r) => r.changed_at).sort()[Math.floor(FIXTURE.length / 2)];
    const { items } = await drain(`since=${encodeURIComponent(since as string)}&limit=5`);
    const expectedIds = FIXTURE.filter((r) => r.changed_at >= (since as string)).map((r) => r.id);
    expect(items.map((i) => i.id)).toEqual(expectedIds);
  });

  it('a removed record comes back as a free tombstone, and is gone from detail', async () => {
    const { last } = await drain('limit=50');
    const removed = FIXTURE[2] as (typeof FIXTURE)[number];
    feed.world.index.remove([removed.id]);
    const cursor = encodeURIComponent(last.body.pagination.next_cursor);
    const poll = await changes(`cursor=${cursor}`);
    expect(poll.body.data).toEqual([
      { id: removed.id, deleted: true, changed_at: expect.any(String) },
    ]);
    expect(poll.headers.get('x-service-new-opportunity-count')).toBe('0');
    expect(poll.headers.get('x-service-usage-charge-millicents')).toBe('0');
    const detail = await get(feed.baseUrl, `/v1/opportunities/${removed.id}`, { key: reader.key });
    expectError(detail, 404, 'opportunity_not_found');
  });

  it('a list cursor is 400 malformed_cursor; a reused request id is 409', async () => {
    const list = await get(feed.baseUrl, '/v1/opportunities?limit=1', { key: reader.key });
    const cursor = encodeURIComponent(list.body.pagination.next_cursor);
    expectError(await changes(`cursor=${cursor}`), 400, 'malformed_cursor');
    expect((await changes('limit=1', { 'X-Request-ID': 'feed-once' })).status).toBe(200);
    expectError(
      await changes('limit=1', { 'X-Request-ID': 'feed-once' }),
      409,
      'duplicate_request_id',
    );
  });
});
