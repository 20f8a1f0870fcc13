import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { bootstrap, shutdown } from '../../src/bootstrap';
import { parseEnv, type Env } from '../../src/config';
import { compose } from '../../src/app/compose';
import { createApp } from '../../src/app/create-app';
import { createHttpServer } from '../../src/app/http-server';
import { createLogger } from '../../src/infra/logger';
import { dropIndices } from '../../src/search/index-manager';
import { IndexFollower } from '../../src/search/index-follower';
import type { AppDeps } from '../../src/service/context';
import { takeTestDatabase } from './template-database';

export const TEST_CURSOR_KEYS = 'test1=test-cursor-signing-secret-0123456789abcdef';

export interface TestContext {
  deps: AppDeps;
  baseUrl: string;
  databaseUrl: string;
  /** Lines the app logged (JSON strings), for assertions on what is and is not logged. */
  logs: string[];
  close(): Promise<void>;
}

/**
 * One isolated world per test file: its own database (so its own index alias, contract §22.3), the
 * shared real OpenSearch and Redis, and the app listening on an ephemeral port.
 */
export async function createTestContext(
  overrides: Partial<Record<keyof Env, string>> = {},
): Promise<TestContext> {
  const database = await takeTestDatabase();
  const databaseUrl = database.url;
  const env = parseEnv({
    DATABASE_URL: databaseUrl,
    OPENSEARCH_URL: process.env.OPENSEARCH_URL,
    REDIS_URL: process.env.TEST_REDIS_URL,
    CURSOR_SIGNING_KEYS: TEST_CURSOR_KEYS,
    MARKETPLACE_PROXY_SECRET: 'test-marketplace-secret',
    LOG_LEVEL: 'info',
    // A loaded test machine can take longer than the 500 ms default; a test about Redis deadlines
    // sets its own (upstream-deadlines.test.ts).
    REDIS_TIMEOUT_MS: '10000',
    // Likewise the engine's 5 s: a just-started engine (a fresh clone's CI run) on a machine busy
    // with the run's first, heaviest files took longer than that to create two files' indexes,
    // and their whole suites failed at start-up. Tests about the engine's deadline set their own
    // or read the configured default (read-search-unavailable.test.ts).
    OPENSEARCH_TIMEOUT_MS: '20000',
    ...overrides,
  });
  const logs: string[] = [];
  const logger = createLogger(env.LOG_LEVEL, (line) => logs.push(line));
  const deps = await bootstrap({ env, logger, poolSize: 12 });
  // The index follower of the server process (contract §22.8), for the tests that ask for it by
  // setting SYNC_INTERVAL_MS: the others control when the index is synced.
  const follower =
    overrides.SYNC_INTERVAL_MS === undefined
      ? null
      : new IndexFollower(deps, env.SYNC_INTERVAL_MS, logger).start();
  const server: Server = await new Promise((resolve) => {
    const s = createHttpServer(createApp(compose(deps)), env).listen(0, '127.0.0.1', () =>
      resolve(s),
    );
  });
  const { port } = server.address() as AddressInfo;
  return {
    deps,
    baseUrl: `http://127.0.0.1:${port}`,
    databaseUrl,
    logs,
    async close() {
      await follower?.stop();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await dropIndices(deps.search, deps.alias).catch(() => undefined);
      await shutdown(deps);
      await database.release().catch(() => undefined);
    },
  };
}
