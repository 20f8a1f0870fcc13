import { currentLayout } from '../../src/search/index-layout';
import { aliasTargets } from '../../src/search/index-manager';
import { reindex } from '../../src/search/sync';
import { createAccount } from '../../src/store/account-repo';
import { createApiKey } from '../../src/store/api-key-repo';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { ROOMY } from '../support/factories';

// Several OpenSearch nodes in OPENSEARCH_URL, and the index layout from the settings.
// The shared test instance is one node, so a second "node" here is a dead address: the client
// must skip it, from start-up on, without failing a request.

const real = (): string => {
  const url = process.env.OPENSEARCH_URL;
  if (!url) throw new Error('OPENSEARCH_URL is not set');
  return url;
};

describe('a node list with a dead node', () => {
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    // The dead node first: start-up (index creation) must not trip over it.
    ctx = await createTestContext({ OPENSEARCH_URL: `http://127.0.0.1:1,${real()}` });
    const account = await createAccount(ctx.deps.pool, { plan: 'builder', ...ROOMY });
    key = (await createApiKey(ctx.deps.pool, { accountId: account.id })).key;
    await storeAndIndex(ctx.deps, [makeRecord(), makeRecord()]);
  });
  afterAll(() => ctx.close());

  it('serves every request from the living node', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const path = i % 2 ? '/v1/opportunities/count' : '/v1/opportunities?limit=1';
      const res = await fetch(`${ctx.baseUrl}${path}`, { headers: { 'X-API-Key': key } });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
  });
});

describe('index layout', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ OPENSEARCH_SHARDS: '2', OPENSEARCH_REPLICAS: '0' });
    await storeAndIndex(ctx.deps, [makeRecord(), makeRecord(), makeRecord()]);
  });
  afterAll(() => ctx.close());

  const layout = async () => {
    const [index] = await aliasTargets(ctx.deps.search, ctx.deps.alias);
    if (!index) throw new Error('no index behind the alias');
    return currentLayout(ctx.deps.search, index);
  };

  it('creates the first index with the configured shards and replicas', async () => {
    expect(await layout()).toEqual({ shards: 2, replicas: 0 });
  });

  it('reindex keeps the layout when run without the settings, and applies new ones', async () => {
    await reindex({ ...ctx.deps, indexLayout: {} });
    expect(await layout()).toEqual({ shards: 2, replicas: 0 });
    await reindex({ ...ctx.deps, indexLayout: { shards: 3 } });
    expect(await layout()).toEqual({ shards: 3, replicas: 0 });
    const count = await ctx.deps.search.count({ index: ctx.deps.alias });
    expect((count.body as { count: number }).count).toBe(3);
  });
});
