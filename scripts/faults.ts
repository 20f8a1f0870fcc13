import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
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
import { Load, failed, sleep, summarize, type Sample } from './faults/load';
import {
  ApiInstance,
  PrivateRedis,
  RoundRobin,
  TcpProxy,
  freePort,
  stopChildrenOnInterrupt,
  waitFor,
} from './faults/procs';

// `npm run faults` (issue 15): each fault injected under steady mixed load, then the figures and
// the ledger invariants printed. Unattended; exits non-zero when an expectation fails. Uses the
// checkout's local cluster (`npm run opensearch -- cluster 3`, started if needed), a private
// redis-server, a TCP proxy in front of the shared Postgres, and its own database (dropped at the end).

const execFileAsync = promisify(execFile);
const CURSOR_KEYS = 'faults1=fault-run-cursor-signing-secret-0123456789';
const SEARCH_TIMEOUT_MS = 5000;
const results: { fault: string; ok: boolean; report: Record<string, unknown> }[] = [];

/** The cluster script, run asynchronously: the load must keep running while a node restarts. */
async function opensearch(...args: string[]): Promise<string> {
  const { stdout } = await execFileAsync(
    'bash',
    ['scripts/opensearch-local.sh', 'cluster', ...args],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    },
  );
  return stdout.trim();
}

function report(fault: string, ok: boolean, figures: Record<string, unknown>): void {
  results.push({ fault, ok, report: figures });
  console.log(`\n== ${fault}: ${ok ? 'PASS' : 'FAIL'}`);
  for (const [k, v] of Object.entries(figures)) console.log(`   ${k}: ${JSON.stringify(v)}`);
}

async function main(): Promise<void> {
  const started = Date.now();
  const searchUrl = await opensearch('3');
  const nodes = searchUrl.split(',');
  console.log(`cluster: ${searchUrl}`);
  const dbName = `faults_${randomBytes(4).toString('hex')}`;
  const directUrl = `postgresql://postgres@127.0.0.1:5432/${dbName}`;
  await ensureDatabase(directUrl);
  const env = parseEnv({
    DATABASE_URL: directUrl,
    OPENSEARCH_URL: searchUrl,
    OPENSEARCH_REPLICAS: '1',
    // The run's own set-up (index creation, seeding) on a busy machine; the APIs keep theirs.
    OPENSEARCH_TIMEOUT_MS: '60000',
    CURSOR_SIGNING_KEYS: CURSOR_KEYS,
    LOG_LEVEL: 'warn',
  });
  const deps = await bootstrap({ env, logger: createLogger('warn'), poolSize: 4 });
  const pool = deps.pool;
  const redis = new PrivateRedis(await freePort());
  const pgProxy = new TcpProxy(5432);
  const instances: ApiInstance[] = [];
  const proxy = new RoundRobin([]);
  try {
    await seedRecords(deps, 1500, 7);
    const keys: string[] = [];
    for (const [plan, model, balance] of [
      ['builder', 'plan', 2_000_000],
      ['growth', 'plan', 0],
      ['free', 'legacy_wallet', 400 * 300],
    ] as const) {
      const account = await createAccount(pool, {
        plan,
        billing_model: model,
        balance_millicents: balance,
        rps_override: 1000,
      });
      for (let k = 0; k < 2; k++)
        keys.push((await createApiKey(pool, { accountId: account.id })).key);
    }
    await redis.start();
    await pgProxy.start();
    const apiEnv = (search: string): Record<string, string> => ({
      DATABASE_URL: `postgresql://postgres@127.0.0.1:${pgProxy.port}/${dbName}`,
      OPENSEARCH_URL: search,
      OPENSEARCH_REPLICAS: '1',
      OPENSEARCH_TIMEOUT_MS: String(SEARCH_TIMEOUT_MS),
      REDIS_URL: redis.url,
      CURSOR_SIGNING_KEYS: CURSOR_KEYS,
      LOG_LEVEL: 'warn',
    });
    for (let i = 0; i < 2; i++)
      instances.push(new ApiInstance(await freePort(), apiEnv(searchUrl)));
    await Promise.all(instances.map((i) => i.start()));
    proxy.backends = instances.map((i) => i.url);
    await proxy.start();
    const load = new Load({
      baseUrl: () => proxy.url,
      keys,
      workers: 6,
      pauseMs: 50,
      hangMs: 20_000,
    });
    load.start();
    await sleep(5000);
    report('steady load, nothing injected', true, figures(load.since(0)));

    await searchNodeFaults(load, nodes, apiEnv(nodes[2] ?? ''), pool);
    await postgresFault(load, pgProxy, pool);
    await redisFault(load, redis, instances);
    await instanceFaults(load, instances, proxy, apiEnv(searchUrl), pool);
    await load.stop();
    const ledger = await checkLedger(pool);
    report('final ledger', ledger.holds, {
      ...ledger,
      elapsedSeconds: Math.round((Date.now() - started) / 1000),
    });
  } finally {
    await proxy.stop().catch(() => undefined);
    await Promise.all(instances.map((i) => i.stop()));
    await redis.stop();
    await pgProxy.stop();
    await dropIndices(deps.search, deps.alias).catch(() => undefined);
    await shutdown(deps);
    const admin = new Pool({
      connectionString: 'postgresql://postgres@127.0.0.1:5432/postgres',
      max: 1,
    });
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
  const bad = results.filter((r) => !r.ok);
  console.log(
    `\n${results.length - bad.length}/${results.length} passed${bad.length ? `; failed: ${bad.map((r) => r.fault).join(', ')}` : ''}`,
  );
  console.log('the cluster keeps running: `npm run opensearch -- cluster stop` stops it');
  process.exitCode = bad.length ? 1 : 0;
}

function figures(samples: Sample[]): Record<string, unknown> {
  const s = summarize(samples);
  return {
    requests: s.requests,
    byStatus: s.byStatus,
    errorCodes: s.byCode,
    longestMs: s.longestMs,
    p50: s.p50,
    p99: s.p99,
  };
}

/** Time from `from` until the load's requests succeed again (the last failure after `from`). */
function recoveredAfter(load: Load, from: number): number {
  const failures = load.since(from).filter(failed);
  const last = failures[failures.length - 1];
  return last ? last.at + last.ms - from : 0;
}

const deliveries = async (pool: Pool, accountId: string) =>
  Number(
    (
      await pool.query<{ n: string }>(
        'SELECT count(*) AS n FROM metering_deliveries WHERE account_id = $1',
        [accountId],
      )
    ).rows[0]?.n,
  );

/**
 * One node of the three stops. The cluster load (instances that list all three nodes) goes on, a
 * bounded number of errors at most; an instance that knows only the stopped node (the single-node
 * view) answers 503 search_unavailable fast, charges nothing, and serves again once the node is
 * back, without a restart.
 */
async function searchNodeFaults(
  load: Load,
  nodes: string[],
  singleEnv: Record<string, string>,
  pool: Pool,
): Promise<void> {
  const single = new ApiInstance(await freePort(), singleEnv);
  await single.start();
  // An account only this instance serves: what it is charged while its node is down must be 0.
  const own = await createAccount(pool, { plan: 'enterprise', rps_override: 1000 });
  const ownKeys = [(await createApiKey(pool, { accountId: own.id })).key];
  const singleLoad = new Load({
    baseUrl: () => single.url,
    keys: ownKeys,
    workers: 2,
    pauseMs: 100,
    hangMs: 20_000,
  });
  singleLoad.start();
  await sleep(2000);
  const t0 = Date.now();
  await opensearch('stop-node', '3');
  await sleep(1000);
  const deliveredAtStop = await deliveries(pool, own.id);
  await sleep(2000);
  const singleDown = singleLoad.since(Date.now() - 2000);
  await sleep(7000);
  const deliveredDuringOutage = (await deliveries(pool, own.id)) - deliveredAtStop;
  const cursors = await load.replayCursors(20);
  const t1 = Date.now();
  const restarting = opensearch('start-node', '3');
  const singleRecover = await waitFor(
    async () =>
      (
        await fetch(`${single.url}/v1/opportunities/count`, {
          headers: { 'X-API-Key': ownKeys[0] ?? '' },
        })
      ).status === 200,
    400_000,
    'single-node instance serving',
  );
  await restarting;
  await waitFor(
    async () =>
      JSON.stringify(await (await fetch(`${nodes[0]}/_cluster/health`)).json()).includes('"green"'),
    300_000,
    'cluster green',
  );
  const healedMs = Date.now() - t1;
  await sleep(2000);
  await singleLoad.stop();
  const cluster = load.since(t0);
  const clusterErrors = cluster.filter(failed).length;
  const downSamples = singleDown.filter((s) => s.op !== 'detail');
  const allUnavailable = downSamples.every(
    (s) => s.code === 'search_unavailable' || s.status === 200,
  );
  const longestDown = Math.max(0, ...singleDown.map((s) => s.ms));
  const ledger = await checkLedger(pool);
  report(
    'one node of three stopped (cluster view)',
    clusterErrors <= 12 && cursors.failed === 0 && ledger.holds,
    {
      ...figures(cluster),
      errors: clusterErrors,
      cursorsReplayedDuringOutage: cursors,
      clusterGreenAgainMs: healedMs,
      ledger: ledger.violations,
    },
  );
  report(
    'search unreachable (single-node view)',
    allUnavailable &&
      longestDown <= SEARCH_TIMEOUT_MS + 1500 &&
      deliveredDuringOutage === 0 &&
      ledger.holds,
    {
      ...figures(singleLoad.since(t0)),
      longestWhileDownMs: longestDown,
      boundMs: SEARCH_TIMEOUT_MS,
      deliveriesRecordedWhileDown: deliveredDuringOutage,
      timeToRecoverMs: singleRecover,
      ledger: ledger.violations,
    },
  );
  await single.stop();
}

/** Postgres cut (every connection reset, new ones refused) for ten seconds, then restored. */
async function postgresFault(load: Load, pgProxy: TcpProxy, pool: Pool): Promise<void> {
  const t0 = Date.now();
  pgProxy.sever();
  await sleep(10_000);
  const during = load.since(t0);
  const t1 = Date.now();
  pgProxy.restore();
  await sleep(8000);
  const recover = recoveredAfter(load, t1);
  const codes = new Set(during.filter(failed).map((s) => s.code));
  const ledger = await checkLedger(pool);
  const hangs = during.filter((s) => s.code === 'hang' || s.status === 0).length;
  report(
    'Postgres cut',
    ledger.holds &&
      hangs === 0 &&
      [...codes].every((c) => c === 'metering_unavailable') &&
      recover < 8000,
    {
      ...figures(load.since(t0)),
      codesWhileCut: [...codes],
      timeToRecoverMs: recover,
      ledger: ledger.violations,
    },
  );
}

/** The private Redis stops for ten seconds: limits go on in process, no 5xx; then shared again. */
async function redisFault(
  load: Load,
  redis: PrivateRedis,
  instances: ApiInstance[],
): Promise<void> {
  const t0 = Date.now();
  await redis.stop();
  await sleep(10_000);
  const fallback = await Promise.all(
    instances.map((i) => gauge(i.url, 'rate_limiter_fallback_active')),
  );
  const t1 = Date.now();
  await redis.start();
  const recover = await waitFor(
    async () => {
      const values = await Promise.all(
        instances.map((i) => gauge(i.url, 'rate_limiter_fallback_active')),
      );
      return values.every((v) => v === 0);
    },
    60_000,
    'limits shared again',
  );
  const during = load.since(t0);
  const fivexx = during.filter((s) => s.status >= 500 || s.status === 0).length;
  report('Redis stopped', fivexx === 0 && fallback.every((v) => v === 1), {
    ...figures(during),
    fallbackActiveWhileDown: fallback,
    timeToSharedLimitsMs: Date.now() - t1,
    probeMs: recover,
  });
}

async function gauge(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line?.split(' ')[1] ?? NaN);
}

/** Two then four instances; cross-instance cursors, shared rate limit and allowance; kill -9. */
async function instanceFaults(
  load: Load,
  instances: ApiInstance[],
  proxy: RoundRobin,
  env: Record<string, string>,
  pool: Pool,
): Promise<void> {
  for (let i = 0; i < 2; i++) instances.push(new ApiInstance(await freePort(), env));
  await Promise.all(instances.slice(2).map((i) => i.start()));
  proxy.backends = instances.map((i) => i.url);
  const t0 = Date.now();

  // A cursor from one instance pages on every other.
  const [a, ...others] = instances;
  const probeAccount = await createAccount(pool, { plan: 'enterprise', rps_override: 1000 });
  const probeKey = (await createApiKey(pool, { accountId: probeAccount.id })).key;
  // The first page may meet a busy machine: ask until it is served.
  let first: { pagination?: { next_cursor: string } } = {};
  await waitFor(
    async () => {
      const res = await fetch(`${a?.url}/v1/opportunities?limit=2`, {
        headers: { 'X-API-Key': probeKey },
      });
      first = (await res.json()) as typeof first;
      return res.status === 200;
    },
    60_000,
    'a first page',
  );
  const crossStatuses = await Promise.all(
    others.map(
      async (o) =>
        (
          await fetch(
            `${o.url}/v1/opportunities?limit=2&cursor=${encodeURIComponent(first.pagination?.next_cursor ?? '')}`,
            { headers: { 'X-API-Key': probeKey } },
          )
        ).status,
    ),
  );

  // The per-account rate limit holds across instances: 5 rps, 40 requests at once on 4 instances.
  const limited = await createAccount(pool, { plan: 'builder', rps_override: 5 });
  const limitedKey = (await createApiKey(pool, { accountId: limited.id })).key;
  const burst = await Promise.all(
    Array.from({ length: 40 }, (_, n) =>
      fetch(`${instances[n % 4]?.url}/v1/opportunities/count`, {
        headers: { 'X-API-Key': limitedKey },
      }).then((r) => r.status),
    ),
  );
  const admitted = burst.filter((s) => s === 200).length;

  // Parallel pages of one wallet account on every instance never exceed its balance.
  const wallet = await createAccount(pool, {
    plan: 'free',
    billing_model: 'legacy_wallet',
    balance_millicents: 400 * 30,
    rps_override: 1000,
  });
  const walletKey = (await createApiKey(pool, { accountId: wallet.id })).key;
  const filters = [
    '',
    'remote=true',
    'remote=false',
    'engagement_model=c2c',
    'country=US',
    'job_family=data',
    'country=GB',
    'work_structure=ongoing_contract',
  ];
  const pages = await Promise.all(
    Array.from({ length: 16 }, (_, n) =>
      fetch(`${instances[n % 4]?.url}/v1/opportunities?limit=10&${filters[n % filters.length]}`, {
        headers: { 'X-API-Key': walletKey },
      }).then((r) => r.status),
    ),
  );
  const walletState = (
    await pool.query<{ balance: string; used: string }>(
      `SELECT a.balance_millicents AS balance, (SELECT count(DISTINCT opportunity_id) FROM metering_deliveries d WHERE d.account_id = a.id) AS used FROM accounts a WHERE a.id = $1`,
      [wallet.id],
    )
  ).rows[0];
  const ledger1 = await checkLedger(pool);
  report(
    'four instances behind one address',
    crossStatuses.every((s) => s === 200) &&
      admitted <= 10 &&
      Number(walletState?.used) <= 30 &&
      Number(walletState?.balance) >= 0 &&
      ledger1.holds,
    {
      cursorFromOneInstanceOnOthers: crossStatuses,
      rateLimit5rps40AtOnce: {
        admitted,
        refused: burst.filter((s) => s === 429).length,
        slackAllowed: 10,
      },
      walletFor30ParallelPages: {
        statuses: pages,
        delivered: Number(walletState?.used),
        balanceLeft: Number(walletState?.balance),
      },
      ...figures(load.since(t0)),
      ledger: ledger1.violations,
    },
  );

  // kill -9 of one instance in the middle of requests.
  const victim = instances[3];
  if (!victim) return;
  const t1 = Date.now();
  const inflight = Array.from({ length: 12 }, (_, n) =>
    fetch(`${victim.url}/v1/opportunities?limit=20&${filters[n % filters.length]}`, {
      headers: { 'X-API-Key': n % 2 ? walletKey : probeKey },
    }).then(
      (r) => r.status,
      () => 0,
    ),
  );
  await sleep(40);
  victim.kill9();
  proxy.backends = instances.slice(0, 3).map((i) => i.url);
  const statuses = await Promise.all(inflight);
  await sleep(3000);
  const ledger2 = await checkLedger(pool);
  const afterKill = load.since(t1 + 1000).filter(failed).length;
  report('kill -9 of an instance mid-request', ledger2.holds, {
    inflightStatuses: statuses,
    loadErrorsAfterRemovalFromProxy: afterKill,
    ...figures(load.since(t1)),
    ledger: ledger2.violations,
    deliveries: ledger2.deliveries,
    chargedMillicents: ledger2.charged,
  });
  instances.splice(3, 1);
}

stopChildrenOnInterrupt();
main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
