import { createLogger } from '../../src/infra/logger';
import { IndexFollower } from '../../src/search/index-follower';
import { syncIncremental } from '../../src/search/sync';
import { aliasTargets, dropIndices, ensureIndex } from '../../src/search/index-manager';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { createTestContext, TEST_CURSOR_KEYS, type TestContext } from '../support/harness';
import { startServer, waitReady } from '../support/server-process';
import { get, newReader } from '../support/read-http';

// Postgres kept, the search engine's data destroyed (a new node, a wiped volume, an index deleted
// by hand): sync_state's watermark says everything is indexed, but the index behind the alias is
// another one, empty, or none. The index follower (contract §22.8) notices by the index's uuid
// (migration 009) and rebuilds it as `reindex` does. Its passes are called here directly.

let ctx: TestContext;
let follower: IndexFollower;
const records = Array.from({ length: 5 }, (_, i) => makeRecord({ title: `Lost index ${i}` }));

beforeAll(async () => {
  ctx = await createTestContext();
  await storeAndIndex(ctx.deps, records);
  follower = new IndexFollower(
    ctx.deps,
    0,
    createLogger('error', () => undefined),
  );
});
afterAll(() => ctx.close());

const indexed = async () => {
  await ctx.deps.search.indices.refresh({ index: ctx.deps.alias });
  return (await ctx.deps.search.count({ index: ctx.deps.alias })).body.count;
};

it('an idle pass over an index that holds everything does nothing', async () => {
  expect(await indexed()).toBe(records.length);
  expect(await follower.pass()).toEqual({ ran: false, reason: 'current' });
});

it('the index deleted under a running follower: the next pass creates it and fills it', async () => {
  const reader = await newReader(ctx.deps);
  const apiCount = async () =>
    (await get(ctx.baseUrl, '/v1/opportunities/count', { key: reader.key })).body.count;
  expect(await apiCount()).toBe(records.length);
  await dropIndices(ctx.deps.search, ctx.deps.alias);
  expect(await aliasTargets(ctx.deps.search, ctx.deps.alias)).toEqual([]);
  const outcome = await follower.pass();
  expect(outcome).toMatchObject({ ran: true, result: { indexed: records.length } });
  expect(await indexed()).toBe(records.length);
  // The API serves from it again (the pass told the processes the index changed).
  expect(await apiCount()).toBe(records.length);
  expect(await follower.pass()).toEqual({ ran: false, reason: 'current' });
});

it('created anew under the same name by a restart before the follower saw it: refilled', async () => {
  await dropIndices(ctx.deps.search, ctx.deps.alias);
  // What a process starting on the wiped engine does first: an empty index behind the alias.
  const again = await ensureIndex(ctx.deps.search, ctx.deps.alias);
  expect(await indexed()).toBe(0);
  expect(await follower.pass()).toMatchObject({ ran: true, result: { indexed: records.length } });
  expect(await indexed()).toBe(records.length);
  // Filled in another index, which the alias names once full; the empty one left the alias.
  expect(await aliasTargets(ctx.deps.search, ctx.deps.alias)).not.toContain(again);
});

// The index filled again in place, behind the alias, answered lists and counts with what it held
// so far, as 200s: a count of 0, then a part, and a cursor walk that ended early. Rebuilt as
// `reindex` builds, the alias names nothing (reads answer 503) until the new index is full.
it.each([
  ['deleted', async () => undefined],
  ['made anew and empty by a restart', () => ensureIndex(ctx.deps.search, ctx.deps.alias)],
])('index %s: while it is filled again the alias names no index', async (_how, restart) => {
  await dropIndices(ctx.deps.search, ctx.deps.alias);
  await restart();
  const duringFill: Promise<string[]>[] = [];
  const progress = {
    phase: () => void duringFill.push(aliasTargets(ctx.deps.search, ctx.deps.alias)),
    advance: () => void duringFill.push(aliasTargets(ctx.deps.search, ctx.deps.alias)),
  };
  const result = await syncIncremental({ ...ctx.deps, progress });
  expect(result.indexed).toBe(records.length);
  expect(duringFill.length).toBeGreaterThan(0);
  for (const targets of await Promise.all(duringFill)) expect(targets).toEqual([]);
  expect(await aliasTargets(ctx.deps.search, ctx.deps.alias)).toEqual([result.index]);
  expect(await indexed()).toBe(records.length);
});

// A process shutting down stops the rebuild's fill after its batch in hand. The rebuild went on to
// name that part of the inventory by the alias, with the snapshot's watermark, and nothing after
// saw it as lost: counts of 2,000 of 8,195 for good.
it('a rebuild stopped by the process shutting down leaves the alias where it was; the next pass rebuilds', async () => {
  await dropIndices(ctx.deps.search, ctx.deps.alias);
  const shutdown = new AbortController();
  shutdown.abort();
  const stopped = await syncIncremental({ ...ctx.deps, signal: shutdown.signal });
  expect(stopped).toMatchObject({ stopped: true });
  expect(await aliasTargets(ctx.deps.search, ctx.deps.alias)).toEqual([]);
  const dropped = await ctx.deps.search.indices.exists({ index: stopped.index });
  expect(dropped.body).toBe(false);
  expect(await follower.pass()).toMatchObject({ ran: true, result: { indexed: records.length } });
  expect(await indexed()).toBe(records.length);
});

// Start-up on a wiped engine made the index anew and empty behind the alias, and a process then
// answered counts of 0 (and empty pages) until the follower's rebuild moved the alias.
it('a process that starts while the index is lost answers 503 until the follower rebuilt it, never an empty inventory', async () => {
  await dropIndices(ctx.deps.search, ctx.deps.alias);
  const reader = await newReader(ctx.deps);
  const server = await startServer({
    NODE_ENV: 'production',
    DATABASE_URL: ctx.databaseUrl,
    OPENSEARCH_URL: process.env.OPENSEARCH_URL,
    CURSOR_SIGNING_KEYS: TEST_CURSOR_KEYS,
    REDIS_URL: undefined,
    SYNC_INTERVAL_MS: '1000',
  });
  try {
    await waitReady(server);
    for (;;) {
      const res = await get(server.baseUrl, '/v1/opportunities/count', { key: reader.key });
      if (res.status === 200) {
        expect(res.body.count).toBe(records.length);
        break;
      }
      expect(res.body.error.code).toBe('search_unavailable');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(server.stderr()).toContain('search index lost');
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
});
