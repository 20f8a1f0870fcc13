// The CPU of one count in the read service, without HTTP: on a loaded machine
// the HTTP bench's API CPU per request moves by a factor of two from run to run, while this loop
// (the service's count call and the body's serialization, with its real Redis rate limit and
// Postgres usage read) runs in this process and measures its own CPU, so a before/after pair of
// the count path compares like with like.
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/counts_bench OPENSEARCH_URL=… \
//     npx tsx scripts/bench/count-cpu.ts [--calls 20000] [--concurrency 16]
import { compose } from '../../src/app/compose';
import { shutdown } from '../../src/bootstrap';
import type { CountEnvelope } from '../../src/domain/envelopes';
import type { Caller } from '../../src/service/read-service';
import { createAccount } from '../../src/store/account-repo';
import { createApiKey } from '../../src/store/api-key-repo';
import { newestFreshness } from './dashboards';
import { keywordMixes } from './keyword-queries';
import { probeDeps } from './probe-deps';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const CALLS = arg('calls', 20_000);
const CONCURRENCY = arg('concurrency', 16);

async function main(): Promise<void> {
  const deps = await probeDeps();
  const { reads, auth } = compose(deps);
  // The REST adapter's serializer where this tree has one (count-json), else res.json's.
  const serialize: (body: CountEnvelope) => string = await import('../../src/service/count-json')
    .then((m: { countJson: (b: CountEnvelope) => string }) => m.countJson)
    .catch(() => JSON.stringify);
  // One account per worker: histograms and statistics are at most 2 in flight per account.
  const callers: Caller['auth'][] = [];
  for (let w = 0; w < CONCURRENCY; w++) {
    const account = await createAccount(deps.pool, {
      plan: 'enterprise',
      name: `count-cpu ${w}`,
      allowance_override: 1_000_000_000,
      rps_override: 1_000_000,
    });
    const { key } = await createApiKey(deps.pool, { accountId: account.id, label: 'count-cpu' });
    callers.push(
      await auth.authenticate({ 'x-api-key': key }, '127.0.0.1', { allowBearer: false }),
    );
  }
  const families = (
    await deps.pool.query<{ f: string }>(
      `SELECT job_family AS f FROM opportunities WHERE deleted_at IS NULL AND job_family IS NOT NULL
        GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 10`,
    )
  ).rows.map((r) => r.f);
  const yearAgo = new Date((await newestFreshness(deps.search, deps.alias)).getTime() - 365 * 864e5)
    .toISOString()
    .slice(0, 10);
  const countries = ['US', 'GB', 'IN', 'CA'];
  const workloads: Record<string, Record<string, string>[]> = {
    'count, 20 repeated mixes': families.flatMap((f, i): Record<string, string>[] => [
      { job_family: f, remote: 'true' },
      { job_family: f, country: countries[i % 4] as string },
    ]),
    'q count, 50 rotating queries': keywordMixes(deps).map((m) =>
      Object.fromEntries(new URLSearchParams(m.query)),
    ),
    'weekly histogram over a year, family x country': families.map((f, i) => ({
      fresh_after: yearAgo,
      histogram: 'published',
      interval: 'week',
      job_family: f,
      country: countries[i % 4] as string,
    })),
    'stats=rate over a family': families.map((f) => ({ job_family: f, stats: 'rate' })),
    // No cache answers: a rate_min of its own per call (the API's result cache and OpenSearch's
    // request cache both miss), so this is the search client's path.
    'count, a fresh filter every call': Array.from({ length: 50_000 }, (_, i) => ({
      job_family: families[i % families.length] as string,
      rate_min: ((i + 1) / 100).toFixed(2),
    })),
  };
  let n = 0;
  const caller = (worker: number): Caller => ({
    auth: callers[worker % callers.length] as Caller['auth'],
    requestId: `cpu-${n++}`,
    marketplaceVerified: false,
  });
  console.log(`| workload | calls | API CPU ms per count (service + serialization) | wall s |`);
  console.log('|---|---|---|---|');
  for (const [name, queries] of Object.entries(workloads)) {
    let i = 0;
    const one = async (worker: number) => {
      const query = queries[i++ % queries.length] as Record<string, string>;
      // A dashboard is one account; its histograms and statistics need one account per worker.
      const expensive = query.histogram !== undefined || query.stats !== undefined;
      const outcome = await reads.count(caller(expensive ? worker : 0), {
        from: 'rest',
        query: { ...query },
      });
      if (!outcome.ok) throw outcome.error;
      serialize(outcome.body);
    };
    const run = async (calls: number) => {
      let left = calls;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async (_, worker) => {
          while (left-- > 0) await one(worker);
        }),
      );
    };
    await run(Math.min(2000, CALLS)); // warm-up: JIT, pools, caches
    const cpu = process.cpuUsage();
    const t = performance.now();
    await run(CALLS);
    const used = process.cpuUsage(cpu);
    const ms = (used.user + used.system) / 1000 / CALLS;
    console.log(
      `| ${name} | ${CALLS} | ${ms.toFixed(3)} | ${((performance.now() - t) / 1000).toFixed(1)} |`,
    );
  }
  await shutdown(deps);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
