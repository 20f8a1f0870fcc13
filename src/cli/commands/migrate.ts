import { DEFAULT_DATABASE_URL, parseEnv } from '../../config';
import { ensureDatabaseIfPossible } from '../../bootstrap';
import { createPool } from '../../store/db';
import { migrate } from '../../store/migrate';
import type { Command } from '../command';

export const migrateCommand: Command = {
  name: 'migrate',
  usage: 'migrate',
  // Needs only Postgres: no search engine is started for it.
  async run() {
    const env = parseEnv();
    const url = env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
    await ensureDatabaseIfPossible(url, !env.DATABASE_URL);
    const pool = createPool(url, 2);
    try {
      const result = await migrate(pool);
      return { ok: true, applied: result.applied, already_applied: result.alreadyApplied };
    } finally {
      await pool.end();
    }
  },
};
