import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { compose } from '../../src/app/compose';
import { createApp } from '../../src/app/create-app';
import { parseEnv } from '../../src/config';
import { createSearchClient } from '../../src/search/client';
import { storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { FIXTURE } from '../support/read-fixture';
import { expectError, get, newReader, serve, type Json, type Reader } from '../support/read-http';

// contract §20.5: the search engine unreachable → 503 search_unavailable with Retry-After, fast,
// nothing charged. The app under test shares ctx's database, ledger and Redis; only its search
// client points at a dead address (connection refused) or at a socket that never answers.

let ctx: TestContext;
let reader: Reader;
let delivered: string[];
let blackhole: Server;
let blackholeUrl: string;
const sockets = new Set<Socket>();

beforeAll(async () => {
  ctx = await createTestContext();
  reader = await newReader(ctx.deps);
  await storeAndIndex(ctx.deps, FIXTURE.slice(0, 6));
  // Deliver two records first, so that "nothing charged" is visible against a non-zero ledger.
  const first = await get(ctx.baseUrl, '/v1/opportunities?limit=2', { key: reader.key });
  expect(first.headers.get('x-service-opportunity-used')).toBe('2');
  delivered = (first.body.data as { id: string }[]).map((r) => r.id);
  blackhole = createServer((socket) => {
    sockets.add(socket); // accept and never answer
  });
  await new Promise<void>((resolve) => blackhole.listen(0, '127.0.0.1', resolve));
  blackholeUrl = `http://127.0.0.1:${(blackhole.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => blackhole.close(resolve));
  await ctx.close();
});

function expectUnavailable(res: Json) {
  expectError(res, 503, 'search_unavailable');
  expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
}

/**
 * "Fast" without a stopwatch: a search client that records each attempt it makes and how each
 * call ended. A 503 that took one attempt per call, each ended by a refused connection or by the
 * client's own timeout, is bounded by that timeout, however loaded the machine is.
 */
function watchedClient(url: string, timeoutMs: number) {
  const client = createSearchClient(url, timeoutMs);
  const attempts: number[] = [];
  const endings: { error: string | undefined; retries: number }[] = [];
  client.on('request', () => attempts.push(1));
  client.on('response', (err, result) => {
    endings.push({ error: err?.name, retries: result?.meta.attempts ?? -1 });
  });
  return {
    client,
    /** Every call since the last look made one attempt and ended with `error`. */
    expectOneAttemptEach(error: string) {
      expect(endings.length).toBeGreaterThan(0);
      expect(attempts).toHaveLength(endings.length);
      for (const ending of endings) expect(ending).toEqual({ error, retries: 0 });
      attempts.length = 0;
      endings.length = 0;
    },
  };
}

describe.each([
  ['connection refused', () => 'http://127.0.0.1:1', 'ConnectionError'],
  ['a socket that never answers', () => blackholeUrl, 'TimeoutError'],
])('search engine: %s', (_label, url, ending) => {
  let app: Awaited<ReturnType<typeof serve>>;
  let search: ReturnType<typeof watchedClient>;
  beforeAll(async () => {
    search = watchedClient(url(), 500);
    app = await serve(createApp(compose({ ...ctx.deps, search: search.client })));
  });
  afterAll(() => app.close());

  it('list → 503 fast, with Retry-After; nothing charged; the request id is spent', async () => {
    const id = `unavailable-${Math.random().toString(36).slice(2)}`;
    const res = await get(app.baseUrl, '/v1/opportunities?limit=3', {
      key: reader.key,
      headers: { 'X-Request-ID': id },
    });
    expectUnavailable(res);
    search.expectOneAttemptEach(ending);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-service-opportunity-used')).toBe('2');
    expect(res.headers.get('x-service-new-opportunity-count')).toBe('0');
    // The ledger, read through the healthy app: unchanged.
    const count = await get(ctx.baseUrl, '/v1/opportunities/count', { key: reader.key });
    expect(count.headers.get('x-service-opportunity-used')).toBe('2');
    // contract §16.6: a retry after a 503 needs a new id.
    const retry = await get(ctx.baseUrl, '/v1/opportunities?limit=3', {
      key: reader.key,
      headers: { 'X-Request-ID': id },
    });
    expect(retry.status).toBe(409);
  });

  it('count and preview → 503 fast', async () => {
    const count = await get(app.baseUrl, '/v1/opportunities/count', { key: reader.key });
    expectUnavailable(count);
    search.expectOneAttemptEach(ending);
    const preview = await get(app.baseUrl, '/v1/preview/opportunities');
    expectUnavailable(preview);
    search.expectOneAttemptEach(ending);
  });

  it('detail is served from the store and still answers (a repeat: nothing new)', async () => {
    const res = await get(app.baseUrl, `/v1/opportunities/${delivered[0]}`, { key: reader.key });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-service-opportunity-used')).toBe('2');
  });
});

describe('with the configured default timeout (OPENSEARCH_TIMEOUT_MS)', () => {
  // config.ts documents OPENSEARCH_TIMEOUT_MS as the "bound on every search-engine call, so an
  // unreachable cluster becomes a fast 503"; the client must not multiply it by retrying.
  it('a search engine that never answers gives a 503 within the configured bound', async () => {
    // The configured default, not the harness's longer one for a loaded machine.
    const timeout = parseEnv({}).OPENSEARCH_TIMEOUT_MS;
    const search = watchedClient(blackholeUrl, timeout);
    const app = await serve(createApp(compose({ ...ctx.deps, search: search.client })));
    try {
      const started = Date.now();
      const res = await get(app.baseUrl, '/v1/opportunities/count', { key: reader.key });
      const ms = Date.now() - started;
      expectUnavailable(res);
      console.log(`hanging search engine, OPENSEARCH_TIMEOUT_MS=${timeout}: 503 after ${ms} ms`);
      // One attempt, ended by the client's own timeout: the bound is OPENSEARCH_TIMEOUT_MS.
      search.expectOneAttemptEach('TimeoutError');
    } finally {
      await app.close();
    }
  }, 30_000);
});
