import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import type { Opportunity } from '../domain/record';
import { withTransaction } from './db';

// Writers serialise on this lock so that sync_seq values become visible in commit order, which is
// what lets incremental sync keep a single watermark (see search/sync.ts).
const WRITER_LOCK = 7_341_002;

export interface UpsertResult {
  inserted: number;
  updated: number;
  unchanged: number;
}

const hashOf = (record: Opportunity) =>
  createHash('sha256').update(JSON.stringify(record)).digest('base64url');

/**
 * Upserts canonical records by id in one transaction. A record whose content is unchanged is left
 * alone (no new sync_seq), so importing the same file twice changes nothing.
 */
export async function upsertOpportunities(
  pool: Pool,
  records: Opportunity[],
  taxonomyVersion: string,
  /** Insert only ids never stored: a stored record, or a removed one, is left as it is (seed). */
  options: { keepStored?: boolean } = {},
): Promise<UpsertResult> {
  if (!records.length) return { inserted: 0, updated: 0, unchanged: 0 };
  return withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [WRITER_LOCK]);
    const rows = records.map((r, ord) => ({
      ord,
      id: r.id,
      record: r,
      content_hash: hashOf(r),
      liveness_status: r.liveness_status,
      published_at: r.published_at,
      first_seen: r.first_seen,
      changed_at: r.changed_at,
      job_domain: r.job_domain,
      job_family: r.job_family,
      job_subfamily: r.job_subfamily,
      job_class: r.job_class,
      rate_min: r.rate?.min ?? null,
      rate_max: r.rate?.max ?? null,
      rate_currency: r.rate?.currency ?? null,
      rate_unit: r.rate?.unit ?? null,
    }));
    const res = await client.query<{ inserted: boolean }>(
      `INSERT INTO opportunities AS o (id, record, content_hash, liveness_status, published_at, first_seen,
          changed_at, job_domain, job_family, job_subfamily, job_class, rate_min, rate_max,
          rate_currency, rate_unit, taxonomy_version, record_num)
       SELECT x.id, x.record, x.content_hash, x.liveness_status, x.published_at, x.first_seen,
          x.changed_at, x.job_domain, x.job_family, x.job_subfamily, x.job_class, x.rate_min,
          x.rate_max, x.rate_currency, x.rate_unit, $2,
          -- A number only for an id not seen before (migration 009): a default would be drawn
          -- for every row, conflicting ones too, and re-imports would use the 32-bit range up.
          COALESCE(e.record_num, nextval('opportunity_record_num')::integer)
       FROM jsonb_to_recordset($1::jsonb) AS x(ord integer, id uuid, record jsonb,
          content_hash text, liveness_status text, published_at timestamptz,
          first_seen timestamptz, changed_at timestamptz, job_domain text, job_family text, job_subfamily text,
          job_class text, rate_min numeric, rate_max numeric, rate_currency text, rate_unit text)
       LEFT JOIN opportunities e ON e.id = x.id
       -- The batch's order: numbers and sync_seq are drawn as rows arrive (volatile expressions
       -- after the sort), and a hash join on a table the planner thinks large reorders them, so
       -- the change feed would list one import in an order that depends on the plan.
       ORDER BY x.ord
       ON CONFLICT (id) DO UPDATE SET
          record = EXCLUDED.record, content_hash = EXCLUDED.content_hash,
          liveness_status = EXCLUDED.liveness_status, published_at = EXCLUDED.published_at,
          first_seen = EXCLUDED.first_seen, changed_at = EXCLUDED.changed_at,
          job_domain = EXCLUDED.job_domain, job_family = EXCLUDED.job_family,
          job_subfamily = EXCLUDED.job_subfamily, job_class = EXCLUDED.job_class,
          rate_min = EXCLUDED.rate_min, rate_max = EXCLUDED.rate_max,
          rate_currency = EXCLUDED.rate_currency, rate_unit = EXCLUDED.rate_unit,
          taxonomy_version = EXCLUDED.taxonomy_version, deleted_at = NULL,
          sync_seq = nextval('opportunity_sync_seq'), updated_at = now()
       WHERE NOT $3::boolean AND (o.content_hash <> EXCLUDED.content_hash OR o.deleted_at IS NOT NULL)
       RETURNING (xmax = 0) AS inserted`,
      [JSON.stringify(rows), taxonomyVersion, options.keepStored === true],
    );
    const inserted = res.rows.filter((r) => r.inserted).length;
    const updated = res.rows.length - inserted;
    return { inserted, updated, unchanged: records.length - res.rows.length };
  });
}

/**
 * Vacuums and analyses the records after a bulk write (`seed`, `import`): the charge reads their
 * numbers by index alone (migration 015), which needs the visibility map a vacuum sets, and
 * Postgres may run without autovacuum (the service's retention step does it too, but only after
 * its first interval). Outside any transaction, as VACUUM must be.
 */
export async function settleOpportunities(pool: Pool): Promise<void> {
  await pool.query('VACUUM (ANALYZE) opportunities');
}

/**
 * Removes records from the canonical set and returns the ids it removed (stored, not already
 * removed). The row stays as a tombstone: it carries the removal to the index and to the change
 * feed, where deleted_at is the tombstone's changed_at (contract §12).
 */
export async function deleteOpportunities(pool: Pool, ids: string[]): Promise<string[]> {
  return withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [WRITER_LOCK]);
    // The change positions are drawn in the order given (volatile expressions after the sort), so
    // the tombstones of one import follow its file (contract §12.2): an UPDATE drawing them as it
    // scans the table gave them in the table's physical order, or the index's.
    const res = await client.query<{ id: string }>(
      `UPDATE opportunities o
          SET deleted_at = now(), sync_seq = d.seq, updated_at = now()
         FROM (SELECT t.id, nextval('opportunity_sync_seq') AS seq
                 FROM (SELECT u.id, min(u.ord) AS ord
                         FROM unnest($1::uuid[]) WITH ORDINALITY AS u(id, ord)
                         JOIN opportunities live ON live.id = u.id AND live.deleted_at IS NULL
                        GROUP BY u.id) t
                ORDER BY t.ord) d
        WHERE o.id = d.id AND o.deleted_at IS NULL
       RETURNING o.id`,
      [ids],
    );
    return res.rows.map((r) => r.id);
  });
}

/**
 * The stored canonical record of one id, unless deleted (contract §5.5: detail), as a query over
 * the parameter named `param`: detail reads it alone (findOpportunity) or inside the statement
 * that also charges it (billing/ledger-sql.ts DELIVER_RECORD).
 */
export const liveRecordQuery = (param: string) =>
  `SELECT id, record FROM opportunities WHERE id = ${param} AND deleted_at IS NULL`;

const FIND_OPPORTUNITY = liveRecordQuery('$1');

export async function findOpportunity(pool: Pool, id: string): Promise<Opportunity | null> {
  const res = await pool.query<{ record: Opportunity }>(FIND_OPPORTUNITY, [id]);
  return res.rows[0]?.record ?? null;
}

export interface ChangeRow {
  id: string;
  /** The record's stable number (migration 009), indexed for the bitmap exclusion. */
  recordNum: number;
  record: Opportunity;
  deleted: boolean;
  seq: number;
}

/** How many changes follow `watermark` (the total that progress lines show). */
export async function countChangesSince(
  db: Pool | PoolClient,
  watermark: number,
  includeDeleted = true,
): Promise<number> {
  const res = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM opportunities
     WHERE sync_seq > $1 ${includeDeleted ? '' : 'AND deleted_at IS NULL'}`,
    [watermark],
  );
  return Number(res.rows[0]?.n ?? 0);
}

/** The next batch of changes after `watermark`, in sync_seq order. */
export async function changesSince(
  db: Pool | PoolClient,
  watermark: number,
  limit: number,
  includeDeleted = true,
): Promise<ChangeRow[]> {
  const res = await db.query<{
    id: string;
    record_num: number;
    record: Opportunity;
    deleted: boolean;
    seq: string;
  }>(
    `SELECT id, record_num, record, deleted_at IS NOT NULL AS deleted, sync_seq AS seq
     FROM opportunities
     WHERE sync_seq > $1 ${includeDeleted ? '' : 'AND deleted_at IS NULL'}
     ORDER BY sync_seq LIMIT $2`,
    [watermark, limit],
  );
  return res.rows.map((r) => ({
    id: r.id,
    recordNum: r.record_num,
    record: r.record,
    deleted: r.deleted,
    seq: Number(r.seq),
  }));
}
