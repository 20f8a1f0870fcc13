import { PERIOD_DELIVERIES } from '../../src/billing/period-deliveries';
import { storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { newReader } from '../support/factories';
import { FIXTURE } from '../support/read-fixture';
import { get } from '../support/read-http';

// Each delivery keeps its record's number (migration 015), so the first read of an account's
// period takes the numbers from the ledger alone; a row written before the migration (no number)
// takes its record's, and reads the same.

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
  await storeAndIndex(ctx.deps, [...FIXTURE]);
});
afterAll(() => ctx.close());

interface DeliveryRow {
  opportunity_id: string;
  stored: number | null;
  record: number;
}

const deliveriesOf = async (accountId: string) =>
  (
    await ctx.deps.pool.query<DeliveryRow>(
      `SELECT d.opportunity_id, d.record_num AS stored, o.record_num AS record
         FROM metering_deliveries d JOIN opportunities o ON o.id = d.opportunity_id
        WHERE d.account_id = $1 ORDER BY d.opportunity_id`,
      [accountId],
    )
  ).rows;

/** The account's key and period, as PERIOD_DELIVERIES takes them. */
async function readParams(accountId: string): Promise<unknown[]> {
  const { rows } = await ctx.deps.pool.query<{ key_id: string; period_start: Date }>(
    `SELECT d.key_id, d.period_start FROM metering_deliveries d WHERE d.account_id = $1 LIMIT 1`,
    [accountId],
  );
  const row = rows[0] as { key_id: string; period_start: Date };
  return [accountId, row.key_id, row.period_start, -1];
}

/** How many times the plan read `opportunities` (the fallback for a row without a number). */
function recordReads(node: Record<string, unknown>): number {
  const own = node['Relation Name'] === 'opportunities' ? Number(node['Actual Loops']) : 0;
  const children = (node.Plans as Array<Record<string, unknown>> | undefined) ?? [];
  return own + children.reduce((sum, child) => sum + recordReads(child), 0);
}

async function firstRead(accountId: string): Promise<{ nums: number[]; recordReads: number }> {
  const params = await readParams(accountId);
  const { rows } = await ctx.deps.pool.query<{ nums: string | null; unmatched: string | null }>(
    PERIOD_DELIVERIES,
    params,
  );
  expect(rows[0]?.unmatched).toBeNull();
  const plan = await ctx.deps.pool.query<{
    'QUERY PLAN': Array<{ Plan: Record<string, unknown> }>;
  }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${PERIOD_DELIVERIES}`, params);
  const root = plan.rows[0]?.['QUERY PLAN'][0]?.Plan ?? {};
  const nums = (rows[0]?.nums ?? '').split(',').filter(Boolean).map(Number);
  return { nums: nums.sort((a, b) => a - b), recordReads: recordReads(root) };
}

it("a charge writes each delivery's record number: a list page and a detail", async () => {
  const reader = await newReader(ctx.deps);
  const page = await get(ctx.baseUrl, '/v1/opportunities?limit=7', { key: reader.key });
  expect(page.status).toBe(200);
  const listed = (page.body.data as Array<{ id: string }>).map((r) => r.id);
  const other = FIXTURE.find((r) => !listed.includes(r.id))?.id as string;
  expect((await get(ctx.baseUrl, `/v1/opportunities/${other}`, { key: reader.key })).status).toBe(
    200,
  );

  const rows = await deliveriesOf(reader.accountId);
  expect(rows.map((r) => r.opportunity_id).sort()).toEqual([...listed, other].sort());
  for (const row of rows) expect(row.stored).toBe(row.record);
});

it('the first read takes stored numbers alone, and a row without one from its record', async () => {
  const reader = await newReader(ctx.deps);
  expect((await get(ctx.baseUrl, '/v1/opportunities?limit=9', { key: reader.key })).status).toBe(
    200,
  );
  const rows = await deliveriesOf(reader.accountId);
  const expected = rows.map((r) => r.record).sort((a, b) => a - b);

  const stored = await firstRead(reader.accountId);
  expect(stored.nums).toEqual(expected);
  expect(stored.recordReads).toBe(0);

  // Three rows as written before migration 015.
  const legacy = rows.slice(0, 3).map((r) => r.opportunity_id);
  await ctx.deps.pool.query(
    `UPDATE metering_deliveries SET record_num = NULL
      WHERE account_id = $1 AND opportunity_id = ANY ($2::uuid[])`,
    [reader.accountId, legacy],
  );
  const mixed = await firstRead(reader.accountId);
  expect(mixed.nums).toEqual(expected);
  expect(mixed.recordReads).toBe(3);
});

// The request pool's statements read few rows; a compilation the planner starts for a large
// estimate (the read above, at 200,000 deliveries) cost more than the statement (store/db.ts).
it("the request pool's sessions run without JIT compilation", async () => {
  const { rows } = await ctx.deps.pool.query<{ jit: string }>('SHOW jit');
  expect(rows[0]?.jit).toBe('off');
});
