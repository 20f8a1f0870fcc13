import { compactIndex } from '../../src/search/index-compaction';
import { reindex } from '../../src/search/sync';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';

// The merge after a rebuild (search/index-compaction.ts), against the real engine.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** The live segments of each primary shard of `index`. */
async function segmentsPerShard(index: string): Promise<number[]> {
  const res = await ctx.deps.search.indices.segments({ index });
  const shards = (
    res.body as {
      indices: Record<
        string,
        { shards: Record<string, { routing: { primary: boolean }; num_search_segments: number }[]> }
      >;
    }
  ).indices[index]?.shards;
  return Object.values(shards ?? {}).flatMap((copies) =>
    copies.filter((c) => c.routing.primary).map((c) => c.num_search_segments),
  );
}

it('merges an index written in several refreshes into one segment', async () => {
  const index = `${ctx.deps.alias}__compaction`;
  await ctx.deps.search.indices.create({
    index,
    body: { settings: { index: { number_of_shards: 1, number_of_replicas: 0 } } },
  } as never);
  try {
    for (let batch = 0; batch < 3; batch++) {
      await ctx.deps.search.bulk({
        body: [0, 1].flatMap((n) => [{ index: { _index: index } }, { batch, n }]),
        refresh: true,
      } as never);
    }
    expect(await segmentsPerShard(index)).toEqual([3]);
    expect(await compactIndex(ctx.deps.search, index)).toBe(true);
    expect(await segmentsPerShard(index)).toEqual([1]);
    expect((await ctx.deps.search.count({ index })).body.count).toBe(6);
  } finally {
    await ctx.deps.search.indices.delete({ index });
  }
});

it('reports a merge that cannot run as false, and throws nothing', async () => {
  expect(await compactIndex(ctx.deps.search, `${ctx.deps.alias}__missing`)).toBe(false);
});

it('a reindex swaps in its new index merged, and says so', async () => {
  await storeAndIndex(ctx.deps, [makeRecord(), makeRecord(), makeRecord()]);
  const result = await reindex(ctx.deps);
  expect(result.compacted).toBe(true);
  expect(await segmentsPerShard(result.index)).toEqual([1]);
});
