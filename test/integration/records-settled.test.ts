import { PgMeter } from '../../src/billing/pg-meter';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { importNdjson } from '../../src/service/import-records';
import { seedRecords } from '../../src/service/seed-records';
import { makeRecord } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { scratchDir } from '../support/scratch-dir';

/** The NDJSON files of this file's imports. */
const scratch = scratchDir('settled-');

// A charge reads its records' numbers by index alone (migration 015), which needs the records'
// visibility map; Postgres may run without autovacuum, so seed, import and the retention step
// vacuum the records themselves (store/opportunity-repo.ts settleOpportunities, ledger-sql.ts).

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/**
 * How many rows an index-only read of 50 records' numbers (the charge's lookup, migration 015)
 * had to fetch from the table because the visibility map did not vouch for their pages.
 */
async function heapFetches(): Promise<number> {
  const client = await ctx.deps.pool.connect();
  try {
    await client.query('SET enable_seqscan = off');
    await client.query('SET enable_bitmapscan = off');
    const ids = (await client.query<{ id: string }>('SELECT id FROM opportunities LIMIT 50')).rows;
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE) SELECT o.record_num FROM opportunities o WHERE o.id = ANY ($1::uuid[])`,
      [ids.map((r) => r.id)],
    );
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toContain('Index Only Scan');
    return Number(/Heap Fetches: (\d+)/.exec(plan)?.[1]);
  } finally {
    await client.query('RESET enable_seqscan');
    await client.query('RESET enable_bitmapscan');
    client.release();
  }
}

/** How many times the records were vacuumed: once past `over`, or what it is after 5 s. */
async function vacuumsPast(over: number): Promise<number> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const { rows } = await ctx.deps.pool.query<{ n: string }>(
      `SELECT vacuum_count AS n FROM pg_stat_user_tables WHERE relname = 'opportunities'`,
    );
    const n = Number(rows[0]?.n ?? 0);
    // The statistics reach this view up to a second after the vacuum.
    if (n > over || Date.now() > deadline) return n;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it('a seed vacuums the records it stored', async () => {
  const before = await vacuumsPast(-1);
  await seedRecords(ctx.deps, 400, 11);
  expect(await vacuumsPast(before)).toBeGreaterThan(before);
});

it('an import vacuums the records it stored', async () => {
  const file = path.join(scratch, 'records.ndjson');
  writeFileSync(file, [makeRecord(), makeRecord()].map((r) => JSON.stringify(r)).join('\n'));
  const before = await vacuumsPast(-1);
  expect((await importNdjson(ctx.deps, file)).store.inserted).toBe(2);
  expect(await vacuumsPast(before)).toBeGreaterThan(before);
});

it('the retention step vacuums them too, after they were written again', async () => {
  // Every row rewritten: each page's all-visible bit is cleared.
  await ctx.deps.pool.query('UPDATE opportunities SET updated_at = updated_at');
  expect(await heapFetches()).toBeGreaterThan(0);
  const before = await vacuumsPast(-1);
  expect((await new PgMeter(ctx.deps.pool).retain()).ran).toBe(true);
  expect(await vacuumsPast(before)).toBeGreaterThan(before);
});
