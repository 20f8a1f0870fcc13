import type { Pool, PoolClient } from 'pg';
import { withTransaction } from '../store/db';

/**
 * A transaction for the meter. Its timeouts bound the wait for the account lock and each
 * statement (past them → 503 metering_unavailable, never an endless wait). Its commit starts
 * asynchronous: a transaction that only locked and read (a page of repeats) or only spent a request
 * id need not wait for a disk flush; the statement that records money restores the server's
 * configured durability (ledger-sql RECORD_DELIVERY), so a delivery is durable when COMMIT returns.
 * `fn` begins it: its first query must start with `begin`, so that BEGIN, the settings and its
 * first statements cost one round trip (issue 13: Postgres round trips per request).
 */
export function meteringTransaction<T>(
  pool: Pool,
  timeoutMs: number,
  fn: (client: PoolClient, begin: string) => Promise<T>,
): Promise<T> {
  const ms = Math.max(1, Math.floor(timeoutMs));
  const begin = `BEGIN; SET LOCAL lock_timeout = ${ms}; SET LOCAL statement_timeout = ${ms}; SET LOCAL synchronous_commit = off`;
  return withTransaction(pool, (client) => fn(client, begin), null);
}
