import { openPostgres } from '../../bootstrap';
import { migrate } from '../../store/migrate';
import type { Command } from '../command';

export const migrateCommand: Command = {
  name: 'migrate',
  accepts: { flags: [], positional: [0, 0] },
  usage:
    'migrate                apply pending migrations (the API also applies them when it starts)',
  help: `
Applies each pending migrations/*.sql in its own transaction, in order, recorded in
schema_migrations; prints what it applied and what was applied already. Needs only Postgres.`,
  // Needs only Postgres: no search engine is started for it.
  async run() {
    const { pool } = await openPostgres({ createDatabase: 'if-possible' });
    try {
      const result = await migrate(pool);
      return { ok: true, applied: result.applied, already_applied: result.alreadyApplied };
    } finally {
      await pool.end();
    }
  },
};
