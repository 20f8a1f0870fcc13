import { ApiError } from '../domain/errors';
import { CommitUnconfirmed } from '../store/db';
import { QueueWaitExpired } from '../store/keyed-batches';

// contract §16.6: "When the metering store cannot record a delivery: 503 metering_unavailable, nothing
// delivered." Only failures of the store itself qualify; a bad query or a broken invariant is a bug
// and stays a 500 so that it is seen rather than retried.

/** Socket-level failures (node's error codes) reaching or talking to Postgres. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** SQLSTATEs that mean "the store cannot serve now", not "the query is wrong". */
const UNAVAILABLE_SQLSTATES = new Set([
  '53000', // insufficient_resources
  '53100', // disk_full
  '53200', // out_of_memory
  '53300', // too_many_connections
  '57014', // query_canceled (statement_timeout)
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, recovery)
  '55P03', // lock_not_available (lock_timeout)
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '25006', // read_only_sql_transaction (failed over to a standby)
  '58000', // system_error
  '58030', // io_error
  // Cannot log in or no such database: a deployment problem, but to the request the store is just
  // unreachable (readyz and the logs say why).
  '28000', // invalid_authorization_specification
  '28P01', // invalid_password
  '3D000', // invalid_catalog_name
]);

/** Messages node-postgres uses for its own connection failures (they carry no code). */
const DRIVER_MESSAGES = [
  /timeout exceeded when trying to connect/i,
  /query read timeout/i, // query_timeout (POSTGRES_TIMEOUT_MS): the server stopped answering
  /connection terminated/i,
  /connection timeout/i,
  /not queryable/i,
  /cannot use a pool after calling end/i,
  /client was closed/i,
];

export function isStoreUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  // Never sent: the account's statement ahead of it outlasted the deadline.
  if (err instanceof QueueWaitExpired) return true;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code)) return true;
    // Class 08: connection exception.
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  // Several resolved addresses each refused (node ≥ 20 happy eyeballs).
  if (err instanceof AggregateError) return err.errors.some(isStoreUnavailable);
  return typeof message === 'string' && DRIVER_MESSAGES.some((re) => re.test(message));
}

const NOTHING_RECORDED =
  'Usage metering is temporarily unavailable; nothing was delivered or charged. Retry later with a new request id.';

/**
 * contract §16.6.2: a delivery whose COMMIT was sent but not confirmed within its deadline may have
 * been recorded and charged. The client is told so, and that asking again costs nothing twice:
 * records it already received this period are repeats.
 */
const MAYBE_RECORDED =
  'Usage metering did not confirm this delivery in time: it may have been recorded and charged. Retry later with a new request id; records already delivered this period are repeats and free.';

export function meteringUnavailable(cause?: unknown, message = NOTHING_RECORDED): ApiError {
  const err = new ApiError('metering_unavailable', message, undefined, 1);
  // Kept for the logs: the envelope shows only the code and message.
  err.cause = cause;
  return err;
}

export const deliveryUnconfirmed = (cause?: unknown) => meteringUnavailable(cause, MAYBE_RECORDED);

/** Runs a metering operation, turning a store outage into 503 metering_unavailable (fail closed). */
export async function failClosed<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (err instanceof CommitUnconfirmed) throw deliveryUnconfirmed(err);
    if (isStoreUnavailable(err)) throw meteringUnavailable(err);
    throw err;
  }
}
