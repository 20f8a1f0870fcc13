import type { Pool } from 'pg';
import { DEFAULT_DATABASE_URL, parseEnv, type Env } from './config';
import { searchConnection } from './config/connections';
import { cursorKeysSetting } from './infra/cursor-keys';
import { ensureLocalOpenSearch } from './infra/local-opensearch';
import { createLogger, type Logger } from './infra/logger';
import { metrics } from './infra/metrics';
import { withoutCredentials } from './infra/redact';
import { createRedisClient, readyWithin } from './infra/redis-client';
import { refusalsOf, upstreamRefused, refusalReason } from './infra/upstream-refusal';
import { retryUntil } from './infra/retry';
import { CursorCodec, parseCursorKeys } from './search/cursor';
import { createSearchClient, onLivingNode } from './search/client';
import { createSearchCache } from './search/search-cache';
import { aliasForDatabase, ensureIndex } from './search/index-manager';
import { indexLostAtStart } from './search/sync';
import type { AppDeps } from './service/context';
import { withAdvisoryLock } from './store/advisory-lock';
import { createPool, databaseName, ensureDatabase } from './store/db';
import { PgKeyIndex } from './store/key-index';
import { pgConnection } from './store/pg-tls';
import { migrate } from './store/migrate';
import { loadCurrentTaxonomy } from './store/taxonomy-repo';

export interface BootstrapOptions {
  env?: Env;
  logger?: Logger;
  /** Apply pending migrations before use (npm start and the CLI do). */
  migrate?: boolean;
  poolSize?: number;
  /**
   * The admin CLI's bulk work gets its own search client, with a timeout fit for bulk calls
   * (OPENSEARCH_BULK_TIMEOUT_MS) instead of the API's short per-request bound.
   */
  bulkSearch?: boolean;
  /**
   * The CLI's bulk work (import, sync, reindex, seed) runs statements longer than a request may:
   * its pool has no POSTGRES_TIMEOUT_MS deadline. The API's pool always has one (contract §20.3).
   */
  bulk?: boolean;
  /**
   * False: the search engine is not contacted at all (`import --no-sync`, contract §22.10.3: a bulk load
   * works while it is unreachable): no local OpenSearch is started and the index is not set up.
   * The client is still built (on OPENSEARCH_URL, else the local default) and never called.
   */
  searchEngine?: boolean;
}

/** The local OpenSearch's address, for a client that is built but not used (searchEngine: false). */
const LOCAL_SEARCH_URL = 'http://127.0.0.1:9200';

/**
 * The composition root: resolves the services (local defaults when no URL is configured, contract
 * §22.3), migrates, and builds the dependencies that the HTTP app, the MCP adapter and the CLI share.
 */
export async function bootstrap(options: BootstrapOptions = {}): Promise<AppDeps> {
  const env = options.env ?? parseEnv();
  const logger = options.logger ?? createLogger(env.LOG_LEVEL);

  const databaseUrl = env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const caFile = env.DATABASE_CA_FILE;
  // A refused connection (certificate, password...) stops start-up with one line.
  const postgresStep = <T>(step: () => Promise<T>) =>
    refusalsOf('postgres', withoutCredentials(databaseUrl), step);
  await ensureDatabaseIfPossible(databaseUrl, !env.DATABASE_URL, caFile);
  const deadline = options.bulk ? undefined : env.POSTGRES_TIMEOUT_MS;
  const pool = createPool(databaseUrl, options.poolSize ?? 20, deadline, caFile);
  // Migrations may take longer than a request's deadline: they get a pool of their own.
  if (options.migrate !== false)
    await postgresStep(() => withPool(createPool(databaseUrl, 2, undefined, caFile), migrate));

  const useSearch = options.searchEngine !== false;
  const searchUrl =
    env.OPENSEARCH_URL ??
    (useSearch
      ? await ensureLocalOpenSearch({ startTimeoutSeconds: env.OPENSEARCH_START_TIMEOUT })
      : LOCAL_SEARCH_URL);
  const connection = searchConnection(env);
  const search = createSearchClient(
    searchUrl,
    options.bulkSearch ? env.OPENSEARCH_BULK_TIMEOUT_MS : env.OPENSEARCH_TIMEOUT_MS,
    connection,
  );
  const dbName = databaseName(databaseUrl);
  const alias = aliasForDatabase(dbName);
  const indexLayout = { shards: env.OPENSEARCH_SHARDS, replicas: env.OPENSEARCH_REPLICAS };
  // contract §22.5: instances starting at once create the index once (one at a time under a lock).
  // A just-started local JVM may time out the first calls: retry up to its start deadline.
  if (useSearch) {
    await postgresStep(() =>
      withAdvisoryLock(pool, `index:${alias}`, () =>
        refusalsOf(
          'opensearch',
          withoutCredentials(searchUrl),
          () =>
            retryUntil(
              () =>
                onLivingNode(async () => {
                  // contract §20.5.3: a lost index is not made anew and empty behind the alias.
                  if (await indexLostAtStart(pool, search, alias)) {
                    logger.warn(
                      'search index lost: the next sync (the index follower, sync, import) rebuilds it from the store; lists and counts answer 503 until then',
                      { index_alias: alias },
                    );
                    return;
                  }
                  await ensureIndex(search, alias, indexLayout);
                }),
              env.OPENSEARCH_URL ? 0 : env.OPENSEARCH_START_TIMEOUT * 1000,
              (err) =>
                logger.warn('index set-up failed; retrying', {
                  error: err instanceof Error ? err.message : String(err),
                }),
            ),
          connection.aws !== undefined,
        ),
      ),
    );
  }

  const redis = env.REDIS_URL
    ? createRedisClient(env.REDIS_URL, {
        timeoutMs: env.REDIS_TIMEOUT_MS,
        caFile: env.REDIS_CA_FILE,
      })
    : null;
  // A Redis outage must not stop the service: limiters fall back to process memory.
  redis?.on('error', (err: Error) => {
    logger.warn('redis error', { error: err.message });
    metrics.upstreamError('redis', err);
  });
  // Decisions taken in process before the connection is up would split a window between the
  // process and Redis (a fresh instance admitting more than the limit): wait for it, briefly.
  const refused = redis
    ? await readyWithin(redis, Math.max(env.REDIS_TIMEOUT_MS, 1000))
    : undefined;
  if (redis && env.REDIS_URL && refused) {
    redis.disconnect();
    await search.close();
    await pool.end();
    throw upstreamRefused(
      'redis',
      withoutCredentials(env.REDIS_URL),
      refusalReason(refused) ?? 'authentication',
      refused,
    );
  }

  return {
    env,
    logger,
    pool,
    search,
    alias,
    databaseName: dbName,
    taxonomy: await loadCurrentTaxonomy(pool),
    cursor: new CursorCodec(parseCursorKeys(cursorKeysSetting(env.CURSOR_SIGNING_KEYS, logger))),
    redis,
    indexLayout,
    searchCache: createSearchCache(search, pool, alias, env.RECORD_CACHE_MB),
    // Opened on the first authentication only (the CLI never opens it).
    keyIndex: new PgKeyIndex(pgConnection(databaseUrl, caFile), logger, {
      timeoutMs: env.POSTGRES_TIMEOUT_MS,
    }),
  };
}

/** Postgres alone, for the CLI commands that need nothing else (contract §22.9). */
export interface PostgresOnly {
  env: Env;
  pool: Pool;
}

/**
 * The composition of `migrate` and the account and key commands: Postgres only, so no search
 * engine is started for them (contract §22.3: the first command that needs OpenSearch starts it).
 * `createDatabase`: 'if-possible' as bootstrap does; 'local-only' creates only the local default
 * database, and a configured one must exist. The caller ends the pool.
 */
export async function openPostgres(options: {
  createDatabase: 'if-possible' | 'local-only';
}): Promise<PostgresOnly> {
  const env = parseEnv();
  const url = env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  // A refusal is the start-up line the API prints (what, where, what to check), not the driver's.
  return refusalsOf('postgres', withoutCredentials(url), async () => {
    if (options.createDatabase === 'if-possible') {
      await ensureDatabaseIfPossible(url, !env.DATABASE_URL, env.DATABASE_CA_FILE);
    } else if (!env.DATABASE_URL) {
      await ensureDatabase(url, env.DATABASE_CA_FILE);
    }
    const pool = createPool(url, 2, undefined, env.DATABASE_CA_FILE);
    try {
      await pool.query('SELECT 1');
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw err;
    }
    return { env, pool };
  });
}

/**
 * The local default database is created when missing (contract §22.3). A configured one is created
 * too when the role may do so; where it may not (a managed server), connecting reports the problem.
 */
export async function ensureDatabaseIfPossible(
  databaseUrl: string,
  required: boolean,
  caFile?: string,
): Promise<void> {
  try {
    await ensureDatabase(databaseUrl, caFile);
  } catch (err) {
    if (required) throw err;
  }
}

async function withPool<T>(pool: Pool, fn: (pool: Pool) => Promise<T>): Promise<T> {
  try {
    return await fn(pool);
  } finally {
    await pool.end();
  }
}

export async function shutdown(deps: AppDeps): Promise<void> {
  await deps.keyIndex?.close();
  await deps.searchCache?.generation.close();
  deps.redis?.disconnect();
  await deps.search.close();
  await deps.pool.end();
}
