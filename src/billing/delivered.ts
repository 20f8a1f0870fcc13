import type { Pool } from 'pg';

/** How many of the ids $3 the account $1 was delivered in the period starting at $2. */
export const ALL_DELIVERED = `SELECT count(*)::int AS n FROM metering_deliveries
     WHERE account_id = $1 AND period_start = $2 AND opportunity_id = ANY($3::uuid[])`;

/**
 * Whether every id was already delivered to the account in the period that starts at
 * periodStart (one indexed probe of the ledger's primary key; read-only, takes no lock).
 */
export async function allDelivered(
  pool: Pool,
  accountId: string,
  periodStart: Date,
  ids: readonly string[],
): Promise<boolean> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return true;
  const { rows } = await pool.query<{ n: number }>(ALL_DELIVERED, [accountId, periodStart, unique]);
  return rows[0]?.n === unique.length;
}
