import type { Client } from '@opensearch-project/opensearch';
import type { Pool } from 'pg';
import { IndexGeneration } from './generation';
import type { Opportunity } from '../domain/record';
import type { AggregateResult } from './opportunity-index';
import type { SearchAfter } from './query-builder';
import { RecordTexts } from './record-texts';
import { ResultCache } from './result-cache';

/**
 * A list search's hits as a page needs them: the public records, each with its stored text
 * (domain/record-text.ts), and their keyset positions; `hits` counts them all, the one past the
 * page included. Cached as such, so a repeated page serves the same record objects and texts.
 */
export interface PageHit {
  records: Opportunity[];
  positions: SearchAfter[];
  hits: number;
}

/** The caches of one process's searches of one alias. */
export interface SearchCache {
  /** The client whose answers it holds: a process given another client does not use it. */
  client: Client;
  generation: IndexGeneration;
  counts: ResultCache<number>;
  pages: ResultCache<PageHit>;
  /**
   * Pages after a cursor read ahead of their requests, each served once (ResultCache.take;
   * OpenSearchIndex.readAhead).
   */
  readAhead?: ResultCache<PageHit>;
  /** Histograms and rate statistics (contract §10.4, §10.5), as read: a few hundred numbers each. */
  aggregates: ResultCache<AggregateResult>;
  /** The records' texts by id and digest (record-texts.ts); absent when RECORD_CACHE_MB is 0. */
  texts?: RecordTexts;
}

// Bounds: a count is a number (10,000 entries are well under a megabyte); a page of 26 hits with
// their records is tens of kilobytes, so 500 pages keep the process well within its memory budget;
// as do 300 pages read ahead: three each for a hundred walks at once.
const MAX_AGE_MS = 60_000;

export function createSearchCache(
  client: Client,
  pool: Pool,
  alias: string,
  recordCacheMb = 0,
): SearchCache {
  const generation = new IndexGeneration(pool, alias);
  return {
    // Not keyed by generation: a text is served only under its own digest (record-texts.ts).
    ...(recordCacheMb > 0 ? { texts: new RecordTexts(recordCacheMb * 1024 * 1024) } : {}),
    client,
    generation,
    counts: new ResultCache<number>(generation, { maxEntries: 10_000, maxAgeMs: MAX_AGE_MS }),
    pages: new ResultCache<PageHit>(generation, { maxEntries: 500, maxAgeMs: MAX_AGE_MS }),
    readAhead: new ResultCache<PageHit>(generation, { maxEntries: 300, maxAgeMs: MAX_AGE_MS }),
    aggregates: new ResultCache<AggregateResult>(generation, {
      maxEntries: 1000,
      maxAgeMs: MAX_AGE_MS,
    }),
  };
}
