import type { FilterClause, FilterQuery } from './query-builder';

// unseen_only and new_count (decisions 11): the matching records minus those already delivered to
// the account this period. A `terms` query takes at most index.max_terms_count (65,536) values, so
// the delivered ids go in chunks, each its own terms clause under must_not: a record is excluded
// when any chunk holds its id, so the exclusion is exact whatever the number of deliveries.

export const MAX_TERMS_PER_CLAUSE = 65_536;

export function idChunks(ids: readonly string[], size = MAX_TERMS_PER_CLAUSE): FilterClause[] {
  const out: FilterClause[] = [];
  for (let i = 0; i < ids.length; i += size) {
    const chunk = ids.slice(i, i + size);
    // OpenSearch builds a sorted term set from each clause: terms sent in byte order (uuids are
    // lower-case ASCII, so string order) cost it a third to a half less at 200,000 ids
    // (docs/benchmarks.md). The held delivered ids come block-sorted already (delivered-cache.ts).
    if (!isSorted(chunk)) chunk.sort();
    out.push({ terms: { id: chunk } });
  }
  return out;
}

function isSorted(values: readonly string[]): boolean {
  for (let i = 1; i < values.length; i++) {
    if ((values[i - 1] as string) > (values[i] as string)) return false;
  }
  return true;
}

/** The query without the records whose id is in `ids`. */
export function excludingIds(query: FilterQuery, ids: readonly string[]): FilterQuery {
  if (ids.length === 0) return query;
  if (!('bool' in query)) return { bool: { filter: [], must_not: idChunks(ids) } };
  const { must_not: excluded = [], ...rest } = query.bool;
  return { bool: { ...rest, must_not: [...excluded, ...idChunks(ids)] } };
}
