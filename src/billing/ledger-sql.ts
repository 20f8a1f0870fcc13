import { ACCOUNT_COLUMNS, rowToAccount, type AccountRow } from '../store/account-repo';
import type { Opportunity } from '../domain/record';
import { liveRecordQuery } from '../store/opportunity-repo';
import { accountBilling } from './account-limits';
import type { AccountBilling, PeriodUsage } from './snapshot';

// Every statement of the Postgres meter (migrations 004, 008, 011 and 012) and the mapping of its
// rows. Kept apart from pg-meter.ts so that the order of the statements there reads on its own. The
// values go in as parameters (prepared statements) or as literals of sql-batch.ts, nothing else.

// The account's columns are the store's one list (store/account-repo.ts ACCOUNT_COLUMNS), which
// reads the plan by a scalar subquery so that it stays right under FOR UPDATE.

/** The account's row alone ($1), for what needs its period but not its usage. */
export const ACCOUNT_ROW = `SELECT ${ACCOUNT_COLUMNS} FROM accounts a WHERE a.id = $1`;

const USAGE_COLUMNS = 's.period_start AS usage_guess, u.used, u.included_used, u.payg_used';

/**
 * For each pair of $1 (accounts) and $2 (period starts, in step), the account with its usage row of
 * exactly that period. The start is the caller's guess of the account's current period, checked
 * against the account read with it, and read again when wrong (pg-meter.ts usageRows): the latest
 * row is not the current period's when an account's period moved back (a plan downgraded to the
 * calendar month, a stored period cleared or replaced by an earlier one).
 */
export const ACCOUNTS_WITH_USAGE = `
  SELECT ${ACCOUNT_COLUMNS}, ${USAGE_COLUMNS}
    FROM unnest($1::uuid[], $2::timestamptz[]) AS s(account_id, period_start)
    JOIN accounts a ON a.id = s.account_id
    LEFT JOIN metering_usage u ON u.account_id = a.id AND u.period_start = s.period_start`;

/**
 * ACCOUNTS_WITH_USAGE as keys see it, in the same round trip: for each triple of $1 (accounts), $2
 * (period starts) and $3 (keys, in step; null: the account alone), the account with its usage of
 * that period, and the key's own allowance (contract §15.4) with its included use in that period.
 * A key that is not the account's reads as none.
 */
export const ACCOUNT_KEYS_WITH_USAGE = `
  SELECT ${ACCOUNT_COLUMNS}, ${USAGE_COLUMNS},
         s.key_id::text AS key_id, k.allowance AS key_allowance,
         ku.included_used AS key_included_used
    FROM unnest($1::uuid[], $2::timestamptz[], $3::uuid[]) AS s(account_id, period_start, key_id)
    JOIN accounts a ON a.id = s.account_id
    LEFT JOIN metering_usage u ON u.account_id = a.id AND u.period_start = s.period_start
    LEFT JOIN api_keys k ON k.id = s.key_id AND k.account_id = a.id
    LEFT JOIN metering_key_usage ku
      ON ku.key_id = k.id AND k.allowance IS NOT NULL AND ku.period_start = s.period_start`;

/**
 * A delivery's read, without a lock (pg-meter.ts readPage): the key's allowance, this period's
 * usage and, in page order, which of the ids are new this period. Only a guess for the ids that are
 * new: meter_charge decides again, under the primary key, which it records.
 * Each id is looked up by one probe of the primary key: a scalar subquery with LIMIT is never
 * turned into a join, so the plan stays cheap whatever the account's history and however stale
 * its statistics (NOT EXISTS and = ANY were both planned as a scan of the account's whole period
 * when the statistics lagged behind a fast-growing ledger). $1 account, $2 key, $3 period start,
 * $4 ids.
 */
const USAGE_AND_NEW_IDS = `
  SELECT k.id IS NOT NULL AS key_found, k.allowance AS key_allowance,
         u.used, u.included_used, u.payg_used, ku.included_used AS key_included_used,
         ARRAY(
           SELECT t.id FROM unnest($4::uuid[]) WITH ORDINALITY AS t(id, n)
            WHERE (SELECT true FROM metering_deliveries d
                    WHERE d.account_id = $1 AND d.period_start = $3 AND d.opportunity_id = t.id
                    LIMIT 1) IS NULL
            GROUP BY t.id ORDER BY min(t.n))::text[] AS new_ids
    FROM (SELECT 1) AS one
    LEFT JOIN api_keys k ON k.id = $2::uuid AND k.account_id = $1::uuid
    LEFT JOIN metering_usage u ON u.account_id = $1::uuid AND u.period_start = $3::timestamptz
    LEFT JOIN metering_key_usage ku ON ku.key_id = $2::uuid AND ku.period_start = $3`;

/**
 * The fingerprint of the account's billing state but its balance (migration 011
 * meter_billing_fingerprint, the one definition): what meter_deliver compares before it charges
 * under the state a process cached from READ_PAGE_HOLDING. Over the accounts row `a`.
 */
const BILLING_FINGERPRINT = `meter_billing_fingerprint(a.plan_id, a.billing_model, a.status,
         a.allowance_override, a.period_start, a.period_end)`;

/** READ_PAGE, with `fingerprint` as one more column when given. */
function readPage(fingerprint: string | null): string {
  const extra = fingerprint === null ? '' : `,\n         ${fingerprint} AS billing_fingerprint`;
  return `
  WITH durability AS (SELECT set_config('synchronous_commit', 'off', true) AS off),
  spend AS (
    INSERT INTO metering_request_ids (account_id, request_id)
    SELECT $1::uuid, $5::text FROM durability WHERE $5::text IS NOT NULL
    ON CONFLICT (account_id, request_id) DO NOTHING
    RETURNING 1)
  SELECT ${ACCOUNT_COLUMNS}, (SELECT count(*) FROM spend)::int AS spent, page.*${extra}
    FROM accounts a, (${USAGE_AND_NEW_IDS}) AS page
   WHERE a.id = $1`;
}

/**
 * A delivery's first round trip as ONE prepared statement (planned once per connection, where a
 * multi-statement text is planned again on every call): spends the request id $5 (none when null),
 * reads the account and, for the period starting at $3 (a guess, checked by the caller), what
 * USAGE_AND_NEW_IDS reads. `spent` is 1 when the id was fresh. set_config(..., true) makes this
 * autocommitted statement's commit asynchronous: a spent id needs no disk flush (a delivery's own
 * flush covers it, see DURABLE). $1 account, $2 key, $3 period start, $4 ids, $5 request id.
 */
export const READ_PAGE = readPage(null);

/**
 * READ_PAGE with the account's billing fingerprint as `billing_fingerprint`: sent when the process
 * holds no usable billing state for the account (none yet, a stale one dropped, a new period), so
 * that it holds one after (pg-meter.ts). A process that holds one sends READ_PAGE: the fingerprint
 * is not computed on every page of repeats.
 */
export const READ_PAGE_HOLDING = readPage(BILLING_FINGERPRINT);

/**
 * The first round trip of pages this process knows delivered (billing/known-delivered.ts), for
 * several calls of one account at once, as ONE prepared statement: spends their request ids $3
 * (in id order; null for a call whose id is spent already) and reads the account with its usage of
 * the period starting at $2 (the held state's; the caller checks it against the account). Nothing
 * about the pages is read: every id on them was delivered this period, and a delivery is never
 * taken back within it. `spent_ids`: the ids that were fresh. `key_allowances` and
 * `key_included_used`: each call's key ($4, in the calls' order) with its own allowance and its
 * included use of the period (contract §15.4), for the headers. Committed asynchronously, as
 * READ_PAGE. $1 account.
 */
export const KNOWN_PAGES = `
  WITH durability AS (SELECT set_config('synchronous_commit', 'off', true) AS off),
  spend AS (
    INSERT INTO metering_request_ids (account_id, request_id)
    SELECT $1::uuid, t.id
      FROM durability, (SELECT DISTINCT r.id FROM unnest($3::text[]) AS r(id)
                         WHERE r.id IS NOT NULL) AS t
     ORDER BY t.id
    ON CONFLICT (account_id, request_id) DO NOTHING
    RETURNING request_id)
  SELECT ${ACCOUNT_COLUMNS}, u.used, u.included_used, u.payg_used,
         ARRAY(SELECT request_id FROM spend) AS spent_ids,
         ARRAY(SELECT k.allowance
                 FROM unnest($4::uuid[]) WITH ORDINALITY AS c(key_id, n)
                 LEFT JOIN api_keys k ON k.id = c.key_id AND k.account_id = $1::uuid
                ORDER BY c.n) AS key_allowances,
         ARRAY(SELECT ku.included_used
                 FROM unnest($4::uuid[]) WITH ORDINALITY AS c(key_id, n)
                 LEFT JOIN metering_key_usage ku
                   ON ku.key_id = c.key_id AND ku.period_start = $2::timestamptz
                ORDER BY c.n) AS key_included_used
    FROM accounts a
    LEFT JOIN metering_usage u ON u.account_id = a.id AND u.period_start = $2::timestamptz
   WHERE a.id = $1`;

/**
 * Spends a request id (contract §17.2): one row per account and id. Its rowCount is 1 when the id
 * was fresh, 0 when the account had spent it (→ 409). $1 account, $2 request id.
 */
export const SPEND_REQUEST_ID = `
  INSERT INTO metering_request_ids (account_id, request_id) VALUES ($1, $2)
  ON CONFLICT (account_id, request_id) DO NOTHING`;

/** contract §17.4: "A spent id is remembered for at least 7 days (older ones may be pruned)." */
export const REQUEST_ID_RETENTION_DAYS = 7;

/**
 * Deletes at most $2 ids spent before $1, so that one prune never holds a long transaction; repeat
 * until it deletes fewer than $2. The index on created_at finds them.
 */
export const PRUNE_REQUEST_IDS = `
  DELETE FROM metering_request_ids WHERE ctid = ANY (ARRAY(
    SELECT ctid FROM metering_request_ids WHERE created_at < $1 LIMIT $2))`;

/** How long the deliveries of a period are kept after the period ended (then pruned). */
export const DELIVERY_RETENTION_DAYS = 90;

/**
 * Deletes at most $2 deliveries of periods that ended before $1 (their counters stay in
 * metering_usage and their money in wallet_ledger): nothing charges against an ended period, and
 * a busy account adds hundreds of thousands of rows a period. The usage rows name the ended
 * periods; the primary key finds each one's deliveries.
 */
export const PRUNE_DELIVERIES = `
  DELETE FROM metering_deliveries WHERE ctid = ANY (ARRAY(
    SELECT d.ctid FROM metering_usage u
      JOIN metering_deliveries d ON d.account_id = u.account_id AND d.period_start = u.period_start
     WHERE u.period_end < $1 LIMIT $2))`;

/**
 * The tables every request writes, and the records. Postgres may run without autovacuum (this
 * project's own machines do): the retention step vacuums and analyses them itself, so that the
 * space of pruned and updated rows is reused rather than the tables growing for ever, and so that
 * the planner's statistics follow a ledger that grows by the minute. The records because a charge
 * reads their numbers by index alone (migration 015): with the table's visibility map unset, as
 * imports leave it, each number costs a read of the record's row (about 1 ms of Postgres more a
 * page of 25 on the AMD guest of 2026-11-29).
 */
export const VACUUMED_TABLES = [
  'metering_request_ids',
  'metering_deliveries',
  'metering_usage',
  'metering_key_usage',
  'accounts',
  'opportunities',
] as const;

/** Lets one process of several run the retention step at a time (a session-level lock). */
export const RETENTION_LOCK = `SELECT pg_try_advisory_lock(hashtext('meter:retention')) AS locked`;
export const RETENTION_UNLOCK = `SELECT pg_advisory_unlock(hashtext('meter:retention'))`;

/**
 * The charge of a delivery, as one statement (migration 008 holds meter_charge and why it is safe
 * under concurrency). $1 account, $2 key, $3 period start, $4 period end, $5 the ids new at the
 * caller's read, in page order, $6 request id, $7 the account's allowance, $8 billing model,
 * $9 price per opportunity.
 */
export const CHARGE = `SELECT outcome, new_ids::text[] AS new_ids, included, payg,
         charge::text AS charge, used, included_used, payg_used, balance::text AS balance,
         included_available
    FROM meter_charge($1::uuid, $2::uuid, $3::timestamptz, $4::timestamptz, $5::uuid[], $6::text,
                      $7::int, $8::text, $9::int)`;

/** What a one-round-trip statement answers per call: meter_charge's row, wide numbers as text. */
const DELIVER_COLUMNS = `outcome, new_ids::text[] AS new_ids, included, payg, charge::text AS charge,
         used, included_used, payg_used, balance::text AS balance, included_available`;

/**
 * The call's key's own allowance and its included use of the period (contract §15.4), for the
 * headers: two probes of primary keys in the statement that charges, not a round trip. Read in
 * the statement's snapshot, so before its own charge: after a charge the caller takes what is left
 * from meter_charge's included_available instead (pg-meter.ts keyAfter).
 */
function keyColumns(key: string, periodStart: string): string {
  return `,
         (SELECT k.allowance FROM api_keys k WHERE k.id = ${key}) AS key_allowance,
         (SELECT ku.included_used FROM metering_key_usage ku
           WHERE ku.key_id = ${key} AND ku.period_start = ${periodStart}) AS key_included_used`;
}

/**
 * A page without cut rules in ONE round trip, as one autocommitted prepared statement (migration
 * 011 holds meter_deliver: the fingerprint check, the spend, then meter_charge). $1 account, $2 key,
 * $3 the billing state's fingerprint as READ_PAGE_HOLDING read it, $4 period start, $5 period end, $6 ALL
 * the page's ids, in page order, $7 request id, $8 whether to spend it, $9 the account's allowance,
 * $10 billing model, $11 price per opportunity, $12 lock timeout in ms.
 */
export const DELIVER = deliverOf('$6::uuid[]');

/**
 * A detail (contract §5.5) read and charged in the same round trip: DELIVER over the ids of the
 * live canonical record whose id is $6 (the one, or none), answering that record beside the
 * charge. None found: meter_deliver spends the request id and records nothing (outcome
 * 'repeats', no lock taken), and the caller answers 404. The record is read in the statement's
 * snapshot, as findOpportunity would read it just before.
 */
export const DELIVER_RECORD = `WITH found AS MATERIALIZED (${liveRecordQuery('$6::uuid')})
  ${deliverOf('ARRAY(SELECT id FROM found)', ', (SELECT record FROM found) AS record')}`;

/**
 * DELIVER for several calls of one account at once, as ONE autocommitted prepared statement:
 * meter_deliver_many (migration 012) spends every call's request id, then charges each call in
 * order, as consecutive meter_deliver statements would. Sent by pg-meter.ts for the calls of one
 * account that arrive while its previous one-round-trip statement runs (store/keyed-batches.ts).
 * $1 account, $2 fingerprint, $3 period start, $4 period end, $5 each call's key, $6 each call's
 * ids in page order joined by commas (a uuid holds none), $7 each call's request id, $8 whether to
 * spend it, $9 to $12 as DELIVER. A row per call, in the calls' order (`n`).
 */
export const DELIVER_MANY = `SELECT ${DELIVER_COLUMNS}${keyColumns('($5::uuid[])[n]', '$3::timestamptz')}
    FROM ${deliverManyOf('$6::text[]')} ORDER BY n`;

/**
 * DELIVER_RECORD for several details of one account at once, as DELIVER_MANY does for pages: $6
 * each detail's record id; a row per detail, with the live record read (null: none, and the call
 * has no candidate).
 */
export const DELIVER_RECORD_MANY = `WITH found AS MATERIALIZED (
    SELECT p.n, f.id, f.record
      FROM unnest($6::uuid[]) WITH ORDINALITY AS p(item, n)
      LEFT JOIN LATERAL (${liveRecordQuery('p.item')}) f ON true)
  SELECT ${DELIVER_COLUMNS}${keyColumns('($5::uuid[])[n]', '$3::timestamptz')}, found.record
    FROM ${deliverManyOf("ARRAY(SELECT coalesce(f.id::text, '') FROM found f ORDER BY f.n)")}
    JOIN found USING (n)
   ORDER BY n`;

function deliverManyOf(ids: string): string {
  return `meter_deliver_many($1::uuid, $2::text, $3::timestamptz, $4::timestamptz, $5::uuid[],
                            ${ids}, $7::text[], $8::boolean[], $9::int, $10::text, $11::int,
                            $12::int)`;
}

function deliverOf(ids: string, extra = ''): string {
  return `SELECT ${DELIVER_COLUMNS}${keyColumns('$2::uuid', '$4::timestamptz')}${extra}
    FROM meter_deliver($1::uuid, $2::uuid, $3::text, $4::timestamptz, $5::timestamptz, ${ids},
                       $7::text, $8::boolean, $9::int, $10::text, $11::int, $12::int)`;
}

/**
 * The charge's transaction commits asynchronously, so that the account's next charge does not wait
 * for this one's disk flush while its counter rows are locked (a flush takes ~5 ms on this kind of
 * disk: one account would be held to ~200 charges a second). Before the delivery is answered this
 * statement, started after that COMMIT was acknowledged, in its own synchronously committed
 * transaction on any connection, writes a WAL record and waits for the WAL to reach the disk up to
 * it, and so up to the charge's commit record before it: the charge is as durable as the server's
 * synchronous_commit when the page goes out. One such flush serves every charge acknowledged
 * before it started (store/group-flush.ts).
 */
export const DURABLE = `SELECT pg_logical_emit_message(true, 'meter', 'durable')`;

export type { AccountRow };

export interface UsageColumns {
  used: number | null;
  included_used: number | null;
  payg_used: number | null;
}

export interface UsageAndNewRow extends UsageColumns {
  key_found: boolean;
  key_allowance: number | null;
  key_included_used: number | null;
  new_ids: string[];
}

export type ReadPageRow = AccountRow &
  UsageAndNewRow & { spent: number; billing_fingerprint?: string };

export type KnownPagesRow = AccountRow &
  UsageColumns & {
    spent_ids: string[];
    key_allowances: (number | null)[];
    key_included_used: (number | null)[];
  };

/** ACCOUNTS_WITH_USAGE's row: the usage columns are those of the period `usage_guess` starts. */
export type AccountUsageRow = AccountRow & UsageColumns & { usage_guess: Date };

/** ACCOUNT_KEYS_WITH_USAGE's row. */
export type AccountKeyUsageRow = AccountUsageRow & {
  key_id: string | null;
  key_allowance: number | null;
  key_included_used: number | null;
};

export interface ChargeRow extends UsageColumns {
  outcome:
    | 'delivered'
    | 'repeats'
    | 'insufficient_balance'
    | 'opportunity_quota_exhausted'
    | 'key_not_found'
    // meter_deliver's own (migration 011): the cached billing state is not the account's any more,
    // or the request id was spent before. Nothing was written for either.
    | 'stale'
    | 'duplicate_request_id';
  new_ids: string[] | null;
  included: number | null;
  payg: number | null;
  charge: string | null;
  balance: string | null;
  included_available: number | null;
}

/** DELIVER's row, and DELIVER_RECORD's with the record it read (null: none). */
export interface DeliverRow extends ChargeRow {
  /** The call's key's own allowance and included use, before the charge (keyColumns). */
  key_allowance?: number | null;
  key_included_used?: number | null;
  record?: Opportunity | null;
}

export function toAccountBilling(row: AccountRow): AccountBilling {
  return accountBilling(rowToAccount(row));
}

export function toUsage(row: UsageColumns): PeriodUsage {
  return {
    used: row.used ?? 0,
    includedUsed: row.included_used ?? 0,
    paygUsed: row.payg_used ?? 0,
  };
}

/** bigint columns arrive as strings; money must never be rounded silently. */
export function toSafeInteger(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new Error(`not a safe integer: ${text}`);
  return n;
}
