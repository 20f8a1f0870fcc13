import type { Pool, PoolClient } from 'pg';
import { withTransaction } from '../store/db';

/**
 * A transaction for the meter. Its timeouts bound the wait for the account lock and each
 * statement (past them → 503 metering_unavailable, never an endless wait); its COMMIT has a
 * deadline of its own. Its commit starts
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
  commitTimeoutMs?: number,
): Promise<T> {
  const ms = Math.max(1, Math.floor(timeoutMs));
  const begin = `BEGIN; SET LOCAL lock_timeout = ${ms}; SET LOCAL statement_timeout = ${ms}; SET LOCAL synchronous_commit = off`;
  // decisions 12: the COMMIT is not cut by the statements' deadline: it waits up to its own
  // (POSTGRES_COMMIT_TIMEOUT_MS), and one left unconfirmed is said to be unknown (pg-errors.ts).
  return withTransaction(pool, (client) => fn(client, begin), null, {
    commitTimeoutMs: commitTimeoutMs ?? Math.max(ms, DEFAULT_COMMIT_TIMEOUT_MS),
  });
}

/** POSTGRES_COMMIT_TIMEOUT_MS's default. */
export const DEFAULT_COMMIT_TIMEOUT_MS = 15_000;
