import type { Client } from '@opensearch-project/opensearch';
import { readChanges } from '../../src/store/changes-repo';
import { followStore, syncIncremental } from '../../src/search/sync';
import { upsertOpportunities } from '../../src/store/opportunity-repo';
import { toDocument } from '../../src/search/documents';
import { roomyKey } from '../support/factories';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';

// contract §12.2: the feed shows a change once list and count reflect it. A sync saves its
// watermark after each batch, before the refresh that makes the batch searchable: a client that
// read a change in the feed and at once searched for it missed it (an audit: 3 times in 6).

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  await storeAndIndex(ctx.deps, [makeRecord()]);
});
afterAll(() => ctx.close());

/** The search client with its refresh held until `release` is called. */
function heldRefresh(search: Client) {
  let release!: () => void;
  let reached!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const refreshing = new Promise<void>((resolve) => (reached = resolve));
  const indices = new Proxy(search.indices, {
    get(target, name, receiver) {
      if (name !== 'refresh') return Reflect.get(target, name, receiver) as unknown;
      return async (...args: Parameters<Client['indices']['refresh']>) => {
        reached();
        await released;
        return target.refresh(...args);
      };
    },
  });
  const client = new Proxy(search, {
    get: (target, name, receiver) =>
      name === 'indices' ? indices : (Reflect.get(target, name, receiver) as unknown),
  });
  return { client, refreshing, release };
}

const feedIds = async () =>
  (
    await readChanges(ctx.deps.pool, { after: 0, since: null, limit: 100, alias: ctx.deps.alias })
  ).map((r) => r.id);

it('shows a synced change only once the sync has made it searchable', async () => {
  const record = makeRecord({ title: 'Held Refresh Engineer' });
  await upsertOpportunities(ctx.deps.pool, [record], ctx.deps.taxonomy.version);
  const held = heldRefresh(ctx.deps.search);
  const sync = syncIncremental({ ...ctx.deps, search: held.client });
  await held.refreshing;
  // Indexed and its watermark saved, not yet searchable: not in the feed.
  expect(await feedIds()).not.toContain(record.id);
  held.release();
  await expect(sync).resolves.toMatchObject({ indexed: 1 });
  expect(await feedIds()).toContain(record.id);
});

it('a sync stopped before it published is published by the next pass of the index follower', async () => {
  const shown = await feedIds();
  expect(shown.length).toBeGreaterThan(0);
  // As a sync that stopped after its last batch leaves it: indexed, not published.
  await ctx.deps.pool.query('UPDATE sync_state SET visible_watermark = 0 WHERE index_alias = $1', [
    ctx.deps.alias,
  ]);
  expect(await feedIds()).toEqual([]);
  await expect(followStore(ctx.deps)).resolves.toMatchObject({ ran: true });
  expect(await feedIds()).toEqual(shown);
  await expect(followStore(ctx.deps)).resolves.toEqual({ ran: false, reason: 'current' });
});

// A sync killed after its last batch (indexed, watermark saved) sent no notice: the next pass
// indexes nothing, and published the feed while the API kept a count cached from before.
it('the pass that publishes a stopped sync also tells the caches', async () => {
  const key = await roomyKey(ctx.deps);
  const count = async () => {
    const res = await fetch(`${ctx.baseUrl}/v1/opportunities/count?q=stoppedsync`, {
      headers: { 'X-API-Key': key },
    });
    return ((await res.json()) as { count: number }).count;
  };
  // Twice: the first answer is cached only once the process listens for index changes.
  expect(await count()).toBe(0);
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(await count()).toBe(0);
  // What the killed sync had done: the record stored, indexed and refreshed, the watermark saved.
  const record = makeRecord({ title: 'Stoppedsync Engineer' });
  await upsertOpportunities(ctx.deps.pool, [record], ctx.deps.taxonomy.version);
  const { rows } = await ctx.deps.pool.query<{ seq: string; num: number }>(
    'SELECT sync_seq AS seq, record_num AS num FROM opportunities WHERE id = $1',
    [record.id],
  );
  await ctx.deps.search.index({
    index: ctx.deps.alias,
    id: record.id,
    body: { ...toDocument(record, ctx.deps.taxonomy), record_num: rows[0]?.num } as never,
    refresh: true,
  });
  await ctx.deps.pool.query('UPDATE sync_state SET watermark = $2 WHERE index_alias = $1', [
    ctx.deps.alias,
    rows[0]?.seq,
  ]);
  expect(await count()).toBe(0); // cached, as the API's caches were
  await expect(followStore(ctx.deps)).resolves.toMatchObject({ ran: true });
  expect(await feedIds()).toContain(record.id);
  expect(await count()).toBe(1);
});

// An index lost and rebuilt from watermark 0: the feed stays where it was, so a feed opened with
// since during the rebuild got the horizon 0 and then every stored record as "changed after it".
it('an index rebuilt from the start leaves the feed where it was', async () => {
  const before = await feedIds();
  const { rows } = await ctx.deps.pool.query<{ visible: string }>(
    'SELECT visible_watermark AS visible FROM sync_state WHERE index_alias = $1',
    [ctx.deps.alias],
  );
  const held = heldRefresh(ctx.deps.search);
  const target = Object.keys(
    (await ctx.deps.search.indices.getAlias({ name: ctx.deps.alias })).body,
  )[0];
  await ctx.deps.search.indices.delete({ index: target as string });
  const rebuild = syncIncremental({ ...ctx.deps, search: held.client });
  await held.refreshing;
  const during = await ctx.deps.pool.query<{ visible: string }>(
    'SELECT visible_watermark AS visible FROM sync_state WHERE index_alias = $1',
    [ctx.deps.alias],
  );
  expect(during.rows[0]?.visible).toBe(rows[0]?.visible);
  expect(await feedIds()).toEqual(before);
  held.release();
  await rebuild;
  expect(await feedIds()).toEqual(before);
});
