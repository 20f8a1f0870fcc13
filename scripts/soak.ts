import { seedRecords } from '../src/service/seed-records';
import { createAccount } from '../src/store/account-repo';
import { createApiKey } from '../src/store/api-key-repo';
import { checkLedger } from './faults/ledger';
import { Load, sleep, summarize } from './faults/load';
import {
  ApiInstance,
  PrivateRedis,
  RoundRobin,
  freePort,
  killStartedChildren,
  stopChildrenOnInterrupt,
} from './faults/procs';
import {
  exitAfter,
  exitAtDeadline,
  loadAverage,
  numberOption,
  opensearchCluster,
  setUpRun,
  within,
} from './faults/run';

// `npm run soak -- --minutes M` (default 10): steady mixed load against the local cluster
// and two API instances behind a round-robin proxy. A line per minute (requests, errors, p50/p99,
// RSS of each instance, load average); passes with zero 5xx and the ledger invariants holding.
// Exits when done: 0 on a pass, 1 otherwise.

const MINUTES = numberOption('minutes', 10);
const CURSOR_KEYS = 'soak1=soak-run-cursor-signing-secret-0123456789abcdef';

async function main(): Promise<void> {
  const searchUrl = await within(900_000, 'cluster start', opensearchCluster('3'));
  const run = await setUpRun('soak', searchUrl, CURSOR_KEYS);
  const redis = new PrivateRedis(await freePort());
  const instances: ApiInstance[] = [];
  const proxy = new RoundRobin([]);
  let load: Load | null = null;
  let ok = false;
  try {
    await seedRecords(run.deps, 3000, 11);
    const keys: string[] = [];
    for (const plan of ['builder', 'growth', 'enterprise'] as const) {
      const account = await createAccount(run.deps.pool, {
        plan,
        balance_millicents: 50_000_000,
        rps_override: 1000,
      });
      for (let k = 0; k < 2; k++)
        keys.push((await createApiKey(run.deps.pool, { accountId: account.id })).key);
    }
    await redis.start();
    const apiEnv = {
      DATABASE_URL: run.databaseUrl,
      OPENSEARCH_URL: searchUrl,
      REDIS_URL: redis.url,
      CURSOR_SIGNING_KEYS: CURSOR_KEYS,
      LOG_LEVEL: 'warn',
    };
    for (let i = 0; i < 2; i++) instances.push(new ApiInstance(await freePort(), apiEnv));
    await within(300_000, 'instances ready', Promise.all(instances.map((i) => i.start())));
    proxy.backends = instances.map((i) => i.url);
    await proxy.start();
    load = new Load({ baseUrl: () => proxy.url, keys, workers: 6, pauseMs: 20, hangMs: 30_000 });
    console.log(`soak: ${MINUTES} min, 2 instances, cluster ${searchUrl}`);
    load.start();
    let fivexx = 0;
    for (let m = 1; m <= MINUTES; m++) {
      const from = Date.now();
      await sleep(60_000);
      const minute = load.since(from);
      const s = summarize(minute);
      const errors = minute.filter((x) => x.status >= 500 || x.status === 0).length;
      fivexx += errors;
      console.log(
        `minute ${m}: requests ${s.requests} (${Math.round(s.requests / 60)}/s), 5xx ${errors}, statuses ${JSON.stringify(s.byStatus)}, p50 ${s.p50} ms, p99 ${s.p99} ms, RSS ${instances.map((i) => `${i.rssMb()} MB`).join(' / ')}, load average ${loadAverage()}`,
      );
    }
    await load.stop();
    const ledger = await checkLedger(run.deps.pool);
    const all = summarize(load.samples);
    console.log(
      `total: requests ${all.requests}, 5xx ${fivexx}, statuses ${JSON.stringify(all.byStatus)}, codes ${JSON.stringify(all.byCode)}, p50 ${all.p50} ms, p99 ${all.p99} ms, longest ${all.longestMs} ms`,
    );
    console.log(`ledger: ${JSON.stringify(ledger)}`);
    ok = fivexx === 0 && ledger.holds;
  } catch (err) {
    console.error(err);
  }
  console.log(ok ? 'PASS' : 'FAIL');
  await exitAfter(ok ? 0 : 1, async () => {
    await load?.stop();
    await proxy.stop().catch(() => undefined);
    await Promise.all(instances.map((i) => i.stop()));
    await redis.stop();
    await run.close();
  });
}

stopChildrenOnInterrupt();
exitAtDeadline((MINUTES + 25) * 60_000, 'soak');
main().catch((err: unknown) => {
  console.error(err);
  killStartedChildren();
  process.exit(1);
});
