import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { reindex } from '../../src/search/sync';
import { upsertOpportunities } from '../../src/store/opportunity-repo';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { cliJson } from '../support/cli';
import { createTestContext, type TestContext } from '../support/harness';
import { get, newReader, type Reader } from '../support/read-http';

// Counts and list pages are cached per process, keyed by the query and the index
// generation. A cache must never serve what a sync, reindex or import (in this process or another)
// has changed, and what a response costs always comes from the ledger, never from the cache.

let ctx: TestContext;
let reader: Reader;
let searches: jest.SpyInstance;
let counts: jest.SpyInstance;

const QUERY = 'job_family=data&country=US';

beforeAll(async () => {
  ctx = await createTestContext();
  reader = await newReader(ctx.deps);
  await storeAndIndex(ctx.deps, [makeRecord(), makeRecord(), makeRecord()]);
  // The generation listener connects on first use; until then nothing is cached.
  const generation = ctx.deps.searchCache?.generation;
  for (let i = 0; i < 100 && generation?.current() === null; i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(generation?.current()).not.toBeNull();
  searches = jest.spyOn(ctx.deps.search, 'search');
  counts = jest.spyOn(ctx.deps.search, 'count');
});
afterAll(() => ctx.close());
beforeEach(() => {
  searches.mockClear();
  counts.mockClear();
});

const count = async (query = QUERY) => {
  const res = await get(ctx.baseUrl, `/v1/opportunities/count?${query}`, { key: reader.key });
  expect(res.status).toBe(200);
  return res.body.count as number;
};

/**
 * The CLI in another process; returns once this process has heard of its index change. Another
 * process's change arrives by notification (search/generation.ts), a moment after that process
 * exits: the test waits for that event, not for a guessed time.
 */
async function cli(...args: string[]): Promise<Record<string, unknown>> {
  const generation = ctx.deps.searchCache?.generation;
  const before = generation?.current();
  const { report } = await cliJson(args, { databaseUrl: ctx.databaseUrl });
  while (report.ok === true && generation?.current() === before) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return report;
}

it('a repeated count is answered from the cache', async () => {
  const first = await count();
  expect(await count()).toBe(first);
  expect(counts).toHaveBeenCalledTimes(1);
});

it('a sync in this process invalidates cached counts and pages at once', async () => {
  const before = await count();
  const page = await get(ctx.baseUrl, `/v1/opportunities?${QUERY}&limit=100`, { key: reader.key });
  const added = makeRecord({ published_at: '2030-01-01T00:00:00.000Z' });
  await storeAndIndex(ctx.deps, [added]);
  expect(await count()).toBe(before + 1);
  const after = await get(ctx.baseUrl, `/v1/opportunities?${QUERY}&limit=100`, { key: reader.key });
  expect(after.body.data.map((r: { id: string }) => r.id)).toEqual([
    added.id,
    ...page.body.data.map((r: { id: string }) => r.id),
  ]);
});

it("a repeated count's kept envelope and ETag follow the generation", async () => {
  const query = 'level=senior&job_family=data';
  const ask = (etag?: string) =>
    get(ctx.baseUrl, `/v1/opportunities/count?${query}`, {
      key: reader.key,
      headers: {
        'X-Request-ID': `cache-${Math.random().toString(36).slice(2)}`,
        ...(etag ? { 'If-None-Match': etag } : {}),
      },
    });
  const first = await ask();
  const etag = first.headers.get('etag') ?? '';
  const again = await ask();
  // The same parsed query and envelope shape, with this request's own id in the body.
  expect(again.headers.get('etag')).toBe(etag);
  expect(again.body.meta.request_id).toBe(again.headers.get('x-request-id'));
  expect(again.text).toBe(JSON.stringify({ ...first.body, meta: again.body.meta }));
  expect((await ask(etag)).status).toBe(304);

  await storeAndIndex(ctx.deps, [makeRecord()]);
  const changed = await ask(etag);
  expect(changed.status).toBe(200);
  expect(changed.body.count).toBe(first.body.count + 1);
  expect(changed.headers.get('etag')).not.toBe(etag);
  expect(changed.text).toBe(JSON.stringify(changed.body));
});

it('a reindex invalidates cached counts', async () => {
  const before = await count();
  // In the store only: the index (and so the cache) rightly still answer the old count.
  await upsertOpportunities(ctx.deps.pool, [makeRecord()], ctx.deps.taxonomy.version);
  expect(await count()).toBe(before);
  await reindex(ctx.deps);
  expect(await count()).toBe(before + 1);
});

it('an import or sync by another process (the CLI) invalidates this process cache', async () => {
  const query = 'country=US';
  const before = await count(query);
  expect(await count(query)).toBe(before);
  expect(counts).toHaveBeenCalledTimes(1); // cached before the other process runs
  const file = path.join(tmpdir(), `search-cache-${process.pid}.ndjson`);
  writeFileSync(file, JSON.stringify(makeRecord()) + '\n');
  expect(await cli('import', file)).toMatchObject({ ok: true });
  expect(await count(query)).toBe(before + 1);

  await upsertOpportunities(ctx.deps.pool, [makeRecord()], ctx.deps.taxonomy.version);
  expect(await count(query)).toBe(before + 1);
  expect(await cli('sync')).toMatchObject({ ok: true, indexed: 1 });
  expect(await count(query)).toBe(before + 2);
}, 240_000); // two CLI processes, slow on a loaded machine

it('charges come from the ledger: a cached page is new to a second account and charged', async () => {
  const path = `/v1/opportunities?${QUERY}&limit=2`;
  const first = await get(ctx.baseUrl, path, { key: reader.key });
  const repeat = await get(ctx.baseUrl, path, { key: reader.key });
  expect(repeat.body.data).toEqual(first.body.data);
  expect(repeat.headers.get('x-service-new-opportunity-count')).toBe('0');

  const wallet = await newReader(ctx.deps, {
    allowance_override: 0,
    balance_millicents: 10_000,
  });
  const charged = await get(ctx.baseUrl, path, { key: wallet.key });
  expect(charged.body.data).toEqual(first.body.data);
  expect(charged.headers.get('x-service-new-opportunity-count')).toBe('2');
  expect(charged.headers.get('x-service-usage-charge-millicents')).toBe('800');
  expect(charged.headers.get('x-service-balance-millicents')).toBe('9200');
  const again = await get(ctx.baseUrl, path, { key: wallet.key });
  expect(again.headers.get('x-service-new-opportunity-count')).toBe('0');
  expect(again.headers.get('x-service-balance-millicents')).toBe('9200');
  // All four pages were one search: the cache served the other three.
  expect(searches).toHaveBeenCalledTimes(1);
});
