import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { escapeIdentifier, escapeLiteral, type Pool } from 'pg';
import { openPool } from './pg-pools';
import { once } from '../../src/infra/once';
import { aliasForDatabase } from '../../src/search/index-manager';

// The test contexts' databases, reused within a run. Copying the template cost Postgres about 0.3 s
// of CPU per context, nearly all of it in the kernel (CREATE DATABASE syncs each of the copy's
// three hundred files, with either strategy), and each DROP DATABASE forced a checkpoint: with a
// hundred contexts a run, a sixth of the machine's CPU in the suite. A closed context's database is
// put back as the template left it instead (tables emptied, the template's rows put back where
// they changed, sequences set back, in one transaction: a few ms; see planFor) and handed to the
// next context, in any worker. One whose schema no longer matches the template's (a test that
// altered it) is dropped.
// The pool is a folder of empty files, one per free database, since Jest gives each test file its
// own module registry: a worker claims a database by deleting its file, which only one can do.

/** Where a run's pool lives: next to nothing else, named after the run's template. */
function poolDir(template: string): string {
  return path.join(os.tmpdir(), `${template}-pool`);
}

const PLAN_FILE = 'plan.json';
const FREE = 'free';

/** What putting a database back takes, read once from the template by the global set-up. */
interface ResetPlan {
  /**
   * One transaction: empty the tables the template leaves empty, put back the rows of those it
   * fills where they changed, set the sequences back. Rows are deleted, not truncated (below).
   */
  resetSql: string;
  /** The same by TRUNCATE: for a database whose tables grew past `sizes` (below). */
  truncateSql: string;
  /** Each table's size in the template (table, indexes, TOAST), by name. */
  sizes: Record<string, number>;
  /** The template's schema, as fingerprintSql prints it. */
  fingerprint: string;
}

/**
 * How far past its size in the template a table may have grown and still be emptied by DELETE.
 * A test's few rows leave a page or two behind; a table that held thousands keeps its pages (and
 * the planner sees them: a plan test that counts on an empty table got a bitmap scan), so it is
 * truncated, as a new copy of the template would have it.
 */
const GROWTH_KEPT_BYTES = 64 * 1024;

/**
 * The schema as a text digest: what a test could alter that emptying the tables would not undo.
 * Row counts and contents are the reset's business, not this.
 */
const FINGERPRINT_SQL = `
SELECT md5(coalesce(string_agg(line, E'\\n' ORDER BY line), '')) AS fingerprint FROM (
  SELECT 'n:' || nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema'
  UNION ALL
  SELECT 'r:' || n.nspname || '.' || c.relname || ':' || c.relkind::text || ':' || coalesce(c.reloptions::text, '')
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'
  UNION ALL
  SELECT 'a:' || c.oid::regclass::text || '.' || a.attname || ':' || format_type(a.atttypid, a.atttypmod)
      || ':' || a.attnotnull || ':' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE a.attnum > 0 AND NOT a.attisdropped
      AND n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'
  UNION ALL
  SELECT 'i:' || pg_get_indexdef(i.indexrelid) FROM pg_index i
    JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'
  UNION ALL
  SELECT 'k:' || conrelid::regclass::text || '.' || conname || ':' || pg_get_constraintdef(oid)
    FROM pg_constraint WHERE connamespace NOT IN (SELECT oid FROM pg_namespace WHERE nspname LIKE 'pg\\_%' OR nspname = 'information_schema')
  UNION ALL
  SELECT 't:' || pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal
  UNION ALL
  SELECT 'f:' || p.oid::regprocedure::text || ':' || md5(coalesce(p.prosrc, ''))
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'
  UNION ALL
  SELECT 's:' || array_to_string(setconfig, ',') FROM pg_db_role_setting
    WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
  UNION ALL
  SELECT 'x:' || extname || ':' || extversion FROM pg_extension
) lines(line)`;

async function fingerprintOf(pool: Pool): Promise<string> {
  const { rows } = await pool.query<{ fingerprint: string }>(FINGERPRINT_SQL);
  return rows[0]?.fingerprint ?? '';
}

/** A table's rows as one digest: equal in two databases exactly when their rows are. */
const contentDigest = (table: string) =>
  `SELECT md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) FROM ${table} t`;

/** Reads the template's tables, rows, sequences and schema into the run's reset plan. */
async function planFor(pool: Pool): Promise<ResetPlan> {
  const tables = (
    await pool.query<{ name: string; size: string }>(
      `SELECT format('%I.%I', schemaname, tablename) AS name,
              pg_total_relation_size(format('%I.%I', schemaname, tablename)::regclass) AS size
         FROM pg_tables
        WHERE schemaname NOT LIKE 'pg\\_%' AND schemaname <> 'information_schema' ORDER BY 1`,
    )
  ).rows;
  // DELETE, not TRUNCATE, for what a test leaves (a few hundred rows at most): TRUNCATE gives every
  // table, index and TOAST table a new file (about sixty files made, synced and unlinked per reset:
  // 100 ms of Postgres's time each). The replica role skips the foreign keys' triggers, so the
  // order does not matter. The rows the template holds (plans, taxonomy, migrations) are put back
  // only where they changed, or each reset would leave a dead copy of them behind.
  const head = ['BEGIN', 'SET LOCAL session_replication_role = replica'];
  const reset = [...head];
  const truncate = [...head];
  if (tables.length > 0) {
    truncate.push(`TRUNCATE ${tables.map((t) => t.name).join(', ')} RESTART IDENTITY CASCADE`);
  }
  for (const { name } of tables) {
    const { rows } = await pool.query<{ rows: unknown }>(
      `SELECT json_agg(t) AS rows FROM ${name} t`,
    );
    if (rows[0]?.rows === null || rows[0]?.rows === undefined) {
      reset.push(`DELETE FROM ${name}`);
      continue;
    }
    const refill =
      `INSERT INTO ${name} OVERRIDING SYSTEM VALUE SELECT * FROM ` +
      `json_populate_recordset(NULL::${name}, ${escapeLiteral(JSON.stringify(rows[0].rows))})`;
    truncate.push(refill);
    const digest = (await pool.query<{ md5: string }>(contentDigest(name))).rows[0]?.md5 ?? '';
    reset.push(
      `DO $reset$ BEGIN IF (${contentDigest(name)}) <> ${escapeLiteral(digest)} THEN ` +
        `DELETE FROM ${name}; ${refill}; END IF; END $reset$`,
    );
  }
  const sequences = await pool.query<{ name: string; last_value: string | null; start: string }>(
    `SELECT format('%I.%I', schemaname, sequencename) AS name, last_value::text,
            start_value::text AS start FROM pg_sequences
      WHERE schemaname NOT LIKE 'pg\\_%' AND schemaname <> 'information_schema'`,
  );
  // setval, not ALTER SEQUENCE ... RESTART, which gives the sequence a new file as TRUNCATE does.
  for (const { name, last_value, start } of sequences.rows) {
    const set =
      last_value === null
        ? `SELECT setval(${escapeLiteral(name)}, ${start}, false)`
        : `SELECT setval(${escapeLiteral(name)}, ${last_value}, true)`;
    reset.push(set);
    truncate.push(set);
  }
  reset.push('COMMIT');
  truncate.push('COMMIT');
  return {
    resetSql: reset.join(';\n'),
    truncateSql: truncate.join(';\n'),
    sizes: Object.fromEntries(tables.map((t) => [t.name, Number(t.size)])),
    fingerprint: await fingerprintOf(pool),
  };
}

/** Whether a table of the database has grown past what DELETE may leave behind. */
async function grewPastTemplate(pool: Pool, sizes: Record<string, number>): Promise<boolean> {
  const { rows } = await pool.query<{ name: string; size: string }>(
    `SELECT name, pg_total_relation_size(name::regclass) AS size FROM unnest($1::text[]) AS name`,
    [Object.keys(sizes)],
  );
  return rows.some((r) => Number(r.size) > (sizes[r.name] ?? 0) + GROWTH_KEPT_BYTES);
}

/** The global set-up's half: the run's pool folder and reset plan, from the migrated template. */
export async function preparePool(template: string, templateUrl: string): Promise<void> {
  const pool = openPool({ connectionString: templateUrl, max: 1 });
  try {
    const plan = await planFor(pool);
    const dir = poolDir(template);
    mkdirSync(path.join(dir, FREE), { recursive: true });
    writeFileSync(path.join(dir, PLAN_FILE), JSON.stringify(plan));
  } finally {
    await pool.end();
  }
}

/** The global teardown's half: every database the pool made, and its folder. */
export async function dropPool(template: string, admin: Pool): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>(
    `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`,
    [`${template}_`],
  );
  for (const { datname } of rows) {
    await admin.query(`DROP DATABASE IF EXISTS ${escapeIdentifier(datname)} WITH (FORCE)`);
  }
  rmSync(poolDir(template), { recursive: true, force: true });
}

export interface PooledDatabase {
  name: string;
  url: string;
  /** Puts the database back as the template left it, for another context; or drops it. */
  release(): Promise<void>;
}

/**
 * A database as the template left it: a free one of the pool, or a new copy of the template.
 * `urlOf` names a database on the admin server.
 */
export async function takeDatabase(
  template: string,
  urlOf: (name: string) => string,
  admin: () => Pool,
): Promise<PooledDatabase> {
  const free = path.join(poolDir(template), FREE);
  let name: string | undefined;
  for (const candidate of readdirSync(free)) {
    try {
      unlinkSync(path.join(free, candidate));
      name = candidate;
      break;
    } catch {
      // Another worker claimed it first.
    }
  }
  if (!name) {
    name = `${template}_${randomBytes(4).toString('hex')}`;
    const pool = admin();
    try {
      await pool.query(
        `CREATE DATABASE ${escapeIdentifier(name)} TEMPLATE ${escapeIdentifier(template)}`,
      );
    } finally {
      await pool.end();
    }
  }
  const taken = name;
  return {
    name: taken,
    url: urlOf(taken),
    // Once: a second release would reset the database under the context that took it next.
    release: once(() => putBack(template, taken, urlOf(taken), admin)),
  };
}

async function putBack(
  template: string,
  name: string,
  url: string,
  admin: () => Pool,
): Promise<void> {
  const dir = poolDir(template);
  const plan = JSON.parse(readFileSync(path.join(dir, PLAN_FILE), 'utf8')) as ResetPlan;
  const pool = openPool({ connectionString: url, max: 1 });
  let reusable = false;
  try {
    // What the test left connected (a child process, a pool it did not end) goes, as DROP
    // DATABASE ... WITH (FORCE) would have made it go.
    await pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    await pool.query((await grewPastTemplate(pool, plan.sizes)) ? plan.truncateSql : plan.resetSql);
    reusable = (await fingerprintOf(pool)) === plan.fingerprint && (await noIndexLeft(name));
    if (reusable) await forgetRateWindows(name);
  } catch {
    reusable = false;
  } finally {
    await pool.end().catch(() => undefined);
  }
  if (reusable) {
    writeFileSync(path.join(dir, FREE, name), '');
    return;
  }
  const drop = admin();
  try {
    await drop.query(`DROP DATABASE IF EXISTS ${escapeIdentifier(name)} WITH (FORCE)`);
  } finally {
    await drop.end();
  }
}

/**
 * The app's index alias is named after its database (contract §22.3): a context closes by
 * dropping its indices, but one it could not drop (the engine out of reach at that moment, a sync
 * still running) would hand its records to the next context on this name. Dropped here once more,
 * and the database is reused only when none is left.
 */
async function noIndexLeft(name: string): Promise<boolean> {
  const engine = process.env.OPENSEARCH_URL;
  if (!engine) return true;
  const pattern = `${aliasForDatabase(name)}__*`;
  await fetch(`${engine}/${pattern}?ignore_unavailable=true&allow_no_indices=true`, {
    method: 'DELETE',
  });
  const left = await fetch(`${engine}/_cat/indices/${pattern}?format=json`);
  return left.ok && ((await left.json()) as unknown[]).length === 0;
}

/**
 * The app keys its Redis rate windows by its database's name (`rl:NAME:…`, `authfail:NAME:…`):
 * the next context on this database must not inherit the last one's windows.
 */
async function forgetRateWindows(name: string): Promise<void> {
  const url = process.env.TEST_REDIS_URL;
  if (!url) return;
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `*:${name}:*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
