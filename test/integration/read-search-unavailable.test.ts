import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { compose } from '../../src/app/compose';
import { createApp } from '../../src/app/create-app';
import { createSearchClient } from '../../src/search/client';
import { storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { FIXTURE } from '../support/read-fixture';
import { expectError, get, newReader, serve, type Json, type Reader } from '../support/read-http';

// decisions 8: the search engine unreachable → 503 search_unavailable with Retry-After, fast,
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

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const started = Date.now();
  const value = await fn();
  return [value, Date.now() - started];
}

describe.each([
  ['connection refused', () => 'http://127.0.0.1:1'],
  ['a socket that never answers', () => blackholeUrl],
])('search engine: %s', (_label, url) => {
  let app: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    app = await serve(createApp(compose({ ...ctx.deps, search: createSearchClient(url(), 500) })));
  });
  afterAll(() => app.close());

  it('list → 503 fast, with Retry-After; nothing charged; the request id is spent', async () => {
    const id = `unavailable-${Math.random().toString(36).slice(2)}`;
    const [res, ms] = await timed(() =>
      get(app.baseUrl, '/v1/opportunities?limit=3', {
        key: reader.key,
        headers: { 'X-Request-ID': id },
      }),
    );
    expectUnavailable(res);
    expect(ms).toBeLessThan(3000);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-service-opportunity-used')).toBe('2');
    expect(res.headers.get('x-service-new-opportunity-count')).toBe('0');
    // The ledger, read through the healthy app: unchanged.
    const count = await get(ctx.baseUrl, '/v1/opportunities/count', { key: reader.key });
    expect(count.headers.get('x-service-opportunity-used')).toBe('2');
    // decisions 7: a retry after a 503 needs a new id.
    const retry = await get(ctx.baseUrl, '/v1/opportunities?limit=3', {
      key: reader.key,
      headers: { 'X-Request-ID': id },
    });
    expect(retry.status).toBe(409);
  });

  it('count and preview → 503 fast', async () => {
    const [count, ms1] = await timed(() =>
      get(app.baseUrl, '/v1/opportunities/count', { key: reader.key }),
    );
    expectUnavailable(count);
    expect(ms1).toBeLessThan(3000);
    const [preview, ms2] = await timed(() => get(app.baseUrl, '/v1/preview/opportunities'));
    expectUnavailable(preview);
    expect(ms2).toBeLessThan(3000);
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
    const timeout = ctx.deps.env.OPENSEARCH_TIMEOUT_MS;
    const app = await serve(
      createApp(compose({ ...ctx.deps, search: createSearchClient(blackholeUrl, timeout) })),
    );
    try {
      const [res, ms] = await timed(() =>
        get(app.baseUrl, '/v1/opportunities/count', { key: reader.key }),
      );
      expectUnavailable(res);
      console.log(`hanging search engine, OPENSEARCH_TIMEOUT_MS=${timeout}: 503 after ${ms} ms`);
      expect(ms).toBeLessThan(timeout + 1500);
    } finally {
      await app.close();
    }
  }, 30_000);
});
