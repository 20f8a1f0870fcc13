import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPool } from '../support/pg-pools';
import { PERIOD_DELIVERIES } from '../../src/billing/period-deliveries';
import { createAccount } from '../../src/store/account-repo';
import { createApiKey } from '../../src/store/api-key-repo';
import { createPool, ensureDatabase } from '../../src/store/db';
import { MIGRATIONS_DIR, migrate } from '../../src/store/migrate';
import { upsertOpportunities } from '../../src/store/opportunity-repo';
import { makeRecord } from '../support/fixtures';
import { storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { newReader } from '../support/factories';
import { FIXTURE } from '../support/read-fixture';
import { get } from '../support/read-http';
import { adminDatabaseUrl } from '../support/template-database';

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

// Migration 015 numbers the rows of periods still open, which the first read of a period takes;
// an ended period's rows are never read that way and keep none, as does a delivered id with no
// stored record. Here on a ledger written by the migrations before it.
it('migration 015 numbers the deliveries of open periods, and leaves ended ones alone', async () => {
  const url = new URL(adminDatabaseUrl());
  url.pathname = `/test_m015_${randomBytes(6).toString('hex')}`;
  await ensureDatabase(url.toString());
  const pool = createPool(url.toString(), 2);
  const before = mkdtempSync(path.join(tmpdir(), 'migrations-014-'));
  try {
    for (const file of readdirSync(MIGRATIONS_DIR).filter((f) => f < '015')) {
      symlinkSync(path.join(MIGRATIONS_DIR, file), path.join(before, file));
    }
    await migrate(pool, before);

    const [kept, ended] = [makeRecord(), makeRecord()];
    await upsertOpportunities(pool, [kept, ended], 'test');
    const account = await createAccount(pool, { plan: 'free' });
    const { id: keyId } = await createApiKey(pool, { accountId: account.id });
    const open = {
      start: new Date(Date.now() - 86_400_000),
      end: new Date(Date.now() + 86_400_000),
    };
    const closed = {
      start: new Date('2026-01-01T00:00:00Z'),
      end: new Date('2026-02-01T00:00:00Z'),
    };
    for (const [period, used] of [
      [open, 2],
      [closed, 1],
    ] as const) {
      await pool.query(
        `INSERT INTO metering_usage (account_id, period_start, period_end, used, included_used)
         VALUES ($1, $2, $3, $4, $4)`,
        [account.id, period.start, period.end, used],
      );
    }
    const gone = randomUUID();
    for (const [period, id] of [
      [open, kept.id],
      [open, gone],
      [closed, ended.id],
    ] as const) {
      await pool.query(
        `INSERT INTO metering_deliveries
           (account_id, period_start, opportunity_id, key_id, request_id, charge_millicents)
         VALUES ($1, $2, $3, $4, 'before-015', 0)`,
        [account.id, period.start, id, keyId],
      );
    }

    expect((await migrate(pool)).applied).toContain('015_delivery_record_num.sql');
    const { rows } = await pool.query<{ opportunity_id: string; record_num: number | null }>(
      'SELECT opportunity_id, record_num FROM metering_deliveries WHERE account_id = $1',
      [account.id],
    );
    const numbers = (
      await pool.query<{ id: string; record_num: number }>(
        'SELECT id, record_num FROM opportunities',
      )
    ).rows;
    const numberOf = (id: string) => numbers.find((r) => r.id === id)?.record_num;
    expect(Object.fromEntries(rows.map((r) => [r.opportunity_id, r.record_num]))).toEqual({
      [kept.id]: numberOf(kept.id),
      [gone]: null,
      [ended.id]: null,
    });
    expect(numberOf(kept.id)).toEqual(expect.any(Number));
  } finally {
    rmSync(before, { recursive: true, force: true });
    await pool.end();
    const admin = openPool({ connectionString: adminDatabaseUrl(), max: 1 });
    await admin.query(`DROP DATABASE IF EXISTS "${url.pathname.slice(1)}" WITH (FORCE)`);
    await admin.end();
  }
});
