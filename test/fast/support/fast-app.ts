import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compose, type Capabilities } from '../../../src/app/compose';
import { createApp } from '../../../src/app/create-app';
import { createHttpServer } from '../../../src/app/http-server';
import { memoryBackends, type MemoryWorld } from '../../../src/app/memory-backends';
import { parseEnv, type Env } from '../../../src/config';
import { taxonomyFromCatalog } from '../../../src/domain/taxonomy/catalog';
import type { Opportunity } from '../../../src/domain/record';
import { createLogger } from '../../../src/infra/logger';
import { CursorCodec, parseCursorKeys } from '../../../src/search/cursor';
import type { Settings } from '../../../src/service/context';
import type { HealthProbes } from '../../../src/service/health';
import type { MemoryAccountInput } from '../../../src/store/memory-accounts';
import { ROOMY_READER } from '../../support/factories';

// The fast suite's world: the real express app, composed over the in-memory
// capabilities (src/app/memory-backends.ts), on an ephemeral port. No Postgres, OpenSearch or
// Redis, and no client of them: the app is composed over settings and the in-memory backends.

export const CURSOR_KEYS = 'fast1=fast-suite-cursor-signing-secret-0123456789';

export interface FastApp {
  baseUrl: string;
  world: MemoryWorld;
  deps: Settings;
  /** The capabilities the app serves from (its service layer, for tests that call it directly). */
  capabilities: Capabilities;
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
  const deps: Settings = {
    env,
    logger: createLogger(env.LOG_LEVEL, () => undefined),
    alias: 'fast',
    databaseName: 'fast',
    taxonomy,
    cursor: new CursorCodec(parseCursorKeys(env.CURSOR_SIGNING_KEYS ?? CURSOR_KEYS)),
  };
  const world = memoryBackends(taxonomy);
  if (options.health) world.backends.health = options.health;
  world.index.put(records);
  const capabilities = compose(deps, world.backends);
  const server: Server = await new Promise((resolve) => {
    const app = createApp(capabilities);
    const s = createHttpServer(app, env).listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    world,
    deps,
    capabilities,
    reader(account = {}) {
      const created = world.accounts.createAccount({ ...ROOMY_READER, ...account });
      const { key, record } = world.accounts.createKey(created.id);
      return { accountId: created.id, keyId: record.id, key };
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
