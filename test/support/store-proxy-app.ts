import type { Pool } from 'pg';
import { compose } from '../../src/app/compose';
import { createApp } from '../../src/app/create-app';
import { createPool } from '../../src/store/db';
import type { TestContext } from './harness';
import { serve } from './read-http';

/**
 * The app of a test context served again with its Postgres reached through a proxy the test
 * controls (a hang proxy, a commit proxy): its own pool, with the store deadlines given.
 */
export async function appOverStoreProxy<P extends { port: number; close(): Promise<void> }>(
  ctx: TestContext,
  startProxy: (port: number, host: string) => Promise<P>,
  deadlines: { POSTGRES_TIMEOUT_MS: number; POSTGRES_COMMIT_TIMEOUT_MS?: number },
): Promise<{ proxy: P; pool: Pool; baseUrl: string; close(): Promise<void> }> {
  const db = new URL(ctx.databaseUrl);
  const proxy = await startProxy(Number(db.port || 5432), db.hostname);
  db.host = `127.0.0.1:${proxy.port}`;
  const pool = createPool(db.toString(), 4, deadlines.POSTGRES_TIMEOUT_MS);
  const env = { ...ctx.deps.env, ...deadlines };
  const app = await serve(createApp(compose({ ...ctx.deps, env, pool })));
  return {
    proxy,
    pool,
    baseUrl: app.baseUrl,
    async close() {
      await app.close();
      await proxy.close();
      await pool.end().catch(() => undefined);
    },
  };
}
