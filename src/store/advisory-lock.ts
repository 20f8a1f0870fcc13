import type { Pool } from 'pg';
import { withWatchedClient } from './db';

/**
 * Runs `fn` while holding a session advisory lock named `name`, so that processes sharing one
 * database do it one at a time (contract §22.5: several instances may start at once).
 */
export async function withAdvisoryLock<T>(pool: Pool, name: string, fn: () => Promise<T>) {
  return withWatchedClient(pool, async (client) => {
    try {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
      return await fn();
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]).catch(() => undefined);
    }
  });
}
