import { indexLowerCase } from '../domain/index-case';
import type { FacetBucket, FacetDimension, FacetValue } from '../domain/facets';
import type { Taxonomy, TaxonomyLevel } from '../domain/taxonomy';
import type { OpportunityDocument } from './documents';
import { ONGOING, ONGOING_ALSO, topBuckets } from './facets';
import type { FacetResult } from './opportunity-index';

// Count facets of contract §10.2 in process, over the documents that match: what search/facets.ts
// asks OpenSearch, counted directly. A record is in the bucket of each of its values (a record
// with two sources is in two), and other_count counts the records in none of the returned buckets.

const TAXONOMY_LEVEL: Partial<Record<FacetDimension, TaxonomyLevel>> = {
  job_domain: 'domain',
  job_family: 'family',
  job_subfamily: 'subfamily',
};

/** The bucket values a document falls in for one dimension (none: it is only in other_count). */
function valuesOf(dim: FacetDimension, doc: OpportunityDocument, taxonomy: Taxonomy): FacetValue[] {
  const level = TAXONOMY_LEVEL[dim];
  // A family bucket counts the family and its descendants, like the job_family filter.
  if (level) return doc.taxonomy_ancestors.filter((id) => taxonomy.isLevel(id, level));
  // The indexed text fields are lower-cased; countries and currencies are shown upper-case.
  const shown = (v: string | null) => (v === null ? [] : [indexLowerCase(v).toUpperCase()]);
  switch (dim) {
    case 'job_class':
      return doc.job_class !== null && taxonomy.isLevel(doc.job_class, 'class')
        ? [doc.job_class]
        : [];
    case 'level':
      return [doc.level];
    case 'engagement_model':
      return doc.engagement_models;
    // The ongoing_contract bucket counts what work_structure=ongoing_contract matches.
    case 'work_structure':
      return doc.work_structure === ONGOING_ALSO ? [ONGOING_ALSO, ONGOING] : [doc.work_structure];
    case 'pay_basis':
      return [doc.pay_basis];
    case 'liveness_status':
      return [doc.liveness_status];
    case 'commercial_eligibility':
      return [doc.commercial_eligibility];
    case 'actionability':
      return [doc.actionability];
    case 'remote':
      return doc.remote === null ? [] : [doc.remote];
    case 'country':
      return shown(doc.country);
    case 'currency':
      return shown(doc.currency);
    case 'source':
      return doc.sources.map(indexLowerCase);
    default:
      return [];
  }
}

function bucketsOf(
  dim: FacetDimension,
  docs: readonly OpportunityDocument[],
  taxonomy: Taxonomy,
  limit: number,
): { groups: FacetBucket[]; other: number } {
  const counts = new Map<FacetValue, number>();
  for (const doc of docs) {
    for (const value of new Set(valuesOf(dim, doc, taxonomy))) {
      counts.set(value, (counts.get(value) ?? 0) + 1);
    }
  }
  const groups = topBuckets(
    [...counts].map(([value, count]) => ({ value, count })),
    limit,
  );
  const shown = new Set(groups.map((g) => g.value));
  const other = docs.filter((d) => !valuesOf(dim, d, taxonomy).some((v) => shown.has(v))).length;
  return { groups, other };
}

export function memoryFacets(
  docs: readonly OpportunityDocument[],
  dims: readonly FacetDimension[],
  groupLimit: number,
  taxonomy: Taxonomy,
): FacetResult {
  const [outerDim, innerDim] = dims;
  if (!outerDim) throw new Error('memoryFacets needs a dimension');
  const outer = bucketsOf(outerDim, docs, taxonomy, groupLimit);
  if (innerDim) {
    for (const group of outer.groups) {
      const inGroup = docs.filter((d) => valuesOf(outerDim, d, taxonomy).includes(group.value));
      const inner = bucketsOf(innerDim, inGroup, taxonomy, groupLimit);
      group.groups = inner.groups;
      group.other_count = inner.other;
    }
  }
  return { count: docs.length, groups: outer.groups, other_count: outer.other };
}
