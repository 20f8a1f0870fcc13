import taxonomyJson from '../../src/domain/taxonomy/occupations.v1.json';
import type { Opportunity } from '../../src/domain/record';
import { ORACLE, expected, type Query } from './read-fixture';

// An oracle of contract §10.2's count facets over the read fixture, built on the filter oracle of
// contract §6 (no src/ logic): a bucket counts the matching records that the filter `dim=value`
// matches; buckets by count desc, then String(value) code-unit order; other_count the matching
// records matched by no returned bucket.

export interface Bucket {
  value: string | boolean;
  count: number;
  groups?: Bucket[];
  other_count?: number;
}

const FILTER_OF: Record<string, string> = { engagement_model: 'engagement_model' };

const nodes = (taxonomyJson as { nodes: { id: string; level: string }[] }).nodes;
const ids = (level: string) => nodes.filter((n) => n.level === level).map((n) => n.id);

/** Every value a dimension could take over these records. */
function candidates(dim: string, records: readonly Opportunity[]): (string | boolean)[] {
  const seen = (f: (r: Opportunity) => (string | null | undefined)[]) => [
    ...new Set(records.flatMap(f).filter((v): v is string => !!v)),
  ];
  switch (dim) {
    case 'job_domain':
      return ids('domain');
    case 'job_family':
      return ids('family');
    case 'job_subfamily':
      return ids('subfamily');
    case 'job_class':
      return ids('class');
    case 'remote':
      return [true, false];
    case 'engagement_model':
      return seen((r) => r.engagement_models);
    case 'work_structure':
      return seen((r) => [r.work_structure, 'ongoing_contract']);
    case 'country':
      return seen((r) => [r.location.country]);
    case 'source':
      return seen((r) => r.sources.map((s) => s.source.toLowerCase()));
    case 'currency':
      return seen((r) => [r.rate?.currency]);
    default:
      return seen((r) => [String((r as unknown as Record<string, unknown>)[dim])]);
  }
}

const matches = (r: Opportunity, dim: string, value: string | boolean) =>
  (ORACLE[FILTER_OF[dim] ?? dim] ?? (() => false))(r, String(value), {});

function level(
  records: readonly Opportunity[],
  dim: string,
  limit: number,
): { groups: Bucket[]; other_count: number } {
  const all = candidates(dim, records)
    .map((value) => ({ value, count: records.filter((r) => matches(r, dim, value)).length }))
    .filter((b) => b.count > 0)
    .sort((a, b) => {
      if (a.count !== b.count) return b.count - a.count;
      const x = String(a.value);
      const y = String(b.value);
      return x < y ? -1 : x > y ? 1 : 0;
    });
  const groups = all.slice(0, limit);
  const other = records.filter((r) => !groups.some((g) => matches(r, dim, g.value))).length;
  return { groups, other_count: other };
}

/** Buckets of `dims` (one or two, outer first) over records that already match the filters. */
export function facetGroups(
  records: readonly Opportunity[],
  dims: readonly string[],
  limit = 10,
): { groups: Bucket[]; other_count: number } {
  const [outer, inner] = dims;
  const top = level(records, outer ?? '', limit);
  if (inner) {
    for (const g of top.groups) {
      const sub = level(
        records.filter((r) => matches(r, outer ?? '', g.value)),
        inner,
        limit,
      );
      g.groups = sub.groups;
      g.other_count = sub.other_count;
    }
  }
  return top;
}

/** The expected count envelope figures of `q` grouped by `dims`, over the read fixture. */
export function facetOracle(
  q: Query,
  dims: string[],
  limit = 10,
): { count: number; groups: Bucket[]; other_count: number } {
  const records = expected(q);
  return { count: records.length, ...facetGroups(records, dims, limit) };
}
