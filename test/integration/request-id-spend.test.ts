import { randomUUID } from 'node:crypto';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { get, newReader } from '../support/read-http';
import { StatementRecorder } from '../support/pg-statements';

// contract §17.2: every admitted list, detail or feed call spends its request id, whatever its
// outcome. A delivery spends it in its own first round trip instead of a round trip
// of its own before the search: these tests hold the round-trip count and every way an id gets
// spent (served, repeats, zero results, 402, 404, concurrent reuse).

let ctx: TestContext;
const recorder = new StatementRecorder();

beforeAll(async () => {
  ctx = await createTestContext();
  await storeAndIndex(
    ctx.deps,
    Array.from({ length: 12 }, (_, i) => makeRecord({ normalized_title: `spend ${i % 3}` })),
  );
  recorder.install();
});
afterAll(async () => {
  recorder.uninstall();
  await ctx.close();
});

const list = (key: string, id: string, query = 'limit=4&normalized_title=spend%200') =>
  get(ctx.baseUrl, `/v1/opportunities?${query}`, { key, headers: { 'X-Request-ID': id } });

async function spentIds(accountId: string): Promise<string[]> {
  const { rows } = await ctx.deps.pool.query<{ request_id: string }>(
    'SELECT request_id FROM metering_request_ids WHERE account_id = $1 ORDER BY request_id',
    [accountId],
  );
  return rows.map((r) => r.request_id);
}

it('a charged page costs three round trips and a page of repeats one, each spending its id', async () => {
  const reader = await newReader(ctx.deps);
  await list(reader.key, 'warm-key-cache', 'limit=1&normalized_title=nothing%20matches');

  const charged = await recorder.during(async () => {
    const res = await list(reader.key, 'charged');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-service-new-opportunity-count')).toBe('4');
  });
  // READ_PAGE (the spend and the read), the charge, the WAL flush.
  expect(charged).toHaveLength(3);
  expect(charged[0]).toContain('INSERT INTO metering_request_ids');

  const repeats = await recorder.during(async () => {
    const res = await list(reader.key, 'repeats');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-service-new-opportunity-count')).toBe('0');
  });
  // The same page again, from the search cache: the spend and the lock-free read, together.
  expect(repeats).toHaveLength(1);
  expect(repeats[0]).toContain('INSERT INTO metering_request_ids');

  expect(await spentIds(reader.accountId)).toEqual(['charged', 'repeats', 'warm-key-cache'].sort());
  expect((await list(reader.key, 'repeats')).status).toBe(409);
  expect((await list(reader.key, 'charged')).status).toBe(409);
});

it('a zero-result page, a 404 and a 402 spend their ids; the 402 delivers nothing', async () => {
  const reader = await newReader(ctx.deps, { allowance_override: 2, balance_millicents: 0 });
  const empty = await list(reader.key, 'empty', 'normalized_title=nothing%20matches');
  expect(empty.status).toBe(200);
  const missing = await get(ctx.baseUrl, `/v1/opportunities/${randomUUID()}`, {
    key: reader.key,
    headers: { 'X-Request-ID': 'missing' },
  });
  expect(missing.status).toBe(404);
  const refused = await list(reader.key, 'too-dear');
  expect(refused.status).toBe(402);
  expect(refused.body.error.code).toBe('insufficient_balance');
  expect(refused.headers.get('x-service-opportunity-used')).toBe('0');

  expect(await spentIds(reader.accountId)).toEqual(['empty', 'missing', 'too-dear']);
  for (const id of ['empty', 'too-dear']) {
    const again = await list(reader.key, id, 'limit=1&normalized_title=spend%201');
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('duplicate_request_id');
  }
  const { rows } = await ctx.deps.pool.query(
    'SELECT 1 FROM metering_deliveries WHERE account_id = $1',
    [reader.accountId],
  );
  expect(rows).toHaveLength(0);
});

it('one id sent by many calls at once: one is served, the others get 409, one delivery', async () => {
  const reader = await newReader(ctx.deps);
  const responses = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      list(reader.key, 'shared-id', `limit=4&normalized_title=spend%20${i % 3}`),
    ),
  );
  const statuses = responses.map((r) => r.status).sort();
  expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
  const served = responses.find((r) => r.status === 200);
  const { rows } = await ctx.deps.pool.query<{ n: string }>(
    'SELECT count(*)::text AS n FROM metering_deliveries WHERE account_id = $1',
    [reader.accountId],
  );
  expect(Number(rows[0]?.n)).toBe(served?.body.data.length);
  expect(await spentIds(reader.accountId)).toEqual(['shared-id']);
});
