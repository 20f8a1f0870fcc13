import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compose } from '../../src/app/compose';
import { createApp } from '../../src/app/create-app';
import { createSearchClient } from '../../src/search/client';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { startHangProxy, type HangProxy } from '../support/hang-proxy';
import { appOverStoreProxy } from '../support/store-proxy-app';
import { createTestContext, type TestContext } from '../support/harness';
import { expectError, get, newReader, serve } from '../support/read-http';

// contract §20.3: every upstream call has a deadline. A Redis that stops answering hands the limits
// to the in-process limiter after REDIS_TIMEOUT_MS; a Postgres that stops answering is 503
// metering_unavailable after POSTGRES_TIMEOUT_MS; any search-engine failure that is not the
// caller's fault (429, 5xx...) is 503 search_unavailable, never 500.

// A hang that never ends fails the test at jest's timeout.
const getWithin = (baseUrl: string, path: string, key: string) => get(baseUrl, path, { key });

describe('a Redis that stops answering', () => {
  let proxy: HangProxy;
  let ctx: TestContext;
  beforeAll(async () => {
    const redis = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
    proxy = await startHangProxy(Number(redis.port || 6379), redis.hostname);
    ctx = await createTestContext({
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      REDIS_TIMEOUT_MS: '200',
    });
  });
  afterAll(async () => {
    await proxy.close();
    await ctx.close();
  });

  it('the in-process limiter takes over: reads are still served and limited', async () => {
    const { key } = await newReader(ctx.deps, { rps_override: 3 });
    expect((await getWithin(ctx.baseUrl, '/v1/opportunities/count', key)).status).toBe(200);
    proxy.hang();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await getWithin(ctx.baseUrl, '/v1/opportunities/count', key)).status);
    }
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(statuses[0]).toBe(200);
  });
});

describe('a Postgres that stops answering', () => {
  let ctx: TestContext;
  let app: Awaited<ReturnType<typeof appOverStoreProxy<HangProxy>>>;
  let proxy: HangProxy;
  beforeAll(async () => {
    ctx = await createTestContext({ POSTGRES_TIMEOUT_MS: '300' });
    app = await appOverStoreProxy(ctx, startHangProxy, { POSTGRES_TIMEOUT_MS: 300 });
    proxy = app.proxy;
  });
  afterAll(async () => {
    await app.close();
    await ctx.close();
  });

  it('→ 503 metering_unavailable after POSTGRES_TIMEOUT_MS, not an endless wait', async () => {
    const warm = await newReader(ctx.deps);
    expect((await getWithin(app.baseUrl, '/v1/opportunities/count', warm.key)).status).toBe(200);
    proxy.hang();
    // A key not looked up yet: authentication itself needs the store.
    const fresh = await newReader(ctx.deps);
    const res = await getWithin(app.baseUrl, '/v1/opportunities?limit=1', fresh.key);
    expectError(res, 503, 'metering_unavailable');
    expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  });
});

// One account's charges go one statement at a time (src/store/keyed-batches.ts). A call that
// arrives while the account's statement hangs waits no longer than POSTGRES_TIMEOUT_MS for it:
// then it is a 503 that recorded nothing, never sent, instead of waiting out the hung statement's
// commit deadline first and then one of its own.
describe("a call queued behind its account's hung statement", () => {
  const TIMEOUT_MS = 300;
  const COMMIT_TIMEOUT_MS = 4000;
  let ctx: TestContext;
  let app: Awaited<ReturnType<typeof appOverStoreProxy<HangProxy>>>;
  const records = [makeRecord(), makeRecord(), makeRecord()];
  beforeAll(async () => {
    ctx = await createTestContext();
    await storeAndIndex(ctx.deps, records);
    app = await appOverStoreProxy(ctx, startHangProxy, {
      POSTGRES_TIMEOUT_MS: TIMEOUT_MS,
      POSTGRES_COMMIT_TIMEOUT_MS: COMMIT_TIMEOUT_MS,
    });
  });
  afterAll(async () => {
    await app.close();
    await ctx.close();
  });

  it('→ 503 after POSTGRES_TIMEOUT_MS, nothing recorded, before the hung one ends', async () => {
    const reader = await newReader(ctx.deps);
    const detail = (i: number) =>
      get(app.baseUrl, `/v1/opportunities/${records[i]?.id}`, { key: reader.key });
    // The meter now holds the account's billing state: details go in one round trip each.
    expect((await detail(0)).status).toBe(200);
    // Every connection the pool holds goes silent: the first detail's statement hangs.
    app.proxy.silenceOpen();
    const finished: string[] = [];
    const first = detail(1).then((res) => (finished.push('first'), res));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = detail(2).then((res) => (finished.push('second'), res));
    const answers = await Promise.all([first, second]);
    // Whichever reached the account's statement first hangs to the commit deadline; the other
    // waited for it, and gave up at POSTGRES_TIMEOUT_MS.
    const messages = answers.map((res) => {
      expectError(res, 503, 'metering_unavailable');
      return String(res.body.error.message);
    });
    const queued = messages.findIndex((m) => /nothing was delivered or charged/.test(m));
    const hung = messages.findIndex((m) => /may have been recorded/.test(m));
    expect([queued, hung].sort()).toEqual([0, 1]);
    expect(finished[0]).toBe(queued === 0 ? 'first' : 'second');
  });
});

// contract §18.2: the 503 of a ledger that cannot be had in time still names the account; it
// carries the last usage figures the process saw, without asking the ledger again.
describe('a ledger locked past POSTGRES_TIMEOUT_MS', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ POSTGRES_TIMEOUT_MS: '300' });
  });
  afterAll(() => ctx.close());

  it('→ 503 metering_unavailable with the last usage figures the process saw', async () => {
    const reader = await newReader(ctx.deps);
    const seen = await getWithin(ctx.baseUrl, '/v1/usage', reader.key);
    expect(seen.status).toBe(200);
    const locker = await ctx.deps.pool.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE metering_usage, metering_deliveries IN ACCESS EXCLUSIVE MODE');
      const res = await getWithin(ctx.baseUrl, '/v1/opportunities?limit=1', reader.key);
      expectError(res, 503, 'metering_unavailable');
      expect(res.headers.get('x-service-opportunity-used')).toBe(
        seen.headers.get('x-service-opportunity-used'),
      );
      expect(res.headers.get('x-service-opportunity-limit')).toBe(
        seen.headers.get('x-service-opportunity-limit'),
      );
      expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    } finally {
      await locker.query('ROLLBACK');
      locker.release();
    }
  });
});

describe('a search engine answering with errors', () => {
  let ctx: TestContext;
  let fake: Server;
  let status = 429;
  let body = '{"error":"too many requests"}';
  let app: { baseUrl: string; close(): Promise<void> };
  beforeAll(async () => {
    ctx = await createTestContext();
    fake = createServer((_req, res) => {
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    app = await serve(createApp(compose({ ...ctx.deps, search: createSearchClient(url, 2000) })));
  });
  afterAll(async () => {
    await app.close();
    await new Promise((resolve) => fake.close(resolve));
    await ctx.close();
  });

  it.each([
    [429, '{"error":"rejected execution"}'],
    [500, '{"error":"boom"}'],
    [502, 'Bad Gateway'],
    [404, '{"error":{"type":"index_not_found_exception"}}'],
    [200, '{"took":'],
  ])('%i %s → 503 search_unavailable with Retry-After, nothing charged', async (code, text) => {
    status = code;
    body = text;
    const reader = await newReader(ctx.deps);
    for (const path of ['/v1/opportunities?limit=2', '/v1/opportunities/count']) {
      const res = await getWithin(app.baseUrl, path, reader.key);
      expectError(res, 503, 'search_unavailable');
      expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(res.headers.get('x-service-usage-charge-millicents')).toBe('0');
    }
  });
});

// contract §20.3: the deadline bounds the whole call, not a silence. An engine that keeps sending a
// byte now and then (its answer's head, or its body after the head) was never timed out: a list
// waited 30 to 120 s for its answer, and a count 10 to 15 s.
describe('a search engine that answers a byte at a time', () => {
  let ctx: TestContext;
  let fake: Server;
  let trickle: 'head' | 'body' = 'body';
  const drips = new Set<NodeJS.Timeout>();
  let app: { baseUrl: string; close(): Promise<void> };
  beforeAll(async () => {
    ctx = await createTestContext();
    fake = createServer((req, res) => {
      req.resume();
      // Far slower than any call may take: without a whole deadline, no answer for minutes.
      const text =
        trickle === 'head'
          ? 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}'
          : '{"took":1,"timed_out":false,"_shards":{"total":1},"hits":{"hits":[]},"count":0}';
      if (trickle === 'body') {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': text.length });
        res.flushHeaders();
      }
      let at = 0;
      const drip = setInterval(() => {
        if (at >= text.length || res.destroyed) return clearInterval(drip);
        if (trickle === 'body') res.write(text[at++]);
        else res.socket?.write(text[at++] ?? '');
      }, 400);
      drips.add(drip);
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    app = await serve(createApp(compose({ ...ctx.deps, search: createSearchClient(url, 1000) })));
  });
  afterAll(async () => {
    for (const drip of drips) clearInterval(drip);
    await app.close();
    fake.closeAllConnections();
    await new Promise((resolve) => fake.close(resolve));
    await ctx.close();
  });

  it.each(['body', 'head'] as const)(
    'its %s dripping → 503 search_unavailable, nothing charged',
    async (part) => {
      trickle = part;
      const reader = await newReader(ctx.deps);
      for (const path of ['/v1/opportunities?limit=2', '/v1/opportunities/count']) {
        // Thirty times the deadline: the answer must come from the deadline, not from the drip.
        const res = await fetch(app.baseUrl + path, {
          headers: { 'X-API-Key': reader.key },
          signal: AbortSignal.timeout(30_000),
        });
        const body = (await res.json()) as { error?: { code?: string } };
        expect([res.status, body.error?.code]).toEqual([503, 'search_unavailable']);
        expect(res.headers.get('x-service-usage-charge-millicents')).toBe('0');
      }
    },
  );
});
