import type { DeliveredRecords } from '../domain/delivered-records';
import type { FacetDimension } from '../domain/facets';
import { parseKeywordQuery, type Filter } from '../domain/filters';
import type { Opportunity } from '../domain/record';
import { storedRecord } from '../domain/record-text';
import type { ChangeFeedQuery, ChangeFeedRow, ChangeLog } from '../store/changes-repo';
import type { Taxonomy } from '../domain/taxonomy';
import { toDocument, type OpportunityDocument } from './documents';
import { servedText } from './stored-text';
import { filterPredicate } from './memory-filter';
import { memoryFacets } from './memory-facets';
import { memoryAggregates } from './memory-dashboard';
import type {
  AggregateQuery,
  AggregateResult,
  FacetResult,
  OpportunityIndex,
  PageHits,
  PageQuery,
} from './opportunity-index';
import { TextMatcher } from './memory-text';
import type { FreshnessPosition, SearchAfter } from './query-builder';

interface Entry {
  doc: OpportunityDocument;
  /** The keyset position (contract §8.1): freshness in epoch millis, then id. */
  position: FreshnessPosition;
}

/**
 * contract §8.1: freshness descending, then id ascending (code-unit order, as the keyword sort);
 * under sort=relevance (contract §7.5) a score descending comes first.
 */
function compare(a: SearchAfter, b: SearchAfter): number {
  for (let i = 0; i < a.length - 1; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    if (x !== y) return y - x;
  }
  const x = a[a.length - 1] as string;
  const y = b[b.length - 1] as string;
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The opportunity index over an array, for the fast suite: the same documents as the
 * OpenSearch index (search/documents.ts), filtered by memory-filter.ts, in list order, with
 * search_after, exclusions, counts and facets. It also answers detail lookups by id, standing in
 * for the canonical store. test/integration/index-contract.test.ts holds it to OpenSearch's answers.
 */
export class MemoryIndex implements OpportunityIndex, ChangeLog {
  private entries: Entry[] = [];
  /** Each id's latest change, as the store keeps one row per record (store/changes-repo.ts). */
  private readonly log = new Map<string, ChangeFeedRow>();
  private seq = 0;

  constructor(private readonly taxonomy: Taxonomy) {}

  /** Adds or replaces records (by id), as an import and sync would; each change takes a new seq. */
  put(records: readonly Opportunity[]): void {
    const byId = new Map(this.entries.map((e) => [e.doc.id, e]));
    for (const record of records) {
      const doc = toDocument(record, this.taxonomy);
      byId.set(doc.id, { doc, position: [new Date(doc.freshness).getTime(), doc.id] });
      this.log.set(record.id, { seq: ++this.seq, id: record.id, deletedAt: null, record });
    }
    this.entries = [...byId.values()].sort((a, b) => compare(a.position, b.position));
  }

  /** Removes records from the store, as `cli delete` does: each leaves its tombstone. */
  remove(ids: readonly string[], at: Date = new Date()): void {
    for (const id of ids) {
      const latest = this.log.get(id);
      if (!latest || latest.deletedAt) continue;
      this.log.set(id, { ...latest, seq: ++this.seq, deletedAt: at });
    }
    const gone = new Set(ids);
    this.entries = this.entries.filter((e) => !gone.has(e.doc.id));
  }

  /** The newest change's position: a new feed's horizon. */
  async horizon(): Promise<number> {
    return this.seq;
  }

  /** The change feed's rows after a position, in seq order (contract §12). */
  async read(q: Omit<ChangeFeedQuery, 'alias'>): Promise<ChangeFeedRow[]> {
    const since = q.since?.getTime();
    const horizon = q.horizon ?? Infinity;
    return [...this.log.values()]
      .filter((row) => row.seq > q.after)
      .filter(
        (row) =>
          since === undefined ||
          row.seq > horizon ||
          (row.deletedAt?.getTime() ?? new Date(row.record.changed_at).getTime()) >= since,
      )
      .sort((a, b) => a.seq - b.seq)
      .slice(0, q.limit);
  }

  async find(id: string): Promise<Opportunity | null> {
    const doc = this.entries.find((e) => e.doc.id === id)?.doc;
    return doc ? (JSON.parse(doc.record_json) as Opportunity) : null;
  }

  async page(query: PageQuery): Promise<PageHits> {
    const excluded = new Set(query.exclude ? await query.exclude.ids() : []);
    const after = query.searchAfter;
    const hits = this.ordered(query.filter, this.matching(query.filter, query.liveOnly)).filter(
      (e) => !excluded.has(e.doc.id) && (!after || compare(e.position, after) > 0),
    );
    const page = hits.slice(0, query.limit);
    return {
      // As the OpenSearch index serves them: from each document's stored text and digest.
      records: page.map((e) =>
        storedRecord(e.doc.id, servedText(e.doc.record_json), e.doc.record_digest),
      ),
      positions: page.map((e) => [...e.position] as SearchAfter),
      hasMore: hits.length > query.limit,
    };
  }

  async count(filter: Filter): Promise<number> {
    return this.matching(filter).length;
  }

  async facets(
    filter: Filter,
    dims: readonly FacetDimension[],
    groupLimit: number,
  ): Promise<FacetResult> {
    const docs = this.matching(filter).map((e) => e.doc);
    return memoryFacets(docs, dims, groupLimit, this.taxonomy);
  }

  async newCount(filter: Filter, delivered: DeliveredRecords): Promise<number> {
    const excluded = new Set(await delivered.ids());
    return this.matching(filter).filter((e) => !excluded.has(e.doc.id)).length;
  }

  async aggregates(filter: Filter, query: AggregateQuery): Promise<AggregateResult> {
    return memoryAggregates(
      this.matching(filter).map((e) => e.doc),
      query,
    );
  }

  /** The entries with their positions in the filter's order (sort=relevance: scored first). */
  private ordered(
    filter: Filter,
    entries: Entry[],
  ): { doc: OpportunityDocument; position: SearchAfter }[] {
    if (filter.sort !== 'relevance' || filter.q === undefined) return entries;
    const text = new TextMatcher(parseKeywordQuery(filter.q));
    return entries
      .map((e) => ({ doc: e.doc, position: [text.score(e.doc), ...e.position] as SearchAfter }))
      .sort((a, b) => compare(a.position, b.position));
  }

  /** Matching entries, in list order (the entries are kept sorted). */
  private matching(filter: Filter, liveOnly?: boolean): Entry[] {
    const matches = filterPredicate(filter, this.taxonomy, { liveOnly });
    return this.entries.filter((e) => matches(e.doc));
  }
}
