import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { openPool } from '../support/pg-pools';
import { aliasForDatabase } from '../../src/search/index-manager';
import { dropPool, preparePool, takeDatabase } from '../support/database-pool';
import { adminDatabaseUrl } from '../support/template-database';

// The test contexts reuse their databases (test/support/database-pool.ts): a database handed to the
// next context must be what a fresh copy of the template would be, or no test is isolated. This
// file makes a pool of its own, from a template of its own (a copy of the run's migrated one).

const admin = () => openPool({ connectionString: adminDatabaseUrl(), max: 1 });

function urlOf(name: string): string {
  const url = new URL(adminDatabaseUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

const template = `test_pooltpl_${randomBytes(4).toString('hex')}`;

async function onDatabase<T>(name: string, fn: (pool: Pool) => Promise<T>): Promise<T> {
  const pool = openPool({ connectionString: urlOf(name), max: 1 });
  try {
    return await fn(pool);
  } finally {
    await pool.end();
  }
}

/** What a test can see of a database's contents: row counts, and the sequences' next values. */
async function state(name: string) {
  return onDatabase(name, async (pool) => {
    const tables = await pool.query<{ name: string }>(
      `SELECT format('%I', tablename) AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`,
    );
    const counts: Record<string, number> = {};
    for (const { name: table } of tables.rows) {
      const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
      counts[table] = rows[0]?.n ?? -1;
    }
    const sequences = await pool.query<{ name: string; last_value: string | null }>(
      `SELECT sequencename AS name, last_value::text FROM pg_sequences WHERE schemaname = 'public'`,
    );
    return { counts, sequences: sequences.rows };
  });
}

beforeAll(async () => {
  const run = process.env.TEST_TEMPLATE_DATABASE;
  if (!run) throw new Error('the global set-up names the run template');
  const pool = admin();
  try {
    await pool.query(`CREATE DATABASE "${template}" TEMPLATE "${run}"`);
  } finally {
    await pool.end();
  }
  await preparePool(template, urlOf(template));
});

afterAll(async () => {
  const pool = admin();
  try {
    await dropPool(template, pool);
    await pool.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
  } finally {
    await pool.end();
  }
});

it('hands a released database back as the template left it', async () => {
  const fresh = await state(template);
  expect(fresh.counts.taxonomy_nodes).toBeGreaterThan(0);
  expect(fresh.counts.schema_migrations).toBeGreaterThan(0);

  const first = await takeDatabase(template, urlOf, admin);
  expect(await state(first.name)).toEqual(fresh);
  await onDatabase(first.name, async (pool) => {
    await pool.query(`INSERT INTO accounts (plan_id) VALUES ('free')`);
    await pool.query(
      `DELETE FROM taxonomy_nodes t WHERE level = 'class' AND ctid IN
         (SELECT ctid FROM taxonomy_nodes WHERE level = 'class' LIMIT 5)`,
    );
    await pool.query(`UPDATE plans SET label = label || ' changed'`);
    await pool.query(`SELECT nextval('opportunity_record_num')`);
  });
  expect(await state(first.name)).not.toEqual(fresh);
  // A connection the test left open does not keep the database from being put back.
  const leftOpen = openPool({ connectionString: first.url, max: 1 });
  await leftOpen.query('SELECT 1');
  await first.release();
  await leftOpen.end().catch(() => undefined);

  const second = await takeDatabase(template, urlOf, admin);
  expect(second.name).toBe(first.name);
  expect(await state(second.name)).toEqual(fresh);
  await onDatabase(second.name, async (pool) => {
    const plans = await pool.query<{ label: string }>(
      `SELECT label FROM plans WHERE label LIKE '% changed'`,
    );
    expect(plans.rows).toEqual([]);
  });
  await second.release();
});

// Rows go by DELETE, which leaves a table's pages behind: a table that held thousands kept them,
// and a plan test that counts on an empty table got another plan. Past a few pages it is truncated.
it("hands back a table's size as well as its rows: grown tables truncated, the template's rows not copied again", async () => {
  const sizes = (name: string) =>
    onDatabase(name, async (pool) => {
      const { rows } = await pool.query<{ name: string; size: string }>(
        `SELECT tablename AS name, pg_total_relation_size(format('%I', tablename)::regclass) AS size
           FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`,
      );
      return Object.fromEntries(rows.map((r) => [r.name, Number(r.size)]));
    });
  const fresh = await sizes(template);
  const first = await takeDatabase(template, urlOf, admin);
  await onDatabase(first.name, (pool) =>
    pool.query(
      `INSERT INTO opportunities (id, record, content_hash, liveness_status, first_seen, changed_at,
          taxonomy_version, record_num)
       SELECT gen_random_uuid(), '{}', '', 'live', now(), now(), 'v1', g
         FROM generate_series(1, 5000) AS g`,
    ),
  );
  expect((await sizes(first.name)).opportunities).toBeGreaterThan(fresh.opportunities ?? 0);
  await first.release();
  // Twice more, untouched: the template's own rows are not deleted and written again each time.
  for (let i = 0; i < 2; i++) {
    const again = await takeDatabase(template, urlOf, admin);
    expect(again.name).toBe(first.name);
    expect(await sizes(again.name)).toEqual(fresh);
    await again.release();
  }
});

it('drops a database whose schema a test altered instead of handing it out again', async () => {
  const taken = await takeDatabase(template, urlOf, admin);
  await onDatabase(taken.name, (pool) => pool.query('ALTER TABLE accounts ADD COLUMN scratch int'));
  await taken.release();
  const pool = admin();
  try {
    const { rows } = await pool.query('SELECT 1 FROM pg_database WHERE datname = $1', [taken.name]);
    expect(rows).toEqual([]);
  } finally {
    await pool.end();
  }
  const next = await takeDatabase(template, urlOf, admin);
  expect(next.name).not.toBe(taken.name);
  await next.release();
});

it('clears the rate windows the app kept in Redis under the database name', async () => {
  const { Redis } = await import('ioredis');
  const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  try {
    const taken = await takeDatabase(template, urlOf, admin);
    const own = `rl:${taken.name}:key:5:someone`;
    const other = `rl:${taken.name}x:key:5:someone`;
    await redis.set(own, '3');
    await redis.set(other, '3');
    await taken.release();
    expect(await redis.exists(own)).toBe(0);
    expect(await redis.exists(other)).toBe(1);
    await redis.del(other);
  } finally {
    redis.disconnect();
  }
});

it('drops an index a context left under the alias before the name is handed out again', async () => {
  const engine = process.env.OPENSEARCH_URL ?? '';
  const taken = await takeDatabase(template, urlOf, admin);
  const left = `${aliasForDatabase(taken.name)}__000001`;
  expect((await fetch(`${engine}/${left}`, { method: 'PUT' })).ok).toBe(true);
  await taken.release();
  expect((await fetch(`${engine}/${left}`, { method: 'HEAD' })).status).toBe(404);
  const again = await takeDatabase(template, urlOf, admin);
  expect(again.name).toBe(taken.name);
  await again.release();
});

it('a second release of one taking changes nothing: the database is handed out once', async () => {
  const taken = await takeDatabase(template, urlOf, admin);
  await taken.release();
  const first = await takeDatabase(template, urlOf, admin);
  expect(first.name).toBe(taken.name);
  // A stale second release, while another context holds the database.
  await taken.release();
  const second = await takeDatabase(template, urlOf, admin);
  expect(second.name).not.toBe(first.name);
  await Promise.all([first.release(), second.release()]);
});

it("a test pool's session that a release terminates is let go, not an uncaught error", async () => {
  const taken = await takeDatabase(template, urlOf, admin);
  const pool = openPool({ connectionString: taken.url, max: 1 });
  // The pool drops a client the server ended; an 'error' nobody listened for would have been
  // thrown from the socket's handler first, failing this test (and, in CI, a whole suite).
  const dropped = new Promise((resolve) => pool.once('remove', resolve));
  try {
    await pool.query('SELECT 1');
    await taken.release();
    await dropped;
    expect(pool.totalCount).toBe(0);
  } finally {
    await pool.end();
  }
});
