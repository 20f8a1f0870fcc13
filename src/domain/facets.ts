// Count facets (contract §10.2): the dimensions a count can be grouped by, with their bounds.

export const FACET_DIMENSIONS = [
  'job_domain',
  'job_family',
  'job_subfamily',
  'job_class',
  'level',
  'engagement_model',
  'work_structure',
  'pay_basis',
  'country',
  'remote',
  'source',
  'liveness_status',
  'commercial_eligibility',
  'actionability',
  'currency',
] as const;
export type FacetDimension = (typeof FACET_DIMENSIONS)[number];

export const MAX_GROUP_DIMENSIONS = 2;
export const DEFAULT_GROUP_LIMIT = 10;
export const MAX_GROUP_LIMIT = 100;
export const MAX_NEW_LIMIT = 100;

/** A bucket's value has the filter's type: remote buckets are booleans (contract §10.2). */
export type FacetValue = string | boolean;

export interface FacetBucket {
  value: FacetValue;
  count: number;
  /** The second dimension inside this bucket, with its own other_count. */
  groups?: FacetBucket[];
  other_count?: number;
}

export const isFacetDimension = (value: string): value is FacetDimension =>
  (FACET_DIMENSIONS as readonly string[]).includes(value);
