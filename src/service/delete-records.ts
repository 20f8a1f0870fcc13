import { isUuid } from '../domain/ids';
import { syncIncremental, type SyncResult } from '../search/sync';
import { deleteOpportunities } from '../store/opportunity-repo';
import type { AppDeps } from './context';

export interface DeleteReport {
  ok: boolean;
  /** Ids removed from the store by this run. */
  deleted: string[];
  /** Ids that are not stored records (never imported, already removed, or not a uuid). */
  unknown: string[];
  sync: SyncResult;
}

/**
 * `delete ID [ID...]` (contract §22.9): removes the stored records among the ids in one transaction
 * (each leaves a tombstone in the change feed, contract §12), then syncs the index before it
 * returns, so detail, list and count no longer show them. Unknown ids are reported; the others
 * are still deleted; ok is false when any id was unknown.
 */
export async function deleteRecords(deps: AppDeps, ids: readonly string[]): Promise<DeleteReport> {
  const wanted = [...new Set(ids.map((id) => id.trim().toLowerCase()))];
  const valid = wanted.filter(isUuid);
  const removed = new Set(valid.length ? await deleteOpportunities(deps.pool, valid) : []);
  const sync = await syncIncremental(deps);
  const unknown = wanted.filter((id) => !removed.has(id));
  return {
    ok: unknown.length === 0,
    deleted: wanted.filter((id) => removed.has(id)),
    unknown,
    sync,
  };
}
