import type { Client } from '@opensearch-project/opensearch';
import { readChanges } from '../../src/store/changes-repo';
import { followStore, syncIncremental } from '../../src/search/sync';
import { upsertOpportunities } from '../../src/store/opportunity-repo';
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
