import { indexLowerCase } from '../domain/index-case';
import type { FacetBucket, FacetDimension, FacetValue } from '../domain/facets';
import type { Taxonomy, TaxonomyLevel } from '../domain/taxonomy';
import {
  ACTIONABILITY,
  COMMERCIAL_ELIGIBILITY,
  ENGAGEMENT_MODELS,
  LEVELS,
  LIVENESS_STATUSES,
  PAY_BASES,
  WORK_STRUCTURES,
} from '../domain/vocab';
import type { FilterClause, FilterQuery } from './query-builder';

// Count facets (contract §10.2) as OpenSearch aggregations: how each dimension is counted, how a
// bucket's value becomes the filter clause it stands for (the clause buildFilterQuery would add
// for that filter value, so a bucket counts exactly what "the same filters plus that value"
// count), and the bucket order. Pure: src/service/facets.ts runs the requests.

/** A query or aggregation body, as JSON. */
export type Json = { [key: string]: unknown };

export interface DimensionSpec {
  dim: FacetDimension;
  /** The indexed field the buckets are read from. */
  field: string;
  /** Keys to keep (taxonomy dimensions: the ids of one level of taxonomy_ancestors). */
  include?: string[];
  /**
   * Buckets to ask for: every value, then sorted and cut here. A terms aggregation's counts are
   * exact when every shard returns every term (an index may have several shards), which
   * asking for all values guarantees: a closed vocabulary's size, or OPEN_DIMENSION_SIZE for
   * country, source and currency (whose distinct values are far fewer in practice).
   */
  size: number;
  /** A bucket key (as OpenSearch returns it) → the value of the filter's type. */
  value(key: unknown, keyAsString?: string): FacetValue;
  /** The filter clause of one value. */
  clause(value: FacetValue): FilterClause;
}

const term = (field: string, value: string | boolean): FilterClause => ({
  term: { [field]: value },
});

function closed(dim: FacetDimension, field: string, values: readonly string[]): DimensionSpec {
  return {
    dim,
    field,
    size: values.length,
    value: (key) => String(key),
    clause: (v) => term(field, String(v)),
  };
}

function taxonomyLevel(
  dim: FacetDimension,
  level: TaxonomyLevel,
  field: string,
  taxonomy: Taxonomy,
): DimensionSpec {
  const ids = taxonomy.nodes.filter((n) => n.level === level).map((n) => n.id);
  return { ...closed(dim, field, ids), include: ids };
}

/** Distinct values read for an open dimension: ISO countries and currencies are a few hundred. */
export const OPEN_DIMENSION_SIZE = 10_000;

function open(dim: FacetDimension, field: string, shown: (key: string) => string): DimensionSpec {
  return {
    dim,
    field,
    size: OPEN_DIMENSION_SIZE,
    value: (key) => shown(String(key)),
    // The field's lowercase normalizer applies to the term too.
    clause: (v) => term(field, indexLowerCase(String(v))),
  };
}

const upper = (key: string) => key.toUpperCase();
const asIs = (key: string) => key;

/** work_structure=ongoing_contract also matches contract_duration (contract §6.8.2, §10.2). */
export const ONGOING = 'ongoing_contract';
export const ONGOING_ALSO = 'contract_duration';

export function dimensionSpec(dim: FacetDimension, taxonomy: Taxonomy): DimensionSpec {
  switch (dim) {
    // A family bucket counts the family and its descendants, like the job_family filter.
    case 'job_domain':
      return taxonomyLevel(dim, 'domain', 'taxonomy_ancestors', taxonomy);
    case 'job_family':
      return taxonomyLevel(dim, 'family', 'taxonomy_ancestors', taxonomy);
    case 'job_subfamily':
      return taxonomyLevel(dim, 'subfamily', 'taxonomy_ancestors', taxonomy);
    // job_class is exact, as its filter is.
    case 'job_class':
      return taxonomyLevel(dim, 'class', 'job_class', taxonomy);
    case 'level':
      return closed(dim, 'level', LEVELS);
    case 'engagement_model':
      return closed(dim, 'engagement_models', ENGAGEMENT_MODELS);
    case 'work_structure':
      return {
        ...closed(dim, 'work_structure', WORK_STRUCTURES),
        clause: (v) =>
          v === ONGOING
            ? { terms: { work_structure: [ONGOING, ONGOING_ALSO] } }
            : term('work_structure', String(v)),
      };
    case 'pay_basis':
      return closed(dim, 'pay_basis', PAY_BASES);
    case 'liveness_status':
      return closed(dim, 'liveness_status', LIVENESS_STATUSES);
    case 'commercial_eligibility':
      return closed(dim, 'commercial_eligibility', COMMERCIAL_ELIGIBILITY);
    case 'actionability':
      return closed(dim, 'actionability', ACTIONABILITY);
    case 'remote':
      return {
        dim,
        field: 'remote',
        size: 2,
        // A boolean field's buckets have key 1/0 and key_as_string "true"/"false".
        value: (key, keyAsString) => keyAsString === 'true' || key === 1 || key === true,
        clause: (v) => term('remote', v === true),
      };
    case 'country':
      return open(dim, 'country', upper);
    case 'currency':
      return open(dim, 'currency', upper);
    case 'source':
      return open(dim, 'sources', asIs);
  }
}

/** The terms aggregation that counts every value of one dimension (the top N is cut here). */
export function countsAggregation(spec: DimensionSpec): Json {
  return {
    terms: {
      field: spec.field,
      size: Math.max(1, spec.size),
      order: [{ _count: 'desc' }, { _key: 'asc' }],
      ...(spec.include ? { include: spec.include } : {}),
    },
  };
}

interface TermsBucket {
  key: unknown;
  key_as_string?: string;
  doc_count: number;
}

/** Buckets of a terms aggregation result, as values with counts (merging where a value covers two). */
export function readBuckets(spec: DimensionSpec, aggregation: unknown): FacetBucket[] {
  const raw = ((aggregation as { buckets?: TermsBucket[] } | undefined)?.buckets ?? []).map(
    (b) => ({ value: spec.value(b.key, b.key_as_string), count: b.doc_count }),
  );
  if (spec.dim !== 'work_structure') return raw;
  // The ongoing_contract bucket counts what the filter work_structure=ongoing_contract matches:
  // its own records plus contract_duration's (a record has one work_structure: disjoint sets).
  const also = raw.find((b) => b.value === ONGOING_ALSO)?.count ?? 0;
  const own = raw.find((b) => b.value === ONGOING)?.count ?? 0;
  const rest = raw.filter((b) => b.value !== ONGOING);
  return own + also > 0 ? [...rest, { value: ONGOING, count: own + also }] : rest;
}

/** contract §10.2: count descending, then the code-unit order of String(value). */
export function compareBuckets(a: FacetBucket, b: FacetBucket): number {
  if (a.count !== b.count) return b.count - a.count;
  const x = String(a.value);
  const y = String(b.value);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The top `limit` buckets in the order of contract §10.2; zero counts are no bucket. */
export function topBuckets(buckets: readonly FacetBucket[], limit: number): FacetBucket[] {
  return buckets
    .filter((b) => b.count > 0)
    .sort(compareBuckets)
    .slice(0, limit);
}

/** Records of the query in none of the given buckets (missing values included). */
export function notInBuckets(spec: DimensionSpec, values: readonly FacetValue[]): Json {
  return { bool: { must_not: values.map((v) => spec.clause(v)) } };
}

/** Records of one bucket that are in none of the given buckets of the second dimension. */
export function inBucketNotIn(
  outer: DimensionSpec,
  value: FacetValue,
  inner: DimensionSpec,
  values: readonly FacetValue[],
): Json {
  return { bool: { filter: [outer.clause(value)], must_not: values.map((v) => inner.clause(v)) } };
}

/** A size-0 search over the query with these aggregations (and an exact total when asked). */
export function aggregationBody(query: FilterQuery | Json, aggs: Json, total = false): Json {
  return { size: 0, track_total_hits: total, query, aggs };
}
