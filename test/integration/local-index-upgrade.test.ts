import { MAPPING_VERSION, liveMappingVersion } from '../../src/search/index-definition';
import { storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { KEYWORD_FIXTURE } from '../support/keyword-fixture';
import { aliasOnLegacyIndex } from '../support/legacy-index';
import { logged, startServer, waitReady, type ServerProcess } from '../support/server-process';

// `npm start` in local mode brings everything up itself: an index left by older code (a newcomer's
// checkout from before keyword search) is rebuilt with the code's mapping behind the alias, from
// the store, without a command. Production only warns (index-mapping-version.test.ts).

jest.setTimeout(240_000);

let ctx: TestContext;
let server: ServerProcess | undefined;

beforeAll(async () => {
  ctx = await createTestContext();
  await storeAndIndex(ctx.deps, [...KEYWORD_FIXTURE]);
  await aliasOnLegacyIndex(ctx.deps.search, ctx.deps.alias);
});
afterAll(async () => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  await ctx.close();
});

it('rebuilds an index of an older mapping in the background and swaps the alias to it', async () => {
  expect(await liveMappingVersion(ctx.deps.search, ctx.deps.alias)).toBe(1);
  server = await startServer({
    NODE_ENV: undefined,
    DATABASE_URL: ctx.databaseUrl,
    OPENSEARCH_URL: process.env.OPENSEARCH_URL,
    REDIS_URL: undefined,
    SYNC_INTERVAL_MS: '0',
    LOG_LEVEL: 'info',
  });
  await waitReady(server);
  const out = await logged(server, 'index rebuilt with the current mapping', 120_000);
  expect(out).toContain('rebuilding it in the background');
  expect(out).toContain('index rebuilt with the current mapping');
  expect(await liveMappingVersion(ctx.deps.search, ctx.deps.alias)).toBe(MAPPING_VERSION);
  const count = await ctx.deps.search.count({ index: ctx.deps.alias });
  expect(count.body.count).toBe(KEYWORD_FIXTURE.length);
});
