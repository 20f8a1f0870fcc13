import type { Pool } from 'pg';
import { seedRecords } from '../src/service/seed-records';
import { createAccount } from '../src/store/account-repo';
import { createApiKey } from '../src/store/api-key-repo';
import { importerCrash } from './faults/importer-crash';
import { attackMix } from './faults/attack-mix';
import { checkLedger } from './faults/ledger';
import { Load, failed, reportedDeliveries, sleep, summarize, type Sample } from './faults/load';
import {
  ApiInstance,
  PrivateRedis,
  RoundRobin,
  TcpProxy,
  freePort,
  killStartedChildren,
  logCounts,
  stopChildrenOnInterrupt,
  waitFor,
} from './faults/procs';
import {
  exitAfter,
  exitAtDeadline,
  loadAverage,
  opensearchCluster,
  setUpRun,
  within,
  type Run,
} from './faults/run';

// `npm run faults`: each fault injected under steady mixed load, then the figures and
// the ledger invariants printed. Unattended and bounded: every step has a deadline, the whole run
// too, and the process exits when it is done: 0 when every expectation held, 1 otherwise. Uses
// the checkout's local cluster (`npm run opensearch -- cluster 3`, started if needed), a private
// redis-server, a TCP proxy in front of the shared Postgres, and its own database (dropped at the
// end). It never touches the shared single node.

const CURSOR_KEYS = 'faults1=fault-run-cursor-signing-secret-0123456789';
const SEARCH_TIMEOUT_MS = 5000;
/** The instances' index follower (contract §22.8): the default, set explicitly for the record. */
const SYNC_INTERVAL_MS = 5000;
const RUN_DEADLINE_MS = 60 * 60_000;
const results: { fault: string; ok: boolean }[] = [];

function report(fault: string, ok: boolean, figures: Record<string, unknown>): void {
  results.push({ fault, ok });
  console.log(`\n== ${fault}: ${ok ? 'PASS' : 'FAIL'}  (${new Date().toISOString()})`);
  for (const [k, v] of Object.entries(figures)) console.log(`   ${k}: ${JSON.stringify(v)}`);
}

/** Runs one fault with a deadline; a fault that throws or overruns is reported as failed. */
async function step(fault: string, deadlineMs: number, work: () => Promise<void>): Promise<void> {
  const before = { ...logCounts };
  try {
    await within(deadlineMs, fault, work());
  } catch (err) {
    report(fault, false, { error: err instanceof Error ? err.message : String(err) });
  }
  // What the operator's logs showed meanwhile (every instance, by level and message).
  const lines = Object.entries(logCounts)
    .map(([name, n]) => [name, n - (before[name] ?? 0)] as const)
    .filter(([, n]) => n > 0);
  console.log(`   instance log lines: ${JSON.stringify(Object.fromEntries(lines))}`);
}

interface World {
  run: Run;
  pool: Pool;
  load: Load;
  proxy: RoundRobin;
  instances: ApiInstance[];
  apiEnv: (search: string) => Record<string, string>;
  nodes: string[];
  redis: PrivateRedis;
  pgProxy: TcpProxy;
}

async function main(): Promise<number> {
  const started = Date.now();
  const searchUrl = await within(900_000, 'cluster start', opensearchCluster('3'));
  const nodes = searchUrl.split(',');
  console.log(`cluster: ${searchUrl}  load average: ${loadAverage()}`);
  const run = await setUpRun('faults', searchUrl, CURSOR_KEYS);
  const pool = run.deps.pool;
  const redis = new PrivateRedis(await freePort());
  const pgProxy = new TcpProxy(5432);
  const instances: ApiInstance[] = [];
  const proxy = new RoundRobin([]);
  let load: Load | null = null;
  const cleanup = async () => {
    await load?.stop();
    await proxy.stop().catch(() => undefined);
    await Promise.all(instances.map((i) => i.stop()));
    await redis.stop();
    await pgProxy.stop();
    await run.close();
  };
  try {
    await seedRecords(run.deps, 1500, 7);
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
      DATABASE_URL: `postgresql://postgres@127.0.0.1:${pgProxy.port}/${run.databaseName}`,
      OPENSEARCH_URL: search,
      OPENSEARCH_REPLICAS: '1',
      OPENSEARCH_TIMEOUT_MS: String(SEARCH_TIMEOUT_MS),
      REDIS_URL: redis.url,
      CURSOR_SIGNING_KEYS: CURSOR_KEYS,
      SYNC_INTERVAL_MS: String(SYNC_INTERVAL_MS),
      LOG_LEVEL: 'warn',
    });
    for (let i = 0; i < 2; i++)
      instances.push(new ApiInstance(await freePort(), apiEnv(searchUrl)));
    await within(300_000, 'two instances ready', Promise.all(instances.map((i) => i.start())));
    proxy.backends = instances.map((i) => i.url);
    await proxy.start();
    load = new Load({ baseUrl: () => proxy.url, keys, workers: 6, pauseMs: 50, hangMs: 20_000 });
    load.start();
    const world: World = { run, pool, load, proxy, instances, apiEnv, nodes, redis, pgProxy };
    await sleep(5000);
    report('steady load, nothing injected', true, {
      ...figures(load.since(0)),
      loadAverage: loadAverage(),
    });

    await step('attack mix', 5 * 60_000, () => attackMixFault(world));
    await step('one node of three stopped', 15 * 60_000, () => searchNodeFaults(world));
    await step('Postgres cut', 3 * 60_000, () => postgresFault(world));
    await step('Redis stopped', 3 * 60_000, () => redisFault(world));
    await step('two then four instances', 10 * 60_000, () => fourInstances(world));
    await step('kill -9 of an instance mid-request', 10 * 60_000, () => killNine(world));
    await step('importer killed between store write and sync', 10 * 60_000, () =>
      importerCrash(
        {
          run,
          pool,
          load: world.load,
          apiUrl: () => proxy.url,
          syncIntervalMs: SYNC_INTERVAL_MS,
          cursorKeys: CURSOR_KEYS,
        },
        report,
      ),
    );
    await load.stop();
    const ledger = await checkLedger(pool);
    report('final ledger', ledger.holds, {
      ...ledger,
      requestsInRun: load.samples.length,
      elapsedSeconds: Math.round((Date.now() - started) / 1000),
      loadAverage: loadAverage(),
    });
  } catch (err) {
    report('run', false, { error: err instanceof Error ? err.message : String(err) });
  }
  const bad = results.filter((r) => !r.ok);
  console.log(
    `\n${results.length - bad.length}/${results.length} passed${bad.length ? `; failed: ${bad.map((r) => r.fault).join(', ')}` : ''}`,
  );
  console.log('the cluster keeps running: `npm run opensearch -- cluster stop` stops it');
  await exitAfter(bad.length ? 1 : 0, cleanup);
  return bad.length;
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

/** Time from `from` until the load's requests succeed again (the end of the last failure). */
function recoveredAfter(load: Load, from: number): number {
  const failures = load.since(from).filter(failed);
  const last = failures[failures.length - 1];
  return last ? Math.max(0, last.at + last.ms - from) : 0;
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

/** fetch with a deadline: a probe must never wait forever on a frozen server. */
const probe = (url: string, key: string, timeoutMs = 30_000) =>
  fetch(url, { headers: { 'X-API-Key': key }, signal: AbortSignal.timeout(timeoutMs) });

async function newKey(pool: Pool, input: Parameters<typeof createAccount>[1]) {
  const account = await createAccount(pool, input);
  return { id: account.id, key: (await createApiKey(pool, { accountId: account.id })).key };
}

/** contract §19: the attack mix against one instance while a paying client pages on it. */
async function attackMixFault({ instances, pool }: World): Promise<void> {
  const target = instances[0];
  if (!target) throw new Error('no instance to attack');
  const paying = await newKey(pool, {
    plan: 'builder',
    balance_millicents: 2_000_000,
    rps_override: 1000,
  });
  const batch = await newKey(pool, { plan: 'free' });
  const result = await attackMix({
    url: target.url,
    payingKeys: [paying.key],
    batchKey: batch.key,
  });
  const ledger = await checkLedger(pool);
  report('attack mix (one instance)', result.ok && ledger.holds, {
    ...result.figures,
    ledger: ledger.violations,
    loadAverage: loadAverage(),
  });
}

/**
 * One node of the three stops. The cluster load (instances that list all three nodes) goes on, a
 * bounded number of errors at most; an instance that knows only the stopped node (what a single
 * node's outage looks like; the shared single node itself is never stopped) answers 503
 * search_unavailable fast for what needs the engine, charges nothing for it (only what it serves
 * from memory meanwhile, as those answers say), and serves again once the node is back, without a
 * restart.
 */
async function searchNodeFaults({ load, nodes, apiEnv, pool }: World): Promise<void> {
  const single = new ApiInstance(await freePort(), apiEnv(nodes[2] ?? ''));
  await within(300_000, 'single-node instance ready', single.start());
  // An account only this instance serves: while its node is down, it is charged for what the
  // answers served from memory (pages read ahead of a walk, the result cache) said they delivered,
  // and for nothing else. It can pay (an allowance and a balance), so that a refusal while down is
  // the outage's alone.
  const own = await newKey(pool, {
    plan: 'builder',
    allowance_override: 100_000,
    balance_millicents: 400 * 1000,
    rps_override: 1000,
  });
  const singleLoad = new Load({
    baseUrl: () => single.url,
    keys: [own.key],
    workers: 2,
    pauseMs: 100,
    hangMs: 20_000,
  });
  try {
    singleLoad.start();
    await sleep(2000);
    const t0 = Date.now();
    await opensearchCluster('stop-node', '3');
    await sleep(1000);
    const countedFrom = Date.now();
    const deliveredAtStop = await deliveries(pool, own.id);
    const downFrom = Date.now();
    await sleep(9000);
    const singleDown = singleLoad.since(downFrom);
    const countedTo = Date.now();
    const deliveredDuringOutage = (await deliveries(pool, own.id)) - deliveredAtStop;
    const countedUntil = Date.now();
    const answeredDelivering = reportedDeliveries(singleLoad.samples, {
      countedFrom,
      downFrom,
      countedTo,
      countedUntil,
    });
    const cursors = await load.replayCursors(20);
    const t1 = Date.now();
    const restarting = opensearchCluster('start-node', '3');
    const singleRecover = await waitFor(
      async () => (await probe(`${single.url}/v1/opportunities/count`, own.key)).status === 200,
      600_000,
      'single-node instance serving',
    );
    await restarting;
    const healedMs =
      Date.now() -
      t1 +
      (await waitFor(
        async () =>
          JSON.stringify(
            await (
              await fetch(`${nodes[0]}/_cluster/health`, { signal: AbortSignal.timeout(10_000) })
            ).json(),
          ).includes('"green"'),
        300_000,
        'cluster green',
      ));
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
        errorBound: 12,
        cursorsReplayedDuringOutage: cursors,
        timeToRecoverMs: recoveredAfter(load, t0),
        clusterGreenAgainMsAfterStartNode: healedMs,
        ledger: ledger.violations,
        loadAverage: loadAverage(),
      },
    );
    report(
      'search unreachable (single-node view)',
      allUnavailable &&
        longestDown <= SEARCH_TIMEOUT_MS + 1500 &&
        deliveredDuringOutage >= answeredDelivering.least &&
        deliveredDuringOutage <= answeredDelivering.most &&
        answeredDelivering.byRefusals === 0 &&
        ledger.holds,
      {
        ...figures(singleLoad.since(t0)),
        whileDown: summarize(singleDown).byCode,
        longestWhileDownMs: longestDown,
        boundMs: SEARCH_TIMEOUT_MS + 1500,
        deliveriesRecordedWhileDown: deliveredDuringOutage,
        deliveriesAnsweredWhileDown: answeredDelivering,
        timeToRecoverMsAfterStartNode: singleRecover,
        ledger: ledger.violations,
      },
    );
  } finally {
    await singleLoad.stop();
    await single.stop();
  }
}

/** Postgres cut (every connection reset, new ones refused) for ten seconds, then restored. */
async function postgresFault({ load, pgProxy, pool }: World): Promise<void> {
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
    'Postgres cut 10 s',
    ledger.holds &&
      hangs === 0 &&
      [...codes].every((c) => c === 'metering_unavailable') &&
      recover < 8000,
    {
      ...figures(load.since(t0)),
      codesWhileCut: [...codes],
      timeToRecoverMs: recover,
      ledger: ledger.violations,
      loadAverage: loadAverage(),
    },
  );
}

/** The private Redis stops for ten seconds: limits go on in process, no 5xx; then shared again. */
async function redisFault({ load, redis, instances, pool }: World): Promise<void> {
  const t0 = Date.now();
  await redis.stop();
  await sleep(10_000);
  const fallback = await Promise.all(
    instances.map((i) => gauge(i.url, 'rate_limiter_fallback_active')),
  );
  const t1 = Date.now();
  await redis.start();
  await waitFor(
    async () => {
      const values = await Promise.all(
        instances.map((i) => gauge(i.url, 'rate_limiter_fallback_active')),
      );
      return values.every((v) => v === 0);
    },
    60_000,
    'limits shared again',
  );
  const recovered = Date.now() - t1;
  const during = load.since(t0);
  const fivexx = during.filter((s) => s.status >= 500 || s.status === 0).length;
  const ledger = await checkLedger(pool);
  report('Redis stopped 10 s', fivexx === 0 && fallback.every((v) => v === 1) && ledger.holds, {
    ...figures(during),
    fallbackActiveWhileDown: fallback,
    timeToRecoverMs: recovered,
    ledger: ledger.violations,
    loadAverage: loadAverage(),
  });
}

async function gauge(url: string, name: string): Promise<number> {
  const res = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(30_000) });
  const line = (await res.text()).split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line?.split(' ')[1] ?? NaN);
}

const FILTERS = [
  '',
  'remote=true',
  'remote=false',
  'engagement_model=c2c',
  'country=US',
  'job_family=data',
  'country=GB',
  'work_structure=ongoing_contract',
];

/** What an account may have been given: included allowance plus what its balance paid for. */
async function spent(pool: Pool, accountId: string) {
  const { rows } = await pool.query<{ balance: string; used: string }>(
    `SELECT a.balance_millicents AS balance,
            (SELECT count(DISTINCT opportunity_id) FROM metering_deliveries d
              WHERE d.account_id = a.id) AS used
       FROM accounts a WHERE a.id = $1`,
    [accountId],
  );
  return { used: Number(rows[0]?.used), balanceLeft: Number(rows[0]?.balance) };
}

/**
 * Two instances have served so far; two more join. A cursor from one instance pages on every
 * other; the per-account rate limit holds across all four (within one window's slack); parallel
 * pages of one account on all four never exceed its allowance plus what its balance pays for.
 */
async function fourInstances({
  load,
  instances,
  proxy,
  apiEnv,
  pool,
  nodes,
}: World): Promise<void> {
  // (An enterprise account without an allowance and a balance is refused 402: it must pay.)
  const probeAccount = await newKey(pool, {
    plan: 'builder',
    allowance_override: 100_000,
    rps_override: 1000,
  });
  // With two instances first, then with four.
  const crossStatuses: Record<string, number[]> = {};
  for (const n of [2, 4]) {
    while (instances.length < n) {
      const added = new ApiInstance(await freePort(), apiEnv(nodes.join(',')));
      instances.push(added);
      await within(300_000, 'instance ready', added.start());
    }
    proxy.backends = instances.map((i) => i.url);
    crossStatuses[`${n} instances`] = await crossInstanceCursors(instances, probeAccount.key);
  }
  const t0 = Date.now();

  // The per-account rate limit holds across instances: 5 a second, 80 requests at once spread
  // over 4 instances. Windows are one second, fixed, and begin at a request: over a span of T
  // seconds at most floor(T) + 1 windows begin, so at most 5 × (floor(T) + 1) are admitted. Four
  // unshared limits would admit up to four times that.
  const limited = await newKey(pool, { plan: 'builder', rps_override: 5 });
  const burstStart = Date.now();
  const burst = await Promise.all(
    Array.from({ length: 80 }, (_, n) =>
      probe(`${instances[n % 4]?.url}/v1/opportunities/count`, limited.key).then(
        (r) => r.status,
        () => 0,
      ),
    ),
  );
  const spanSeconds = (Date.now() - burstStart) / 1000;
  const admitted = burst.filter((s) => s === 200).length;
  const admitBound = 5 * (Math.floor(spanSeconds) + 1);

  // Parallel pages of one account on every instance: a wallet with 30 opportunities' worth and
  // no allowance; a plan account with 20 included and 10 more on its balance.
  const wallet = await newKey(pool, {
    plan: 'free',
    billing_model: 'legacy_wallet',
    balance_millicents: 400 * 30,
    rps_override: 1000,
  });
  const planned = await newKey(pool, {
    plan: 'builder',
    allowance_override: 20,
    balance_millicents: 400 * 10,
    rps_override: 1000,
  });
  const pageStatuses: number[] = [];
  await Promise.all(
    [wallet, planned].flatMap((who) =>
      Array.from({ length: 16 }, (_, n) =>
        probe(
          `${instances[n % 4]?.url}/v1/opportunities?limit=10&${FILTERS[n % FILTERS.length]}`,
          who.key,
          60_000,
        ).then(
          (r) => pageStatuses.push(r.status),
          () => pageStatuses.push(0),
        ),
      ),
    ),
  );
  const walletSpent = await spent(pool, wallet.id);
  const plannedSpent = await spent(pool, planned.id);
  const ledger = await checkLedger(pool);
  const statusCounts = (list: number[]) =>
    list.reduce<Record<string, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});
  report(
    'two then four instances behind one address',
    Object.values(crossStatuses).every((list) => list.every((s) => s === 200)) &&
      admitted <= admitBound &&
      admitted > 0 &&
      walletSpent.used <= 30 &&
      walletSpent.balanceLeft >= 0 &&
      plannedSpent.used <= 30 &&
      plannedSpent.balanceLeft >= 0 &&
      ledger.holds,
    {
      cursorFromOneInstanceOnEveryOther: crossStatuses,
      rateLimit5PerSecond80AtOnceOn4: {
        admitted,
        refused: burst.filter((s) => s === 429).length,
        others: burst.filter((s) => s !== 200 && s !== 429).length,
        spanSeconds,
        bound: admitBound,
      },
      parallelPages16PerAccountOn4: {
        statuses: statusCounts(pageStatuses),
        walletNoAllowance30Paid: walletSpent,
        plan20Included10Paid: plannedSpent,
      },
      loadThroughProxy: figures(load.since(t0)),
      timeToRecoverMs: 'n/a (nothing injected)',
      ledger: ledger.violations,
      loadAverage: loadAverage(),
    },
  );
}

/** Page 1 on instance 0, page 2 with its cursor on every other instance: statuses. */
async function crossInstanceCursors(instances: ApiInstance[], key: string): Promise<number[]> {
  const [first, ...others] = instances;
  let cursor = '';
  // The first page may meet a busy machine: ask until it is served.
  await waitFor(
    async () => {
      const res = await probe(`${first?.url}/v1/opportunities?limit=2`, key);
      const body = (await res.json()) as { pagination?: { next_cursor: string } };
      cursor = body.pagination?.next_cursor ?? '';
      return res.status === 200 && cursor !== '';
    },
    120_000,
    'a first page',
  );
  return Promise.all(
    others.map(
      async (o) =>
        (
          await probe(
            `${o.url}/v1/opportunities?limit=2&cursor=${encodeURIComponent(cursor)}`,
            key,
          ).catch(() => ({ status: 0 }))
        ).status,
    ),
  );
}

/**
 * kill -9 of one of the four instances while it is serving paid pages (its own workers keep
 * requests in flight on it): the ledger stays consistent. The instance is started again on its
 * port and rejoins the proxy; time to recover is until it serves.
 */
async function killNine({ load, instances, proxy, pool }: World): Promise<void> {
  const victim = instances[instances.length - 1];
  if (!victim || instances.length < 2) throw new Error('no instance to kill');
  const payers = [
    await newKey(pool, {
      plan: 'free',
      billing_model: 'legacy_wallet',
      balance_millicents: 400 * 500,
      rps_override: 1000,
    }),
    await newKey(pool, {
      plan: 'builder',
      allowance_override: 50,
      balance_millicents: 400 * 500,
      rps_override: 1000,
    }),
  ];
  const direct = new Load({
    baseUrl: () => victim.url,
    keys: payers.map((p) => p.key),
    workers: 6,
    pauseMs: 0,
    hangMs: 20_000,
  });
  direct.start();
  // Mid-request means while it is delivering: wait until it has served paid pages.
  await waitFor(
    async () => direct.samples.filter((s) => s.op === 'list' && s.status === 200).length >= 5,
    120_000,
    'the victim serving pages',
  );
  const t0 = Date.now();
  victim.kill9();
  proxy.backends = instances.filter((i) => i !== victim).map((i) => i.url);
  await direct.stop();
  const cut = direct.since(0).filter((s) => s.at < t0 && s.at + s.ms >= t0);
  await sleep(3000);
  const ledger = await checkLedger(pool);
  const afterRemoval = load.since(t0 + 1000).filter(failed).length;
  // Recovery: the same instance started again and back behind the proxy.
  await within(300_000, 'victim restarted', victim.start());
  const recovered = Date.now() - t0;
  proxy.backends = instances.map((i) => i.url);
  await sleep(3000);
  const accounts = await Promise.all(payers.map((p) => spent(pool, p.id)));
  report('kill -9 of an instance mid-request', ledger.holds && afterRemoval === 0, {
    requestsInFlightOnVictimWhenKilled: cut.length,
    theirOutcome: summarize(cut).byCode,
    victimDirectLoad: figures(direct.samples),
    loadThroughProxy: figures(load.since(t0)),
    loadErrorsAfterRemovalFromProxy: afterRemoval,
    timeToRecoverMs: recovered,
    payers: accounts,
    ledger: ledger.violations,
    deliveries: ledger.deliveries,
    chargedMillicents: ledger.charged,
    loadAverage: loadAverage(),
  });
}

stopChildrenOnInterrupt();
// The whole run is bounded too: whatever a step left waiting, the process ends.
exitAtDeadline(RUN_DEADLINE_MS, 'faults');
main().catch((err: unknown) => {
  console.error(err);
  killStartedChildren();
  process.exit(1);
});
