import { randomUUID } from 'node:crypto';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sdkClient } from '../support/sdk-client';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import type { HangProxy } from '../support/hang-proxy';
import { appOverHeldSearch } from '../support/held-search-app';
import { createTestContext, type TestContext } from '../support/harness';
import { expectError, get, newReader, type Json } from '../support/read-http';

// contract §19.8: at most 2 free-but-expensive operations (new_count, unseen_only, group_by,
// histograms and statistics of contract §10.4, §10.5) in flight per account; more → 429
// rate_limit_exceeded with Retry-After 1 and the contract's headers, spending no request id, through REST and MCP. Requests are held in flight for real:
// the app's search engine sits behind a proxy that keeps their search calls until released.

let ctx: TestContext;
let proxy: HangProxy;
let app: Awaited<ReturnType<typeof appOverHeldSearch>>;

beforeAll(async () => {
  ctx = await createTestContext();
  await storeAndIndex(ctx.deps, [makeRecord(), makeRecord(), makeRecord()]);
  app = await appOverHeldSearch(ctx);
  proxy = app.proxy;
});
afterAll(async () => {
  await app.close();
  await ctx.close();
});

/** Waits for a condition the test cannot be told about (requests reaching the proxy). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

const call = (key: string, path: string, headers: Record<string, string> = {}) =>
  get(app.baseUrl, path, { key, headers });

function expectGateRefusal(res: Json): void {
  expectError(res, 429, 'rate_limit_exceeded');
  expect(res.headers.get('retry-after')).toBe('1');
  expect(res.headers.get('x-ratelimit-limit')).toBe('1000');
  expect(res.headers.get('x-ratelimit-reset')).toBe('1');
  expect(res.headers.get('x-service-opportunity-used')).toMatch(/^\d+$/);
}

it('the third expensive call of an account is refused while two are in flight', async () => {
  const reader = await newReader(ctx.deps);
  const other = await newReader(ctx.deps);
  proxy.hold();
  const first = call(reader.key, '/v1/opportunities?unseen_only=true');
  await until(() => proxy.heldRequests >= 1);
  const second = call(reader.key, '/v1/opportunities/count?group_by=level');
  await until(() => proxy.heldRequests >= 2);

  const requestId = `gate-${randomUUID()}`;
  const refusals = await Promise.all([
    call(reader.key, '/v1/opportunities/count?include=new_count'),
    call(reader.key, '/v1/opportunities?unseen_only=true', { 'X-Request-ID': requestId }),
    call(reader.key, '/v1/opportunities/count?group_by=country'),
    call(reader.key, '/v1/opportunities/count?histogram=published&interval=week'),
    call(reader.key, '/v1/opportunities/count?stats=rate'),
  ]);
  for (const res of refusals) expectGateRefusal(res);
  // Another account is not held to this one's slots: its call reaches the engine.
  const before = proxy.heldRequests;
  const others = call(other.key, '/v1/opportunities?unseen_only=true');
  await until(() => proxy.heldRequests > before);

  proxy.release();
  for (const res of await Promise.all([first, second, others])) expect(res.status).toBe(200);
  // The refused list spent nothing: its id is still good, and the slots are free again.
  const again = await call(reader.key, '/v1/opportunities?unseen_only=true', {
    'X-Request-ID': requestId,
  });
  expect(again.status).toBe(200);
});

// Two API processes (two apps over one Redis, each with its own service): the account's slots are
// its own across them. Each process counted its own, so two of them admitted four.
it('two processes share the account’s slots: the third call is refused by either', async () => {
  const reader = await newReader(ctx.deps);
  const second = await appOverHeldSearch(ctx);
  try {
    proxy.hold();
    second.proxy.hold();
    const first = call(reader.key, '/v1/opportunities?unseen_only=true');
    await until(() => proxy.heldRequests >= 1);
    const other = get(second.baseUrl, '/v1/opportunities/count?group_by=level', {
      key: reader.key,
    });
    await until(() => second.proxy.heldRequests >= 1);
    expectGateRefusal(await call(reader.key, '/v1/opportunities/count?stats=rate'));
    expectGateRefusal(
      await get(second.baseUrl, '/v1/opportunities/count?include=new_count', { key: reader.key }),
    );
    proxy.release();
    second.proxy.release();
    for (const res of await Promise.all([first, other])) expect(res.status).toBe(200);
    // Given back: both processes admit the account again.
    const again = await get(second.baseUrl, '/v1/opportunities/count?group_by=level', {
      key: reader.key,
    });
    expect(again.status).toBe(200);
  } finally {
    proxy.release();
    await second.close();
  }
});

it('MCP: the same gate, as the tool-level error', async () => {
  const reader = await newReader(ctx.deps);
  const mcp = sdkClient('gate-test');
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), {
      requestInit: { headers: { 'X-API-Key': reader.key } },
    }),
  );
  try {
    proxy.hold();
    const held: Promise<Json>[] = [];
    for (const n of [1, 2]) {
      held.push(call(reader.key, '/v1/opportunities?unseen_only=true'));
      await until(() => proxy.heldRequests >= n);
    }
    for (const args of [
      { include_new_count: true },
      { histogram: 'first_seen', interval: 'month', stats: 'rate' },
    ]) {
      const refused = await mcp.callTool({ name: 'count_opportunities', arguments: args });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
    }
    proxy.release();
    for (const res of await Promise.all(held)) expect(res.status).toBe(200);
    const served = await mcp.callTool({
      name: 'count_opportunities',
      arguments: { include_new_count: true },
    });
    expect(served.isError).not.toBe(true);
  } finally {
    proxy.release();
    await mcp.close();
  }
});
