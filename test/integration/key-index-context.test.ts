import { openPool } from '../support/pg-pools';
import { currentRequestId, runWithRequestId } from '../../src/infra/request-context';
import type { Logger } from '../../src/infra/logger';
import { PgKeyIndex } from '../../src/store/key-index';
import { createTestContext, type TestContext } from '../support/harness';

// The key index's listening connection is opened by the first request that authenticates, but it
// is not that request's: its events (a lost connection, minutes later) were logged with that
// request's id, so `grep <request id>` found reconnects the request had nothing to do with.

let ctx: TestContext;
beforeAll(async () => (ctx = await createTestContext()));
afterAll(() => ctx.close());

it('logs the events of its connection with no request id, though a request opened it', async () => {
  const seen: (string | undefined)[] = [];
  const warnings: string[] = [];
  const logger: Logger = {
    debug() {},
    info() {},
    error() {},
    warn: (msg) => {
      warnings.push(msg);
      seen.push(currentRequestId());
    },
  };
  const index = new PgKeyIndex({ connectionString: ctx.databaseUrl }, logger, {
    timeoutMs: 5_000,
    retryMs: 60_000,
  });
  try {
    await runWithRequestId('first-request', () => index.mayExist('0'.repeat(64)));
    // The listening connection goes away, as when Postgres restarts.
    const admin = openPool({ connectionString: ctx.databaseUrl, max: 1 });
    try {
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND query ILIKE '%left(key_hash%' AND pid <> pg_backend_pid()`,
      );
    } finally {
      await admin.end();
    }
    for (let i = 0; i < 100 && warnings.length === 0; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(warnings).toContain('api key index connection lost; reconnecting');
    expect(seen).toEqual(warnings.map(() => undefined));
  } finally {
    await index.close();
  }
});
