import type { Pool } from 'pg';
import type { Opportunity } from '../domain/record';

// The change feed read from the canonical store (decisions 11 "Change feed"). Every change to a
// record takes a new sync_seq (opportunity-repo.ts, writers serialised), so one row per record
// holds its latest state at its latest position: keyset paging on sync_seq (indexed) visits each
// record once, in the order its changes were indexed. A deletion keeps the row (deleted_at set,
// new sync_seq): that row is the tombstone.

export interface ChangeFeedRow {
  seq: number;
  id: string;
  /** The time of the deletion for a tombstone, null for a stored record. */
  deletedAt: Date | null;
  record: Opportunity;
}

export interface ChangeFeedQuery {
  /** Exclusive keyset position: rows with a larger sync_seq. */
  after: number;
  /** Inclusive lower bound on changed_at (a tombstone's is its deletion time); null: no bound. */
  since: Date | null;
  limit: number;
  /** Only changes the search index has applied (sync_state.watermark of this alias). */
  alias: string;
}

/**
 * The next `limit` changes after a position. Bounded by the alias's sync watermark, so the feed
 * never shows a change that list and count do not reflect yet ("the order their changes were
 * indexed", decisions 11).
 */
export async function readChanges(pool: Pool, q: ChangeFeedQuery): Promise<ChangeFeedRow[]> {
  const res = await pool.query<{
    seq: string;
    id: string;
    deleted_at: Date | null;
    record: Opportunity;
  }>(
    `SELECT o.sync_seq AS seq, o.id, o.deleted_at, o.record
     FROM opportunities o
     WHERE o.sync_seq > $1
       AND o.sync_seq <= COALESCE((SELECT watermark FROM sync_state WHERE index_alias = $2), 0)
       AND ($3::timestamptz IS NULL OR COALESCE(o.deleted_at, o.changed_at) >= $3::timestamptz)
     ORDER BY o.sync_seq
     LIMIT $4`,
    [q.after, q.alias, q.since, q.limit],
  );
  return res.rows.map((r) => ({
    seq: Number(r.seq),
    id: r.id,
    deletedAt: r.deleted_at,
    record: r.record,
  }));
}
