import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Pool } from 'pg';
import { withTransaction, withWatchedClient } from './db';

export const MIGRATIONS_DIR = path.resolve(__dirname, '../../migrations');

// Any constant works; it only has to be the same for every process migrating this database.
const MIGRATION_LOCK = 7_341_001;

export interface MigrationResult {
  applied: string[];
  alreadyApplied: number;
}

/**
 * Applies the ordered SQL files of migrations/ that this database has not seen, each in its own
 * transaction, recording each in schema_migrations. Safe to run concurrently: an advisory lock
 * lets one process migrate while the others wait and then find nothing to do.
 */
export async function migrate(pool: Pool, dir = MIGRATIONS_DIR): Promise<MigrationResult> {
  const files = (await readdir(dir)).filter((f) => /^\d+_.+\.sql$/.test(f)).sort();
  return withWatchedClient(pool, async (lock) => {
    try {
      await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await lock.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const done = new Set(
        (await lock.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map(
          (r) => r.name,
        ),
      );
      const applied: string[] = [];
      for (const file of files) {
        if (done.has(file)) continue;
        const sql = await readFile(path.join(dir, file), 'utf8');
        await withTransaction(pool, async (client) => {
          await client.query(sql);
          await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
        });
        applied.push(file);
      }
      return { applied, alreadyApplied: done.size };
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    }
  });
}
