import type { Pool, PoolClient } from 'pg';
import type { Opportunity } from '../domain/record';

// The change feed read from the canonical store (contract §12). Every change to a
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

// Two statements rather than `$3 IS NULL OR ...`: the time condition must be the plain expression
// of opportunities_change_time (migration 005) for the planner to read a recent since by time.
const COLUMNS = 'o.sync_seq AS seq, o.id, o.deleted_at, o.record';
const BOUNDS = `o.sync_seq > $1
  AND o.sync_seq <= COALESCE((SELECT watermark FROM sync_state WHERE index_alias = $2), 0)`;
const FROM_START = `SELECT ${COLUMNS} FROM opportunities o WHERE ${BOUNDS}
  ORDER BY o.sync_seq LIMIT $3`;
const SINCE = `SELECT ${COLUMNS} FROM opportunities o WHERE ${BOUNDS}
  AND COALESCE(o.deleted_at, o.changed_at) >= $4::timestamptz
  ORDER BY o.sync_seq LIMIT $3`;

/** Where the change feed reads from: the store below, or the fast suite's memory. */
export interface ChangeLog {
  read(q: Omit<ChangeFeedQuery, 'alias'>): Promise<ChangeFeedRow[]>;
}

/** The store's change log, bounded by what the alias's index has applied. */
export function pgChangeLog(pool: Pool, alias: string): ChangeLog {
  return { read: (q) => readChanges(pool, { ...q, alias }) };
}

/**
 * The next `limit` changes after a position. Bounded by the alias's sync watermark, so the feed
 * never shows a change that list and count do not reflect yet ("the order their changes were
 * indexed", contract §12).
 */
export async function readChanges(
  // A pool, or one client of it (a test reads the feed inside its own transaction).
  db: Pool | PoolClient,
  q: ChangeFeedQuery,
): Promise<ChangeFeedRow[]> {
  const params: unknown[] = [q.after, q.alias, q.limit];
  if (q.since) params.push(q.since);
  const res = await db.query<{
    seq: string;
    id: string;
    deleted_at: Date | null;
    record: Opportunity;
  }>(q.since ? SINCE : FROM_START, params);
  return res.rows.map((r) => ({
    seq: Number(r.seq),
    id: r.id,
    deletedAt: r.deleted_at,
    record: r.record,
  }));
}
