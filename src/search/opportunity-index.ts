import type { BucketCount, HistogramRequest, RateStatsEntry } from '../domain/aggregates';
import type { DeliveredRecords } from '../domain/delivered-records';
import type { FacetBucket, FacetDimension } from '../domain/facets';
import type { Filter } from '../domain/filters';
import type { Opportunity } from '../domain/record';
import type { SearchAfter } from './query-builder';

// What the read service asks the search engine: one keyset page, a count, count facets
// and new_count. Two implementations agree on the fixture (test/integration/index-contract.test.ts):
// OpenSearchIndex (search/opensearch-index.ts) serves the API; MemoryIndex (search/memory-index.ts)
// evaluates the same filters over an array, for the fast suite.

export interface PageQuery {
  filter: Filter;
  /** Records to return; the index looks one further to tell whether another page exists. */
  limit: number;
  /** The decoded cursor position: the page starts after it (contract §8.2). */
  searchAfter?: SearchAfter;
  /** Preview: only live records, whatever the filters say (contract §9.1). */
  liveOnly?: boolean;
  /** unseen_only: the records already delivered to the account this period (contract §11.1). */
  exclude?: DeliveredRecords;
}

export interface PageHits {
  /** At most `limit` records, in list order: freshness desc, then id asc (contract §8.1). */
  records: Opportunity[];
  /** Each record's keyset position, so a page cut short can resume after any of its records. */
  positions: SearchAfter[];
  /** A record follows the last one returned. */
  hasMore: boolean;
}

/** Count facets of contract §10.2: the top buckets of one or two dimensions and what they leave out. */
export interface FacetResult {
  count: number;
  groups: FacetBucket[];
  other_count: number;
}

/** What a dashboard count asks besides the count (contract §10.4, §10.5). */
export interface AggregateQuery {
  histogram?: HistogramRequest;
  rateStats?: boolean;
}

/**
 * The raw figures: the histogram's non-empty buckets (ascending; the service fills the gaps and
 * bounds their number) and every (unit, currency) entry with its statistics (unsuppressed).
 */
export interface AggregateResult {
  /** The matching records (exact): the count itself, with no second request. */
  count: number;
  histogram?: BucketCount[];
  rateStats?: RateStatsEntry[];
}

export interface OpportunityIndex {
  page(query: PageQuery): Promise<PageHits>;
  /** Records matching the filter (contract §5.4). */
  count(filter: Filter): Promise<number>;
  /** count with group_by: one or two dimensions, `groupLimit` buckets per level. */
  facets(filter: Filter, dims: readonly FacetDimension[], groupLimit: number): Promise<FacetResult>;
  /** Records matching the filter, less those in `delivered` (include=new_count, contract §10.3). */
  newCount(filter: Filter, delivered: DeliveredRecords): Promise<number>;
  /** The histogram and rate statistics of the matching records (contract §10.4, §10.5), in one pass. */
  aggregates(filter: Filter, query: AggregateQuery): Promise<AggregateResult>;
}
