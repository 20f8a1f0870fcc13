import type { PoolClient } from 'pg';
import { deleteRecords } from '../../src/service/delete-records';
import { readChanges } from '../../src/store/changes-repo';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';

// contract §12, since: migration 005 lets the planner read a recent since by time
// (opportunities_change_time) instead of walking sync_seq from the start. Whichever path the
// planner takes, the pages must be the same: here each path is forced in its own rolled-back
// transaction (the other index dropped, sequential scans off) and both are held to an oracle
// computed from every stored row.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  const day = (n: number) => new Date(Date.UTC(2026, 8, 1 + (n % 60), n % 24)).toISOString();
  const records = Array.from({ length: 240 }, (_, i) =>
    makeRecord({ title: `R${i}`, changed_at: day((i * 37) % 97) }),
  );
  // Several imports (sync_seq order differs from changed_at order), then updates and deletions.
  for (let i = 0; i < records.length; i += 60) {
    await storeAndIndex(ctx.deps, records.slice(i, i + 60));
  }
  await storeAndIndex(
    ctx.deps,
    records.slice(0, 40).map((r, i) => ({ ...r, title: `${r.title} v2`, changed_at: day(i) })),
  );
  await deleteRecords(
    ctx.deps,
    records.filter((_, i) => i % 9 === 0).map((r) => r.id),
  );
});
afterAll(() => ctx.close());

interface Row {
  seq: number;
  id: string;
  at: string;
}

async function oracle(since: string): Promise<Row[]> {
  const { rows } = await ctx.deps.pool.query<{ seq: string; id: string; at: Date }>(
    'SELECT sync_seq AS seq, id, COALESCE(deleted_at, changed_at) AS at FROM opportunities',
  );
  return rows
    .map((r) => ({ seq: Number(r.seq), id: r.id, at: r.at.toISOString() }))
    .filter((r) => r.at >= since)
    .sort((a, b) => a.seq - b.seq);
}

/** Pages through the feed from the start with `since`, in one transaction whose planner must use `keep`. */
async function pagesWith(keep: 'time' | 'seq', since: string, limit: number) {
  const client: PoolClient = await ctx.deps.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL enable_seqscan = off');
    await client.query(
      keep === 'time'
        ? 'DROP INDEX opportunities_sync_seq'
        : 'DROP INDEX opportunities_change_time',
    );
    const plan = await client.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT id FROM opportunities o WHERE o.sync_seq > 0
         AND COALESCE(o.deleted_at, o.changed_at) >= $1::timestamptz ORDER BY o.sync_seq LIMIT 10`,
      [since],
    );
    const planText = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    const pages: string[][] = [];
    let after = 0;
    for (;;) {
      const rows = await readChanges(client, {
        after,
        since: new Date(since),
        limit,
        alias: ctx.deps.alias,
      });
      if (!rows.length) break;
      pages.push(rows.map((r) => r.id));
      after = rows[rows.length - 1]?.seq ?? after;
    }
    return { pages, planText };
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

it.each([
  '2026-09-01T00:00:00.000Z',
  '2026-10-01T00:00:00.000Z',
  '2026-10-29T12:00:00.000Z',
  '2030-01-01T00:00:00.000Z',
])(
  'since %s: the same pages by time index and by sync_seq walk, equal to the oracle',
  async (since) => {
    const expected = (await oracle(since)).map((r) => r.id);
    const byTime = await pagesWith('time', since, 7);
    const bySeq = await pagesWith('seq', since, 7);
    expect(byTime.planText).toContain('opportunities_change_time');
    expect(bySeq.planText).toContain('opportunities_sync_seq');
    expect(byTime.pages.flat()).toEqual(expected);
    expect(bySeq.pages).toEqual(byTime.pages);
    // Tombstones are timed by their deletion (now), so every since before now sees them.
    if (since < new Date().toISOString()) expect(expected.length).toBeGreaterThanOrEqual(27);
  },
);
