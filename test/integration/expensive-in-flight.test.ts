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

/** Connections of this database waiting for a lock (the deliveries queued on the ledger row). */
async function waitingOnLocks(): Promise<number> {
  const { rows } = await ctx.deps.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'`,
  );
  return rows[0]?.n ?? 0;
}

async function untilAsync(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
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

// contract §16.4, §17.2, §19.8: an unseen_only page whose records a parallel page delivered first
// searches again. It took a slot for each search, so the second search could be refused 429 after
// the first delivery had spent the request id (a retry with that id got 409). Made here: two
// unseen_only pages find the same three records, their deliveries wait on the account's ledger row
// while two expensive counts come in, then the one that lost every record searches again.
it('an unseen_only page that searches again keeps its one slot: no 429 after its id was spent', async () => {
  const word = `zeppelin${randomUUID().slice(0, 8)}`;
  await storeAndIndex(
    ctx.deps,
    [1, 2, 3].map(() => makeRecord({ title: `Senior ${word} Engineer` })),
  );
  const reader = await newReader(ctx.deps);
  // A first delivery makes the account's ledger row for the period (and the app reads the new
  // index generation's mapping); none of the three.
  const [any] = (await call(reader.key, `/v1/opportunities?limit=1&q=-${word}`)).body.data as {
    id: string;
  }[];
  expect(any).toBeDefined();
  const page = `/v1/opportunities?unseen_only=true&limit=3&q=${word}`;
  const ledger = await ctx.deps.pool.connect();
  let pages: Promise<Json>[] = [];
  let counts: Promise<Json>[] = [];
  let held = 0;
  try {
    await ledger.query('BEGIN');
    await ledger.query('SELECT 1 FROM metering_usage WHERE account_id = $1 FOR UPDATE', [
      reader.accountId,
    ]);
    pages = [1, 2].map((n) => call(reader.key, page, { 'X-Request-ID': `retry-${n}-${word}` }));
    await untilAsync(async () => (await waitingOnLocks()) >= 2);
    // Both deliveries wait; two expensive counts of the account come in meanwhile.
    proxy.hold();
    counts = [
      call(reader.key, '/v1/opportunities/count?group_by=level'),
      call(reader.key, '/v1/opportunities/count?group_by=country'),
    ];
    await Promise.race([Promise.all(counts), until(() => proxy.heldRequests >= 2)]);
    held = proxy.heldRequests;
  } finally {
    await ledger.query('COMMIT');
    ledger.release();
  }
  // One page delivers the three; the other lost them all and searches again (held here) or is
  // refused.
  let settled = 0;
  for (const p of pages) void p.then(() => settled++);
  await until(() => settled === 2 || proxy.heldRequests > held);
  proxy.release();
  const answers = await Promise.all(pages);
  await Promise.all(counts);
  expect(answers.map((res) => [res.status, res.body.error?.code])).toEqual([
    [200, undefined],
    [200, undefined],
  ]);
  expect(answers.map((res) => res.body.pagination.returned).sort()).toEqual([0, 3]);
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
