import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { compose } from '../../../src/app/compose';
import { createApp } from '../../../src/app/create-app';
import { createHttpServer } from '../../../src/app/http-server';
import { memoryBackends, type MemoryWorld } from '../../../src/app/memory-backends';
import { parseEnv, type Env } from '../../../src/config';
import { taxonomyFromCatalog } from '../../../src/domain/taxonomy/catalog';
import type { Opportunity } from '../../../src/domain/record';
import { createLogger } from '../../../src/infra/logger';
import { createSearchClient } from '../../../src/search/client';
import { CursorCodec, parseCursorKeys } from '../../../src/search/cursor';
import type { AppDeps } from '../../../src/service/context';
import type { HealthProbes } from '../../../src/service/health';
import type { MemoryAccountInput } from '../../../src/store/memory-accounts';
import { ROOMY_READER } from '../../support/factories';

// The fast suite's world (issue 12): the real express app, composed over the in-memory
// capabilities (src/app/memory-backends.ts), on an ephemeral port. No Postgres, OpenSearch or
// Redis: the pool and the search client point at a closed port, so anything that still reached
// for them would fail loudly (only the change feed does, and answers 503).

export const CURSOR_KEYS = 'fast1=fast-suite-cursor-signing-secret-0123456789';
const NOWHERE_POSTGRES = 'postgresql://postgres@127.0.0.1:1/none';
const NOWHERE_SEARCH = 'http://127.0.0.1:1';

export interface FastApp {
  baseUrl: string;
  world: MemoryWorld;
  deps: AppDeps;
  /** A Free account with room to work (1000 rps, page size 100, a large allowance) and its key. */
  reader(account?: MemoryAccountInput): { accountId: string; keyId: string; key: string };
  close(): Promise<void>;
}

export async function startFastApp(
  records: readonly Opportunity[],
  overrides: Partial<Record<keyof Env, string>> = {},
  options: { health?: HealthProbes } = {},
): Promise<FastApp> {
  const env = parseEnv({
    CURSOR_SIGNING_KEYS: CURSOR_KEYS,
    MARKETPLACE_PROXY_SECRET: 'test-marketplace-secret',
    LOG_LEVEL: 'error',
    ...overrides,
  });
  const taxonomy = taxonomyFromCatalog();
  const deps: AppDeps = {
    env,
    logger: createLogger(env.LOG_LEVEL, () => undefined),
    pool: new Pool({ connectionString: NOWHERE_POSTGRES, connectionTimeoutMillis: 1000 }),
    search: createSearchClient(NOWHERE_SEARCH, 1000),
    alias: 'fast',
    databaseName: 'fast',
    taxonomy,
    cursor: new CursorCodec(parseCursorKeys(env.CURSOR_SIGNING_KEYS ?? CURSOR_KEYS)),
    redis: null,
  };
  const world = memoryBackends(taxonomy);
  if (options.health) world.backends.health = options.health;
  world.index.put(records);
  const server: Server = await new Promise((resolve) => {
    const app = createApp(compose(deps, world.backends));
    const s = createHttpServer(app, env).listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    world,
    deps,
    reader(account = {}) {
      const created = world.accounts.createAccount({ ...ROOMY_READER, ...account });
      const { key, record } = world.accounts.createKey(created.id);
      return { accountId: created.id, keyId: record.id, key };
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await deps.search.close();
      await deps.pool.end();
    },
  };
}
