import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { Pool } from 'pg';
import { bootstrap, shutdown } from '../src/bootstrap';
import { parseEnv } from '../src/config';
import { createLogger } from '../src/infra/logger';
import { dropIndices } from '../src/search/index-manager';
import { seedRecords } from '../src/service/seed-records';
import { createAccount } from '../src/store/account-repo';
import { createApiKey } from '../src/store/api-key-repo';
import { ensureDatabase } from '../src/store/db';
import { checkLedger } from './faults/ledger';
import { Load, sleep, summarize } from './faults/load';
import {
  ApiInstance,
  PrivateRedis,
  RoundRobin,
  freePort,
  stopChildrenOnInterrupt,
} from './faults/procs';

// `npm run soak -- --minutes M` (issue 15; default 10): steady mixed load against the local cluster
// and two API instances behind a round-robin proxy. A line per minute (requests, errors, p50/p99,
// RSS of each instance); passes with zero 5xx and the ledger invariants holding.

const minutesArg = process.argv.indexOf('--minutes');
const MINUTES = minutesArg > 0 ? Number(process.argv[minutesArg + 1]) : 10;
const CURSOR_KEYS = 'soak1=soak-run-cursor-signing-secret-0123456789abcdef';

async function main(): Promise<void> {
  if (!Number.isFinite(MINUTES) || MINUTES <= 0)
    throw new Error('--minutes must be a positive number');
  const searchUrl = execFileSync('bash', ['scripts/opensearch-local.sh', 'cluster', '3'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  const dbName = `soak_${randomBytes(4).toString('hex')}`;
  const databaseUrl = `postgresql://postgres@127.0.0.1:5432/${dbName}`;
  await ensureDatabase(databaseUrl);
  const env = parseEnv({
    DATABASE_URL: databaseUrl,
    OPENSEARCH_URL: searchUrl,
    OPENSEARCH_REPLICAS: '1',
    // The run's own set-up (index creation, seeding) on a busy machine; the APIs keep theirs.
    OPENSEARCH_TIMEOUT_MS: '60000',
    CURSOR_SIGNING_KEYS: CURSOR_KEYS,
    LOG_LEVEL: 'warn',
  });
  const deps = await bootstrap({ env, logger: createLogger('warn'), poolSize: 4 });
  const redis = new PrivateRedis(await freePort());
  const instances: ApiInstance[] = [];
  const proxy = new RoundRobin([]);
  let fivexx = 0;
  try {
    await seedRecords(deps, 3000, 11);
    const keys: string[] = [];
    for (const plan of ['builder', 'growth', 'enterprise'] as const) {
      const account = await createAccount(deps.pool, {
        plan,
        balance_millicents: 50_000_000,
        rps_override: 1000,
      });
      for (let k = 0; k < 2; k++)
        keys.push((await createApiKey(deps.pool, { accountId: account.id })).key);
    }
    await redis.start();
    const apiEnv = {
      DATABASE_URL: databaseUrl,
      OPENSEARCH_URL: searchUrl,
      REDIS_URL: redis.url,
      CURSOR_SIGNING_KEYS: CURSOR_KEYS,
      LOG_LEVEL: 'warn',
    };
    for (let i = 0; i < 2; i++) instances.push(new ApiInstance(await freePort(), apiEnv));
    await Promise.all(instances.map((i) => i.start()));
    proxy.backends = instances.map((i) => i.url);
    await proxy.start();
    const load = new Load({ baseUrl: () => proxy.url, keys, workers: 6, pauseMs: 20 });
    console.log(`soak: ${MINUTES} min, 2 instances, cluster ${searchUrl}`);
    load.start();
    for (let m = 1; m <= MINUTES; m++) {
      const from = Date.now();
      await sleep(60_000);
      const s = summarize(load.since(from));
      const errors = load.since(from).filter((x) => x.status >= 500 || x.status === 0).length;
      fivexx += errors;
      console.log(
        `minute ${m}: requests ${s.requests} (${Math.round(s.requests / 60)}/s), 5xx ${errors}, statuses ${JSON.stringify(s.byStatus)}, p50 ${s.p50} ms, p99 ${s.p99} ms, RSS ${instances.map((i) => `${i.rssMb()} MB`).join(' / ')}`,
      );
    }
    await load.stop();
    const ledger = await checkLedger(deps.pool);
    const all = summarize(load.samples);
    console.log(
      `total: requests ${all.requests}, 5xx ${fivexx}, p50 ${all.p50} ms, p99 ${all.p99} ms, longest ${all.longestMs} ms`,
    );
    console.log(`ledger: ${JSON.stringify(ledger)}`);
    const ok = fivexx === 0 && ledger.holds;
    console.log(ok ? 'PASS' : 'FAIL');
    process.exitCode = ok ? 0 : 1;
  } finally {
    await proxy.stop().catch(() => undefined);
    await Promise.all(instances.map((i) => i.stop()));
    await redis.stop();
    await dropIndices(deps.search, deps.alias).catch(() => undefined);
    await shutdown(deps);
    const admin = new Pool({
      connectionString: 'postgresql://postgres@127.0.0.1:5432/postgres',
      max: 1,
    });
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
}

stopChildrenOnInterrupt();
main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
