import type { Pool } from 'pg';

/** Which of the ids $3 the account $1 was delivered in the period starting at $2. */
export const DELIVERED_AMONG = `SELECT opportunity_id::text AS id FROM metering_deliveries
     WHERE account_id = $1 AND period_start = $2 AND opportunity_id = ANY($3::uuid[])`;

/**
 * How many of the ids, from the first, were already delivered to the account in the period that
 * starts at periodStart: all of them, or the index of the first one not delivered (one indexed
 * probe of the ledger's primary key; read-only, takes no lock).
 */
export async function deliveredPrefix(
  pool: Pool,
  accountId: string,
  periodStart: Date,
  ids: readonly string[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const { rows } = await pool.query<{ id: string }>(DELIVERED_AMONG, [
    accountId,
    periodStart,
    [...new Set(ids)],
  ]);
  const delivered = new Set(rows.map((r) => r.id));
  const first = ids.findIndex((id) => !delivered.has(id.toLowerCase()));
  return first < 0 ? ids.length : first;
}
