// Measures the change feed's first poll (contract §12) over HTTP against a seeded database: a
// mirror starting from a recent `since` (past the newest change: nothing to return; the last day
// of changes), from an older since, and from the start, plus the quiet poll from the cursor.
// Run by hand (docs/benchmarks.md):
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/bench1m npm run bench:change-feed
// BENCH_RUNS (default 20) runs per figure after 2 warm-up runs. Reads only (its own account).
import { benchAccount, loadAverage, time } from './bench/http-account';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);

async function main() {
  const { deps, get, close } = await benchAccount('bench-change-feed');
  const { rows } = await deps.pool.query<{ newest: Date; n: string }>(
    'SELECT max(COALESCE(deleted_at, changed_at)) AS newest, count(*) AS n FROM opportunities',
  );
  const newest = rows[0]?.newest ?? new Date();
  const day = 86_400_000;
  const sinces: Record<string, string | null> = {
    'since after the newest change (empty)': new Date(newest.getTime() + 1000).toISOString(),
    'since = newest change - 1 day': new Date(newest.getTime() - day).toISOString(),
    'since = newest change - 30 days': new Date(newest.getTime() - 30 * day).toISOString(),
    'no since (from the start)': null,
  };
  const results: Record<string, unknown> = {
    rows: Number(rows[0]?.n ?? 0),
    newest_change: newest.toISOString(),
    runs: RUNS,
    load_average_at_start: await loadAverage(),
  };
  for (const [name, since] of Object.entries(sinces)) {
    const query = `/v1/opportunities/changes?limit=100${since ? `&since=${encodeURIComponent(since)}` : ''}`;
    const first = (await get(query)) as { pagination: { returned: number; next_cursor: string } };
    results[`first poll, limit 100 · ${name}`] = {
      returned: first.pagination.returned,
      ...(await time(() => get(query), RUNS)),
    };
    if (since && first.pagination.returned === 0) {
      const cursor = encodeURIComponent(first.pagination.next_cursor);
      results[`poll from the cursor · ${name}`] = await time(
        () => get(`/v1/opportunities/changes?limit=100&cursor=${cursor}`),
        RUNS,
      );
    }
  }
  results['list 100 · no filters (for comparison)'] = await time(
    () => get('/v1/opportunities?limit=100'),
    RUNS,
  );
  results.load_average_at_end = await loadAverage();
  console.log(JSON.stringify(results, null, 2));
  await close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
