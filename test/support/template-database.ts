import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { createPool, ensureDatabase } from '../../src/store/db';
import { migrate } from '../../src/store/migrate';

// Every test context used to create an empty database and run the ten migrations into it, about
// half a second each time. The global set-up now migrates one template database per run and each
// context copies it (CREATE DATABASE ... TEMPLATE, a block copy of a few megabytes): the same
// schema and rows, without the DDL. The app's own migrate() still runs at each bootstrap and finds
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
  process.env[TEMPLATE_ENV] = name;
  return name;
}

/** The global teardown's half: the template goes with the run. */
export async function dropTemplateDatabase(): Promise<void> {
  const name = process.env[TEMPLATE_ENV];
  if (!name) return;
  const admin = new Pool({ connectionString: adminDatabaseUrl(), max: 1 });
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/**
 * A test's own database, migrated: a copy of the run's template, or (a test run without the
 * global set-up) an empty one that bootstrap's migrate() fills.
 */
export async function createTestDatabase(name: string): Promise<string> {
  const template = process.env[TEMPLATE_ENV];
  if (!template) {
    await ensureDatabase(urlOf(name));
    return urlOf(name);
  }
  const admin = new Pool({ connectionString: adminDatabaseUrl(), max: 1 });
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  } finally {
    await admin.end();
  }
  return urlOf(name);
}
