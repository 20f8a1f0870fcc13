import { randomBytes } from 'node:crypto';
import { openPool } from './pg-pools';
import { createPool, ensureDatabase } from '../../src/store/db';
import { migrate } from '../../src/store/migrate';
import { dropPool, preparePool, takeDatabase, type PooledDatabase } from './database-pool';

// Every test context used to create an empty database and run the ten migrations into it, about
// half a second each time. The global set-up now migrates one template database per run and each
// context copies it (CREATE DATABASE ... TEMPLATE, a block copy of a few megabytes): the same
// schema and rows, without the DDL; a closed context's copy is then put back as the template left
// it and reused (database-pool.ts). The app's own migrate() still runs at each bootstrap and finds
// every migration applied, as it does on any restart. The suites that start the app on a database
// of their own (production-mode, search-connections, store-tls, built-server) still make it empty,
// so the migrations' run on a fresh database stays tested.

/** Where the run's template is named for the workers (jest passes the parent's env on). */
const TEMPLATE_ENV = 'TEST_TEMPLATE_DATABASE';

export function adminDatabaseUrl(): string {
  return process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
}

function urlOf(name: string): string {
  const url = new URL(adminDatabaseUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** Creates and migrates the run's template; the global set-up calls it once. */
export async function createTemplateDatabase(): Promise<string> {
  const name = `test_template_${randomBytes(6).toString('hex')}`;
  await ensureDatabase(urlOf(name));
  const pool = createPool(urlOf(name), 2);
  try {
    await migrate(pool);
  } finally {
    // No session may stay connected to a template while it is copied.
    await pool.end();
  }
  await preparePool(name, urlOf(name));
  process.env[TEMPLATE_ENV] = name;
  return name;
}

/** The global teardown's half: the template goes with the run. */
export async function dropTemplateDatabase(): Promise<void> {
  const name = process.env[TEMPLATE_ENV];
  if (!name) return;
  const admin = openPool({ connectionString: adminDatabaseUrl(), max: 1 });
  try {
    await dropPool(name, admin);
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/**
 * A test context's database, migrated: one of the run's pool (database-pool.ts), or (a test run
 * without the global set-up) a new empty one that bootstrap's migrate() fills, dropped on release.
 */
export async function takeTestDatabase(): Promise<PooledDatabase> {
  const admin = () => openPool({ connectionString: adminDatabaseUrl(), max: 1 });
  const template = process.env[TEMPLATE_ENV];
  if (template) return takeDatabase(template, urlOf, admin);
  const name = `test_${randomBytes(6).toString('hex')}`;
  await ensureDatabase(urlOf(name));
  return {
    name,
    url: urlOf(name),
    async release() {
      const pool = admin();
      try {
        await pool.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await pool.end();
      }
    },
  };
}
