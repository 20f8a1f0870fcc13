import { createSearchClient } from '../../src/search/client';
import { createAccount } from '../../src/store/account-repo';
import { createApiKey } from '../../src/store/api-key-repo';
import type { Pool } from 'pg';
import type { Opportunity } from '../../src/domain/record';
import { createPool } from '../../src/store/db';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { serveApp as serve } from '../support/serve-app';
import { ROOMY } from '../support/factories';

// Failures of the services behind the API, seen over HTTP: each fails closed, fast, with the
// contract's code, and nothing is delivered or charged.

let ctx: TestContext;
let key: string;
let accountId: string;
let stored: Opportunity[];
beforeAll(async () => {
  ctx = await createTestContext();
  const account = await createAccount(ctx.deps.pool, { plan: 'builder', ...ROOMY });
  accountId = account.id;
  key = (await createApiKey(ctx.deps.pool, { accountId })).key;
  stored = [makeRecord(), makeRecord()];
  await storeAndIndex(ctx.deps, stored);
});
afterAll(() => ctx.close());

const deliveries = async () =>
  Number(
    (
      await ctx.deps.pool.query(
        'SELECT count(*) AS n FROM metering_deliveries WHERE account_id = $1',
        [accountId],
      )
    ).rows[0].n,
  );

it('Postgres unreachable: 503 metering_unavailable with no data', async () => {
  const deadPool = createPool('postgresql://postgres@127.0.0.1:1/nowhere', 2);
  const app = await serve({ ...ctx.deps, pool: deadPool });
  try {
    const res = await fetch(`${app.url}/v1/opportunities`, { headers: { 'X-API-Key': key } });
    const body = (await res.json()) as { error: { code: string }; data?: unknown };
    expect(res.status).toBe(503);
    expect(body.error.code).toBe('metering_unavailable');
    expect(body.data).toBeUndefined();
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  } finally {
    await app.close();
    await deadPool.end();
  }
});

it('search engine unreachable: fast 503 search_unavailable, nothing charged', async () => {
  const deadSearch = createSearchClient('http://127.0.0.1:1', 500);
  const app = await serve({ ...ctx.deps, search: deadSearch });
  try {
    const started = Date.now();
    const res = await fetch(`${app.url}/v1/opportunities`, { headers: { 'X-API-Key': key } });
    const body = (await res.json()) as { error: { code: string } };
    expect(res.status).toBe(503);
    expect(body.error.code).toBe('search_unavailable');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(res.headers.get('x-service-new-opportunity-count')).toBe('0');
    expect(await deliveries()).toBe(0);
  } finally {
    await app.close();
  }
});

it('Redis gone mid-run: the service keeps serving and limiting in process', async () => {
  const { Redis } = await import('ioredis');
  const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
  });
  redis.on('error', () => undefined);
  const app = await serve({ ...ctx.deps, redis });
  try {
    const first = await fetch(`${app.url}/v1/opportunities/count`, {
      headers: { 'X-API-Key': key },
    });
    expect(first.status).toBe(200);
    redis.disconnect();
    const second = await fetch(`${app.url}/v1/opportunities/count`, {
      headers: { 'X-API-Key': key },
    });
    expect(second.status).toBe(200);
    expect(second.headers.get('x-ratelimit-limit')).toBe('1000');
  } finally {
    await app.close();
  }
});

/**
 * The test's pool, except that Postgres itself refuses the detail's record read (a column that
 * does not exist), as it would a bug in the query: the lookup alone, and the statement that reads
 * the record while it charges it, on a pooled client.
 */
function poolWithBrokenRecordQuery(pool: Pool, broken: string[]): Pool {
  const RECORD_READ = /SELECT id, record FROM opportunities WHERE id/;
  const breakText = <T>(config: T): T => {
    if (typeof config === 'string' && RECORD_READ.test(config)) broken.push(config);
    if (typeof config === 'string')
      return config.replace(RECORD_READ, 'SELECT id, recrod FROM opportunities WHERE id') as T;
    if (
      config &&
      typeof config === 'object' &&
      'text' in config &&
      typeof config.text === 'string'
    ) {
      // A new name too: a prepared statement of the same name holds the unbroken text.
      const named =
        'name' in config && typeof config.name === 'string'
          ? { name: `${config.name}_broken` }
          : {};
      return { ...config, ...named, text: breakText(config.text) };
    }
    return config;
  };
  const withBrokenQuery = <C extends object>(target: C): C =>
    new Proxy(target, {
      get(t, prop, receiver) {
        const value = Reflect.get(t, prop, receiver) as unknown;
        if (prop === 'query' && typeof value === 'function')
          return (config: unknown, ...rest: unknown[]) =>
            (value as (...a: unknown[]) => unknown).call(t, breakText(config), ...rest);
        if (prop === 'connect' && typeof value === 'function')
          return async () =>
            withBrokenQuery((await (value as () => Promise<object>).call(t)) as object);
        return typeof value === 'function'
          ? (value as (...a: unknown[]) => unknown).bind(t)
          : value;
      },
    });
  return withBrokenQuery(pool);
}

// Only an unavailable store is a retryable 503; a store bug (a SQL error) is a 500, so
// that it is seen rather than retried (billing/pg-errors.ts, contract §16.6).
it('a SQL error in the store is 500 internal_server_error, not 503 metering_unavailable', async () => {
  const id = makeRecord().id;
  const broken: string[] = [];
  const app = await serve({ ...ctx.deps, pool: poolWithBrokenRecordQuery(ctx.deps.pool, broken) });
  const detail = async (recordId: string) => {
    const res = await fetch(`${app.url}/v1/opportunities/${recordId}`, {
      headers: { 'X-API-Key': key },
    });
    const body = (await res.json()) as { error: { code: string } };
    expect(res.status).toBe(500);
    expect(body.error.code).toBe('internal_server_error');
    expect(res.headers.get('retry-after')).toBeNull();
  };
  try {
    // The record looked up on its own (the account's billing state not held yet).
    await detail(id);
    expect(broken.map((text) => text.includes('meter_deliver('))).toEqual([false]);
    // Held after a charged page: the record read by the statement that charges it, which then
    // charges nothing.
    const page = await fetch(`${app.url}/v1/opportunities?limit=1`, {
      headers: { 'X-API-Key': key },
    });
    expect(page.status).toBe(200);
    const listed = ((await page.json()) as { data: { id: string }[] }).data.map((r) => r.id);
    const other = stored.find((r) => !listed.includes(r.id));
    const charged = await deliveries();
    await detail(other?.id ?? '');
    expect(await deliveries()).toBe(charged);
    expect(broken.map((text) => text.includes('meter_deliver('))).toEqual([false, true]);
  } finally {
    await app.close();
  }
});
