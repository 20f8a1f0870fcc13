import { DatabaseError, Pool, type PoolClient, type QueryConfig } from 'pg';
import { pgConnection } from './pg-tls';

export type Db = Pool;

/**
 * `timeoutMs` (POSTGRES_TIMEOUT_MS, contract §20.3) bounds every statement twice: on the server
 * (statement_timeout) and in the client (query_timeout, for a server or network that stops
 * answering altogether); TCP keepalive finds dead connections. Past it the caller gets 503
 * metering_unavailable (billing/pg-errors.ts). Without it (CLI bulk work) statements are unbounded.
 * `caFile`: DATABASE_CA_FILE; TLS follows the URL's `sslmode` (pg-tls.ts).
 * A pool with a deadline serves requests, and its sessions run without JIT compilation: their
 * statements read a few rows, and the planner's estimate of one (the first read of a period's
 * deliveries, 200,000 rows with a fallback lookup it costs for each) started a compilation that
 * took 155 ms of a 210 ms statement. Options in DATABASE_URL still win (node-postgres reads the
 * URL's last). The server also looks every second whether the API is still connected while a
 * statement runs (client_connection_check_interval, Linux and PostgreSQL 14 or later): a charge
 * waiting on its account's row lock when the API process died went on to COMMIT once the lock came
 * free, a page no client received; now the server sees the connection gone and rolls it back.
 */
export function createPool(
  databaseUrl: string,
  max = 10,
  timeoutMs?: number,
  caFile?: string,
): Pool {
  const pool = new Pool({
    ...pgConnection(databaseUrl, caFile),
    max,
    connectionTimeoutMillis: Math.min(3000, timeoutMs ?? 3000),
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(timeoutMs === undefined
      ? {}
      : {
          statement_timeout: timeoutMs,
          query_timeout: timeoutMs,
          options: '-c jit=off -c client_connection_check_interval=1000',
        }),
  });
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => undefined);
  return pool;
}

export function databaseName(databaseUrl: string): string {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, ''));
  if (!name) throw new Error('DATABASE_URL names no database');
  return name;
}

/** Creates the database named by the URL when it does not exist (local defaults, tests). */
export async function ensureDatabase(databaseUrl: string, caFile?: string): Promise<void> {
  const name = databaseName(databaseUrl);
  const adminUrl = new URL(databaseUrl);
  adminUrl.pathname = '/postgres';
  const admin = new Pool({ ...pgConnection(adminUrl.toString(), caFile), max: 1 });
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`).catch((err: unknown) => {
        // Another process may have created it between our check and our CREATE.
        if ((err as { code?: string }).code !== '42P04') throw err;
      });
    }
  } finally {
    await admin.end();
  }
}

/**
 * A COMMIT that was sent but not confirmed: no answer within its deadline, or the connection lost
 * before one came. The transaction may or may not have committed (contract §16.6.2).
 */
export class CommitUnconfirmed extends Error {
  constructor(cause: unknown) {
    super('COMMIT sent but not confirmed', { cause });
    this.name = 'CommitUnconfirmed';
  }
}

export interface TransactionOptions {
  /**
   * How long COMMIT may take to be confirmed, instead of the pool's query_timeout
   * (POSTGRES_TIMEOUT_MS): a commit cut by the client-side timeout may still have committed on the
   * server, and its caller would then be told the opposite of what happened.
   */
  commitTimeoutMs?: number;
}

/** POSTGRES_COMMIT_TIMEOUT_MS's default. */
export const DEFAULT_COMMIT_TIMEOUT_MS = 15_000;

/**
 * A checked-out client whose connection dies emits 'error'; unheard, that event would crash the
 * process. Heard, it marks the client to be discarded rather than returned to the pool, and so does
 * whatever `fn` reports through `discard` (a failed ROLLBACK, a COMMIT without an answer). Every
 * client held across other work (a lock held while indexing, migrating, pruning) is taken here:
 * an idle one whose backend is killed, or whose connection is reset, would end the process.
 */
export async function withWatchedClient<T>(
  pool: Pool,
  fn: (client: PoolClient, discard: (err: unknown) => void) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const discard = (err: unknown) => {
    broken ??= err instanceof Error ? err : new Error(String(err));
  };
  client.on('error', discard);
  try {
    return await fn(client, discard);
  } finally {
    client.removeListener('error', discard);
    client.release(broken);
  }
}

/** A query with its own deadline: node-postgres reads query_timeout per query too (its types omit it). */
function withDeadline(query: string | QueryConfig, timeoutMs: number | undefined): QueryConfig {
  const config: QueryConfig & { query_timeout?: number } = {
    ...(typeof query === 'string' ? { text: query } : query),
    query_timeout: timeoutMs === undefined ? undefined : Math.max(1, Math.floor(timeoutMs)),
  };
  return config;
}

/** ROLLBACK after a failure; a connection that cannot even roll back is discarded. */
function rollback(client: PoolClient, discard: (err: unknown) => void): Promise<void> {
  return client.query('ROLLBACK').then(() => undefined, discard);
}

/**
 * Runs `fn` in one transaction. `begin` may extend BEGIN with SET LOCAL statements; null means `fn`
 * sends BEGIN itself, as the start of its first query (one round trip fewer). A COMMIT without an
 * answer throws CommitUnconfirmed: no ROLLBACK follows it (there may be nothing left to roll
 * back), and the connection, in a state nobody knows, is discarded.
 */
export function withTransaction<T>(
  pool: Pool,
  fn: (client: PoolClient) => Promise<T>,
  begin: string | null = 'BEGIN',
  options: TransactionOptions = {},
): Promise<T> {
  return withWatchedClient(pool, async (client, discard) => {
    try {
      if (begin !== null) await client.query(begin);
      const result = await fn(client);
      await commit(client, options.commitTimeoutMs);
      return result;
    } catch (err) {
      if (err instanceof CommitUnconfirmed) discard(err);
      else await rollback(client, discard);
      throw err;
    }
  });
}

/**
 * COMMIT, with its own deadline when given. An error the server answered (a DatabaseError) means
 * the transaction did not commit; anything else (a timeout, a lost connection) leaves it unknown.
 */
async function commit(client: PoolClient, timeoutMs: number | undefined): Promise<void> {
  try {
    await client.query(withDeadline('COMMIT', timeoutMs));
  } catch (err) {
    if (err instanceof DatabaseError) throw err;
    throw new CommitUnconfirmed(err);
  }
}

/**
 * A whole transaction in ONE round trip: `query` is either a text that holds BEGIN, its statements
 * and COMMIT, or one statement (a QueryConfig, prepared or not) that is its own autocommitted
 * transaction. Either way the locks it takes are released by the server at its commit without
 * waiting for the client to ask (a busy client process would otherwise hold them for as long as it
 * takes to send COMMIT). The round trip has the commit's deadline: an error the server answered (a
 * DatabaseError) means nothing committed (an explicit transaction is then rolled back; a single
 * statement's ended with it); no answer in time, or a lost connection, leaves it unknown
 * (CommitUnconfirmed) and the connection is discarded.
 */
export function transactionInOneTrip(
  pool: Pool,
  query: string | QueryConfig,
  options: { commitTimeoutMs: number },
): Promise<unknown> {
  return withWatchedClient(pool, async (client, discard) => {
    let results: unknown;
    try {
      results = await client.query(withDeadline(query, options.commitTimeoutMs));
    } catch (err) {
      if (!(err instanceof DatabaseError)) {
        const unknown = new CommitUnconfirmed(err);
        discard(unknown);
        throw unknown;
      }
      if (typeof query === 'string') await rollback(client, discard);
      throw err;
    }
    return results;
  });
}

/**
 * A statement that makes earlier asynchronous commits durable (the meter's WAL flush, run by
 * store/group-flush.ts), on any connection of the pool, under the commit's deadline. Its failure
 * leaves the durability of those commits unknown: a CommitUnconfirmed (the pool discards a
 * connection whose query failed).
 */
export function flushStatement(pool: Pool, text: string, timeoutMs: number): Promise<void> {
  return pool.query(withDeadline(text, timeoutMs)).then(
    () => undefined,
    (err: unknown) => {
      throw new CommitUnconfirmed(err);
    },
  );
}

/** The readiness probe of Postgres (/readyz): answers, or not; never throws. */
export function pingPostgres(pool: Pool): Promise<boolean> {
  return pool.query('SELECT 1').then(
    () => true,
    () => false,
  );
}
