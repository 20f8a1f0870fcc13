import { createSearchClient } from '../../src/search/client';
import { createAccount } from '../../src/store/account-repo';
import { createApiKey } from '../../src/store/api-key-repo';
import type { Pool } from 'pg';
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
beforeAll(async () => {
  ctx = await createTestContext();
  const account = await createAccount(ctx.deps.pool, { plan: 'builder', ...ROOMY });
  accountId = account.id;
  key = (await createApiKey(ctx.deps.pool, { accountId })).key;
  await storeAndIndex(ctx.deps, [makeRecord(), makeRecord()]);
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

/** The test's pool, except that the detail's record lookup fails as a bug in the query would. */
function poolWithBrokenRecordQuery(pool: Pool): Pool {
  const broken = (text: string) => /SELECT record FROM opportunities WHERE id/.test(text);
  return new Proxy(pool, {
    get(target, prop, receiver) {
      if (prop !== 'query') return Reflect.get(target, prop, receiver) as unknown;
      return (config: string | { text: string }, values?: unknown[]) => {
        const text = typeof config === 'string' ? config : config.text;
        if (broken(text)) {
          const err = Object.assign(new Error('column "recrod" does not exist'), { code: '42703' });
          return Promise.reject(err);
        }
        return (target.query as (c: unknown, v?: unknown[]) => Promise<unknown>)(config, values);
      };
    },
  });
}

// Only an unavailable store is a retryable 503; a store bug (a SQL error) is a 500, so
// that it is seen rather than retried (billing/pg-errors.ts, contract §16.6).
it('a SQL error in the store is 500 internal_server_error, not 503 metering_unavailable', async () => {
  const id = makeRecord().id;
  const app = await serve({ ...ctx.deps, pool: poolWithBrokenRecordQuery(ctx.deps.pool) });
  try {
    const res = await fetch(`${app.url}/v1/opportunities/${id}`, { headers: { 'X-API-Key': key } });
    const body = (await res.json()) as { error: { code: string } };
    expect(res.status).toBe(500);
    expect(body.error.code).toBe('internal_server_error');
    expect(res.headers.get('retry-after')).toBeNull();
  } finally {
    await app.close();
  }
});
