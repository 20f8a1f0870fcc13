import { setTimeout as sleep } from 'node:timers/promises';
import { withAdvisoryLock } from '../../src/store/advisory-lock';
import { withWatchedClient } from '../../src/store/db';
import { createTestContext, type TestContext } from '../support/harness';

// A client held across other work (the sync lock while indexing, the migration and retention
// locks) idles meanwhile. When its backend dies (a Postgres restart, a failover, a reset), the
// client emits 'error'; unheard, that event ended the API process. Heard, the work finishes or
// fails on its own, and the dead connection leaves the pool.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** Ends the backends of this database's other sessions that hold the named advisory lock. */
async function killLockHolder(name: string): Promise<number> {
  const { rows } = await ctx.deps.pool.query<{ killed: boolean }>(
    `SELECT pg_terminate_backend(l.pid) AS killed
     FROM pg_locks l
     WHERE l.locktype = 'advisory' AND l.granted AND l.objid::int = hashtext($1)
       AND l.pid <> pg_backend_pid()`,
    [name],
  );
  return rows.filter((r) => r.killed).length;
}

it('a lock holder whose backend is killed while it idles: the work finishes, the process lives', async () => {
  const name = `held-connection-lost-${process.pid}`;
  const errors: unknown[] = [];
  const onUncaught = (err: unknown) => errors.push(err);
  process.on('uncaughtException', onUncaught);
  try {
    const result = await withAdvisoryLock(ctx.deps.pool, name, async () => {
      expect(await killLockHolder(name)).toBe(1);
      // The 'error' event comes while the holder idles, as during a long index write.
      await sleep(300);
      return 'done';
    });
    expect(result).toBe('done');
    expect(errors).toEqual([]);
    // The pool still serves: the dead connection was discarded, not handed out again.
    for (let i = 0; i < 5; i++) {
      expect((await ctx.deps.pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    }
  } finally {
    process.off('uncaughtException', onUncaught);
  }
});

it('withWatchedClient discards a client whose connection died', async () => {
  let pid = 0;
  await withWatchedClient(ctx.deps.pool, async (client) => {
    pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid ?? 0;
    await ctx.deps.pool.query('SELECT pg_terminate_backend($1)', [pid]);
    await sleep(300);
  });
  const { rows } = await ctx.deps.pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  expect(rows[0]?.pid).not.toBe(pid);
});
