import { createAccount } from '../../src/store/account-repo';
import { createApiKey } from '../../src/store/api-key-repo';
import { createTestContext, type TestContext } from '../support/harness';
import { makeRecord, storeAndIndex } from '../support/fixtures';

let ctx: TestContext;
let key: string;
beforeAll(async () => {
  ctx = await createTestContext();
  const account = await createAccount(ctx.deps.pool, { plan: 'free', rps_override: 100 });
  key = (await createApiKey(ctx.deps.pool, { accountId: account.id })).key;
  await storeAndIndex(
    ctx.deps,
    Array.from({ length: 7 }, () => makeRecord()),
  );
});
afterAll(() => ctx.close());

it('lists, counts and details over HTTP', async () => {
  const get = (p: string) => fetch(ctx.baseUrl + p, { headers: { 'X-API-Key': key } });
  const list = await get('/v1/opportunities?limit=5');
  const body = (await list.json()) as {
    data: { id: string }[];
    pagination: { next_cursor: string };
  };
  expect(list.status).toBe(200);
  expect(body.data).toHaveLength(5);
  expect(list.headers.get('x-service-new-opportunity-count')).toBe('5');
  const next = await get(
    `/v1/opportunities?limit=5&cursor=${encodeURIComponent(body.pagination.next_cursor)}`,
  );
  expect(((await next.json()) as { data: unknown[] }).data).toHaveLength(2);
  const count = await get('/v1/opportunities/count');
  expect(((await count.json()) as { count: number }).count).toBe(7);
  const detail = await get(`/v1/opportunities/${body.data[0]?.id}`);
  expect(detail.status).toBe(200);
  expect(detail.headers.get('x-service-new-opportunity-count')).toBe('0');
});
