import { createHash } from 'node:crypto';
import type { Client } from '@opensearch-project/opensearch';
import type { FacetDimension } from '../domain/facets';
import type { Filter } from '../domain/filters';
import type { Opportunity } from '../domain/record';
import { recordText, storedRecord } from '../domain/record-text';
import type { Taxonomy } from '../domain/taxonomy';
import { metrics } from '../infra/metrics';
import { answerItems } from './answer-items';
import { searchCall } from './client';
import { servedText } from './stored-text';
import type { DeliveredRecords } from '../domain/delivered-records';
import { DeliveredExclusion, excluding } from './exclusions';
import { LiveMapping } from './live-mapping';
import type { RecordTexts } from './record-texts';
import { facetCounts, type Aggregations } from './facet-counts';
import { aggregationBody, type Json } from './facets';
import {
  bucketLimitError,
  dashboardAggs,
  readHistogram,
  readRateStats,
  type RateStatsRead,
} from './dashboard-aggs';
import { quartileRefinement } from './exact-quartiles';
import type { RateStatsEntry } from '../domain/aggregates';
import type {
  AggregateQuery,
  AggregateResult,
  FacetResult,
  OpportunityIndex,
  PageHits,
  PageQuery,
} from './opportunity-index';
import {
  buildCountBody,
  buildFilterQuery,
  buildListSearchBody,
  digestsOnly,
  type ListSearchBody,
  type SearchAfter,
} from './query-builder';
import type { ResultCache } from './result-cache';
import type { PageHit, SearchCache } from './search-cache';

// No `filter_path` on the page searches: OpenSearch applies it by passing its whole answer through
// a filtering generator, which cost it 0.3-0.5 ms of CPU on a page of 25 texts (more than the
// search after the key, measured back to back: docs/benchmarks.md). What it saved this side (each
// hit's _index, _id and _score, and the answer's took and _shards) is a few hundred bytes.

/** A list hit as the engine sends it: its stored source (mapping 7: the id, text and digest). */
export interface RawHit {
  _source?: { id?: string; record_json?: string; record_digest?: string; record?: Opportunity };
  sort?: unknown[];
}

/** A list hit of a digests-only search (query-builder.ts digestsOnly). */
interface DigestHit {
  _index: string;
  fields?: { record_digest?: unknown[] };
  sort?: unknown[];
}

/**
 * The hit's record: from its stored text and digest (mapping 4), served as they are; or, from a
 * document indexed by an older mapping (an index not yet rebuilt), its record object, whose text
 * and digest list-json.ts then makes as before. A hit with neither is no record.
 */
export function servedRecord(source: RawHit['_source']): Opportunity | undefined {
  if (!source) return undefined;
  const { id, record_json: json, record_digest: digest } = source;
  if (typeof id === 'string' && typeof json === 'string' && typeof digest === 'string') {
    return storedRecord(id, servedText(json), digest);
  }
  return source.record;
}

/**
 * The opportunity index over OpenSearch: builds the request bodies (query-builder.ts, facets.ts),
 * runs them on the read alias and unpacks hits, totals and aggregations, so that nothing above
 * search/ sees the engine's wire shapes. Counts and pages go through the generation-keyed result
 * cache when the process has one (search-cache.ts).
 */
export class OpenSearchIndex implements OpportunityIndex {
  private readonly delivered: DeliveredExclusion;
  private readonly countRequests = new WeakMap<
    Filter,
    { body: ReturnType<typeof buildCountBody>; key: string }
  >();
  private readonly aggregateRequests = new WeakMap<
    Filter,
    Map<string, { body: Json; key: string; where: Json }>
  >();

  /** What the live index can do, asked once per index generation. */
  private readonly mapping: LiveMapping;

  constructor(
    private readonly client: Client,
    private readonly alias: string,
    private readonly taxonomy: Taxonomy,
    private readonly cache?: SearchCache,
  ) {
    this.mapping = new LiveMapping(client, alias, () =>
      cache?.client === client ? cache.generation.current() : null,
    );
    this.delivered = new DeliveredExclusion(this.mapping);
  }

  /**
   * One keyset page (contract §8.1): search_after on (freshness desc, id asc) with total hits off, so
   * the index-sorted segments can stop early. One extra hit tells whether another page exists.
   */
  async page(query: PageQuery): Promise<PageHits> {
    const excluded = await searchCall(() => this.delivered.clauses(query.exclude));
    const body = buildListSearchBody(query.filter, this.taxonomy, {
      size: query.limit + 1,
      searchAfter: query.searchAfter,
      liveOnly: query.liveOnly,
      excluded,
    });
    // `key`: the page's cache key, absent for a page with exclusions (below).
    const load = async (key?: string): Promise<PageHit> => {
      const ahead = this.ownCache()?.readAhead;
      if (key !== undefined && query.searchAfter && ahead && pagesAhead(query.limit) > 1) {
        const { value, taken, kept } = await ahead.take(key, () =>
          this.readAhead(body, key, query),
        );
        metrics.pagesReadAhead(taken ? 'served' : 'kept', taken ? 1 : kept);
        return value;
      }
      // First pages only (record-texts.ts): a page that follows a cursor reads its texts.
      const texts = query.searchAfter ? undefined : await this.recordTexts();
      const hits = texts?.likelyHeld()
        ? await this.hitsByDigest(body, query.filter, texts)
        : await this.hitsWithTexts(body, query.filter, texts);
      return pageHit(hits, query.limit);
    };
    // An unseen_only page carries the account's deliveries and changes with every delivery:
    // caching it would only fill memory with single-use entries (nor is it read ahead), and its
    // body, which holds those deliveries (a bitmap of up to hundreds of kilobytes), is not even
    // made into a key. A page after a cursor is kept once it is asked for again: a client walking
    // its cursor asks each page once (read ahead: readAhead below), and its walk would otherwise
    // push the first pages that dashboards and agents repeat out of the cache.
    let page: PageHit;
    if (excluded.length) page = await load();
    else {
      const key = JSON.stringify(body);
      page = await this.cached('pages', body, () => load(key), {
        key,
        admit: query.searchAfter ? 'repeated' : 'first',
      });
    }
    return {
      records: page.records,
      positions: page.positions,
      hasMore: page.hits > query.limit,
    };
  }

  /**
   * A page after a cursor and the pages after it, from one search: each page under the key of the
   * request that will ask for it, the one whose cursor holds the position of the page before's
   * last record. A client that follows a cursor almost always asks for the next page too (a sync
   * job walks to the end), and part of the engine's cost of a keyset page is finding where it
   * starts, whatever its size: on the bench's index, 25 records with their texts cost it 2.25 ms of
   * CPU in searches of 26 hits and 1.75 ms in searches of 101 (docs/benchmarks.md, Read-ahead).
   * The pages are kept in the search cache's `readAhead` (ResultCache.take): under the generation
   * read before the search, all dropped at any change of the index, each served once, so that a
   * walk never pushes out what others repeat. Never for unseen_only (its pages change with each
   * delivery). The walk's texts are not kept (record-texts.ts).
   */
  private async readAhead(
    body: ListSearchBody,
    key: string,
    query: PageQuery,
  ): Promise<Array<{ key: string; value: PageHit }>> {
    const { limit } = query;
    const count = pagesAhead(limit);
    const hits = await this.hitsWithTexts({ ...body, size: limit * count + 1 }, query.filter);
    const pages = [{ key, value: pageHit(hits, limit) }];
    for (let start = limit; start < hits.length && pages.length < count; start += limit) {
      const before = hits.slice(start - limit, start);
      // A hit without a text is left out of its page, whose cursor then ends before this cut.
      const last = before[before.length - 1];
      if (!last || before.some((hit) => !hit.record)) break;
      // The next request's body is this one's with the cursor's position (buildListSearchBody).
      const next: ListSearchBody = { ...body, search_after: position(last.sort) };
      pages.push({
        key: JSON.stringify(next),
        value: pageHit(hits.slice(start, start + limit + 1), limit),
      });
    }
    return pages;
  }

  /** The process's search cache, when it holds this client's answers. */
  private ownCache(): SearchCache | undefined {
    return this.cache?.client === this.client ? this.cache : undefined;
  }

  /**
   * The record texts of this process, when the live index keeps digests as doc values. Not while
   * no index generation is known (not listening): the mapping's answer is then not kept, and
   * asking it for every page would add a request to each one.
   */
  private async recordTexts(): Promise<RecordTexts | undefined> {
    const cache = this.ownCache();
    const texts = cache?.texts;
    if (!cache || !texts || cache.generation.current() === null) return undefined;
    return (await searchCall(() => this.mapping.features())).digestValues ? texts : undefined;
  }

  /**
   * The page's hits with each record's text and digest read from the engine's stored source; with
   * `keep`, the texts are kept, and how many were held already is learnt (record-texts.ts).
   */
  private async hitsWithTexts(
    body: ListSearchBody,
    filter: Filter,
    keep?: RecordTexts,
  ): Promise<PageRecordHit[]> {
    // The _source is only the record's id, text and digest (mapping 7). Read hit by hit
    // (answer-items.ts): a read-ahead's answer is hundreds of KB.
    const hits = (await searchCall(() =>
      answerItems(
        () =>
          this.client.search(
            { index: this.alias, body: body as never, ...relevancePreference(filter) },
            { asStream: true },
          ),
        ']}}',
      ),
    )) as RawHit[];
    const page = hits.map((hit) => ({ record: servedRecord(hit._source), sort: hit.sort ?? [] }));
    if (keep) {
      const records = page.slice(0, body.size - 1).flatMap((hit) => hit.record ?? []);
      const held = records.filter((r) => keep.has(r.id, recordText(r).digest)).length;
      keep.observe(held, records.length);
      for (const record of records) keep.remember(record);
      metrics.recordTexts(0, records.length, keep.characters);
    }
    return page;
  }

  /**
   * The page's hits from their positions and digests (doc values, mapping 6): the engine reads no
   * stored document, and the texts come from the process's record texts where the digest matches,
   * and from one multi-get of the rest, from the index each hit came from, as of the same refresh
   * (realtime off). A hit whose record is gone by then is no record, as a hit without a text is.
   */
  private async hitsByDigest(
    body: ListSearchBody,
    filter: Filter,
    texts: RecordTexts,
  ): Promise<PageRecordHit[]> {
    const res = await searchCall(() =>
      this.client.search({
        index: this.alias,
        body: digestsOnly(body) as never,
        ...relevancePreference(filter),
      }),
    );
    const hits = (res.body as { hits?: { hits?: DigestHit[] } }).hits?.hits ?? [];
    const page = hits.map((hit) => {
      const sort = hit.sort ?? [];
      // The id is the last sort value of both orders (query-builder.ts LIST_SORT, RELEVANCE_SORT).
      const id = String(sort[sort.length - 1]);
      const digest = hit.fields?.record_digest?.[0];
      const record = typeof digest === 'string' ? texts.get(id, digest) : undefined;
      return { id, index: hit._index, record, sort };
    });
    // The extra hit (past the page) is only counted: its text is not read.
    const served = page.slice(0, body.size - 1);
    const missing = served.filter((hit) => hit.record === undefined);
    texts.observe(served.length - missing.length, served.length);
    if (missing.length === 0) {
      metrics.recordTexts(served.length, 0, texts.characters);
      return page;
    }
    const docs = (await searchCall(() =>
      answerItems(
        () =>
          this.client.mget(
            {
              body: { docs: missing.map((hit) => ({ _index: hit.index, _id: hit.id })) },
              _source: true,
              realtime: false,
            },
            { asStream: true },
          ),
        ']}',
      ),
    )) as Array<{ _id?: string } & RawHit>;
    const fetched = new Map<string, Opportunity>();
    for (const doc of docs) {
      const record = servedRecord(doc._source);
      if (record === undefined || doc._id === undefined) continue;
      fetched.set(doc._id, record);
      texts.remember(record);
    }
    metrics.recordTexts(served.length - missing.length, fetched.size, texts.characters);
    return page.map((hit) => (hit.record ? hit : { ...hit, record: fetched.get(hit.id) }));
  }

  count(filter: Filter): Promise<number> {
    const { body, key } = this.countRequest(filter);
    return this.cached(
      'counts',
      body,
      async () => {
        const res = await searchCall(() => this.client.count({ index: this.alias, body }));
        return res.body.count;
      },
      { key },
    );
  }

  /**
   * A count's body and its cache key, built once per filter object: a repeated count hands the
   * same frozen filter every time (service/parsed-requests.ts).
   */
  private countRequest(filter: Filter): { body: ReturnType<typeof buildCountBody>; key: string } {
    let request = this.countRequests.get(filter);
    if (!request) {
      const body = buildCountBody(filter, this.taxonomy);
      request = { body, key: JSON.stringify(body) };
      this.countRequests.set(filter, request);
    }
    return request;
  }

  facets(
    filter: Filter,
    dims: readonly FacetDimension[],
    groupLimit: number,
  ): Promise<FacetResult> {
    const query = buildFilterQuery(filter, this.taxonomy);
    return facetCounts((body) => this.aggregate(body), this.taxonomy, query, dims, groupLimit);
  }

  /**
   * The count minus every record delivered to the account this period (exact at any number of
   * deliveries: search/exclusions.ts). Never cached: it changes with every delivery.
   */
  async newCount(filter: Filter, delivered: DeliveredRecords): Promise<number> {
    const clauses = await searchCall(() => this.delivered.clauses(delivered));
    const query = excluding(buildFilterQuery(filter, this.taxonomy), clauses);
    const res = await searchCall(() =>
      this.client.count({ index: this.alias, body: { query } as never }),
    );
    return (res.body as { count: number }).count;
  }

  /** contract §10.4, §10.5: the histogram and rate statistics in one size-0 search over the count's query. */
  async aggregates(filter: Filter, query: AggregateQuery): Promise<AggregateResult> {
    const { body, key, where } = this.aggregateRequest(filter, query);
    // Dashboards repeat their questions: answers are cached per index generation, as counts are.
    return this.cached(
      'aggregates',
      body,
      async () => {
        const { total, aggs } = await this.aggregate(body).catch((err: unknown) => {
          throw bucketLimitError(err) ?? err;
        });
        const rateStats = query.rateStats
          ? await Promise.all(readRateStats(aggs.r).map((read) => this.exactRates(where, read)))
          : undefined;
        return {
          count: total,
          ...(query.histogram ? { histogram: readHistogram(aggs.h) } : {}),
          ...(rateStats ? { rateStats } : {}),
        };
      },
      { key },
    );
  }

  /** An entry whose quartiles are the digest's, made exact in two more requests (exact-quartiles.ts). */
  private async exactRates(where: Json, read: RateStatsRead): Promise<RateStatsEntry> {
    if (!read.approximate) return read.entry;
    const refinement = quartileRefinement(where, read.unitKey, read.currencyKey, read.entry);
    const { aggs } = await this.aggregate(refinement.belowCounts);
    const searches = refinement.statisticSearches(aggs as Json);
    if (searches.length === 0) return read.entry;
    const res = await searchCall(() =>
      this.client.msearch({
        index: this.alias,
        body: searches.flatMap((search) => [{}, search]) as never,
      }),
    );
    return refinement.refined((res.body as { responses: Json[] }).responses);
  }

  /** A dashboard's search body and cache key, built once per filter object and question. */
  private aggregateRequest(
    filter: Filter,
    query: AggregateQuery,
  ): { body: Json; key: string; where: Json } {
    let byQuery = this.aggregateRequests.get(filter);
    if (!byQuery) {
      byQuery = new Map();
      this.aggregateRequests.set(filter, byQuery);
    }
    const asked = `${query.histogram?.field ?? ''} ${query.histogram?.interval ?? ''} ${query.rateStats === true}`;
    let request = byQuery.get(asked);
    if (!request) {
      const where = buildFilterQuery(filter, this.taxonomy);
      const body = aggregationBody(where, dashboardAggs(query), true);
      request = { body, key: JSON.stringify(body), where };
      byQuery.set(asked, request);
    }
    return request;
  }

  private async aggregate(body: Json): Promise<{ total: number; aggs: Aggregations }> {
    const res = await searchCall(() =>
      this.client.search({ index: this.alias, body: body as never }),
    );
    const b = res.body as unknown as {
      hits: { total?: { value: number } | number };
      aggregations?: Aggregations;
    };
    const total = typeof b.hits.total === 'number' ? b.hits.total : (b.hits.total?.value ?? 0);
    return { total, aggs: b.aggregations ?? {} };
  }

  /** Through the result cache when the process has one for this client. */
  private cached<K extends CacheKind>(
    kind: K,
    body: object,
    load: () => Promise<CachedValue<K>>,
    { key, admit }: { key?: string; admit?: 'first' | 'repeated' } = {},
  ): Promise<CachedValue<K>> {
    const own = this.ownCache();
    if (!own) return load();
    const cache = own[kind] as ResultCache<CachedValue<K>>;
    return cache.get(key ?? JSON.stringify(body), load, { admit });
  }
}

/** A page's hit: its record (none when its text could not be had) and its sort values. */
interface PageRecordHit {
  record: Opportunity | undefined;
  sort: readonly unknown[];
}

/**
 * How many hits a page after a cursor reads, its own included (readAhead). Past a hundred the
 * engine saves little more per record (1.75 ms per 25 at 101 hits, 1.63 at 201), while the search
 * that reads ahead makes its page wait longer (10.6 against 19.1 ms: docs/benchmarks.md).
 */
const READ_AHEAD_HITS = 100;

/**
 * At most this many pages from one search, its own included: a walk of pages of two records would
 * otherwise keep 49 of the 300 pages a process holds ahead, and six such walks would push each
 * other's pages out before they were asked for.
 */
const MAX_PAGES_AHEAD = 10;

/** How many pages of `limit` records one search reads for a page after a cursor. */
function pagesAhead(limit: number): number {
  return Math.max(1, Math.min(MAX_PAGES_AHEAD, Math.floor(READ_AHEAD_HITS / limit)));
}

/** A page from its hits, the one past it included (when there is one). */
function pageHit(hits: readonly PageRecordHit[], limit: number): PageHit {
  const records: Opportunity[] = [];
  const positions: SearchAfter[] = [];
  for (const hit of hits.slice(0, limit)) {
    if (!hit.record) continue;
    records.push(hit.record);
    positions.push(position(hit.sort));
  }
  return { records, positions, hits: Math.min(hits.length, limit + 1) };
}

/** A hit's sort values as a keyset position: [freshness, id] or [score, freshness, id]. */
function position(sort: readonly unknown[]): SearchAfter {
  // The score stays the number the engine sent: search_after must get it back exactly.
  return sort.length === 3
    ? [Number(sort[0]), Number(sort[1]), String(sort[2])]
    : [Number(sort[0]), String(sort[1])];
}

/**
 * Scores depend on each shard copy's term statistics (deleted documents count until a merge), so
 * the pages of one relevance search all ask the same copies: the order stays the same from page
 * to page on a cluster with replicas (contract §7.5).
 */
function relevancePreference(filter: Filter): { preference?: string } {
  if (filter.sort !== 'relevance') return {};
  return {
    preference: `q${createHash('sha1')
      .update(filter.q ?? '')
      .digest('hex')
      .slice(0, 16)}`,
  };
}

type CacheKind = 'counts' | 'pages' | 'aggregates';
type CachedValue<K extends CacheKind> = K extends 'counts'
  ? number
  : K extends 'pages'
    ? PageHit
    : AggregateResult;
