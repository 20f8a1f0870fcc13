import { randomUUID } from 'node:crypto';
import { DELIVERED_AMONG } from '../../src/billing/delivered';
import { READ_PAGE, READ_PAGE_HOLDING } from '../../src/billing/ledger-sql';
import { PERIOD_DELIVERIES, PERIOD_DELIVERIES_SINCE } from '../../src/billing/period-deliveries';
import { literal } from '../../src/billing/sql-batch';
import { createPool } from '../../src/store/db';
import { createAccount, createKey, opportunityIds } from '../support/billing-fixtures';
import { createTestContext, type TestContext } from '../support/harness';

// The ledger's reads must choose their index by their shape, whatever the statistics say: this
// machine's Postgres runs without autovacuum, the ledger grows by thousands of rows a minute
// between two of the retention step's analyses, and the reads are prepared statements (custom
// plans for their first five executions on a connection, then a generic plan). A lookup of ids
// goes by the primary key; the deliveries since a time by the time index (migrations 010, 013).
// Each wrong choice walked the account's whole period.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const period = '2026-11-01T00:00:00Z';
const PKEY = '"Index Name":"metering_deliveries_pkey"';
const TIME = '"Index Name":"metering_deliveries_time"';

/** The plan of `sql` for these values, as a custom plan (an unnamed statement's) would be. */
async function planOf(sql: string, params: unknown[]): Promise<string> {
  const { rows } = await ctx.deps.pool.query<{ 'QUERY PLAN': unknown }>(
    `EXPLAIN (FORMAT JSON) ${sql}`,
    params,
  );
  return JSON.stringify(rows[0]?.['QUERY PLAN']);
}

/**
 * Inserts n deliveries of the account in `start`'s period. On a pool of its own, without the
 * API's deadline (a busy machine's full run needs more). The rows' foreign keys hold by
 * construction: their per-row checks are skipped (a third of the insert's time).
 */
async function insertDeliveries(account: string, key: string, n: number, start = period) {
  const setup = createPool(ctx.databaseUrl, 1);
  try {
    await setup.query(
      `BEGIN;
       SET LOCAL session_replication_role = replica;
       INSERT INTO metering_deliveries
         (account_id, period_start, opportunity_id, key_id, request_id, charge_millicents)
       SELECT ${literal(account)}, ${literal(start)}, gen_random_uuid(), ${literal(key)}, 'bulk', 0
         FROM generate_series(1, ${n});
       COMMIT;`,
    );
  } finally {
    await setup.end();
  }
}

/** A new account with a key. */
async function accountWithKey() {
  const accountId = await createAccount(ctx.deps.pool, { balanceMillicents: 0 });
  return { accountId, keyId: await createKey(ctx.deps.pool, accountId) };
}

async function newestDelivery(accountId: string): Promise<string> {
  const { rows } = await ctx.deps.pool.query<{ newest: string }>(
    `SELECT max(delivered_at)::text AS newest FROM metering_deliveries WHERE account_id = $1`,
    [accountId],
  );
  return rows[0]?.newest ?? '';
}

// Runs first, before anything in this file analyses the ledger.
describe('a ledger never analysed', () => {
  let accountId: string;
  let keyId: string;
  beforeAll(async () => {
    ({ accountId, keyId } = await accountWithKey());
    await insertDeliveries(accountId, keyId, 5000);
  });

  it('probes the primary key in the generic plan', async () => {
    const client = await ctx.deps.pool.connect();
    try {
      await client.query('SET plan_cache_mode = force_generic_plan');
      await client.query(`PREPARE probe(uuid, uuid, timestamptz, uuid[], text) AS ${READ_PAGE}`);
      const ids = Array.from({ length: 25 }, () => randomUUID());
      // EXPLAIN EXECUTE takes no bind parameters: the values are uuids and a time, quoted here.
      const args = [accountId, keyId, period, `{${ids.join(',')}}`].map((v) =>
        client.escapeLiteral(v),
      );
      const { rows } = await client.query<{ 'QUERY PLAN': unknown }>(
        `EXPLAIN (FORMAT JSON) EXECUTE probe(${args.join(', ')}, NULL)`,
      );
      const plan = JSON.stringify(rows[0]?.['QUERY PLAN']);
      expect(plan).toContain(PKEY);
      expect(plan).not.toContain(TIME);
    } finally {
      await client.query('DEALLOCATE ALL').catch(() => undefined);
      client.release();
    }
  });

  // With no statistics the planner's default guesses rate "this period" (0.5 %) far more
  // selective than "after this time" (a third): the read since a time chose the primary key.
  it('reads the deliveries since a time by the time index', async () => {
    const since = [accountId, keyId, period, -1, await newestDelivery(accountId), '0 ms'];
    const plan = await planOf(PERIOD_DELIVERIES_SINCE, since);
    expect(plan).toContain(TIME);
    expect(plan).not.toContain(PKEY);
  });
});

// Statistics that know the ledger but not the account: analysed while another account filled
// it, before this one delivered 200,000 records (an agent's burst between two retention steps).
// The planner then takes the account for one with no deliveries, and every index that starts
// with account_id looks as cheap as the primary key: it chose the time index for the lookups of
// ids and the primary key for the read since a time (0.4-0.7 s a call on a busy machine).
describe('statistics that predate the account', () => {
  let accountId: string;
  let keyId: string;
  beforeAll(async () => {
    const other = await accountWithKey();
    ({ accountId, keyId } = await accountWithKey());
    await insertDeliveries(other.accountId, other.keyId, 50_000, '2026-10-01T00:00:00Z');
    await insertDeliveries(other.accountId, other.keyId, 50_000);
    await ctx.deps.pool.query('ANALYZE metering_deliveries');
    // As many as it takes for the planner's choice without the fixes to be the wrong one: with
    // 20,000 it happened to pick the right index for the read since a time all the same.
    await insertDeliveries(accountId, keyId, 200_000);
  });

  it("probes a page's ids by the primary key", async () => {
    const plan = await planOf(READ_PAGE, [accountId, keyId, period, opportunityIds(25), null]);
    expect(plan).toContain(PKEY);
    expect(plan).not.toContain(TIME);
  });

  it('checks that ids were delivered by the primary key', async () => {
    const plan = await planOf(DELIVERED_AMONG, [accountId, period, opportunityIds(25)]);
    expect(plan).toContain(PKEY);
    expect(plan).not.toContain(TIME);
  });

  it("reads the period's deliveries by the primary key", async () => {
    const plan = await planOf(PERIOD_DELIVERIES, [accountId, keyId, period, -1]);
    expect(plan).toContain(PKEY);
    expect(plan).not.toContain(TIME);
  });

  it('reads the deliveries since a time by the time index', async () => {
    const since = [accountId, keyId, period, -1, await newestDelivery(accountId), '0 ms'];
    const plan = await planOf(PERIOD_DELIVERIES_SINCE, since);
    expect(plan).toContain(TIME);
    expect(plan).not.toContain(PKEY);
  });

  // A delivery written without its record's number (these are, as rows from before migration 015
  // were) takes it from an index that holds it beside the id (migration 014), not from each
  // record's row (a scan of the whole table, or a fetch per delivery).
  it("reads the delivered records' numbers from an index alone", async () => {
    const client = await ctx.deps.pool.connect();
    try {
      // This file's opportunities table is empty: a scan of it would win against any index.
      await client.query('SET enable_seqscan = off');
      const { rows } = await client.query<{ 'QUERY PLAN': unknown }>(
        `EXPLAIN (FORMAT JSON) ${PERIOD_DELIVERIES}`,
        [accountId, keyId, period, -1],
      );
      const plan = JSON.stringify(rows[0]?.['QUERY PLAN']);
      // One node of the plan: no braces between its type and its index.
      expect(plan).toMatch(
        /"Node Type":"Index Only Scan"[^{}]*"Index Name":"opportunities_id_record_num"/,
      );
    } finally {
      await client.query('RESET enable_seqscan');
      client.release();
    }
  });
});

// The billing state's fingerprint (migration 011) rides on READ_PAGE_HOLDING: the planner must
// inline it, or each call runs it through the SQL-function executor (about 0.1 ms of Postgres a
// page; declared IMMUTABLE over STABLE functions, it was not inlined).
it('inlines the billing fingerprint into READ_PAGE_HOLDING', async () => {
  const accountId = await createAccount(ctx.deps.pool, { balanceMillicents: 0 });
  const keyId = await createKey(ctx.deps.pool, accountId);
  const { rows } = await ctx.deps.pool.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN VERBOSE ${READ_PAGE_HOLDING}`,
    [accountId, keyId, '2026-11-01T00:00:00Z', [randomUUID()], null],
  );
  const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
  expect(plan).toContain('md5(');
  expect(plan).not.toContain('meter_billing_fingerprint(');
});
