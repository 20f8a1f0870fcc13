import type { Client } from '@opensearch-project/opensearch';
import type { Pool, PoolClient } from 'pg';
import type { Taxonomy } from '../domain/taxonomy';
import { NO_PROGRESS, type Progress } from '../infra/progress';
import { changesSince, countChangesSince, type ChangeRow } from '../store/opportunity-repo';
import { withWatchedClient } from '../store/db';
import {
  BULK_RETRY,
  bulkWithRetry,
  withRetries,
  type BulkOperation,
  type RetryPolicy,
} from './bulk';
import { toDocument } from './documents';
import { indexChanged } from './generation';
import {
  aliasIndexUuid,
  aliasTargets,
  detachAlias,
  createVersionedIndex,
  ensureIndex,
  indexUuid,
  swapAlias,
} from './index-manager';
import { compactIndex } from './index-compaction';
import type { IndexLayout } from './index-layout';
import { pruneRetiredIndices, retireIndices } from './retired-indices';

// Postgres is canonical; the index is a projection of it. Every change to a record takes a new
// sync_seq (store/opportunity-repo.ts, writers serialised), so "everything after the watermark" is
// exactly what the index has not seen. The watermark advances only after a batch is indexed, so a
// crashed sync resumes where it stopped; a session advisory lock per alias makes a second
// concurrent sync wait and then find nothing left to do.
// The watermark describes one index: sync_state keeps the uuid of the index it was written for
// (migration 009). When the index behind the alias is another one, or none (the search engine's
// data was destroyed, the index deleted), the index was lost: it is rebuilt as `reindex` builds
// one, filled before the alias names it (indexLost).

export interface SyncDeps {
  pool: Pool;
  search: Client;
  alias: string;
  taxonomy: Taxonomy;
  /** Shards and replicas for new index versions. */
  indexLayout?: IndexLayout;
  /** RETIRED_INDEX_GRACE_MS: how long an index left by a reindex is kept. */
  env?: { RETIRED_INDEX_GRACE_MS: number };
  /** Records done, for the CLI's progress lines. */
  progress?: Progress;
  /** Backoff for 429s, 5xx and timeouts of bulk calls. */
  retry?: RetryPolicy;
  /**
   * Aborted: stop after the batch in hand (its watermark saved), so a process shutting down
   * leaves the rest to the next sync (the index follower's stop, contract §22.8).
   */
  signal?: AbortSignal;
}

const DEFAULT_RETIRED_GRACE_MS = 600_000;
const retiredGrace = (deps: SyncDeps) =>
  deps.env?.RETIRED_INDEX_GRACE_MS ?? DEFAULT_RETIRED_GRACE_MS;

export interface SyncResult {
  indexed: number;
  deleted: number;
  watermark: number;
  index: string;
  /**
   * False when the final refresh kept failing: everything is indexed and the watermark saved, and
   * the index's own refresh interval makes it visible within a second, so hours of work are not
   * reported as lost; running sync again refreshes.
   */
  refreshed?: boolean;
  /**
   * A reindex's new index merged before the swap (search/index-compaction.ts); false when the
   * merge failed or ran out of time: the index serves the same, only larger and slower.
   */
  compacted?: boolean;
  /**
   * A rebuild stopped by the signal (a process shutting down) before its index was full: the new
   * index was dropped and the alias left where it was; the next pass starts the rebuild again.
   */
  stopped?: boolean;
}

const BATCH = 2000;

const lockName = (deps: SyncDeps) => `sync:${deps.alias}`;

async function withSyncLock<T>(deps: SyncDeps, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  let value!: T;
  await holdingSyncLock(deps, true, async (client) => {
    value = await fn(client);
  });
  return value;
}

/** Like withSyncLock, but only if the lock is free now: null when another process holds it. */
function trySyncLock<T>(deps: SyncDeps, fn: (client: PoolClient) => Promise<T>): Promise<T | null> {
  return holdingSyncLock(deps, false, fn);
}

/** Runs `fn` holding the sync lock: waiting for it, or giving up (null) when it is taken. */
async function holdingSyncLock<T>(
  deps: SyncDeps,
  wait: boolean,
  fn: (client: PoolClient) => Promise<T>,
): Promise<T | null> {
  // Held while the index is written: the connection idles meanwhile, so it is watched.
  return withWatchedClient(deps.pool, async (client) => {
    let locked = false;
    try {
      const res = await client.query<{ locked: boolean }>(
        wait
          ? 'SELECT true AS locked FROM pg_advisory_lock(hashtext($1))'
          : 'SELECT pg_try_advisory_lock(hashtext($1)) AS locked',
        [lockName(deps)],
      );
      locked = res.rows[0]?.locked === true;
      return locked ? await fn(client) : null;
    } finally {
      if (locked) {
        await client
          .query('SELECT pg_advisory_unlock(hashtext($1))', [lockName(deps)])
          .catch(() => undefined);
      }
    }
  });
}

interface SyncState {
  watermark: number;
  /** The uuid of the index the watermark was written for; null before migration 009's first sync. */
  indexUuid: string | null;
  /** What the change feed shows (publishWatermark); only a sync holding the lock moves it. */
  visible: number;
}

async function readSyncState(client: PoolClient, alias: string): Promise<SyncState> {
  const res = await client.query<{
    watermark: string;
    index_uuid: string | null;
    visible_watermark: string;
  }>(
    `INSERT INTO sync_state (index_alias) VALUES ($1)
     ON CONFLICT (index_alias) DO UPDATE SET index_alias = EXCLUDED.index_alias
     RETURNING watermark, index_uuid, visible_watermark`,
    [alias],
  );
  const row = res.rows[0];
  return {
    watermark: Number(row?.watermark ?? 0),
    indexUuid: row?.index_uuid ?? null,
    visible: Number(row?.visible_watermark ?? 0),
  };
}

/** `index` (name and uuid) only when the watermark now describes another index. */
async function writeWatermark(
  client: PoolClient,
  alias: string,
  watermark: number,
  index?: { name: string; uuid: string },
) {
  await client.query(
    `UPDATE sync_state SET watermark = $2, index_name = COALESCE($3, index_name),
            index_uuid = COALESCE($4, index_uuid), updated_at = now()
     WHERE index_alias = $1`,
    [alias, watermark, index?.name ?? null, index?.uuid ?? null],
  );
}

/**
 * contract §12.2: the feed shows changes up to here. Written once what was indexed is searchable
 * (refreshed) and this process's caches and the others' (the index-changed notice) have let go of
 * older answers, so a client that reads a change in the feed finds it in list and count. It only
 * rises: an index rebuilt from watermark 0 (lost, created anew) leaves the feed where it was, so a
 * new feed's horizon is never 0 for the rebuild's length (every record "after" it).
 */
async function publishWatermark(client: PoolClient, alias: string, watermark: number) {
  await client.query(
    'UPDATE sync_state SET visible_watermark = $2 WHERE index_alias = $1 AND visible_watermark < $2',
    [alias, watermark],
  );
}

/**
 * Where this sync starts: the watermark, or 0 when the index behind the alias is not the one the
 * watermark was written for. Recorded at once, so a sync that stops midway resumes in this index.
 * A state from before migration 009 (no uuid) with a watermark also starts again: nothing tells
 * that its index is the one it counted, and a second pass over indexed records changes nothing.
 * With it, what the change feed shows: the sync holds the lock, so nothing else moves it meanwhile.
 */
async function startingPoint(
  client: PoolClient,
  alias: string,
  state: SyncState,
  index: { name: string; uuid: string },
): Promise<{ from: number; visible: number }> {
  if (state.indexUuid === index.uuid) return { from: state.watermark, visible: state.visible };
  await writeWatermark(client, alias, 0, index);
  return { from: 0, visible: state.visible };
}

async function bulkApply(deps: SyncDeps, index: string, rows: ChangeRow[]) {
  const operations: BulkOperation[] = [];
  let indexed = 0;
  let deleted = 0;
  for (const row of rows) {
    if (row.deleted) {
      operations.push({ action: { delete: { _index: index, _id: row.id } } });
      deleted++;
    } else {
      operations.push({
        action: { index: { _index: index, _id: row.id } },
        // record_num: the bitmap exclusion of new_count and unseen_only (search/exclusions.ts).
        document: { ...toDocument(row.record, deps.taxonomy), record_num: row.recordNum },
      });
      indexed++;
    }
  }
  await bulkWithRetry(deps.search, operations, deps.retry ?? BULK_RETRY);
  return { indexed, deleted };
}

/**
 * The last step of hours of work must not throw them away: the refresh is
 * retried, and if it still fails the result says so instead of failing the command.
 */
async function refreshSafely(deps: SyncDeps, index: string): Promise<boolean> {
  try {
    await withRetries(() => deps.search.indices.refresh({ index }), deps.retry ?? BULK_RETRY);
    return true;
  } catch {
    return false;
  }
}

async function applyChanges(
  deps: SyncDeps,
  client: PoolClient,
  index: string,
  from: number,
  includeDeleted: boolean,
  onBatch: (watermark: number) => Promise<void>,
): Promise<Omit<SyncResult, 'index'>> {
  let watermark = from;
  let indexed = 0;
  let deleted = 0;
  // Reading the next batch from Postgres overlaps indexing the current one.
  let rows = await changesSince(client, watermark, BATCH, includeDeleted);
  while (rows.length) {
    const last = rows[rows.length - 1]?.seq ?? watermark;
    const [n, next] = await Promise.all([
      bulkApply(deps, index, rows),
      changesSince(client, last, BATCH, includeDeleted),
    ]);
    indexed += n.indexed;
    deleted += n.deleted;
    deps.progress?.advance(rows.length);
    watermark = last;
    await onBatch(watermark);
    if (deps.signal?.aborted) break;
    rows = next;
  }
  return { indexed, deleted, watermark };
}

/**
 * Incremental sync: indexes what changed since the last successful sync, then refreshes. The
 * refresh runs even when nothing changed, so a run after one whose refresh failed completes it.
 */
export async function syncIncremental(deps: SyncDeps): Promise<SyncResult> {
  return withSyncLock(deps, (client) => incrementalUnderLock(deps, client));
}

async function incrementalUnderLock(deps: SyncDeps, client: PoolClient): Promise<SyncResult> {
  const state = await readSyncState(client, deps.alias);
  if (await indexLost(deps, client, state)) return rebuildUnderLock(deps, client, state, true);
  const index = await ensureIndex(deps.search, deps.alias, deps.indexLayout);
  const uuid = await indexUuid(deps.search, index);
  await pruneRetiredIndices(deps.search, deps.alias, retiredGrace(deps));
  const { from, visible } = await startingPoint(client, deps.alias, state, { name: index, uuid });
  (deps.progress ?? NO_PROGRESS).phase('index', await countChangesSince(client, from));
  const result = await applyChanges(deps, client, deps.alias, from, true, (w) =>
    writeWatermark(client, deps.alias, w),
  );
  const refreshed = await refreshSafely(deps, deps.alias);
  // The notice also when nothing was indexed now but a sync that stopped before its notice left
  // changes unpublished: the caches may still hold answers from before them.
  if (result.indexed || result.deleted || visible < result.watermark) {
    await indexChanged(deps.pool, deps.alias);
  }
  // A refresh that kept failing still publishes: the index's own refresh interval (1 s) makes
  // the batches searchable, and a feed held back until the next sync would stall for as long.
  await publishWatermark(client, deps.alias, result.watermark);
  return { ...result, index, refreshed };
}

/** What one pass of the index follower did (search/index-follower.ts). */
export type FollowResult =
  { ran: false; reason: 'locked' | 'current' } | { ran: true; result: SyncResult };

/**
 * contract §22.8: one pass of the index follower that every API process runs. It takes the sync lock
 * only if it is free now (a sync, import or reindex holding it is doing the work already), and
 * syncs only when the store has changes past the watermark, when the index behind the alias is
 * not the one the watermark was written for (gone, or created anew and empty), or when
 * `refreshPending` (the last pass's refresh failed): an idle pass costs one indexed query and one
 * look at the alias's index.
 */
export async function followStore(deps: SyncDeps, refreshPending = false): Promise<FollowResult> {
  const result = await trySyncLock(deps, async (client): Promise<FollowResult> => {
    if (!refreshPending && !(await storeAhead(client, deps))) {
      return { ran: false, reason: 'current' };
    }
    return { ran: true, result: await incrementalUnderLock(deps, client) };
  });
  return result ?? { ran: false, reason: 'locked' };
}

/**
 * Whether the store holds a change (record or deletion) the index has not seen, or the feed does
 * not show one the index has (a sync that stopped between its last batch and its publication).
 */
async function storeAhead(client: PoolClient, deps: SyncDeps): Promise<boolean> {
  const res = await client.query<{ ahead: boolean; index_uuid: string | null }>(
    `SELECT COALESCE((SELECT max(sync_seq) FROM opportunities), 0)
          > COALESCE((SELECT watermark FROM sync_state WHERE index_alias = $1), 0)
         OR COALESCE((SELECT visible_watermark < watermark FROM sync_state
                       WHERE index_alias = $1), false) AS ahead,
            (SELECT index_uuid FROM sync_state WHERE index_alias = $1) AS index_uuid`,
    [deps.alias],
  );
  const row = res.rows[0];
  if (row?.ahead === true) return true;
  const live = await aliasIndexUuid(deps.search, deps.alias);
  return live === null || live !== row?.index_uuid;
}

/**
 * Full rebuild: fills a new versioned index from one consistent snapshot, swaps the alias in one
 * atomic call (reads never see a missing or half-filled index), retires the old index (deleted by
 * a later sync or reindex once older than RETIRED_INDEX_GRACE_MS), then catches up with whatever
 * changed while it was filling.
 */
export async function reindex(deps: SyncDeps): Promise<SyncResult> {
  return withSyncLock(deps, async (client) =>
    rebuildUnderLock(deps, client, await readSyncState(client, deps.alias), false),
  );
}

/**
 * Whether the index the watermark was written for is gone (deleted, or its cluster's data lost:
 * the alias points nowhere, or at an index made anew) while the store holds records. Filled again
 * in place, behind the alias, it answered lists and counts with what it held so far: a count of 0,
 * then a part, and a cursor walk that ended early, all as 200s. A database never synced (no index
 * recorded) fills its first index in place: there is nothing to answer from before.
 */
async function indexLost(deps: SyncDeps, client: PoolClient, state: SyncState): Promise<boolean> {
  if (state.indexUuid === null) return false;
  if ((await aliasIndexUuid(deps.search, deps.alias)) === state.indexUuid) return false;
  return storeHoldsRecords(client);
}

/**
 * At start-up, before the index is made: whether the index the store was synced into is gone. Made
 * anew and empty behind the alias, it would answer as if the inventory were empty until the index
 * follower's rebuild moved the alias (indexLost); left missing, lists and counts answer 503.
 */
export async function indexLostAtStart(
  pool: Pool,
  search: Client,
  alias: string,
): Promise<boolean> {
  const res = await pool.query<{ uuid: string | null }>(
    'SELECT index_uuid AS uuid FROM sync_state WHERE index_alias = $1',
    [alias],
  );
  if (!res.rows[0]?.uuid) return false;
  return (await aliasTargets(search, alias)).length === 0 && storeHoldsRecords(pool);
}

/** Whether the store holds any record (a deleted one included: the feed serves its tombstone). */
async function storeHoldsRecords(db: Pick<Pool, 'query'>): Promise<boolean> {
  const res = await db.query<{ any: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM opportunities) AS any',
  );
  return res.rows[0]?.any === true;
}

/**
 * The rebuild of `reindex`, under the sync lock. When the index was `lost`, the alias leaves
 * whatever index took its place first (one made anew and empty): lists and counts
 * answer 503 search_unavailable until the alias moves to the filled index, never a part of it.
 */
async function rebuildUnderLock(
  deps: SyncDeps,
  client: PoolClient,
  state: SyncState,
  lost: boolean,
): Promise<SyncResult> {
  if (lost) await retireIndices(deps.search, await detachAlias(deps.search, deps.alias));
  const index = await createVersionedIndex(
    deps.search,
    deps.alias,
    `${Date.now()}`,
    deps.indexLayout,
  );
  await deps.search.indices.putSettings({ index, body: { index: { refresh_interval: '-1' } } });
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  let filled: Omit<SyncResult, 'index'>;
  let snapshotMax: number;
  try {
    const max = await client.query<{ max: string | null }>(
      'SELECT max(sync_seq) AS max FROM opportunities',
    );
    snapshotMax = Number(max.rows[0]?.max ?? 0);
    (deps.progress ?? NO_PROGRESS).phase('reindex', await countChangesSince(client, 0, false));
    filled = await applyChanges(deps, client, index, 0, false, async () => undefined);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    await deps.search.indices.delete({ index }).catch(() => undefined);
    throw err;
  }
  // The fill stops after its batch in hand when the process shuts down (applyChanges). Swapped
  // in, a part of the inventory would be named by the alias with the snapshot's watermark, and
  // nothing after would see it as lost or behind: a count of 2,000 of 8,195 for good.
  if (deps.signal?.aborted) {
    await deps.search.indices.delete({ index }).catch(() => undefined);
    return {
      ...filled,
      watermark: state.watermark,
      index,
      stopped: true,
    };
  }
  await deps.search.indices.putSettings({ index, body: { index: { refresh_interval: '1s' } } });
  await deps.search.indices.refresh({ index });
  // Compacted before it takes reads: the alias moves once the merge is done.
  (deps.progress ?? NO_PROGRESS).phase('merge', null);
  const compacted = await compactIndex(deps.search, index);
  // Searches in flight may still run on the old index: it is retired, deleted after the grace.
  await retireIndices(deps.search, await swapAlias(deps.search, deps.alias, index));
  await indexChanged(deps.pool, deps.alias);
  await pruneRetiredIndices(deps.search, deps.alias, retiredGrace(deps));
  await writeWatermark(client, deps.alias, snapshotMax, {
    name: index,
    uuid: await indexUuid(deps.search, index),
  });
  const caughtUp = await applyChanges(deps, client, deps.alias, snapshotMax, true, (w) =>
    writeWatermark(client, deps.alias, w),
  );
  if (caughtUp.indexed || caughtUp.deleted) {
    await deps.search.indices.refresh({ index: deps.alias });
    await indexChanged(deps.pool, deps.alias);
  }
  await publishWatermark(client, deps.alias, caughtUp.watermark);
  return {
    indexed: filled.indexed + caughtUp.indexed,
    deleted: caughtUp.deleted,
    watermark: Math.max(snapshotMax, caughtUp.watermark),
    index,
    compacted,
  };
}
