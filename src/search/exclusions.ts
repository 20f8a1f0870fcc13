import type { FilterClause, FilterQuery } from './query-builder';

// unseen_only and new_count (decisions 11): the matching records minus those already delivered to
// the account this period. A `terms` query takes at most index.max_terms_count (65,536) values, so
// the delivered ids go in chunks, each its own terms clause under must_not: a record is excluded
// when any chunk holds its id, so the exclusion is exact whatever the number of deliveries.

export const MAX_TERMS_PER_CLAUSE = 65_536;

export function idChunks(ids: readonly string[], size = MAX_TERMS_PER_CLAUSE): FilterClause[] {
  const out: FilterClause[] = [];
  for (let i = 0; i < ids.length; i += size) {
    out.push({ terms: { id: ids.slice(i, i + size) } });
  }
  return out;
}

/** The query without the records whose id is in `ids`. */
export function excludingIds(query: FilterQuery, ids: readonly string[]): FilterQuery {
  if (ids.length === 0) return query;
  const filter = 'bool' in query ? query.bool.filter : [];
  return { bool: { filter, must_not: idChunks(ids) } };
}
