import { Redis } from 'ioredis';
import type { Pool } from 'pg';
import { checkLedger } from '../../scripts/faults/ledger';
import { Load, failed, sleep } from '../../scripts/faults/load';
import { PrivateRedis, TcpProxy, freePort } from '../../scripts/faults/procs';
import { createAccount } from '../../src/store/account-repo';
import { createApiKey } from '../../src/store/api-key-repo';
import { createPool } from '../../src/store/db';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { serveApp, type ServedApp } from '../support/serve-app';
import { ROOMY } from '../support/factories';

// The fast subset of `npm run faults`: Postgres cut through a TCP proxy and a private
// Redis stopped, each under a small steady mixed load, then restored. The full run (cluster, API
// instances as processes, kill -9) is `npm run faults`.

let ctx: TestContext;
let keys: string[];
beforeAll(async () => {
  ctx = await createTestContext();
  keys = [];
  for (const [plan, model, balance] of [
    ['builder', 'plan', 1_000_000],
    ['free', 'legacy_wallet', 400 * 100],
  ] as const) {
    const account = await createAccount(ctx.deps.pool, {
      plan,
      billing_model: model,
      balance_millicents: balance,
      ...ROOMY,
    });
    keys.push((await createApiKey(ctx.deps.pool, { accountId: account.id })).key);
  }
  await storeAndIndex(
    ctx.deps,
    Array.from({ length: 40 }, () => makeRecord()),
  );
});
afterAll(() => ctx.close());

it('Postgres cut: 503 metering_unavailable, no hang, nothing unrecorded; recovers when restored', async () => {
  const proxy = new TcpProxy(5432);
  await proxy.start();
  const url = new URL(ctx.databaseUrl);
  url.port = String(proxy.port);
  const pool: Pool = createPool(url.toString(), 4);
  const app: ServedApp = await serveApp({ ...ctx.deps, pool });
  const load = new Load({ baseUrl: () => app.url, keys, workers: 3, pauseMs: 20, hangMs: 15_000 });
  try {
    load.start();
    await sleep(1000);
    const cutAt = Date.now();
    proxy.sever();
    await sleep(2000);
    const restoredAt = Date.now();
    proxy.restore();
    await sleep(2500);
    await load.stop();

    const during = load.samples.filter((s) => s.at >= cutAt + 200 && s.at + s.ms < restoredAt);
    expect(during.length).toBeGreaterThan(0);
    // Every failure while cut is the contract's code, never a 500, a hang or a dropped socket.
    expect(during.filter(failed).every((s) => s.code === 'metering_unavailable')).toBe(true);
    expect(load.samples.filter((s) => s.status === 0 || s.status === 500)).toEqual([]);
    // Recovery without a restart: the last second of load succeeds.
    const tail = load.since(Date.now() - 1000).filter((s) => s.at > restoredAt + 1000);
    expect(tail.filter(failed)).toEqual([]);
    expect((await checkLedger(ctx.deps.pool)).violations).toEqual({
      charges_without_matching_deliveries: 0,
      charged_deliveries_without_wallet_entry: 0,
      negative_wallets: 0,
      balances_off_ledger: 0,
      usage_not_distinct_deliveries: 0,
    });
  } finally {
    await load.stop();
    await app.close();
    await pool.end().catch(() => undefined);
    await proxy.stop();
  }
});

it('Redis stopped: limits go on in process with no 5xx; shared again once it is back', async () => {
  const server = new PrivateRedis(await freePort());
  await server.start();
  const redis = new Redis(server.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  const app = await serveApp({ ...ctx.deps, redis });
  const load = new Load({ baseUrl: () => app.url, keys, workers: 2, pauseMs: 20, hangMs: 15_000 });
  const fallback = async () => {
    const text = await (await fetch(`${ctx.baseUrl}/metrics`)).text();
    return Number(/^rate_limiter_fallback_active (\S+)/m.exec(text)?.[1]);
  };
  try {
    load.start();
    await sleep(800);
    await server.stop();
    await sleep(1500);
    expect(await fallback()).toBe(1);
    await server.start();
    // ioredis reconnects on its own; the next decisions go to Redis again.
    for (let i = 0; i < 40 && (redis.status !== 'ready' || (await fallback()) !== 0); i++) {
      await sleep(250);
    }
    expect(redis.status).toBe('ready');
    expect(await fallback()).toBe(0);
    await load.stop();
    expect(load.samples.length).toBeGreaterThan(0);
    expect(load.samples.filter((s) => s.status === 0 || s.status >= 500)).toEqual([]);
  } finally {
    await load.stop();
    await app.close();
    redis.disconnect();
    await server.stop();
  }
});
