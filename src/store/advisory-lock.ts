import type { Pool } from 'pg';

/**
 * Runs `fn` while holding a session advisory lock named `name`, so that processes sharing one
 * database do it one at a time (contract §22.5: several instances may start at once).
 */
export async function withAdvisoryLock<T>(pool: Pool, name: string, fn: () => Promise<T>) {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    return await fn();
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]).catch(() => undefined);
    client.release();
  }
}
