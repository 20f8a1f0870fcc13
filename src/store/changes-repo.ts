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
  /**
   * The position of the newest change when the feed was opened with `since`: `since` bounds the
   * changes up to it, and every later change is in the feed whatever its changed_at (a record
   * imported with its own older changed_at, one deleted and then restored). Null: `since` bounds
   * every change (a cursor issued before the horizon was kept).
   */
  horizon?: number | null;
  limit: number;
  /** Only changes list and count reflect (sync_state.visible_watermark of this alias). */
  alias: string;
}

// Two statements rather than `$3 IS NULL OR ...`: the time condition must be the plain expression
// of opportunities_change_time (migration 005) for the planner to read a recent since by time.
const COLUMNS = 'o.sync_seq AS seq, o.id, o.deleted_at, o.record';
const BOUNDS = `o.sync_seq > $1
  AND o.sync_seq <= COALESCE((SELECT visible_watermark FROM sync_state WHERE index_alias = $2), 0)`;
const FROM_START = `SELECT ${COLUMNS} FROM opportunities o WHERE ${BOUNDS}
  ORDER BY o.sync_seq LIMIT $3`;
const SINCE = `SELECT ${COLUMNS} FROM opportunities o WHERE ${BOUNDS}
  AND COALESCE(o.deleted_at, o.changed_at) >= $4::timestamptz
  ORDER BY o.sync_seq LIMIT $3`;
// Up to the horizon as SINCE, after it every change: two index scans, each in sync_seq order.
const SINCE_THEN_ALL = `SELECT * FROM (
  (SELECT ${COLUMNS} FROM opportunities o WHERE ${BOUNDS} AND o.sync_seq <= $5
    AND COALESCE(o.deleted_at, o.changed_at) >= $4::timestamptz
    ORDER BY o.sync_seq LIMIT $3)
  UNION ALL
  (SELECT ${COLUMNS} FROM opportunities o WHERE ${BOUNDS} AND o.sync_seq > $5
    ORDER BY o.sync_seq LIMIT $3)
) c ORDER BY seq LIMIT $3`;
const HORIZON =
  'SELECT COALESCE((SELECT visible_watermark FROM sync_state WHERE index_alias = $1), 0) AS seq';

/** Where the change feed reads from: the store below, or the fast suite's memory. */
export interface ChangeLog {
  read(q: Omit<ChangeFeedQuery, 'alias'>): Promise<ChangeFeedRow[]>;
  /** The position of the newest change the feed shows now: a new feed's horizon. */
  horizon(): Promise<number>;
}

/** The store's change log, bounded by what the alias's index has applied. */
export function pgChangeLog(pool: Pool, alias: string): ChangeLog {
  return {
    read: (q) => readChanges(pool, { ...q, alias }),
    horizon: async () => Number((await pool.query<{ seq: string }>(HORIZON, [alias])).rows[0]?.seq),
  };
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
  const horizon = q.since && q.horizon != null ? q.horizon : null;
  if (q.since) params.push(q.since);
  if (horizon !== null) params.push(horizon);
  const res = await db.query<{
    seq: string;
    id: string;
    deleted_at: Date | null;
    record: Opportunity;
  }>(horizon !== null ? SINCE_THEN_ALL : q.since ? SINCE : FROM_START, params);
  return res.rows.map((r) => ({
    seq: Number(r.seq),
    id: r.id,
    deletedAt: r.deleted_at,
    record: r.record,
  }));
}
