import { randomUUID } from 'node:crypto';
import { READ_PAGE, READ_PAGE_HOLDING } from '../../src/billing/ledger-sql';
import { createAccount, createKey } from '../support/billing-fixtures';
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
