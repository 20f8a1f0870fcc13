import type { Client } from '@opensearch-project/opensearch';
import type { Redis } from 'ioredis';
import type { Pool } from 'pg';
import type { Env } from '../config';
import type { Taxonomy } from '../domain/taxonomy';
import type { Lifecycle } from '../infra/lifecycle';
import type { Logger } from '../infra/logger';
import type { CursorCodec } from '../search/cursor';
import type { IndexLayout } from '../search/index-layout';
import type { SearchCache } from '../search/search-cache';
import type { KeyIndex } from '../store/key-index';

/** The configuration and raw clients, built once by bootstrap.ts; app/compose.ts builds the capabilities over them. */
export interface AppDeps {
  env: Env;
  logger: Logger;
  pool: Pool;
  search: Client;
  /** The read alias of this database's index (decisions 10). */
  alias: string;
  databaseName: string;
  taxonomy: Taxonomy;
  cursor: CursorCodec;
  /** Null when REDIS_URL is not configured: limits are then kept in process. */
  redis: Redis | null;
  /** Shards and replicas of new index versions (OPENSEARCH_SHARDS / _REPLICAS; issue 15). */
  indexLayout?: IndexLayout;
  /** Set by the server process: while draining, /readyz answers 503 (decisions 10). */
  lifecycle?: Lifecycle;
  /** Search results cached per index generation (search/search-cache.ts); absent: no caching. */
  searchCache?: SearchCache;
  /** The existing key hashes, kept current by notification (decisions 12; store/key-index.ts). */
  keyIndex?: KeyIndex;
}
