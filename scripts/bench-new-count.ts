// Measures count with include=new_count, count facets and unseen_only list pages for an account
// that has received many records this period (contract §10.3), over HTTP against a seeded database.
// Run by hand (docs/benchmarks.md):
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/bench1m npm run bench:new-count
// BENCH_DELIVERIES (default 200000) records are marked delivered to a fresh account this period
// before timing, then analyzed (BENCH_ANALYZE=0: not), each with its record's number as the charge
// writes it (BENCH_LEGACY_ROWS=1: without, as rows written before migration 015); BENCH_RUNS
// (default 20) runs per figure after 2 warm-up runs. Each figure also gives the API process's CPU
// per call (the API runs in this process: the client's share is in it too), steadier than wall
// time on a busy machine. The last figures send the period's exclusion straight to the engine
// both ways, by id and by record number, back to back on the same index, with the engine's own
// `took`.
import { idChunks, excluding, recordNumbersClause } from '../src/search/exclusions';
import { liveHasRecordNumbers } from '../src/search/index-definition';
import { RoaringSet } from '../src/infra/roaring';
import { DEFAULT_DATABASE_URL } from '../src/config';
import { createPool } from '../src/store/db';
import { benchAccount, loadAverage, stats, time as timeRuns } from './bench/http-account';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 200_000);
const ANALYZE = process.env.BENCH_ANALYZE !== '0';
const LEGACY_ROWS = process.env.BENCH_LEGACY_ROWS === '1';
const round = (n: number) => Math.round(n * 10) / 10;
/** Wall-time statistics and the API process's CPU per call (warm-ups included in neither). */
async function time(fn: () => Promise<unknown>) {
  for (let i = 0; i < 2; i++) await fn();
  const cpu = process.cpuUsage();
  const wall = await timeRuns(fn, RUNS, 0);
  const used = process.cpuUsage(cpu);
  return { ...wall, api_cpu_ms_per_call: round((used.user + used.system) / 1000 / RUNS) };
}

async function main() {
  const { deps, account, keyId, get, close } = await benchAccount('bench-new-count');
  // The period's deliveries, written as the meter would: the ledger rows and the period counter
  // that counts them (metering_usage.used, which the held delivered ids are checked against).
  // Every fifth record by id hash, up to DELIVERIES. On a pool of its own without the API's request
  // deadline (POSTGRES_TIMEOUT_MS): 200,000 rows take longer than a request may.
  const t0 = performance.now();
  const setup = createPool(deps.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, 1);
  const inserted = await setup
    .query(
      `WITH ins AS (
       INSERT INTO metering_deliveries
         (account_id, period_start, opportunity_id, key_id, request_id, charge_millicents,
          record_num)
       SELECT $1, date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', o.id, $2,
              'bench', 0, ${LEGACY_ROWS ? 'NULL' : 'o.record_num'}
         FROM opportunities o WHERE o.deleted_at IS NULL
        ORDER BY md5(o.id::text) LIMIT $3
       RETURNING period_start)
     INSERT INTO metering_usage (account_id, period_start, period_end, used, included_used)
     SELECT $1, min(period_start), min(period_start) + interval '1 month', count(*), count(*)
       FROM ins
     RETURNING used`,
      [account.id, keyId, DELIVERIES],
    )
    // Statistics that know the account's deliveries, as the service's retention step (VACUUM
    // ANALYZE, billing/pg-meter.ts) leaves them for an account whose deliveries came over the
    // period. BENCH_ANALYZE=0 leaves the statistics as they were: the planner then takes the new
    // account for one with no deliveries (an agent's burst between two retention steps), the case
    // migration 013 and PERIOD_DELIVERIES_SINCE keep cheap (docs/benchmarks.md).
    .then(async (res) => {
      if (ANALYZE) await setup.query('ANALYZE metering_deliveries, metering_usage');
      return res;
    })
    .finally(() => setup.end());
  const seedMs = performance.now() - t0;
  const total = (await get('/v1/opportunities/count')).count;
  const queries: Record<string, string> = {
    'no filters': '',
    'family data': 'job_family=data',
    'remote US c2c rate>=80': 'remote=true&country=US&engagement_model=c2c&rate_min=80',
  };
  const results: Record<string, unknown> = {
    records: total,
    deliveries_this_period: (inserted.rows[0] as { used: number } | undefined)?.used,
    statistics_after_insert: ANALYZE ? 'analyzed' : 'as before the insert',
    delivery_rows: LEGACY_ROWS
      ? 'without record numbers (before migration 015)'
      : 'with record numbers',
    seconds_to_write_deliveries: round(seedMs / 1000),
    runs: RUNS,
    load_average_at_start: await loadAverage(),
  };
  for (const [name, q] of Object.entries(queries)) {
    const sep = q ? '&' : '';
    const t = performance.now();
    const sample = await get(`/v1/opportunities/count?${q}${sep}include=new_count`);
    // The first call of the run reads the whole period's deliveries (nothing held yet).
    results[`new_count of ${name}`] = {
      count: sample.count,
      new_count: sample.new_count,
      ms_first_call: round(performance.now() - t),
    };
    results[`count · ${name}`] = await time(() => get(`/v1/opportunities/count?${q}`));
    results[`count include=new_count · ${name}`] = await time(() =>
      get(`/v1/opportunities/count?${q}${sep}include=new_count`),
    );
    results[`count group_by=job_family,level · ${name}`] = await time(() =>
      get(`/v1/opportunities/count?${q}${sep}group_by=job_family,level`),
    );
  }
  // unseen_only pages: each page is new (and delivered), so the set grows as it runs.
  const pageTimes: number[] = [];
  const pageCpu = process.cpuUsage();
  let cursor: string | null = null;
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const page = (await get(
      `/v1/opportunities?unseen_only=true&limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    )) as { pagination: { next_cursor: string | null } };
    pageTimes.push(performance.now() - t);
    cursor = page.pagination.next_cursor;
  }
  const pageCpuUsed = process.cpuUsage(pageCpu);
  results['list 25 unseen_only · cursor pages'] = {
    ...stats(pageTimes),
    api_cpu_ms_per_call: round((pageCpuUsed.user + pageCpuUsed.system) / 1000 / RUNS),
  };
  results['list 25 · no filters (for comparison)'] = await time(() =>
    get('/v1/opportunities?limit=25'),
  );
  results['list 25 max_new=5 · no filters'] = await time(() =>
    get('/v1/opportunities?limit=25&max_new=5'),
  );
  if (await liveHasRecordNumbers(deps.search, deps.alias)) {
    // The same exclusion both ways on the same index: the ids as chunked terms clauses, the
    // numbers as one bitmap clause; size 0 and an exact total, as a count asks.
    const delivered = await deps.pool.query<{ id: string; record_num: number | null }>(
      `SELECT d.opportunity_id AS id, o.record_num FROM metering_deliveries d
         LEFT JOIN opportunities o ON o.id = d.opportunity_id WHERE d.account_id = $1`,
      [account.id],
    );
    const ids = delivered.rows.map((r) => r.id);
    const nums = delivered.rows.flatMap((r) => (r.record_num === null ? [] : [r.record_num]));
    const ways = {
      by_id: excluding({ match_all: {} }, idChunks(ids)),
      by_record_number: excluding({ match_all: {} }, [
        recordNumbersClause(new RoaringSet(nums).toBase64()),
      ]),
    };
    const engine: Record<string, { took: number[]; wall: number[]; bytes: number; count: number }> =
      {};
    for (let i = 0; i < RUNS + 2; i++) {
      for (const [way, query] of Object.entries(ways)) {
        const body = JSON.stringify({ size: 0, track_total_hits: true, query });
        const t = performance.now();
        const res = await deps.search.search({ index: deps.alias, body } as never);
        const wall = performance.now() - t;
        const b = res.body as { took: number; hits: { total: { value: number } } };
        const e = (engine[way] ??= { took: [], wall: [], bytes: body.length, count: 0 });
        e.count = b.hits.total.value;
        if (i < 2) continue;
        e.took.push(b.took);
        e.wall.push(wall);
      }
    }
    for (const [way, e] of Object.entries(engine)) {
      results[`engine, matching minus delivered · ${way}`] = {
        count: e.count,
        request_bytes: e.bytes,
        took_ms: stats(e.took),
        round_trip_ms: stats(e.wall),
      };
    }
  }
  results.load_average_at_end = await loadAverage();
  console.log(JSON.stringify(results, null, 2));
  await close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
