import { randomUUID } from 'node:crypto';
import { ALL_DELIVERED } from '../../src/billing/delivered';
import { READ_PAGE, READ_PAGE_HOLDING } from '../../src/billing/ledger-sql';
import { literal } from '../../src/billing/sql-batch';
import { createPool } from '../../src/store/db';
import { PERIOD_DELIVERIES } from '../../src/billing/period-deliveries';
import { createAccount, createKey, opportunityIds } from '../support/billing-fixtures';
import { createTestContext, type TestContext } from '../support/harness';

// A page's "which of these ids are new" probe must find each id by the ledger's primary key,
// whatever the statistics say: this machine's Postgres runs without autovacuum, the ledger grows
// by thousands of rows a minute, and the probe is a prepared statement (a generic plan). With an
// index sharing the key's first two columns the planner once chose it, and every probe walked the
// account's whole period (migration 010).

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

it('probes the primary key in the generic plan of a never-analysed ledger', async () => {
  const accountId = await createAccount(ctx.deps.pool, { balanceMillicents: 0 });
  const keyId = await createKey(ctx.deps.pool, accountId);
  const period = '2026-11-01T00:00:00Z';
  await ctx.deps.pool.query(
    `INSERT INTO metering_deliveries
       (account_id, period_start, opportunity_id, key_id, request_id, charge_millicents)
     SELECT $1, $2, gen_random_uuid(), $3, 'bulk', 0 FROM generate_series(1, 5000)`,
    [accountId, period, keyId],
  );
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
    expect(plan).toContain('"Index Name":"metering_deliveries_pkey"');
    expect(plan).not.toContain('metering_deliveries_time');
  } finally {
    await client.query('DEALLOCATE ALL').catch(() => undefined);
    client.release();
  }
});

// Statistics that know the ledger but not the account: analysed while other accounts filled it,
// before this one delivered 20,000 records (an agent's burst between two retention steps). The
// planner then takes the account for one with no deliveries, and every index that starts with
// account_id looks as cheap as the primary key. Its custom plans (the first five executions of a
// prepared statement on each connection, and every unnamed one) chose the time index for the
// probe and the primary key for the deliveries since a time: each walked the account's 20,000
// rows (0.4-0.7 s a call at 200,000 deliveries).
describe('plans with statistics that predate the account', () => {
  const period = '2026-11-01T00:00:00Z';
  let accountId: string;
  let keyId: string;
  let newest: string;

  beforeAll(async () => {
    const pool = ctx.deps.pool;
    // On a pool of its own, without the API's 5 s deadline (a busy machine's full run needs more).
    // The rows' foreign keys hold by construction: their per-row checks are skipped (a third of
    // the insert's time), in one transaction, on one connection.
    const setup = createPool(ctx.databaseUrl, 1);
    const insertDeliveries = (account: string, key: string, n: number, start = period) =>
      setup.query(
        `BEGIN;
         SET LOCAL session_replication_role = replica;
         INSERT INTO metering_deliveries
           (account_id, period_start, opportunity_id, key_id, request_id, charge_millicents)
         SELECT ${literal(account)}, ${literal(start)}, gen_random_uuid(), ${literal(key)}, 'bulk', 0
           FROM generate_series(1, ${n});
         COMMIT;`,
      );
    try {
      const other = await createAccount(pool, { balanceMillicents: 0 });
      const otherKey = await createKey(pool, other);
      await insertDeliveries(other, otherKey, 50_000, '2026-10-01T00:00:00Z');
      await insertDeliveries(other, otherKey, 50_000);
      await setup.query('ANALYZE metering_deliveries');
      accountId = await createAccount(pool, { balanceMillicents: 0 });
      keyId = await createKey(pool, accountId);
      // As many as it takes for the planner's choice without the fixes to be the wrong one: with
      // 20,000 it happened to pick the right index for the read since a time all the same.
      await insertDeliveries(accountId, keyId, 200_000);
    } finally {
      await setup.end();
    }
    const { rows } = await pool.query<{ newest: string }>(
      `SELECT max(delivered_at)::text AS newest FROM metering_deliveries WHERE account_id = $1`,
      [accountId],
    );
    newest = rows[0]?.newest ?? '';
  });

  const planOf = async (sql: string, params: unknown[]): Promise<string> => {
    const { rows } = await ctx.deps.pool.query<{ 'QUERY PLAN': unknown }>(
      `EXPLAIN (FORMAT JSON) ${sql}`,
      params,
    );
    return JSON.stringify(rows[0]?.['QUERY PLAN']);
  };

  it("probes a page's ids by the primary key", async () => {
    const plan = await planOf(READ_PAGE, [accountId, keyId, period, opportunityIds(25), null]);
    expect(plan).toContain('"Index Name":"metering_deliveries_pkey"');
    expect(plan).not.toContain('metering_deliveries_time');
  });

  it('checks that ids were delivered by the primary key', async () => {
    const plan = await planOf(ALL_DELIVERED, [accountId, period, opportunityIds(25)]);
    expect(plan).toContain('"Index Name":"metering_deliveries_pkey"');
    expect(plan).not.toContain('metering_deliveries_time');
  });

  it('reads the deliveries since a time by the time index', async () => {
    const plan = await planOf(PERIOD_DELIVERIES, [
      accountId,
      keyId,
      period,
      -1,
      newest,
      '0 milliseconds',
    ]);
    expect(plan).toContain('"Index Name":"metering_deliveries_time"');
    expect(plan).not.toContain('metering_deliveries_pkey');
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
