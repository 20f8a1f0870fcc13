import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { createLogger } from '../../src/infra/logger';
import { createRedisClient } from '../../src/infra/redis-client';
import { createSearchClient } from '../../src/search/client';
import { createAccount } from '../../src/store/account-repo';
import { createApiKey } from '../../src/store/api-key-repo';
import { createPool } from '../../src/store/db';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { startHangProxy, type HangProxy } from '../support/hang-proxy';
import { createTestContext, type TestContext } from '../support/harness';
import { serveApp as serve, type ServedApp } from '../support/serve-app';
import { ROOMY } from '../support/factories';
import { metricSample } from '../support/metric-sample';

// GET /metrics: Prometheus text with requests, latency, deliveries and charges, upstream
// failures, rate-limit refusals and the limiter fallback. The registry is per process, so every
// assertion compares a value before and after what the test did.

let ctx: TestContext;
let key: string;
let walletKey: string;
let slowKey: string;
beforeAll(async () => {
  ctx = await createTestContext();
  const pool = ctx.deps.pool;
  const account = await createAccount(pool, { plan: 'builder', ...ROOMY });
  key = (await createApiKey(pool, { accountId: account.id })).key;
  const wallet = await createAccount(pool, {
    plan: 'builder',
    billing_model: 'legacy_wallet',
    balance_millicents: 100_000,
    ...ROOMY,
  });
  walletKey = (await createApiKey(pool, { accountId: wallet.id })).key;
  const slow = await createAccount(pool, { plan: 'builder', rps_override: 1 });
  slowKey = (await createApiKey(pool, { accountId: slow.id })).key;
  await storeAndIndex(ctx.deps, [makeRecord(), makeRecord(), makeRecord()]);
});
afterAll(() => ctx.close());

/** The value of one series (`name{labels}`) of this app's /metrics, 0 when absent. */
const sample = (name: string, labels: Record<string, string> = {}) =>
  metricSample(ctx.baseUrl, name, labels);

const get = (url: string, apiKey?: string) =>
  fetch(url, { headers: apiKey ? { 'X-API-Key': apiKey } : {} });

it('is public Prometheus text when no token is configured', async () => {
  const res = await fetch(`${ctx.baseUrl}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  expect(text).toContain('# TYPE http_requests_total counter');
  expect(text).toContain('# TYPE http_request_duration_seconds histogram');
  expect(text).toContain('process_resident_memory_bytes');
});

it('counts requests by route pattern and status, with latency', async () => {
  const route = { method: 'GET', route: '/v1/opportunities/count', status: '200' };
  const before = await sample('http_requests_total', route);
  const histBefore = await sample('http_request_duration_seconds_count', {
    route: '/v1/opportunities/count',
  });
  expect((await get(`${ctx.baseUrl}/v1/opportunities/count`, key)).status).toBe(200);
  expect((await get(`${ctx.baseUrl}/v1/opportunities/count`, key)).status).toBe(200);
  expect(await sample('http_requests_total', route)).toBe(before + 2);
  expect(
    await sample('http_request_duration_seconds_count', { route: '/v1/opportunities/count' }),
  ).toBe(histBefore + 2);
  // An unknown path is one 'unmatched' series, never a series per path.
  await get(`${ctx.baseUrl}/nowhere/${Date.now()}`);
  expect(
    await sample('http_requests_total', { route: 'unmatched', status: '404' }),
  ).toBeGreaterThan(0);
});

// The tool protocol's router is mounted at /mcp: a refusal leaves the router before the response
// finishes, and its series was route "/" (express restores req.baseUrl on the way out).
it('counts /mcp requests under /mcp, refused or served', async () => {
  const post = (headers: Record<string, string>) =>
    fetch(`${ctx.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
  const refused = { method: 'POST', route: '/mcp', status: '401' };
  const served = { method: 'POST', route: '/mcp', status: '200' };
  const [refusedBefore, servedBefore] = [
    await sample('http_requests_total', refused),
    await sample('http_requests_total', served),
  ];
  expect((await post({})).status).toBe(401);
  expect((await post({ 'X-API-Key': key })).status).toBe(200);
  expect(await sample('http_requests_total', refused)).toBe(refusedBefore + 1);
  expect(await sample('http_requests_total', served)).toBe(servedBefore + 1);
  // Refused before its route (a foreign Origin), and spelled in another case: still /mcp.
  const foreign = { method: 'POST', route: '/mcp', status: '403' };
  const foreignBefore = await sample('http_requests_total', foreign);
  expect((await post({ 'X-API-Key': key, Origin: 'http://evil.example' })).status).toBe(403);
  expect(await sample('http_requests_total', foreign)).toBe(foreignBefore + 1);
  const upper = await fetch(`${ctx.baseUrl}/MCP`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: '{}',
  });
  expect(upper.status).toBe(401);
  expect(await sample('http_requests_total', refused)).toBe(refusedBefore + 2);
});

it('counts deliveries by how they were paid, and wallet charges', async () => {
  const included = await sample('opportunity_deliveries_total', { paid_by: 'included' });
  const wallet = await sample('opportunity_deliveries_total', { paid_by: 'wallet' });
  const charged = await sample('wallet_charges_millicents_total');
  expect((await get(`${ctx.baseUrl}/v1/opportunities?limit=2`, key)).status).toBe(200);
  expect((await get(`${ctx.baseUrl}/v1/opportunities?limit=3`, walletKey)).status).toBe(200);
  // A repeat delivers and charges nothing.
  expect((await get(`${ctx.baseUrl}/v1/opportunities?limit=3`, walletKey)).status).toBe(200);
  expect(await sample('opportunity_deliveries_total', { paid_by: 'included' })).toBe(included + 2);
  expect(await sample('opportunity_deliveries_total', { paid_by: 'wallet' })).toBe(wallet + 3);
  expect(await sample('wallet_charges_millicents_total')).toBe(charged + 3 * 400);
});

it('counts rate-limit refusals', async () => {
  const before = await sample('rate_limit_refusals_total', { code: 'rate_limit_exceeded' });
  const statuses = await Promise.all(
    Array.from({ length: 4 }, () =>
      get(`${ctx.baseUrl}/v1/opportunities/count`, slowKey).then((r) => r.status),
    ),
  );
  const refused = statuses.filter((s) => s === 429).length;
  expect(refused).toBeGreaterThan(0);
  expect(await sample('rate_limit_refusals_total', { code: 'rate_limit_exceeded' })).toBe(
    before + refused,
  );
});

it('counts upstream failures by upstream and kind: timeout or error', async () => {
  // A listener that accepts and never answers: the search client's deadline expires.
  const sockets: import('node:net').Socket[] = [];
  const hung: TcpServer = createTcpServer((s) => sockets.push(s));
  await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  const hungUrl = `http://127.0.0.1:${(hung.address() as AddressInfo).port}`;
  const slowSearch = createSearchClient(hungUrl, 300);
  const deadSearch = createSearchClient('http://127.0.0.1:1', 300);
  const deadPool = createPool('postgresql://postgres@127.0.0.1:1/nowhere', 1);
  const apps = await Promise.all([
    serve({ ...ctx.deps, search: slowSearch }),
    serve({ ...ctx.deps, search: deadSearch }),
    serve({ ...ctx.deps, pool: deadPool }),
  ]);
  try {
    const os = (kind: string) => sample('upstream_errors_total', { upstream: 'opensearch', kind });
    const [timeouts, errors] = [await os('timeout'), await os('error')];
    const pgErrors = await sample('upstream_errors_total', { upstream: 'postgres', kind: 'error' });
    const [slow, dead, noDb] = apps.map((a) => `${a.url}/v1/opportunities/count`);
    expect((await get(slow as string, key)).status).toBe(503);
    expect((await get(dead as string, key)).status).toBe(503);
    expect((await get(noDb as string, key)).status).toBe(503);
    expect(await os('timeout')).toBe(timeouts + 1);
    expect(await os('error')).toBe(errors + 1);
    expect(
      await sample('upstream_errors_total', { upstream: 'postgres', kind: 'error' }),
    ).toBeGreaterThan(pgErrors);
  } finally {
    await Promise.all(apps.map((a) => a.close()));
    sockets.forEach((s) => s.destroy());
    hung.close();
    await Promise.all([slowSearch.close(), deadSearch.close(), deadPool.end()]);
  }
});

it("logs one warn line per upstream failure, with the code and the upstream's own message", async () => {
  const lines: string[] = [];
  const logger = createLogger('warn', (line) => lines.push(line));
  const deadSearch = createSearchClient('http://127.0.0.1:1', 300);
  const deadPool = createPool('postgresql://postgres@127.0.0.1:1/nowhere', 1);
  const apps = await Promise.all([
    serve({ ...ctx.deps, logger, search: deadSearch }),
    serve({ ...ctx.deps, logger, pool: deadPool }),
  ]);
  try {
    for (const app of apps)
      expect((await get(`${app.url}/v1/opportunities/count`, key)).status).toBe(503);
    const warned = lines
      .map((l) => JSON.parse(l) as { level: string; msg: string; code: string; error: string })
      .filter((l) => l.msg === 'upstream unavailable');
    expect(warned.map((l) => [l.level, l.code])).toEqual([
      ['warn', 'search_unavailable'],
      ['warn', 'metering_unavailable'],
    ]);
    expect(warned.every((l) => /ECONNREFUSED|connect/i.test(l.error))).toBe(true);
  } finally {
    await Promise.all(apps.map((a) => a.close()));
    await Promise.all([deadSearch.close(), deadPool.end()]);
  }
});

it('shows the in-process limiter fallback while Redis is not ready', async () => {
  const redis = new Redis('redis://127.0.0.1:1', {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    lazyConnect: true,
  });
  redis.on('error', () => undefined);
  const app = await serve({ ...ctx.deps, redis });
  try {
    const decisions = await sample('rate_limiter_fallback_decisions_total');
    expect((await get(`${app.url}/v1/opportunities/count`, key)).status).toBe(200);
    expect(await sample('rate_limiter_fallback_active')).toBe(1);
    expect(await sample('rate_limiter_fallback_decisions_total')).toBeGreaterThan(decisions);
  } finally {
    await app.close();
    redis.disconnect();
  }
});

/**
 * Runs `fn` against an app whose Redis (the real client, a 300 ms deadline) sits behind a proxy
 * that can go silent, once the connection is ready and one count has been limited by Redis.
 */
async function behindRedisProxy(
  fn: (proxy: HangProxy, appUrl: string, redis: Redis) => Promise<void>,
): Promise<void> {
  const proxy = await startHangProxy(6379);
  const redis = createRedisClient(`redis://127.0.0.1:${proxy.port}`, { timeoutMs: 300 });
  redis.on('error', () => undefined);
  const app = await serve({ ...ctx.deps, redis });
  try {
    if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
    expect((await get(`${app.url}/v1/opportunities/count`, key)).status).toBe(200);
    expect(await sample('rate_limiter_fallback_active')).toBe(0);
    await fn(proxy, app.url, redis);
  } finally {
    await app.close();
    redis.disconnect();
    // ioredis destroys a closed connection whose server never answered the close after its
    // disconnectTimeout (the 300 ms deadline); waiting that out keeps its timer in this file.
    await new Promise((resolve) => setTimeout(resolve, 400));
    await proxy.close();
  }
}

it('shows the fallback when a connected Redis hangs (status still ready, commands time out)', () =>
  // The fallback used to be read from the client's status, which stays "ready" on a silent server.
  behindRedisProxy(async (proxy, appUrl, redis) => {
    proxy.hang();
    const decisions = await sample('rate_limiter_fallback_decisions_total');
    // Rate limits go on in process: the request is served after the command timeout, and the
    // connection that outlived it is being replaced.
    expect((await get(`${appUrl}/v1/opportunities/count`, key)).status).toBe(200);
    expect(redis.status).not.toBe('ready');
    expect(await sample('rate_limiter_fallback_active')).toBe(1);
    expect(await sample('rate_limiter_fallback_decisions_total')).toBeGreaterThan(decisions);
  }));

it('replaces a Redis connection gone half-open: the limits go back to Redis', () =>
  // A connection whose peer vanished without a close stays "ready" until the kernel gives up on
  // it, minutes later; kept, it made every request wait out REDIS_TIMEOUT_MS meanwhile.
  behindRedisProxy(async (proxy, appUrl) => {
    proxy.silenceOpen();
    expect((await get(`${appUrl}/v1/opportunities/count`, key)).status).toBe(200);
    expect(await sample('rate_limiter_fallback_active')).toBe(1);
    // Kept, the silent connection would answer none of these; a new one answers.
    let redisAnswered = false;
    for (let i = 0; i < 20 && !redisAnswered; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await get(`${appUrl}/v1/opportunities/count`, key)).status).toBe(200);
      redisAnswered = (await sample('rate_limiter_fallback_active')) === 0;
    }
    expect(redisAnswered).toBe(true);
  }));

describe('with METRICS_TOKEN', () => {
  let app: ServedApp;
  beforeAll(async () => {
    app = await serve({ ...ctx.deps, env: { ...ctx.deps.env, METRICS_TOKEN: 'scrape-secret-1' } });
  });
  afterAll(() => app.close());

  it.each([
    ['no credentials', {}, 'missing_api_key'],
    ['a wrong token', { Authorization: 'Bearer scrape-secret-2' }, 'invalid_api_key'],
    ['the token as an API key', { 'X-API-Key': 'scrape-secret-1' }, 'missing_api_key'],
  ])('answers 401 with %s (§22.7.3)', async (_name, headers: Record<string, string>, code) => {
    const res = await fetch(`${app.url}/metrics`, { headers });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    const body = (await res.json()) as { error: { code: string } };
    expect(body.error.code).toBe(code);
  });

  // contract §19.5: a wrong token counts with the address's failed keys, so guessing it costs the
  // same. Its own Redis names (a databaseName of its own), so no other test's failures count here.
  it('throttles wrong tokens like wrong keys: 429 past AUTH_FAILURES_PER_MINUTE, the token still served', async () => {
    const throttled = await serve({
      ...ctx.deps,
      databaseName: `${ctx.deps.databaseName}_metrics_${Date.now()}`,
      env: { ...ctx.deps.env, METRICS_TOKEN: 'scrape-secret-1', AUTH_FAILURES_PER_MINUTE: 3 },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${throttled.url}/metrics`, {
          headers: { Authorization: `Bearer guess-${i}` },
        });
        statuses.push(res.status);
        if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      const right = await fetch(`${throttled.url}/metrics`, {
        headers: { Authorization: 'Bearer scrape-secret-1' },
      });
      expect(right.status).toBe(200);
    } finally {
      await throttled.close();
    }
  });

  it('serves the metrics with the bearer token', async () => {
    const res = await fetch(`${app.url}/metrics`, {
      headers: { Authorization: 'Bearer scrape-secret-1' },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('http_requests_total');
  });
});

describe('in production mode (contract §22.7.3)', () => {
  const production = (token?: string) =>
    serve({
      ...ctx.deps,
      env: { ...ctx.deps.env, NODE_ENV: 'production', METRICS_TOKEN: token },
    });

  it('is not served without METRICS_TOKEN: 404, even with a bearer token', async () => {
    const app = await production();
    try {
      for (const headers of [{}, { Authorization: 'Bearer anything' }] as Record<
        string,
        string
      >[]) {
        const res = await fetch(`${app.url}/metrics`, { headers });
        expect(res.status).toBe(404);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
      }
      // Nor named by another method: a 405 with Allow would tell there is a route to GET.
      for (const method of ['HEAD', 'POST', 'DELETE', 'OPTIONS']) {
        const res = await fetch(`${app.url}/metrics`, { method });
        expect({ method, status: res.status, allow: res.headers.get('allow') }).toEqual({
          method,
          status: 404,
          allow: null,
        });
      }
    } finally {
      await app.close();
    }
  });

  it('is served with METRICS_TOKEN and the bearer token, 401 without', async () => {
    const app = await production('prod-scrape-secret');
    try {
      expect((await fetch(`${app.url}/metrics`)).status).toBe(401);
      const res = await fetch(`${app.url}/metrics`, {
        headers: { Authorization: 'Bearer prod-scrape-secret' },
      });
      expect(res.status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
