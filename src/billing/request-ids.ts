import { escapeLiteral, type Pool, type QueryResult } from 'pg';

// Spent request ids (contract 5.6, decisions 7). The id stays spent whatever the request's outcome
// (a retry after 402, 429 or 503 needs a new id). A delivery spends it in its own first round trip
// (Meter.deliver, issue 13) and commits that even when it refuses the page with 402; a call that
// never reaches a delivery, or whose delivery failed and rolled back, spends it on its own
// (ReadService.serve), with one autocommitted statement.

/**
 * A billable call's request id, spent exactly once: by its delivery's first round trip when the
 * call gets that far, otherwise on its own. `spent` turns true once a committed statement holds
 * the id, or once the id proved spent already (409 duplicate_request_id).
 */
export class RequestTicket {
  spent = false;
  constructor(readonly id: string) {}

  /** An id that is not this call's to spend (spent before, or by a caller that spends it itself). */
  static spentAlready(id: string): RequestTicket {
    const ticket = new RequestTicket(id);
    ticket.spent = true;
    return ticket;
  }
}

/** decisions 7: "A spent id is remembered for at least 7 days (older ones may be pruned)." */
export const REQUEST_ID_RETENTION_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Records the id for the account; false when the account had already spent it. It runs in its own
 * transaction with asynchronous commit: no disk flush on the hot path. A Postgres crash can then
 * forget ids spent in its last fraction of a second, so a reuse of one is served instead of
 * refused (the contract's "may give 409"); an id whose request went on to deliver is durable
 * anyway, because the delivery's synchronous commit flushes the log up to it.
 * ONE round trip (issue 13: Postgres round trips per request): a multi-statement simple query runs as one
 * implicit transaction, where SET LOCAL applies, and an error rolls it all back. The simple
 * protocol takes no parameters, so the values are quoted by the driver's escapeLiteral (the id is
 * also restricted to [A-Za-z0-9._:-] upstream).
 */
export async function spendRequestIdAtOnce(
  pool: Pool,
  accountId: string,
  requestId: string,
  timeoutMs: number,
): Promise<boolean> {
  const ms = Math.max(1, Math.floor(timeoutMs));
  const results = (await pool.query(
    `SET LOCAL synchronous_commit = off; SET LOCAL statement_timeout = ${ms};
     ${spendRequestIdStatement(accountId, requestId)}`,
  )) as unknown as QueryResult[];
  return results[results.length - 1]?.rowCount === 1;
}

/**
 * The insert that spends an id, as one statement of a multi-statement query: its rowCount is 1 when
 * the id was fresh, 0 when the account had spent it. The meter puts it in the first round trip of a
 * delivery (Meter.deliver), so a list page pays no round trip of its own for its request id.
 */
export function spendRequestIdStatement(accountId: string, requestId: string): string {
  return `INSERT INTO metering_request_ids (account_id, request_id)
     VALUES (${escapeLiteral(accountId)}, ${escapeLiteral(requestId)})
     ON CONFLICT (account_id, request_id) DO NOTHING`;
}

/**
 * Deletes ids spent more than the retention ago, at most `batch` at a time so that one prune never
 * holds a long transaction; returns how many it removed. Repeat until it returns less than `batch`.
 */
export async function pruneRequestIds(pool: Pool, now: Date, batch = 5000): Promise<number> {
  const cutoff = new Date(now.getTime() - REQUEST_ID_RETENTION_DAYS * DAY_MS);
  const { rowCount } = await pool.query(
    `DELETE FROM metering_request_ids WHERE ctid = ANY (ARRAY(
       SELECT ctid FROM metering_request_ids WHERE created_at < $1 LIMIT $2))`,
    [cutoff, batch],
  );
  return rowCount ?? 0;
}
