import type { FacetDimension } from '../domain/facets';
import type { Taxonomy } from '../domain/taxonomy';
import {
  aggregationBody,
  countsAggregation,
  dimensionSpec,
  inBucketNotIn,
  notInBuckets,
  readBuckets,
  topBuckets,
  type DimensionSpec,
  type Json,
} from './facets';
import type { FacetResult } from './opportunity-index';
import type { FilterQuery } from './query-builder';

export type Aggregations = Record<string, { doc_count?: number; [k: string]: unknown }>;

/** One size-0 search: its total hits and its aggregations (search/opensearch-index.ts runs it). */
export type Aggregate = (body: Json) => Promise<{ total: number; aggs: Aggregations }>;

const docCount = (aggs: Aggregations, name: string): number => aggs[name]?.doc_count ?? 0;

/**
 * Count facets of contract §10.2 over the matching records, in three size-0 searches:
 * 1. the total and the first dimension's counts; pick its top buckets;
 * 2. (two dimensions) the second dimension's counts inside each picked bucket; pick theirs;
 * 3. every other_count: the records of each level in none of its returned buckets, counted by a
 *    filter aggregation, which is exact for multi-valued fields (a record with two sources is in
 *    two buckets, so subtracting bucket counts from the total would not be).
 */
export async function facetCounts(
  aggregate: Aggregate,
  taxonomy: Taxonomy,
  query: FilterQuery,
  dims: readonly FacetDimension[],
  groupLimit: number,
): Promise<FacetResult> {
  const [outerDim, innerDim] = dims;
  if (!outerDim) throw new Error('facetCounts needs a dimension');
  const outer = dimensionSpec(outerDim, taxonomy);
  const inner: DimensionSpec | undefined = innerDim ? dimensionSpec(innerDim, taxonomy) : undefined;

  const first = await aggregate(aggregationBody(query, { d: countsAggregation(outer) }, true));
  const groups = topBuckets(readBuckets(outer, first.aggs.d), groupLimit);

  if (inner) {
    const perBucket: Json = {};
    groups.forEach((g, i) => {
      perBucket[`b${i}`] = {
        filter: outer.clause(g.value),
        aggs: { d: countsAggregation(inner) },
      };
    });
    const second = groups.length
      ? await aggregate(aggregationBody(query, perBucket))
      : { aggs: {} as Aggregations };
    groups.forEach((g, i) => {
      const sub = second.aggs[`b${i}`] as Json | undefined;
      g.groups = topBuckets(readBuckets(inner, sub?.d), groupLimit);
    });
  }

  const others: Json = {
    other: {
      filter: notInBuckets(
        outer,
        groups.map((g) => g.value),
      ),
    },
  };
  if (inner) {
    groups.forEach((g, i) => {
      others[`o${i}`] = {
        filter: inBucketNotIn(
          outer,
          g.value,
          inner,
          (g.groups ?? []).map((s) => s.value),
        ),
      };
    });
  }
  const third = await aggregate(aggregationBody(query, others));
  if (inner) groups.forEach((g, i) => (g.other_count = docCount(third.aggs, `o${i}`)));
  return { count: first.total, groups, other_count: docCount(third.aggs, 'other') };
}
