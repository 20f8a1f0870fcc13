import { storeAndIndex } from './fixtures';
import { createTestContext, type TestContext } from './harness';
import { FIXTURE } from './read-fixture';
import { newReader, type Reader } from './read-http';

/** The read suites' world: a fresh test context, a reader's key, and FIXTURE stored and indexed. */
export async function fixtureWorld(): Promise<{ ctx: TestContext; reader: Reader }> {
  const ctx = await createTestContext();
  const reader = await newReader(ctx.deps);
  await storeAndIndex(ctx.deps, [...FIXTURE]);
  return { ctx, reader };
}
