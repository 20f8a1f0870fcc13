// Measures list pages, deep cursor pages, counts and details over HTTP against a seeded database,
// with and without metering, and prints medians and p95s. Run by hand (docs/benchmarks.md):
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/bench1m npm run bench:list
import { randomUUID } from 'node:crypto';
import { inProcessApi, stats as sharedStats, time as timed } from './bench/in-process';
import { parseRestQuery } from '../src/domain/filters';
import { searchPage } from '../src/service/opportunity-search';
import { createAccount } from '../src/store/account-repo';
import { createApiKey } from '../src/store/api-key-repo';

const RUNS = Number(process.env.BENCH_RUNS ?? 60);

const stats = (samples: number[]) => sharedStats(samples, 2);
const time = (fn: () => Promise<unknown>) => timed(fn, { runs: RUNS, warmups: 3, decimals: 2 });

async function main() {
  const { deps, capabilities, base, close } = await inProcessApi();
  // Big allowance and rate so neither limit shapes the figures.
  const account = await createAccount(deps.pool, {
    plan: 'enterprise',
    name: 'bench',
    allowance_override: 100_000_000,
    rps_override: 100_000,
  });
  const { key } = await createApiKey(deps.pool, { accountId: account.id, label: 'bench' });
  const get = async (path: string) => {
    const res = await fetch(base + path, {
      headers: { 'X-API-Key': key, 'X-Request-ID': randomUUID() },
    });
    if (res.status !== 200) throw new Error(`${path} → ${res.status} ${await res.text()}`);
    return res.json() as Promise<{ pagination?: { next_cursor: string | null }; count?: number }>;
  };
  const total = (await get('/v1/opportunities/count')).count ?? 0;
  const queries: Record<string, string> = {
    'no filters': '',
    'family data': 'job_family=data',
    'remote US c2c rate>=80': 'remote=true&country=US&engagement_model=c2c&rate_min=80',
    'live, fresh_after 2026-09-01, senior':
      'liveness_status=live&fresh_after=2026-09-01&level=senior,staff',
  };
  const results: Record<string, unknown> = { records: total, runs: RUNS };
  for (const [name, q] of Object.entries(queries)) {
    results[`list 25 · ${name}`] = await time(() => get(`/v1/opportunities?limit=25&${q}`));
    results[`count · ${name}`] = await time(() => get(`/v1/opportunities/count?${q}`));
  }
  // Deep paging: follow the cursor 40 pages of 100 and time each page.
  const pageTimes: number[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 40; i++) {
    const t = performance.now();
    const page = await get(
      `/v1/opportunities?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    pageTimes.push(performance.now() - t);
    cursor = page.pagination?.next_cursor ?? null;
    if (!cursor) break;
  }
  results['list 100 · cursor pages 1-40 (new records each page)'] = stats(pageTimes);
  // The same first page again: every record is a repeat, so metering records nothing new.
  results['list 25 · repeat page (no new deliveries)'] = await time(() =>
    get('/v1/opportunities?limit=25'),
  );
  // Without HTTP, auth and metering: the search alone, for the metering/HTTP overhead.
  const request = parseRestQuery(
    'list',
    { limit: '25' },
    { taxonomy: deps.taxonomy, maxPageSize: 100 },
  );
  results['search only (no HTTP, auth, metering) · list 25'] = await time(() =>
    searchPage(capabilities.index, deps.cursor, request, account.id),
  );
  results['search only · count'] = await time(() => capabilities.index.count({}));
  console.log(JSON.stringify(results, null, 2));
  await close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
