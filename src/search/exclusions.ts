import type { DeliveredRecords } from '../domain/delivered-records';
import type { LiveMapping } from './live-mapping';
import type { FilterClause, FilterQuery } from './query-shapes';

// unseen_only and new_count (contract §10.3, §11.1): the matching records minus those already
// delivered to the account this period, exact whatever their number.
// - By record number: one `terms` clause with `value_type: bitmap` on the
//   integer field record_num (mapping 5), the numbers as one base64 roaring bitmap. At most 8 KB
//   per 65,536 records of the store (55 KB of base64 at 300,000) where 200,000 deliveries took
//   7.8 MB of uuid strings, and the engine tests each
//   candidate against the bitmap instead of building a term set from 200,000 strings. The
//   deliveries since that bitmap was made go beside it as plain numbers (at most 1,024),
//   so the bitmap's text repeats from request to request and the engine's query cache holds its
//   filter: a walk of unseen_only pages changed the bitmap on every page, and each one cost the
//   engine 17 ms to build it again, against 2-3 ms with the bitmap cached and the recent numbers
//   beside it (docs/benchmarks.md, A bitmap that stays the same).
// - By id, for an index that has no record numbers yet (built by older code, until its rebuild)
//   and for what is known by id only: a `terms` query takes at most index.max_terms_count
//   (65,536) values, so the ids go in chunks, each its own clause under must_not, and a record
//   is left out when any chunk holds its id.

export const MAX_TERMS_PER_CLAUSE = 65_536;

export function idChunks(ids: readonly string[], size = MAX_TERMS_PER_CLAUSE): FilterClause[] {
  const out: FilterClause[] = [];
  for (let i = 0; i < ids.length; i += size) {
    // OpenSearch builds a sorted term set from each clause: terms sent in byte order (uuids are
    // lower-case ASCII, so string order) cost it a third to a half less at 200,000 ids.
    out.push({ terms: { id: ids.slice(i, i + size).sort() } });
  }
  return out;
}

export function recordNumbersClause(bitmap: string): FilterClause {
  return { terms: { record_num: [bitmap], value_type: 'bitmap' } };
}

/** The records numbered in `bitmap` or in `recent` (DeliveredRecords.recent). */
export function recordNumbersClauses(
  bitmap: string,
  recent: readonly number[] = [],
): FilterClause[] {
  const clauses = [recordNumbersClause(bitmap)];
  if (recent.length > 0) clauses.push({ terms: { record_num: [...recent] } });
  return clauses;
}

/** The query without the records any of `clauses` matches. */
export function excluding(query: FilterQuery, clauses: readonly FilterClause[]): FilterQuery {
  if (clauses.length === 0) return query;
  if (!('bool' in query)) return { bool: { filter: [], must_not: [...clauses] } };
  const { must_not: excluded = [], ...rest } = query.bool;
  return { bool: { ...rest, must_not: [...excluded, ...clauses] } };
}

/** The query without the records whose id is in `ids`. */
export function excludingIds(query: FilterQuery, ids: readonly string[]): FilterQuery {
  return excluding(query, idChunks(ids));
}

/**
 * The clauses that leave the delivered records out of a search: by number when every index behind
 * the alias has record numbers, else by id (search/live-mapping.ts asks the mapping once per index
 * generation).
 */
export class DeliveredExclusion {
  constructor(private readonly mapping: LiveMapping) {}

  async clauses(delivered: DeliveredRecords | undefined): Promise<FilterClause[]> {
    if (!delivered || delivered.count === 0) return [];
    if (delivered.bitmap !== null && (await this.mapping.features()).recordNumbers) {
      return recordNumbersClauses(delivered.bitmap, delivered.recent);
    }
    return idChunks(await delivered.ids());
  }
}
