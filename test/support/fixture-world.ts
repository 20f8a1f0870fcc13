import { syncIncremental } from '../../src/search/sync';
import { deleteOpportunities } from '../../src/store/opportunity-repo';
import { storeAndIndex } from './fixtures';
import { createTestContext, type TestContext } from './harness';
import { FIXTURE } from './read-fixture';
import { newReader, type Reader } from './read-http';
import type { StartFixtureWorld } from './worlds';

/** The read suites' world: a fresh test context, a reader's key, and FIXTURE stored and indexed. */
export async function fixtureWorld(): Promise<{ ctx: TestContext; reader: Reader }> {
  const ctx = await createTestContext();
  const reader = await newReader(ctx.deps);
  await storeAndIndex(ctx.deps, [...FIXTURE]);
  return { ctx, reader };
}

/** FIXTURE in Postgres and OpenSearch, served by the real app (worlds.ts). */
export const realFixtureWorld: StartFixtureWorld = async () => {
  const { ctx, reader } = await fixtureWorld();
  return {
    baseUrl: ctx.baseUrl,
    reader,
    newReader: () => newReader(ctx.deps),
    async remove(ids) {
      await deleteOpportunities(ctx.deps.pool, [...ids]);
      await syncIncremental(ctx.deps);
    },
    close: () => ctx.close(),
  };
};

/** The table `describe.each` takes in the integration project. */
export const REAL_WORLDS: [string, StartFixtureWorld][] = [['real backends', realFixtureWorld]];
