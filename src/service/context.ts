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

/**
 * What any part may read: the configuration and what is derived from it, no connection. The
 * adapters and services take this (or the part of it they use); the fast suite builds it without
 * any client.
 */
export interface Settings {
  env: Env;
  logger: Logger;
  /** The read alias of this database's index (contract §22.3). */
  alias: string;
  databaseName: string;
  taxonomy: Taxonomy;
  cursor: CursorCodec;
  /** Shards and replicas of new index versions (OPENSEARCH_SHARDS / _REPLICAS). */
  indexLayout?: IndexLayout;
  /** Set by the server process: while draining, /readyz answers 503 (contract §22.6). */
  lifecycle?: Lifecycle;
}

/**
 * The connections. Only bootstrap.ts (which opens them), the real backends (app/compose.ts), the
 * CLI's bulk commands and the demo account hold them; every adapter reaches them through a
 * capability.
 */
export interface Clients {
  pool: Pool;
  search: Client;
  /** Null when REDIS_URL is not configured: limits are then kept in process. */
  redis: Redis | null;
  /** Search results cached per index generation (search/search-cache.ts); absent: no caching. */
  searchCache?: SearchCache;
  /** The existing key hashes, kept current by notification (contract §14.5; store/key-index.ts). */
  keyIndex?: KeyIndex;
}

/** Settings and clients, as bootstrap.ts builds them once. */
export type AppDeps = Settings & Clients;
