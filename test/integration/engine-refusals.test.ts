import { randomUUID } from 'node:crypto';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { aliasOnOlderIndex } from '../support/legacy-index';
import { expectError, get, newReader } from '../support/read-http';

// contract §20.5.2: a search-engine 400 that the caller's input did not cause (here: the delivered
// ids of unseen_only and new_count over the index's max_terms_count) is 503 search_unavailable,
// never 422, and spends no request id: the same id then works once the engine takes the query.
// The delivered records go by id only to an index without record numbers (mapping 4 or older; by
// number they are one bitmap value, search/exclusions.ts), so the alias is put on one.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  const records = [makeRecord(), makeRecord(), makeRecord(), makeRecord()];
  await storeAndIndex(ctx.deps, records);
  await aliasOnOlderIndex(ctx.deps, records, 4);
});
afterAll(() => ctx.close());

const maxTerms = (value: number | null) =>
  ctx.deps.search.indices.putSettings({
    index: ctx.deps.alias,
    // null restores the default (65,536).
    body: { index: { max_terms_count: value } } as never,
  });

it('terms over the index limit → 503 search_unavailable, the request id stays unspent', async () => {
  const reader = await newReader(ctx.deps);
  const seen = await get(ctx.baseUrl, '/v1/opportunities?limit=3', { key: reader.key });
  expect(seen.status).toBe(200);
  await maxTerms(2);
  const requestId = `engine-${randomUUID()}`;
  try {
    const list = await get(ctx.baseUrl, '/v1/opportunities?unseen_only=true', {
      key: reader.key,
      headers: { 'X-Request-ID': requestId },
    });
    expectError(list, 503, 'search_unavailable');
    expect(list.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    const count = await get(ctx.baseUrl, '/v1/opportunities/count?include=new_count', {
      key: reader.key,
    });
    expectError(count, 503, 'search_unavailable');
    const spent = await ctx.deps.pool.query(
      'SELECT 1 FROM metering_request_ids WHERE request_id = $1',
      [requestId],
    );
    expect(spent.rowCount).toBe(0);
  } finally {
    await maxTerms(null);
  }
  const again = await get(ctx.baseUrl, '/v1/opportunities?unseen_only=true', {
    key: reader.key,
    headers: { 'X-Request-ID': requestId },
  });
  expect(again.status).toBe(200);
  expect(again.body.data).toHaveLength(1);
});
