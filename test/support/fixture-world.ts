import { deleteRecords } from '../../src/service/delete-records';
import { storeAndIndex } from './fixtures';
import { createTestContext, type TestContext } from './harness';
import { FIXTURE } from './read-fixture';
import { accountWithKey } from './factories';
import { newReader, type Reader } from './read-http';
import { fixtureWorldOf, type StartFixtureWorld, type StartWorld } from './worlds';

/** The read suites' world: a fresh test context, a reader's key, and FIXTURE stored and indexed. */
export async function fixtureWorld(): Promise<{ ctx: TestContext; reader: Reader }> {
  const ctx = await createTestContext();
  const reader = await newReader(ctx.deps);
  await storeAndIndex(ctx.deps, [...FIXTURE]);
  return { ctx, reader };
}

/** `records` in Postgres and OpenSearch, served by the real app (worlds.ts). */
export const realWorld: StartWorld = async (records) => {
  const ctx = await createTestContext();
  await storeAndIndex(ctx.deps, [...records]);
  return {
    baseUrl: ctx.baseUrl,
    taxonomy: ctx.deps.taxonomy,
    newReader: (account) => newReader(ctx.deps, account),
    account: async (input) => {
      const { accountId, key } = await accountWithKey(ctx.deps, input);
      return { accountId, key: key.key };
    },
    async delivered(accountId) {
      const { rows } = await ctx.deps.pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM metering_deliveries WHERE account_id = $1',
        [accountId],
      );
      return rows[0]?.n ?? 0;
    },
    put: (more) => storeAndIndex(ctx.deps, [...more]),
    remove: (ids) => deleteRecords(ctx.deps, ids),
    close: () => ctx.close(),
  };
};

/** Worlds over any records, as `describe.each` takes them in the integration project. */
export const REAL: [string, StartWorld][] = [['real backends', realWorld]];

/** FIXTURE in Postgres and OpenSearch, served by the real app. */
export const realFixtureWorld: StartFixtureWorld = () => fixtureWorldOf(realWorld);

/** The table `describe.each` takes in the integration project. */
export const REAL_WORLDS: [string, StartFixtureWorld][] = [['real backends', realFixtureWorld]];
