import type { Pool } from 'pg';
import { DeliveredCache, REFRESH_OVERLAP_MS } from './delivered-cache';
import type { BillingSubject } from './meter';
import type { Period } from './period';
import { includedAvailable, PRICE_PER_OPPORTUNITY_MILLICENTS, type BillingModel } from './plans';

// What new_count and unseen_only need (decisions 11): the ids delivered to the account in the
// current period and how many new ones the included allowance still covers.

/**
 * $1 account, $2 key, $3 period start, $4 the number of ids held (-1: none), $5 read deliveries
 * from this time on. `used` and the deliveries come from one snapshot; the deliveries are read
 * only when `used` differs from what is held. The ids come as one comma-joined text: at 200,000
 * deliveries that is one 7 MB value, parsed far faster than a 200,000-element array or row set.
 */
const PERIOD_DELIVERIES = `
  SELECT k.allowance AS key_allowance, u.used, u.included_used,
         ku.included_used AS key_included_used, fresh.ids, fresh.newest
    FROM (SELECT 1) AS one
    LEFT JOIN api_keys k ON k.id = $2::uuid AND k.account_id = $1::uuid
    LEFT JOIN metering_usage u ON u.account_id = $1::uuid AND u.period_start = $3::timestamptz
    LEFT JOIN metering_key_usage ku ON ku.key_id = $2::uuid AND ku.period_start = $3
    LEFT JOIN LATERAL (
      SELECT string_agg(d.opportunity_id::text, ',' ORDER BY d.delivered_at, d.opportunity_id) AS ids,
             max(d.delivered_at) AS newest
        FROM metering_deliveries d
       WHERE COALESCE(u.used, 0) <> $4::int
         AND d.account_id = $1::uuid AND d.period_start = $3::timestamptz
         AND d.delivered_at >= $5::timestamptz
    ) fresh ON true`;

export interface PeriodDeliveries {
  billingModel: BillingModel;
  /** Opportunities delivered to the account in the current period (block-sorted, delivered-cache.ts). */
  ids: readonly string[];
  /** New opportunities the included allowance (account and key) still covers. */
  includedAvailable: number;
}

interface Row {
  key_allowance: number | null;
  used: number | null;
  included_used: number | null;
  key_included_used: number | null;
  ids: string | null;
  newest: Date | null;
}

export async function readPeriodDeliveries(
  pool: Pool,
  subject: BillingSubject,
  period: Period,
  account: { billingModel: BillingModel; allowance: number },
  cache: DeliveredCache = new DeliveredCache(),
): Promise<PeriodDeliveries> {
  const read = async (held: number, from: Date | null) =>
    (
      await pool.query<Row>(PERIOD_DELIVERIES, [
        subject.accountId,
        subject.keyId,
        period.start,
        held,
        from ?? '-infinity',
      ])
    ).rows[0];
  const split = (ids: string | null) => (ids ? ids.split(',') : []);

  const cached = cache.get(subject.accountId, period.start);
  const from = cached?.newest ? new Date(cached.newest.getTime() - REFRESH_OVERLAP_MS) : null;
  let row = await read(cached ? cached.ids.length : -1, cached ? from : null);
  const used = row?.used ?? 0;
  let entry = cached;
  if (!cached || used !== cached.ids.length) {
    entry = cache.extend(
      subject.accountId,
      period.start,
      split(row?.ids ?? null),
      row?.newest ?? null,
      !cached,
    );
    if (cached && entry.ids.length !== used) {
      // Older rows committed late (or a ledger written by hand): read the whole period again.
      row = await read(-1, null);
      entry = cache.extend(
        subject.accountId,
        period.start,
        split(row?.ids ?? null),
        row?.newest ?? null,
        true,
      );
    }
  }
  return {
    billingModel: account.billingModel,
    // A copy: the held array grows with later deliveries while this request builds its query.
    ids: entry ? entry.ids.slice() : [],
    includedAvailable: includedAvailable({
      accountAllowance: account.allowance,
      accountIncludedUsed: row?.included_used ?? 0,
      keyAllowance: row?.key_allowance ?? null,
      keyIncludedUsed: row?.key_included_used ?? 0,
    }),
  };
}

/**
 * new_cost_millicents (decisions 11): what listing `newCount` new records would take from the
 * wallet once the included allowance is used (contract 8.2.3). legacy_wallet includes nothing, so
 * every new one is charged; legacy_entitlement has no wallet (past its allowance it refuses with
 * opportunity_quota_exhausted), so nothing is ever taken from one.
 */
export function newCostMillicents(newCount: number, state: PeriodDeliveries): number {
  if (state.billingModel === 'legacy_entitlement') return 0;
  return Math.max(0, newCount - state.includedAvailable) * PRICE_PER_OPPORTUNITY_MILLICENTS;
}
