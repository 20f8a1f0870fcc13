import type { Pool } from 'pg';
import {
  DeliveredCache,
  REFRESH_OVERLAP_MS,
  entrySize,
  numbersOf,
  type Entry,
} from './delivered-cache';
import type { BillingSubject, PeriodDeliveries } from './metering';
import type { Period } from './period';
import { includedAvailable, PRICE_PER_OPPORTUNITY_MILLICENTS, type BillingModel } from './plans';

// What new_count and unseen_only need (contract §10.3, §11.1): the records delivered to the
// account in the current period and how many new ones the included allowance still covers.

/**
 * What a read of the period's deliveries answers, over the deliveries `d` that `source` selects.
 * $1 account, $2 key, $3 period start, $4 the number of deliveries held (-1: none). `used` and
 * the deliveries come from one snapshot; the deliveries are read only when `used` differs from
 * what is held.
 * Each delivery's record number is the one its charge wrote beside it (migration 015), so the read
 * scales with the deliveries, not with the records stored; a row written before that migration
 * takes its number from the record (one index probe, only for such a row: the fence, OFFSET 0,
 * keeps the planner from copying the lookup into both aggregates below). A delivered id with no
 * stored record comes back by id. The numbers come as one comma-joined text: at 200,000
 * deliveries far quicker to parse than an array or a row set. The newest delivery time comes as
 * text to the microsecond: a JavaScript Date would round it to the millisecond, and the next read
 * would take every delivery of that millisecond again (a burst of deliveries written by one
 * statement shares one time).
 */
function periodDeliveries(source: string): string {
  return `
  SELECT k.allowance AS key_allowance, u.used, u.included_used,
         ku.included_used AS key_included_used, fresh.nums, fresh.unmatched, fresh.newest
    FROM (SELECT 1) AS one
    LEFT JOIN api_keys k ON k.id = $2::uuid AND k.account_id = $1::uuid
    LEFT JOIN metering_usage u ON u.account_id = $1::uuid AND u.period_start = $3::timestamptz
    LEFT JOIN metering_key_usage ku ON ku.key_id = $2::uuid AND ku.period_start = $3
    LEFT JOIN LATERAL (
      SELECT string_agg(n.num::text, ',') AS nums,
             string_agg(n.opportunity_id::text, ',') FILTER (WHERE n.num IS NULL) AS unmatched,
             to_char(max(n.delivered_at) AT TIME ZONE 'UTC',
                     'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS newest
        FROM (SELECT d.opportunity_id, d.delivered_at,
                     COALESCE(d.record_num,
                              (SELECT o.record_num FROM opportunities o
                                WHERE o.id = d.opportunity_id)) AS num
                FROM ${source}
               WHERE COALESCE(u.used, 0) <> $4::int AND d.period_start = $3::timestamptz
              OFFSET 0) n
    ) fresh ON true`;
}

/** Every delivery of the period: by the primary key's prefix (account, period). */
export const PERIOD_DELIVERIES = periodDeliveries(
  `(SELECT opportunity_id, period_start, delivered_at, record_num FROM metering_deliveries
          WHERE account_id = $1::uuid) AS d`,
);

/**
 * The deliveries of the period after the time $5 less $6: by the time index (migration 013),
 * whatever the statistics say. The account's rows since the time are found first, behind a fence
 * (OFFSET 0) that keeps the period out of that scan, so the primary key can offer only its first
 * column against the time index's two. And the account is `(SELECT $1)`, a value the planner does
 * not see. Both were needed: with no statistics (a ledger never analysed, or analysed empty) the
 * planner's guesses rated "this period" far more selective than "after this time", and with
 * statistics taken before the account delivered anything it took the account for one with no
 * rows, for which any index looks as cheap as another. Either way it chose the primary key, and
 * each read walked the account's whole period: 60 ms a call at 200,000 deliveries, 0.3 s on a
 * busy machine.
 */
export const PERIOD_DELIVERIES_SINCE = periodDeliveries(
  `(SELECT opportunity_id, period_start, delivered_at, record_num FROM metering_deliveries
          WHERE account_id = (SELECT $1::uuid)
            AND delivered_at > $5::timestamptz - $6::interval
         OFFSET 0) AS d`,
);

/** Every id delivered in the period: for an index without record numbers (mapping before 5). */
const PERIOD_IDS = `
  SELECT string_agg(opportunity_id::text, ',') AS ids FROM metering_deliveries
   WHERE account_id = $1::uuid AND period_start = $2::timestamptz`;

interface Row {
  key_allowance: number | null;
  used: number | null;
  included_used: number | null;
  key_included_used: number | null;
  nums: string | null;
  unmatched: string | null;
  newest: string | null;
}

const split = (text: string | null) => (text ? text.split(',') : []);
const fresh = (row: Row | undefined) => ({
  nums: split(row?.nums ?? null).map(Number),
  unmatched: split(row?.unmatched ?? null),
  newest: row?.newest ?? null,
});

export async function readPeriodDeliveries(
  pool: Pool,
  subject: BillingSubject,
  period: Period,
  account: { billingModel: BillingModel; allowance: number },
  cache: DeliveredCache = new DeliveredCache(),
): Promise<PeriodDeliveries> {
  const read = async (held: number, after: string | null, overlapMs = 0) => {
    const params = [subject.accountId, subject.keyId, period.start, held];
    const { rows } =
      after === null
        ? await pool.query<Row>(PERIOD_DELIVERIES, params)
        : await pool.query<Row>(PERIOD_DELIVERIES_SINCE, [
            ...params,
            after,
            `${overlapMs} milliseconds`,
          ]);
    return rows[0];
  };

  const cached = cache.get(subject.accountId, period.start);
  // First what was delivered after the newest held: all that is new, unless a transaction that
  // started earlier committed later (then `used` is not met, and the reads look further back).
  let row = await read(cached ? entrySize(cached) : -1, cached?.newest ?? null);
  let entry: Entry | undefined = cached;
  if (!cached || (row?.used ?? 0) !== entrySize(cached)) {
    entry = cache.extend(subject.accountId, period.start, fresh(row), !cached);
    if (cached && entrySize(entry) !== (row?.used ?? 0)) {
      row = await read(entrySize(entry), cached.newest, REFRESH_OVERLAP_MS);
      entry = cache.extend(subject.accountId, period.start, fresh(row));
    }
    if (cached && entrySize(entry) !== (row?.used ?? 0)) {
      // Older rows committed late (or a ledger written by hand): read the whole period again.
      row = await read(-1, null);
      entry = cache.extend(subject.accountId, period.start, fresh(row), true);
    }
  }
  const count = entry ? entrySize(entry) : 0;
  // Taken now: the held set grows with later deliveries while this request runs.
  const numbers = entry ? numbersOf(entry) : null;
  return {
    billingModel: account.billingModel,
    delivered: {
      count,
      bitmap: numbers?.bitmap ?? null,
      recent: numbers?.recent ?? [],
      ids: async () => {
        // Read when asked (an index of an older mapping): the period's ids now, a superset of
        // the counted ones, and every one of them delivered, so leaving them out stays exact.
        const res = await pool.query<{ ids: string | null }>(PERIOD_IDS, [
          subject.accountId,
          period.start,
        ]);
        return split(res.rows[0]?.ids ?? null);
      },
    },
    includedAvailable: includedAvailable({
      accountAllowance: account.allowance,
      accountIncludedUsed: row?.included_used ?? 0,
      keyAllowance: row?.key_allowance ?? null,
      keyIncludedUsed: row?.key_included_used ?? 0,
    }),
  };
}

/**
 * new_cost_millicents (contract §10.3): what listing `newCount` new records would take from the
 * wallet once the included allowance is used (§16.3). legacy_wallet includes nothing, so every
 * new one is charged; legacy_entitlement has no wallet (past its allowance it refuses with
 * opportunity_quota_exhausted), so nothing is ever taken from one.
 */
export function newCostMillicents(newCount: number, state: PeriodDeliveries): number {
  if (state.billingModel === 'legacy_entitlement') return 0;
  return Math.max(0, newCount - state.includedAvailable) * PRICE_PER_OPPORTUNITY_MILLICENTS;
}
