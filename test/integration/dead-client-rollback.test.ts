import type { Pool } from 'pg';
import { openPool } from '../support/pg-pools';
import { createPool } from '../../src/store/db';
import { takeTestDatabase } from '../support/template-database';
import type { PooledDatabase } from '../support/database-pool';

// A charge is BEGIN, its statements and COMMIT in one round trip (contract §16.6). When the API
// process dies while that batch waits on the account's row lock, the server must not go on to
// commit once the lock comes free: nobody received that page (a `kill -9` of an API process
// during a lock wait charged the account). The request pool's sessions check their client while a
// statement runs (src/store/db.ts), so the server sees the connection gone and rolls back.

let database: PooledDatabase;
let admin: Pool;

beforeAll(async () => {
  database = await takeTestDatabase();
  admin = openPool({ connectionString: database.url, max: 2 });
  await admin.query('CREATE TABLE lock_probe (id int PRIMARY KEY, n int NOT NULL)');
  await admin.query('CREATE TABLE lock_probe_writes (id int)');
  await admin.query('INSERT INTO lock_probe VALUES (1, 0)');
});

afterAll(async () => {
  await admin.end();
  // The tables make the schema differ from the template's: the pool drops this database.
  await database.release();
});

it('a batch waiting on a row lock when its connection dies is rolled back, not committed', async () => {
  const pool = createPool(database.url, 1, 30_000);
  const holder = await admin.connect();
  try {
    await holder.query('BEGIN');
    await holder.query('SELECT n FROM lock_probe WHERE id = 1 FOR UPDATE');
    const client = await pool.connect();
    const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]
      ?.pid;
    const batch = client
      .query(
        'BEGIN; UPDATE lock_probe SET n = n + 1 WHERE id = 1; INSERT INTO lock_probe_writes VALUES (1); COMMIT',
      )
      .catch(() => undefined);
    // Waiting on the lock, then the process dies: its socket closes, nothing is sent.
    await waitFor(async () => (await waitingOnLock(pid)) === true, 15_000);
    (
      client as unknown as { connection: { stream: { destroy(): void } } }
    ).connection.stream.destroy();
    client.release(true);
    await batch;
    // The server notices within a second or two; the lock is held until it has (or for 15 s, when
    // it never does: then the batch commits below, and the assertions say so), then released.
    await waitFor(async () => (await waitingOnLock(pid)) === null, 15_000);
    await holder.query('COMMIT');
    await waitFor(async () => (await waitingOnLock(pid)) === null, 15_000);
    const { rows } = await admin.query<{ n: number }>('SELECT n FROM lock_probe WHERE id = 1');
    expect(rows[0]?.n).toBe(0);
    expect((await admin.query('SELECT 1 FROM lock_probe_writes')).rowCount).toBe(0);
  } finally {
    await holder.query('ROLLBACK').catch(() => undefined);
    holder.release();
    await pool.end();
  }
});

/** Whether the backend waits on a lock: null once it is gone. */
async function waitingOnLock(pid: number | undefined): Promise<boolean | null> {
  const { rows } = await admin.query<{ wait_event_type: string | null }>(
    'SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1',
    [pid],
  );
  return rows[0] ? rows[0].wait_event_type === 'Lock' : null;
}

/** Polls `check` every 50 ms until it holds or `limitMs` passed (a bound, not an assertion). */
async function waitFor(check: () => Promise<boolean>, limitMs: number): Promise<void> {
  const until = Date.now() + limitMs;
  while (Date.now() < until && !(await check())) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
