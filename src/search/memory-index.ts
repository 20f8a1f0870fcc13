import type { FacetDimension } from '../domain/facets';
import type { Filter } from '../domain/filters';
import type { Opportunity } from '../domain/record';
import type { ChangeFeedQuery, ChangeFeedRow, ChangeLog } from '../store/changes-repo';
import type { Taxonomy } from '../domain/taxonomy';
import { toDocument, type OpportunityDocument } from './documents';
import { filterPredicate } from './memory-filter';
import { memoryFacets } from './memory-facets';
import type { FacetResult, OpportunityIndex, PageHits, PageQuery } from './opportunity-index';
import type { SearchAfter } from './query-builder';

interface Entry {
  doc: OpportunityDocument;
  /** The keyset position (decisions 3): freshness in epoch millis, then id. */
  position: SearchAfter;
}

/** decisions 3: freshness descending, then id ascending (code-unit order, as the keyword sort). */
function compare(a: SearchAfter, b: SearchAfter): number {
  if (a[0] !== b[0]) return b[0] - a[0];
  return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

/**
 * The opportunity index over an array, for the fast suite (issue 12): the same documents as the
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

  /** The change feed's rows after a position, in seq order (decisions 11). */
  async read(q: Omit<ChangeFeedQuery, 'alias'>): Promise<ChangeFeedRow[]> {
    const since = q.since?.getTime();
    return [...this.log.values()]
      .filter((row) => row.seq > q.after)
      .filter(
        (row) =>
          since === undefined ||
          (row.deletedAt?.getTime() ?? new Date(row.record.changed_at).getTime()) >= since,
      )
      .sort((a, b) => a.seq - b.seq)
      .slice(0, q.limit);
  }

  async find(id: string): Promise<Opportunity | null> {
    return this.entries.find((e) => e.doc.id === id)?.doc.record ?? null;
  }

  async page(query: PageQuery): Promise<PageHits> {
    const excluded = new Set(query.excludeIds ?? []);
    const after = query.searchAfter;
    const hits = this.matching(query.filter, query.liveOnly).filter(
      (e) => !excluded.has(e.doc.id) && (!after || compare(e.position, after) > 0),
    );
    const page = hits.slice(0, query.limit);
    return {
      records: page.map((e) => e.doc.record),
      positions: page.map((e) => [...e.position]),
      hasMore: hits.length > query.limit,
      fromCache: false,
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

  async newCount(filter: Filter, excludeIds: readonly string[]): Promise<number> {
    const excluded = new Set(excludeIds);
    return this.matching(filter).filter((e) => !excluded.has(e.doc.id)).length;
  }

  /** Matching entries, in list order (the entries are kept sorted). */
  private matching(filter: Filter, liveOnly?: boolean): Entry[] {
    const matches = filterPredicate(filter, this.taxonomy, { liveOnly });
    return this.entries.filter((e) => matches(e.doc));
  }
}
