import { Pool, type PoolConfig } from 'pg';

/**
 * A pg Pool for a test's own statements; every test makes its pools here (ESLint holds it).
 *
 * pg-pool's `end()` resolves before its clients' sockets have closed, and a test context's release
 * then terminates every session still on its database (database-pool.ts), as DROP DATABASE ...
 * WITH (FORCE) does. A client still closing then receives the server's FATAL 57P01, which the
 * pool re-emits as 'error': with no listener that is an uncaught exception, and CI failed a whole
 * suite on it after every one of its tests had passed. A session ended from outside is what the
 * test's clean-up meant to happen, so the pool listens and lets it go.
 */
export function openPool(config: PoolConfig): Pool {
  const pool = new Pool(config);
  pool.on('error', () => undefined);
  return pool;
}
