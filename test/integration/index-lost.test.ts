import { createLogger } from '../../src/infra/logger';
import { IndexFollower } from '../../src/search/index-follower';
import { aliasTargets, dropIndices, ensureIndex } from '../../src/search/index-manager';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { get, newReader } from '../support/read-http';

// Postgres kept, the search engine's data destroyed (a new node, a wiped volume, an index deleted
// by hand): sync_state's watermark says everything is indexed, but the index behind the alias is
// another one, empty. The index follower (contract §22.8) notices by the index's uuid (migration
// 009) and fills it again from watermark 0. Its passes are called here directly, no timers.

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
  const before = (await aliasTargets(ctx.deps.search, ctx.deps.alias))[0];
  await dropIndices(ctx.deps.search, ctx.deps.alias);
  // What a process starting on the wiped engine does first (the first version's name again).
  const again = await ensureIndex(ctx.deps.search, ctx.deps.alias);
  expect(again).toBe(before);
  expect(await indexed()).toBe(0);
  expect(await follower.pass()).toMatchObject({ ran: true, result: { indexed: records.length } });
  expect(await indexed()).toBe(records.length);
});
